"""Traceability: every documented operation has a test that says it covers it."""

import spec
from speckit.traceability import covering_tests, unknown_names

CONNECT4 = spec.load("connect4")


def test_every_documented_operation_has_a_covering_test():
    coverage = covering_tests(CONNECT4)
    uncovered = [
        op.qualname
        for op in CONNECT4.operations()
        if not CONNECT4.type(op.type_name).supplied and not coverage.get(op.qualname)
    ]
    assert not uncovered, f"{len(uncovered)} documented operations have no covering test: {uncovered}"


def test_markers_name_only_specified_operations():
    assert not unknown_names(CONNECT4), f"covers markers name unknown operations: {unknown_names(CONNECT4)}"


def test_the_scanner_sees_the_markers_of_a_known_test():
    coverage = covering_tests(CONNECT4)
    assert "tests/connect4/test_index.py::test_increment_gives_the_next_index" in coverage["IndexType.increment"]
