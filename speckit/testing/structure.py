"""The implementation's shape, a test every suite gets: each documented operation exists and
accepts its documented forms.

The test checks names and signatures only; behaviour is the business of each type's tests.
It is generated from the data of the run's specification (``--spec``, or the one whose
suite folder holds it), one case per operation the students write (the operations of
supplied types are the kit's). A suite takes it with one line in its ``test_structure.py``::

    from speckit.testing.structure import test_operation_exists_with_its_documented_parameters  # noqa: F401 - collected

An overloaded operation must accept each of its documented forms, unless an erratum lists
some of them in ``optional_forms``: a package may then leave those out, as long as it
offers one form.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import pytest

import spec as spec_data

from . import expect


def parametrize(metafunc: pytest.Metafunc, spec_name_of: Callable[[Any], str]) -> None:
    """Give the structure test one case per operation of the run's specification (pytest_generate_tests's work)."""
    if not getattr(metafunc.function, "_speckit_structure", False):
        return
    specification = spec_data.load(spec_name_of(metafunc.definition))
    operations = [op for op in specification.operations() if not specification.type(op.type_name).supplied]
    metafunc.parametrize(
        "qualname", [pytest.param(op.qualname, marks=pytest.mark.covers(op.qualname)) for op in operations]
    )


def optional_arities(specification: Any, qualname: str) -> tuple[set[int], str]:
    """The arities of ``qualname``'s forms a package may leave out, and the erratum that says so ("" if none)."""
    op = specification.operation(qualname)
    for erratum in specification.errata_for(qualname):
        forms = set(erratum.optional_forms)
        arities = {arity for arity, form in zip(op.arities, op.signatures, strict=True) if form in forms}
        if arities:
            return arities, erratum.id
    return set(), ""


@pytest.mark.structure
def test_operation_exists_with_its_documented_parameters(impl: Any, qualname: str) -> None:
    specification = impl.spec
    op = specification.operation(qualname)
    traced = getattr(getattr(impl, specification.type(op.type_name).module), op.name)
    function = traced.function()
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        pytest.skip(f"{qualname}: its signature cannot be inspected")
    optional, erratum = optional_arities(specification, qualname)
    allowed = f" (erratum {erratum} lets a package leave out the others)" if erratum else ""
    offered = [arity for arity in op.arities if _binds(signature, arity)]
    forms = " or ".join(op.signatures)
    expect(
        bool(offered),
        f"{traced.label}{signature} accepts one of the documented forms {forms}{allowed}",
        expected=forms,
        actual=str(signature),
    )
    for arity in op.arities:
        if arity not in offered and arity not in optional:
            form = op.signatures[op.arities.index(arity)]
            expect(
                False,
                f"{traced.label}{signature} accepts the documented form {form}",
                expected=form,
                actual=str(signature),
            )


test_operation_exists_with_its_documented_parameters._speckit_structure = True


def _binds(signature: inspect.Signature, arity: int) -> bool:
    try:
        signature.bind(*[None] * arity)
    except TypeError:
        return False
    return True
