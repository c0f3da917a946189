"""Several suite runs in one batch (speckit.suite_batch): each run as it would be alone."""

from __future__ import annotations

import time

from speckit.registry import kit
from speckit.runner import BatchResult, PlannedRun, run_suite, run_suites

SUITE = kit("connect4").suite_dir


def _records(run) -> list[dict]:
    return [record.to_json() for record in run.tests]


def test_a_batch_gives_each_run_the_records_it_gets_alone():
    selections = [(SUITE / "test_index.py",), (SUITE / "test_dimension.py", SUITE / "test_structure.py")]
    alone = [run_suite("connect4", tests=list(tests)) for tests in selections]
    batch = run_suites(
        "connect4",
        [PlannedRun(None, tests) for tests in selections],
        seconds=600,
        since=time.monotonic(),
        run_seconds=600,
    )
    assert all(result is not None and result.run is not None and result.seconds > 0 for result in batch), batch
    assert [_records(result.run) for result in batch] == [_records(run) for run in alone]
    assert [result.run.presence for result in batch] == [run.presence for run in alone]
    assert all(run.tests and not run.crash for run in alone)


def test_a_batch_starts_no_run_once_its_time_is_spent():
    runs = [PlannedRun(None, (SUITE / "test_index.py",))] * 2
    assert (
        run_suites("connect4", runs, seconds=5, since=time.monotonic() - 10, run_seconds=600)
        == [BatchResult(None, 0.0)] * 2
    )


def test_a_run_past_its_time_is_stopped_and_the_next_is_still_started():
    runs = [PlannedRun(None, (SUITE / "test_grid.py",)), PlannedRun(None, (SUITE / "test_index.py",))]
    slow, quick = run_suites("connect4", runs, seconds=600, since=time.monotonic(), run_seconds=1)
    assert slow.run.crash == "the suite did not finish within 1 s" and not slow.run.tests
    assert quick is not None and quick.run is not None, "the batch goes on after a run it stopped"
