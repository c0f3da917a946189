"""The implementation's shape: every documented operation exists and accepts its documented arities.

These tests check names and signatures only; the behaviour is checked by the test
module of each type. They are generated from the spec data, one per operation.
"""

import inspect

import pytest

import spec
from speckit.testing import expect

CONNECT4 = spec.load("connect4")
OPERATIONS = [op for op in CONNECT4.operations() if not CONNECT4.type(op.type_name).supplied]

MAY_LEAVE_OUT = {
    "PlayerType.newPlayerType": ({0, 1}, "E04"),
    "DimensionType.newDimensionType": ({0}, "E03"),
}
"""The forms of an overloaded operation a package may leave out, as long as it offers one, and
the erratum that says so: the declaration and the description each give one form."""


@pytest.mark.structure
@pytest.mark.parametrize(
    "qualname", [pytest.param(op.qualname, marks=pytest.mark.covers(op.qualname)) for op in OPERATIONS]
)
def test_operation_exists_with_its_documented_parameters(impl, qualname):
    op = CONNECT4.operation(qualname)
    traced = getattr(getattr(impl, CONNECT4.type(op.type_name).module), op.name)
    function = traced.function()
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        pytest.skip(f"{qualname}: its signature cannot be inspected")
    optional, erratum = MAY_LEAVE_OUT.get(qualname, (set(), ""))
    allowed = f" (erratum {erratum} lets a package leave out the others)" if erratum else ""
    offered = [arity for arity in op.arities if _binds(signature, arity)]
    forms = " or ".join(op.signatures)
    expect(bool(offered), f"{traced.label}{signature} accepts one of the documented forms {forms}{allowed}", expected=forms, actual=str(signature))
    for arity in op.arities:
        if arity not in offered and arity not in optional:
            form = op.signatures[op.arities.index(arity)]
            expect(False, f"{traced.label}{signature} accepts the documented form {form}", expected=form, actual=str(signature))


def _binds(signature: inspect.Signature, arity: int) -> bool:
    try:
        signature.bind(*[None] * arity)
    except TypeError:
        return False
    return True
