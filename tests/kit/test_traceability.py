"""Traceability: every documented operation has a test that says it covers it."""

import pytest

import spec
from speckit.paths import suite_root
from speckit.registry import names
from speckit.traceability import counted_modules, covering_tests, marked_tests, uncovered, unknown_names


@pytest.mark.parametrize("name", names())
def test_every_documented_operation_has_a_covering_test(name):
    missing = uncovered(spec.load(name))
    assert not missing, f"{len(missing)} documented operations have no covering test: {missing}"


@pytest.mark.parametrize("name", names())
def test_markers_name_only_specified_operations(name):
    unknown = unknown_names(spec.load(name))
    assert not unknown, f"covers markers name unknown operations: {unknown}"


def test_the_scanner_sees_the_markers_of_a_known_test():
    coverage = covering_tests(spec.load("connect4"))
    assert "tests/connect4/test_index.py::test_increment_gives_the_next_index" in coverage["IndexType.increment"]


def test_tests_outside_the_suite_count_where_the_spec_data_says():
    coverage = covering_tests(spec.load("connect4"))
    driver = [t for t in coverage["GameTreeType.chooseBest"] if t.startswith("tests/programs/connect4/")]
    assert driver, "the driver's tests of chooseBest are not in the map"
    suite_only = covering_tests(spec.load("connect4"), suite_only=True)
    assert not any(t.startswith("tests/programs/connect4/") for ids in suite_only.values() for t in ids)


def test_every_test_that_declares_coverage_is_counted_for_some_specification():
    counted = {path.resolve() for name in names() for path in counted_modules(spec.load(name))}
    stray = [
        test_id
        for path in sorted(suite_root().rglob("test_*.py"))
        if path.resolve() not in counted
        for test_id, operations in marked_tests([path])
        if operations
    ]
    assert not stray, f"tests declare coverage but no specification's [kit] suite or other_tests holds them: {stray}"
