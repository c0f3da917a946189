"""A pytest plugin that writes each test's outcome as JSON, for ``speckit check``, the zoo and grading.

Loaded with ``-p speckit.report --speckit-report FILE``. For every test it writes a
:class:`~speckit.core.TestRecord`: the operations it covers, its outcome, what kind of
failure it was (missing operation, not implemented, conformance failure), the operation
whose own call failed and the failure's explanation; at the end it records which
documented operations the implementation provides at all (:class:`~speckit.core.Presence`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import spec as spec_data

from .core import (
    ImplementationError,
    MissingOperation,
    NotImplementedOperation,
    Outcome,
    Presence,
    SuiteFailure,
    TestRecord,
)
from .pytest_plugin import load_implementation, spec_of
from .trace import TRACE

_results: list[TestRecord] = []
_specs: set[str] = set()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--speckit-report", default=None, metavar="FILE", help="write test outcomes as JSON to FILE")
    parser.addoption(
        "--speckit-progress",
        default=None,
        metavar="FILE",
        help="append a line 'done total test-id' to FILE after each test",
    )


_progress: dict[str, Any] = {"file": None, "total": 0, "done": 0}


def pytest_collection_finish(session: pytest.Session) -> None:
    path = session.config.getoption("--speckit-progress")
    if path:
        _progress.update(file=open(path, "a", encoding="utf-8"), total=len(session.items))  # noqa: SIM115 - closed at the end


def pytest_runtest_logfinish(nodeid: str, location) -> None:
    progress = _progress["file"]
    if progress is not None:
        _progress["done"] += 1
        progress.write(f"{_progress['done']} {_progress['total']} {nodeid}\n")
        progress.flush()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    outcome = yield
    report = outcome.get_result()
    if report.when == "call" or (report.when == "setup" and not report.passed):
        _specs.add(spec_of(item))
        _results.append(_record(item, report, call))


def _record(item: pytest.Item, report: pytest.TestReport, call: pytest.CallInfo) -> TestRecord:
    covers = [name for mark in item.iter_markers("covers") for name in mark.args]
    outcome = Outcome(report.outcome)
    kind, message, operation = outcome, "", ""
    suspects: tuple[str, ...] = ()
    if report.skipped:
        message = _skip_reason(report)
    elif report.failed:
        error = call.excinfo.value if call.excinfo else None
        kind = _kind(error)
        message = _message(error, report)
        operation = error.operation if isinstance(error, SuiteFailure) else ""
        suspects = _called(spec_of(item)) if report.when == "call" else ()
    return TestRecord(
        test=item.nodeid,
        covers=covers,
        outcome=outcome,
        kind=kind,
        structural=item.get_closest_marker("structure") is not None,
        message=message,
        operation=operation,
        suspects=suspects,
    )


def _called(spec_name: str) -> tuple[str, ...]:
    """The documented operations the failing example called (the trace of its last run), first call first."""
    return TRACE.operations(spec_data.load(spec_name))


def _kind(error: BaseException | None) -> Outcome:
    if isinstance(error, MissingOperation):
        return Outcome.MISSING
    if isinstance(error, NotImplementedOperation):
        return Outcome.NOT_IMPLEMENTED
    return Outcome.FAILED


def _message(error: BaseException | None, report: pytest.TestReport) -> str:
    if error is None:
        return str(report.longrepr)[-2000:]
    text = str(error) if isinstance(error, AssertionError) else f"{type(error).__name__}: {error}"
    notes = [_without_fixtures(n) for n in getattr(error, "__notes__", []) if not n.startswith("You can reproduce")]
    return "\n".join([text, *notes]).strip()


def _without_fixtures(note: str) -> str:
    """Hypothesis's falsifying example, without the ``impl`` fixture's line."""
    return "\n".join(line for line in note.splitlines() if "impl=<Implementation" not in line)


def _skip_reason(report: pytest.TestReport) -> str:
    longrepr = report.longrepr
    return longrepr[2] if isinstance(longrepr, tuple) and len(longrepr) == 3 else str(longrepr)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    path = session.config.getoption("--speckit-report")
    if not path:
        return
    if _progress["file"] is not None:
        _progress["file"].close()
        _progress["file"] = None
    presence, problems = {}, {}
    for name in sorted(_specs):
        specification = spec_data.load(name)
        try:
            implementation = load_implementation(session.config, name)
        except ImplementationError:
            continue
        presence[name] = {
            op.qualname: Presence(implementation.state(op.qualname)).value
            for op in specification.operations(extensions=True)
        }
        problems[name] = implementation.import_problems()
    tests = [record.to_json() for record in _results]
    report = {"tests": tests, "presence": presence, "import_problems": problems}
    Path(path).write_text(json.dumps(report, indent=1), encoding="utf-8")
