"""Run a conformance suite on an implementation in a child process and read its outcomes.

The child is an ordinary ``pytest`` run with the report plugin, so an implementation
that crashes the interpreter, exits, or prints without end cannot take the caller down
with it: the caller gets a :class:`SuiteRun` saying what happened.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import attrs

from .core import Outcome, Presence, TestRecord
from .paths import REPO_ROOT, package_base
from .registry import kit

OUTPUT_LIMIT = 20_000
"""Characters of the child's output kept for the error report."""


@attrs.frozen
class SuiteRun:
    """The outcome of one run: each test's record, which operations exist, and any crash."""

    tests: tuple[TestRecord, ...]
    presence: dict[str, Presence]
    """Whether the implementation has each operation (``Type.operation``), read from its source."""
    returncode: int
    crash: str = ""
    """Set when the run produced no report: what the child printed last."""
    import_problems: dict[str, str] = attrs.field(factory=dict)
    """Why a module of the implementation could not be imported, by module name."""

    def failed_tests(self) -> tuple[TestRecord, ...]:
        return tuple(t for t in self.tests if t.outcome is Outcome.FAILED)


class Interrupted(KeyboardInterrupt):
    """The run was stopped by :func:`stop_all` (Ctrl-C or a termination signal)."""


_children: set[subprocess.Popen] = set()
_children_lock = threading.Lock()
_stopping = threading.Event()

T = TypeVar("T")
R = TypeVar("R")


def stop_all() -> None:
    """Stop every suite run of this process at once: no new run starts, and running ones are killed.

    Each child runs in a session of its own (so a terminal's Ctrl-C reaches only us) and
    is killed with its whole process group; the callers' temporary folders are then
    removed as their ``with`` blocks unwind.
    """
    _stopping.set()
    with _children_lock:
        children = list(_children)
    for child in children:
        _kill(child)


def resume() -> None:
    """Allow suite runs again after :func:`stop_all`, once the stopped ones have ended."""
    _stopping.clear()


def run_each(items: Iterable[T], run: Callable[[T], tuple[str, R]], *, jobs: int) -> dict[str, R]:
    """``run`` each item, ``jobs`` at a time in threads; the results by the key each run returns.

    Ctrl-C or a kill stops every suite run in progress at once (:func:`stop_all`), so the
    callers' scratch folders can go; runs are allowed again once the threads have ended.
    """
    pool = ThreadPoolExecutor(max_workers=max(1, jobs))
    try:
        return dict(pool.map(run, items))
    except BaseException:
        stop_all()
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
        resume()


def _kill(child: subprocess.Popen) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(child.pid, signal.SIGKILL)


def user_bytecode_cache() -> Path | None:
    """The user's cache of compiled modules (outside every package folder), or None if it cannot be written.

    For runs of a package that stays put (a student's ``speckit check``, a game's check of
    its ``--impl``): each run then skips compiling pytest, Hypothesis, the kit and the
    suite (assertions rewritten), about a second and a half of every start.
    """
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    folder = base / "speckit" / "pycache"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return folder if os.access(folder, os.W_OK) else None


def run_suite(
    spec_name: str,
    implementation: str | Path | None = None,
    *,
    tests: Sequence[str | Path] | None = None,
    profile: str = "grading",
    timeout: float = 900.0,
    extra: tuple[str, ...] = (),
    progress: Callable[[int, int, str], None] | None = None,
    bytecode_cache: Path | None = None,
    own_temporary_folder: bool = False,
    cpus: frozenset[int] | None = None,
    temporary_folder: Path | None = None,
) -> SuiteRun:
    """Run the suite of ``spec_name`` (or the given test files or node ids) against ``implementation``.

    ``progress``, if given, is called about five times a second while the suite runs
    with the tests done, the tests collected and the latest test's id. ``cpus``, if
    given, are the processors the run (and every process it starts) may use.
    ``temporary_folder``, if given, is the run's ``TMPDIR`` (the caller removes it, whatever
    became of the run: a run stopped at ``timeout`` cannot clean up after itself).
    """
    if _stopping.is_set():
        raise Interrupted()
    selected = [Path(t) for t in tests] if tests else [kit(spec_name).suite_dir]
    with tempfile.TemporaryDirectory(prefix="speckit-run-") as scratch:
        report = Path(scratch) / "report.json"
        ticks = Path(scratch) / "progress"
        command = [
            sys.executable,
            "-m",
            "pytest",
            *pytest_arguments(spec_name, selected, report, profile, extra, implementation),
        ]
        if progress is not None:
            command.append(f"--speckit-progress={ticks}")
        environment = _environment(bytecode_cache)
        if own_temporary_folder:
            (Path(scratch) / "tmp").mkdir()
            environment["TMPDIR"] = str(Path(scratch) / "tmp")
        if temporary_folder is not None:
            environment["TMPDIR"] = str(temporary_folder)
        with open(Path(scratch) / "output", "w+", encoding="utf-8", errors="replace") as output:
            returncode = _run(
                command, environment, output, timeout, progress and (lambda: _tick(ticks, progress)), cpus
            )
            if returncode is None:
                return SuiteRun((), {}, -1, crash=f"the suite did not finish within {timeout:g} s")
            output.seek(0)
            printed = output.read()
        return _outcome(spec_name, report, printed, returncode)


