"""The reference implementation matches the spec data exactly: nothing missing, nothing extra."""

import inspect

import pytest

import spec
from speckit.registry import kit

CONNECT4 = spec.load("connect4")


@pytest.mark.parametrize("type_spec", CONNECT4.types, ids=lambda t: t.module)
def test_reference_has_no_public_function_the_spec_does_not_document(type_spec):
    module = pytest.importorskip(f"{kit('connect4').reference}.{type_spec.module}")
    specified = {op.name for op in type_spec.operations}
    public = {
        name
        for name, value in vars(module).items()
        if inspect.isfunction(value) and value.__module__ == module.__name__ and not name.startswith("_")
    }
    extra = sorted(public - specified)
    assert not extra, (
        f"adt.{type_spec.module} has public functions the spec does not document: {extra} "
        f"(make them private or add them to the spec as extensions)"
    )


def test_spec_lists_all_126_documented_operations():
    assert len(list(CONNECT4.operations())) == 126
    assert len(CONNECT4.types) == 14


def test_every_extension_is_ruled_in_the_errata():
    for op in CONNECT4.extensions:
        if CONNECT4.type(op.type_name).supplied:
            continue  # the supplied Display and Input are the kit's own interface
        assert CONNECT4.errata_for(op.qualname), f"extension {op.qualname} has no erratum"
