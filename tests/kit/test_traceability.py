"""Traceability: every documented operation has a test that says it covers it."""

import pytest

import spec
from speckit.registry import names
from speckit.traceability import covering_tests, unknown_names


@pytest.mark.parametrize("name", names())
def test_every_documented_operation_has_a_covering_test(name):
    specification = spec.load(name)
    coverage = covering_tests(specification)
    uncovered = [
        op.qualname
        for op in specification.operations()
        if not specification.type(op.type_name).supplied and not coverage.get(op.qualname)
    ]
    assert not uncovered, f"{len(uncovered)} documented operations have no covering test: {uncovered}"


@pytest.mark.parametrize("name", names())
def test_markers_name_only_specified_operations(name):
    unknown = unknown_names(spec.load(name))
    assert not unknown, f"covers markers name unknown operations: {unknown}"


def test_the_scanner_sees_the_markers_of_a_known_test():
    coverage = covering_tests(spec.load("connect4"))
    assert "tests/connect4/test_index.py::test_increment_gives_the_next_index" in coverage["IndexType.increment"]
