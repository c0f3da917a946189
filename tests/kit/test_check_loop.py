"""The student's check loop: ``--type``, progress, failure screens, blocked and untested
operations, import problems, Ctrl-C, and ``--watch``."""

from __future__ import annotations

import io
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import spec
from speckit import impl as impl_loader
from speckit.check import render, statuses
from speckit.cli import main
from speckit.commands.check import _ProgressLine
from speckit.core import Outcome, Presence, TestRecord
from speckit.registry import kit
from speckit.runner import SuiteRun, run_suite
from speckit.traceability import selected_tests
from speckit.watch import affected_types, watch

from ..support.signals import interruptible

SPEC = spec.load("connect4")


def reference_copy(folder: Path) -> Path:
    package = folder / "student"
    shutil.copytree(kit("connect4").reference_dir, package, ignore=shutil.ignore_patterns("__pycache__"))
    return package


def patch(path: Path, find: str, replace: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(find) == 1
    path.write_text(text.replace(find, replace), encoding="utf-8")


# ---------------------------------------------------------------- --type selects the tests


def test_type_selection_runs_only_tests_covering_the_types_operations():
    chosen = selected_tests(SPEC, ["IndexType"])
    assert chosen and all(Path(str(t).split("::")[0]).is_file() for t in chosen)
    assert any("test_index.py::" in str(t) for t in chosen)
    assert not any("test_grid.py::" in str(t) for t in chosen)
    by_module = selected_tests(SPEC, ["index"])
    assert by_module == chosen
    both = selected_tests(SPEC, ["IndexType", "GridType"])
    assert set(chosen) < set(both)


def test_an_unknown_type_is_a_usage_error_listing_the_types(capsys):
    assert main(["check", "--type", "Gridtype"]) == 2
    err = capsys.readouterr().err
    assert "--type Gridtype" in err and "GridType" in err and "DisplayType" not in err


# ---------------------------------------------------------------- one failure, one screen, one operation failed


@pytest.fixture(scope="module")
def less_or_equal(tmp_path_factory):
    """IndexType.lessThan written as <=, checked with --type IndexType's tests; the progress seen."""
    package = reference_copy(tmp_path_factory.mktemp("le"))
    patch(package / "index.py", "first.number < second.number", "first.number <= second.number")
    ticks = []
    cache = package.parent / "cache"
    run = run_suite(
        "connect4",
        package,
        tests=selected_tests(SPEC, ["IndexType"]),
        progress=lambda *tick: ticks.append(tick),
        bytecode_cache=cache,
    )
    rows = statuses(SPEC, run, ["IndexType"])
    return run, rows, render(SPEC, rows, origin="student"), ticks


def test_compiled_modules_go_to_the_cache_never_into_the_students_folder(less_or_equal, tmp_path_factory):
    assert less_or_equal  # the run has happened
    root = next(Path(str(tmp_path_factory.getbasetemp())).glob("le*"))
    assert not list((root / "student").rglob("*.pyc"))
    assert list((root / "cache").rglob("*index*.pyc"))


def test_only_the_selected_types_rows_are_shown(less_or_equal):
    _, rows, _, _ = less_or_equal
    assert {row.qualname.split(".")[0] for row in rows} == {"IndexType"}


def test_only_the_implicated_operation_fails_and_the_others_it_stopped_are_blocked_by_it(less_or_equal):
    _, rows, table, _ = less_or_equal
    status = {row.qualname: row for row in rows}
    assert status["IndexType.lessThan"].status is Outcome.FAILED
    # increment's own tests pass; one that also compares with lessThan may be stopped by it.
    assert status["IndexType.increment"].status in (Outcome.PASSED, Outcome.BLOCKED)
    blocked = [row for row in rows if row.status is Outcome.BLOCKED]
    assert blocked and all(row.blocked_by == ("IndexType.lessThan",) for row in blocked)
    assert "blocked by lessThan" in table
    assert [row.qualname for row in rows if row.status is Outcome.FAILED] == ["IndexType.lessThan"]


def test_a_failure_screen_reads_behaviour_calls_returned_required_in_that_order_without_double_negatives(less_or_equal):
    _, rows, _, _ = less_or_equal
    screen = next(row for row in rows if row.qualname == "IndexType.lessThan").explanation
    headings = ["Documented behaviour:", "Calls, in order:", "returned: True", "The specification requires: "]
    positions = [screen.find(h) for h in headings]
    assert -1 not in positions and positions == sorted(positions), screen
    assert "index.lessThan(" in screen and ") -> True" in screen
    assert "Expected:" not in screen and "Actual:" not in screen
    requirement = screen.split("The specification requires: ", 1)[1].splitlines()[0]
    assert requirement.startswith("lessThan(index 1, newIndexType()) gives False") and "not" not in requirement.split()


def test_the_run_reports_progress_while_it_runs(less_or_equal):
    _, _, _, ticks = less_or_equal
    assert ticks, "no progress reported"
    done, total, test = ticks[-1]
    assert 0 < done <= total and "test_index.py::" in test


def test_the_progress_line_is_written_only_to_a_terminal():
    class Terminal(io.StringIO):
        def isatty(self):
            return True

    terminal, pipe = Terminal(), io.StringIO()
    for stream in (terminal, pipe):
        line = _ProgressLine(stream)
        if line.live:
            line(3, 40, "tests/connect4/test_grid.py::TestGrid")
        line.clear()
    assert "[ 3/40] test_grid.py::TestGrid" in terminal.getvalue() and terminal.getvalue().endswith("\r")
    assert pipe.getvalue() == "" and not _ProgressLine(pipe).live


# ---------------------------------------------------------------- blocked and untested, from records


def record(covers, outcome="passed", kind=None, operation="", message=""):
    return TestRecord(f"t::{operation}{message}", covers, outcome, kind or outcome, False, message, operation)


def test_untested_says_which_operation_it_waits_for():
    needs = record(
        ("IndexType.increment",), "failed", "not implemented", "IndexType.decrement", "decrement is not implemented"
    )
    run = SuiteRun((needs,), {}, 0)
    row = next(r for r in statuses(SPEC, run) if r.qualname == "IndexType.increment")
    assert row.status is Outcome.UNTESTED and "IndexType.decrement (not implemented)" in row.explanation
    assert "IndexType.decrement (not implemented)" in render(SPEC, statuses(SPEC, run), origin="x")


def test_an_operation_that_raised_inside_anothers_test_fails_itself_only():
    raised = record(
        ("IndexType.increment",), "failed", "failed", "IndexType.clone", "IndexType.clone raised ValueError"
    )
    rows = {r.qualname: r for r in statuses(SPEC, SuiteRun((raised,), {}, 0))}
    assert rows["IndexType.clone"].status is Outcome.FAILED
    assert rows["IndexType.increment"].status is Outcome.BLOCKED and rows["IndexType.increment"].blocked_by == (
        "IndexType.clone",
    )


def test_an_operation_no_test_of_the_run_covers_is_untested_and_says_so():
    rows = statuses(SPEC, SuiteRun((), {}, 0))
    assert all(r.status is Outcome.UNTESTED and "no test" in r.explanation for r in rows)


# ---------------------------------------------------------------- import problems


def test_a_syntax_error_is_shown_with_its_module_and_line_not_as_missing_operations(tmp_path, capsys):
    package = reference_copy(tmp_path)
    source = (package / "index.py").read_text(encoding="utf-8").splitlines()
    line = next(i for i, text in enumerate(source, 1) if text.startswith("def increment"))
    source[line - 1] = "def increment(index) return"
    (package / "index.py").write_text("\n".join(source) + "\n", encoding="utf-8")

    assert main(["check", "--type", "IndexType", str(package)]) == 1
    out = capsys.readouterr().out
    assert f"module index has a syntax error at line {line}" in out
    assert out.count("syntax error") == 1  # once, under its type, not once per operation


def test_an_exception_at_import_names_the_line(tmp_path):
    package = reference_copy(tmp_path)
    (package / "symbol.py").write_text("x = 1\nraise RuntimeError('half written')\n", encoding="utf-8")
    implementation = impl_loader.load(package, SPEC)
    with pytest.raises(impl_loader.MissingOperation, match=r"symbol .*line 2 of symbol.py.*RuntimeError: half written"):
        implementation.module("symbol")
    assert "symbol" in implementation.import_problems()


def test_an_import_that_loops_is_stopped_by_the_import_time_limit(tmp_path, monkeypatch):
    package = reference_copy(tmp_path)
    (package / "worth.py").write_text("while True:\n    pass\n", encoding="utf-8")
    monkeypatch.setattr(impl_loader, "IMPORT_SECONDS", 0.5)
    implementation = impl_loader.load(package, SPEC)
    started = time.monotonic()
    with pytest.raises(
        impl_loader.MissingOperation, match=r"worth did not finish importing within 0.5 s \(line \d of worth.py\)"
    ):
        implementation.module("worth")
    assert time.monotonic() - started < 5
    assert implementation.state("WorthType.newWorthType") is Presence.MISSING


# ---------------------------------------------------------------- Ctrl-C


def test_ctrl_c_stops_the_check_at_once_and_leaves_no_temporary_folder_or_process(tmp_path):
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    child = subprocess.Popen(
        [sys.executable, "-m", "speckit.cli", "check"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(os.environ, TMPDIR=str(scratch)),
        preexec_fn=interruptible,
    )
    deadline = time.monotonic() + 60
    while not any(scratch.glob("speckit-run-*/progress")) and not any(scratch.glob("speckit-run-*/output")):
        assert time.monotonic() < deadline and child.poll() is None, "the check never started"
        time.sleep(0.1)
    time.sleep(1)
    child.send_signal(signal.SIGINT)
    started = time.monotonic()
    _, err = child.communicate(timeout=20)
    assert time.monotonic() - started < 5
    assert child.returncode == 130 and "interrupted" in err and "Traceback" not in err
    assert list(scratch.iterdir()) == []
    leftovers = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            if str(scratch).encode() in cmdline.read_bytes():
                leftovers.append(cmdline.parent.name)
        except OSError:
            pass
    assert leftovers == []


# ---------------------------------------------------------------- --watch


def test_a_changed_module_affects_its_type_and_the_types_using_it():
    affected = affected_types(SPEC, [Path("pkg/worth.py")], [])
    assert affected == ["WorthType", "GridType", "GameTreeType", "Connect4Type"]  # GridType uses WorthType, and so on
    assert "LocationType" in affected_types(SPEC, [Path("pkg/index.py")], [])
    assert affected_types(SPEC, [Path("pkg/worth.py")], ["SymbolType"]) == []
    assert affected_types(SPEC, [Path("pkg/helpers.py")], ["SymbolType"]) == ["SymbolType"]


def test_watch_checks_again_when_a_file_of_the_package_changes(tmp_path):
    package = reference_copy(tmp_path)
    checks: list[list[str]] = []
    first = threading.Event()

    def check(types):
        checks.append(types)
        first.set()
        return 0

    watcher = threading.Thread(
        target=watch, args=(check, package, SPEC, ["IndexType"]), kwargs={"stop_after": 1}, daemon=True
    )
    watcher.start()
    assert first.wait(10)
    deadline = time.monotonic() + 30
    while watcher.is_alive() and time.monotonic() < deadline:
        (package / "index.py").write_text((package / "index.py").read_text() + "\n", encoding="utf-8")
        watcher.join(1)
    assert not watcher.is_alive(), "no re-run after the change"
    assert checks == [["IndexType"], ["IndexType"]]


def test_check_watch_from_the_command_line_turns_green_after_a_fix(tmp_path):
    """A student's loop: IndexType fails, they fix index.py, the watch checks it again, green; Ctrl-C ends it."""
    package = reference_copy(tmp_path)
    patch(package / "index.py", "first.number < second.number", "first.number <= second.number")
    child = subprocess.Popen(
        [sys.executable, "-m", "speckit.cli", "check", "--watch", "--type", "IndexType", str(package)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        bufsize=1,
        env={k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"},
        preexec_fn=interruptible,
    )
    seen: list[str] = []
    reader = threading.Thread(target=lambda: seen.extend(child.stdout), daemon=True)
    reader.start()

    def wait_for(text: str, after: int = 0) -> int:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            found = "".join(seen).find(text, after)
            if found >= 0:
                return found
            assert child.poll() is None, "".join(seen)
            time.sleep(0.2)
        raise AssertionError(f"{text!r} never shown:\n{''.join(seen)}")

    try:
        first = wait_for("Watching ")
        assert "1 failed" in "".join(seen)[:first]
        patch(package / "index.py", "first.number <= second.number", "first.number < second.number")
        again = wait_for("index.py changed: checking IndexType again", first)
        wait_for("7 operations to implement: 7 passed", again)
    finally:
        child.send_signal(signal.SIGINT)
        child.wait(timeout=20)
        reader.join(5)
    assert child.returncode == 0 and "Traceback" not in "".join(seen)  # the last check passed
