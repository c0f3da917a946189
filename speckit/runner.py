"""Run a conformance suite on an implementation in a child process and read its outcomes.

The child is an ordinary ``pytest`` run with the report plugin, so an implementation
that crashes the interpreter, exits, or prints without end cannot take the caller down
with it: the caller gets a :class:`SuiteRun` saying what happened.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

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

    def failed_tests(self) -> tuple[TestRecord, ...]:
        return tuple(t for t in self.tests if t.outcome is Outcome.FAILED)


def run_suite(
    spec_name: str,
    implementation: str | Path | None = None,
    *,
    tests: list[str | Path] | None = None,
    profile: str = "grading",
    timeout: float = 900.0,
    extra: tuple[str, ...] = (),
) -> SuiteRun:
    """Run the suite of ``spec_name`` (or the given test files) against ``implementation``."""
    selected = [Path(t) for t in tests] if tests else [kit(spec_name).suite_dir]
    with tempfile.TemporaryDirectory(prefix="speckit-run-") as scratch:
        report = Path(scratch) / "report.json"
        # The plugins, the markers left out and the root are given here, not left to a
        # pytest configuration file: an installed kit has none, and a grader's copy of the suite may not.
        command = [
            sys.executable, "-m", "pytest", *map(str, selected),
            "-p", "speckit.pytest_plugin", "-p", "speckit.report", f"--speckit-report={report}",
            f"--rootdir={package_base(selected[0])}", "-m", "not slow",
            f"--spec={spec_name}", f"--profile={profile}", "-q", "-p", "no:cacheprovider", "--no-header", "-rN",
            *extra,
        ]  # fmt: skip
        if implementation is not None:
            command.append(f"--impl={implementation}")
        environment = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
        try:
            child = subprocess.run(
                command, cwd=REPO_ROOT, capture_output=True, text=True, timeout=timeout, env=environment,
                stdin=subprocess.DEVNULL,
            )  # fmt: skip
        except subprocess.TimeoutExpired:
            return SuiteRun((), {}, -1, crash=f"the suite did not finish within {timeout:g} s")
        if not report.is_file():
            tail = (child.stdout + child.stderr)[-OUTPUT_LIMIT:]
            return SuiteRun((), {}, child.returncode, crash=_crash_summary(tail, child.returncode))
        data = json.loads(report.read_text(encoding="utf-8"))
        if not data["tests"] and child.returncode not in (0, 5):
            # Stopped before any test reached a verdict (the package could not be loaded).
            tail = (child.stdout + child.stderr)[-OUTPUT_LIMIT:]
            return SuiteRun((), {}, child.returncode, crash=_crash_summary(tail, child.returncode))
    tests = tuple(TestRecord.from_json(record) for record in data["tests"])
    presence = {qualname: Presence(state) for qualname, state in data["presence"].get(spec_name, {}).items()}
    return SuiteRun(tests, presence, child.returncode)


def _crash_summary(output: str, code: int) -> str:
    for line in output.splitlines():
        if line.startswith("speckit: "):
            return line.removeprefix("speckit: ")
        if "Exit: speckit: " in line:  # pytest.exit's message, as pytest prints it: "!... Exit: speckit: ... !"
            return line.split("Exit: speckit: ", 1)[1].removesuffix(" !").rstrip("!").rstrip()
    last = [line for line in output.strip().splitlines() if line.strip()][-5:]
    return f"the test run ended abnormally (exit status {code})" + ("".join(f"\n  {line}" for line in last) if last else "")
