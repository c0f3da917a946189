"""``speckit check``'s statuses are decided on the test records' data, never on their messages."""

import spec
from speckit.check import ok, render, statuses
from speckit.core import Outcome, Presence, TestRecord
from speckit.runner import SuiteRun

SPEC = spec.load("connect4")
OWN, OTHER = "IndexType.increment", "IndexType.decrement"


def record(outcome="passed", kind=None, operation="", message="", covers=(OWN,), structural=False):
    return TestRecord(f"t::{len(message)}{operation}", covers, outcome, kind or outcome, structural, message, operation)


def status_of(*records, presence=Presence.PRESENT):
    run = SuiteRun(tuple(records), {OWN: presence}, 0)
    return next(row for row in statuses(SPEC, run) if row.qualname == OWN)


def test_a_test_stopped_by_another_operation_leaves_the_operation_untested_whatever_its_message_says():
    blocked = record("failed", "not implemented", OTHER, message=f"{OWN} needs {OTHER}, which is not implemented yet")
    assert status_of(blocked).status is Outcome.UNTESTED


def test_an_operations_own_not_implemented_call_makes_it_not_implemented_even_unnamed_in_the_message():
    own = record("failed", "not implemented", OWN, message="some other words")
    assert status_of(own).status is Outcome.NOT_IMPLEMENTED


def test_a_behaviour_failure_fails_the_operation():
    row = status_of(record(), record("failed", "failed", message="Check: the index should now hold 4"))
    assert row.status is Outcome.FAILED and "should now hold 4" in row.explanation


def test_presence_read_from_the_source_comes_first():
    assert status_of(record(), presence=Presence.MISSING).status is Outcome.MISSING
    assert status_of(record(), presence=Presence.NOT_IMPLEMENTED).status is Outcome.NOT_IMPLEMENTED


def test_a_failed_structural_test_fails_the_operation_and_is_not_counted_as_a_test():
    row = status_of(record(), record("failed", structural=True, message="wrong signature"))
    assert row.status is Outcome.FAILED and row.tests == 1


def test_passing_tests_pass_and_the_table_says_so():
    rows = statuses(SPEC, SuiteRun((record(),), {}, 0))
    own = next(row for row in rows if row.qualname == OWN)
    assert own.status is Outcome.PASSED and own.tests == 1
    assert not ok(rows)  # the other operations have no test in this run
    assert "increment" in render(SPEC, rows, origin="here") and "1 passed" in render(SPEC, rows, origin="here")


def test_records_survive_the_trip_through_json():
    original = record("failed", "missing", OTHER, message="no module index")
    assert TestRecord.from_json(original.to_json()) == original
    assert original.kind is Outcome.MISSING
