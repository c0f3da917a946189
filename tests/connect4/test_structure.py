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
    for arity in op.arities:
        try:
            signature.bind(*[None] * arity)
        except TypeError as e:
            form = op.signatures[op.arities.index(arity)]
            expect(False, f"{traced.label}{signature} accepts the documented form {form}", expected=form, actual=str(e))