def pytest_arguments(
    spec_name: str,
    selected: list[Path],
    report: Path,
    profile: str,
    extra: tuple[str, ...],
    implementation: str | Path | None,
) -> list[str]:
    """The arguments of pytest for one run of the suite (after ``python -m pytest``)."""
    # The plugins, the markers left out and the root are given here, not left to a
    # pytest configuration file: an installed kit has none, and a grader's copy of the suite may not.
    # --tb=line: a run's verdicts and messages come from its report (speckit.report), never from
    # pytest's tracebacks, and a long traceback parses every file it passes through: that was three
    # quarters of the time of a run where most tests fail (an unfinished package). One line a failure
    # is still printed, and errors of collection keep their own traceback (a crash's reason).
    arguments = [
        *map(str, selected),
        *("-p", "speckit.pytest_plugin", "-p", "speckit.report", f"--speckit-report={report}"),
        *(f"--rootdir={package_base(selected[0])}", "-m", "not slow", f"--spec={spec_name}", f"--profile={profile}"),
        *("-q", "-p", "no:cacheprovider", "--no-header", "-rN", "--tb=line"),
        *extra,
    ]
    if implementation is not None:
        arguments.append(f"--impl={implementation}")
    return arguments


def _environment(bytecode_cache: Path | None) -> dict[str, str]:
    environment = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    if bytecode_cache is not None:
        environment.pop("PYTHONDONTWRITEBYTECODE")
        environment["PYTHONPYCACHEPREFIX"] = str(bytecode_cache)
    return environment


def _outcome(spec_name: str, report: Path, printed: str, returncode: int) -> SuiteRun:
    """A finished run's outcome, from its report (or, without one, from what it printed)."""
    if not report.is_file():
        return SuiteRun((), {}, returncode, crash=_crash_summary(printed[-OUTPUT_LIMIT:], returncode))
    data = json.loads(report.read_text(encoding="utf-8"))
    if not data["tests"] and returncode not in (0, 5):
        # Stopped before any test reached a verdict (the package could not be loaded).
        return SuiteRun((), {}, returncode, crash=_crash_summary(printed[-OUTPUT_LIMIT:], returncode))
    tests = tuple(TestRecord.from_json(record) for record in data["tests"])
    presence = {qualname: Presence(state) for qualname, state in data["presence"].get(spec_name, {}).items()}
    problems = data.get("import_problems", {}).get(spec_name, {})
    return SuiteRun(tests, presence, returncode, import_problems=problems)


def _run(
    command: list[str],
    environment: dict,
    output,
    timeout: float,
    tick: Callable[[], None] | None,
    cpus: frozenset[int] | None = None,
) -> int | None:
    """Run the child to its end and return its exit status, or None past ``timeout``; killed if we are stopped."""
    child = subprocess.Popen(
        command,
        cwd=REPO_ROOT,
        stdout=output,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
        env=environment,
        start_new_session=True,
    )
    if cpus:
        # Set before the interpreter has started anything (it takes far longer to start):
        # the processes it starts, the operation server among them, inherit the set.
        with contextlib.suppress(OSError):
            os.sched_setaffinity(child.pid, cpus)
    with _children_lock:
        _children.add(child)
    deadline = time.monotonic() + timeout
    try:
        while True:
            try:
                code = child.wait(timeout=0.2)
                break
            except subprocess.TimeoutExpired:
                if _stopping.is_set():
                    # Stopped between this run's own check and its registration: stop_all
                    # never saw the child, so it is killed here (in the finally below).
                    raise Interrupted() from None
                if time.monotonic() > deadline:
                    return None
                if tick:
                    tick()
        if _stopping.is_set():
            raise Interrupted()
        return code
    finally:
        if child.poll() is None:
            _kill(child)
            child.wait()
        with _children_lock:
            _children.discard(child)


