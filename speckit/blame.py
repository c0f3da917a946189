"""How well ``speckit check`` blames: each zoo member checked as a student would check it.

A member breaks one documented operation (its ``breaks``). Its blame is *exact* when
``check``, run on the tests of the broken type and of the patched module's type, reports
that operation failed and no other: every other operation is passed, a suspect, blocked
or untested. ``speckit zoo --blame`` prints the verdict of each member and the count.
"""

from __future__ import annotations

from pathlib import Path

import attrs

import spec as spec_data

from .check import OperationStatus, statuses
from .core import Outcome
from .runner import SuiteRun, run_each, run_suite
from .traceability import selected_tests
from .zoo import Mutant, materialise


@attrs.frozen
class Blame:
    """What ``check`` blamed for one zoo member."""

    mutant: Mutant
    failed: tuple[str, ...]
    """The operations reported as failed."""
    crash: str = ""

    @property
    def exact(self) -> bool:
        """The broken operation failed, and nothing else did."""
        return not self.crash and self.failed == (self.mutant.breaks,)

    def describe(self) -> str:
        if self.crash:
            return f"no report: {self.crash}"
        if self.exact:
            return f"exact: {self.mutant.breaks} failed"
        if self.mutant.breaks not in self.failed:
            shown = ", ".join(self.failed) or "nothing"
            return f"missed: {self.mutant.breaks} not failed (failed: {shown})"
        return f"too wide: also failed {', '.join(q for q in self.failed if q != self.mutant.breaks)}"


def checked_types(mutant: Mutant) -> list[str]:
    """The types whose tests a student would run: the broken one and the patched module's."""
    specification = spec_data.load(mutant.spec)
    types = [mutant.broken_type]
    patched = next((t.name for t in specification.types if t.module == mutant.module), None)
    if patched and patched not in types and not specification.type(patched).supplied:
        types.append(patched)
    return types


def blame_of(mutant: Mutant, run: SuiteRun) -> Blame:
    """The operations ``check`` reports failed for the member, from its run."""
    if run.crash:
        return Blame(mutant, (), run.crash)
    rows: list[OperationStatus] = statuses(spec_data.load(mutant.spec), run, supplied=True)
    return Blame(mutant, tuple(row.qualname for row in rows if row.status is Outcome.FAILED))


def measure(mutants: list[Mutant], scratch: Path, *, jobs: int = 2, profile: str = "check") -> dict[str, Blame]:
    """Check each member (``jobs`` at a time) as ``speckit check --type`` would, and say what it blamed."""
    cache = scratch / "pycache"
    # The tests are chosen before the threads start: CPython 3.11's parser is not safe to run in
    # two threads at once ("AST constructor recursion depth mismatch"), and choosing parses the suite.
    chosen = {mutant.id: selected_tests(spec_data.load(mutant.spec), checked_types(mutant)) for mutant in mutants}

    def run(mutant: Mutant) -> tuple[str, Blame]:
        package = materialise(mutant, scratch / mutant.id.replace("-", "_"))
        outcome = run_suite(mutant.spec, package, tests=chosen[mutant.id], profile=profile, bytecode_cache=cache)
        return mutant.id, blame_of(mutant, outcome)

    return run_each(mutants, run, jobs=jobs)