def _tick(ticks: Path, progress: Callable[[int, int, str], None]) -> None:
    """Report the child's progress file's last line: ``done total test-id``."""
    try:
        lines = ticks.read_text(encoding="utf-8").splitlines()
    except OSError:
        return
    if lines:
        done, total, *rest = lines[-1].split(" ", 2) + [""]
        if done.isdigit() and total.isdigit():
            progress(int(done), int(total), rest[0])


def _crash_summary(output: str, code: int) -> str:
    for line in output.splitlines():
        if line.startswith("speckit: "):
            return line.removeprefix("speckit: ")
        if "Exit: speckit: " in line:  # pytest.exit's message, as pytest prints it: "!... Exit: speckit: ... !"
            return line.split("Exit: speckit: ", 1)[1].removesuffix(" !").rstrip("!").rstrip()
    last = [line for line in output.strip().splitlines() if line.strip()][-5:]
    return f"the test run ended abnormally (exit status {code})" + (
        "".join(f"\n  {line}" for line in last) if last else ""
    )


@attrs.frozen
class PlannedRun:
    """One run of a batch (:func:`run_suites`): the suite's ``tests`` against ``implementation``
    (None: the reference)."""

    implementation: str | Path | None
    tests: tuple[str | Path, ...]
    """Test files, folders or ids (``file::test``), as pytest takes them."""
    extra: tuple[str, ...] = ()
    temporary_folder: Path | None = None
    """The run's ``TMPDIR`` (the caller makes it and removes it)."""


@attrs.frozen
class BatchResult:
    """What became of one planned run: its outcome, or that it was never started (its
    submission's time was used up first), and the time it counts for."""

    run: SuiteRun | None
    seconds: float


def run_suites(
    spec_name: str,
    runs: list[PlannedRun],
    *,
    seconds: float,
    since: float,
    run_seconds: float,
    profile: str = "grading",
    bytecode_cache: Path | None = None,
    cpus: frozenset[int] | None = None,
) -> list[BatchResult | None]:
    """Run several suites one after another in one process (:mod:`speckit.suite_batch`): pytest,
    the kit and the suite's modules are imported and collected once, and each run is a child forked
    from that process, with the arguments :func:`run_suite` would give it.

    The runs share ``seconds`` counted from ``since`` (a :func:`time.monotonic` time): each may take
    what is left of them, at most ``run_seconds``, and one that would start with nothing left is not
    started. The result of each run in order, or None for a run the batch never reached (the batch
    process itself ended: the caller may run it alone).
    """
    if _stopping.is_set():
        raise Interrupted()
    with tempfile.TemporaryDirectory(prefix="speckit-runs-") as scratch:
        folder = Path(scratch)
        planned = _write_plan(spec_name, runs, folder, profile, seconds=seconds, since=since, run_seconds=run_seconds)
        command = [sys.executable, "-m", "speckit.suite_batch", str(folder / "plan.json")]
        left = max(0.0, seconds - (time.monotonic() - since))
        with open(folder / "output", "w+", encoding="utf-8", errors="replace") as output:
            _run(command, _environment(bytecode_cache), output, left + 60.0, None, cpus)
        statuses = _batch_statuses(folder / "status")
        return [_batch_result(spec_name, planned_run, statuses.get(index)) for index, planned_run in enumerate(planned)]


def _write_plan(
    spec_name: str,
    runs: list[PlannedRun],
    folder: Path,
    profile: str,
    *,
    seconds: float,
    since: float,
    run_seconds: float,
) -> list[dict[str, Any]]:
    """Write the batch's ``plan.json`` in ``folder``: what to collect once, and each run's arguments and files."""
    planned: list[dict[str, Any]] = []
    for index, run in enumerate(runs):
        selected = [Path(t) for t in run.tests]
        report = folder / f"report-{index}.json"
        planned.append(
            {
                "arguments": pytest_arguments(spec_name, selected, report, profile, run.extra, run.implementation),
                "report": str(report),
                "output": str(folder / f"output-{index}"),
                "temporary_folder": str(run.temporary_folder) if run.temporary_folder else None,
            }
        )
    collect = sorted({str(t) for run in runs for t in run.tests})
    shared = pytest_arguments(spec_name, [Path(t) for t in collect], folder / "collected.json", profile, (), None)
    plan = {
        "collect": [a for a in shared if not a.startswith("--speckit-report=")],
        "runs": planned,
        "seconds": seconds,
        "since": since,
        "run_seconds": run_seconds,
        "status": str(folder / "status"),
    }
    (folder / "plan.json").write_text(json.dumps(plan), encoding="utf-8")
    return planned


def _batch_statuses(path: Path) -> dict[int, dict[str, Any]]:
    """The status line the batch wrote for each run it reached, by the run's index (unreadable lines ignored)."""
    statuses = {}
    if path.is_file():
        for line in path.read_text(encoding="utf-8").splitlines():
            with contextlib.suppress(ValueError, KeyError):
                entry = json.loads(line)
                statuses[entry["index"]] = entry
    return statuses


def _batch_result(spec_name: str, planned_run: dict[str, Any], status: dict[str, Any] | None) -> BatchResult | None:
    """One run's result from its status: None if the batch never reached it, no run if it was not started."""
    if status is None:
        return None
    if not status["started"]:
        return BatchResult(None, 0.0)
    if status["returncode"] is None:
        return BatchResult(
            SuiteRun((), {}, -1, crash=f"the suite did not finish within {status['timeout']:g} s"),
            status["seconds"],
        )
    printed = (
        Path(planned_run["output"]).read_text(encoding="utf-8", errors="replace")
        if Path(planned_run["output"]).is_file()
        else ""
    )
    return BatchResult(
        _outcome(spec_name, Path(planned_run["report"]), printed, status["returncode"]),
        status["seconds"],
    )


def run_alone(
    spec_name: str,
    run: PlannedRun,
    *,
    profile: str = "grading",
    timeout: float = 900.0,
    bytecode_cache: Path | None = None,
) -> SuiteRun:
    """One planned run in a pytest process of its own (:func:`run_suite`)."""
    return run_suite(
        spec_name,
        run.implementation,
        tests=list(run.tests),
        profile=profile,
        extra=run.extra,
        timeout=timeout,
        bytecode_cache=bytecode_cache,
    )


def run_batched(
    spec_name: str,
    runs: dict[str, PlannedRun],
    *,
    jobs: int,
    profile: str = "grading",
    bytecode_cache: Path | None = None,
    run_seconds: float = 900.0,
) -> dict[str, SuiteRun]:
    """Each of many runs of one suite, as :func:`run_suite` would run it alone, by its key.

    The runs are dealt in turn to ``jobs`` batches (:func:`run_suites`) run side by side, so
    pytest, the kit and the suite are imported and collected once a batch instead of once a
    run: for runs that stop at a first failure (the zoo) or run few tests, starting is most of
    the cost. A run a batch never reached (its process ended early) is run alone.
    """
    keys = list(runs)
    shares = [keys[start :: max(1, jobs)] for start in range(max(1, jobs))]

    def run_share(share: list[str]) -> list[tuple[str, SuiteRun]]:
        if not share:
            return []
        seconds = run_seconds * len(share) + 60.0
        results = run_suites(
            spec_name,
            [runs[key] for key in share],
            seconds=seconds,
            since=time.monotonic(),
            run_seconds=run_seconds,
            profile=profile,
            bytecode_cache=bytecode_cache,
        )
        done = []
        for key, result in zip(share, results, strict=True):
            if result is None or result.run is None:
                run = runs[key]
                alone = run_alone(spec_name, run, profile=profile, timeout=run_seconds, bytecode_cache=bytecode_cache)
                done.append((key, alone))
            else:
                done.append((key, result.run))
        return done

    by_share = run_each(enumerate(shares), lambda item: (str(item[0]), run_share(item[1])), jobs=jobs)
    found = dict(pair for share in by_share.values() for pair in share)
    return {key: found[key] for key in keys}
