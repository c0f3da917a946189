"""Which of a type's lost points went to another type's failure, and whether a hybrid can win them back.

A type's tests use values of the types it uses: a fault in ``ColourType.equals`` fails
tests of the grid that holds colours. Such a type is regraded as a hybrid (its module in
a copy of the reference) and its feedback names the operations it lost to. A test whose
own operation is missing or not implemented fails in the hybrid too (the hybrid holds the
same module): a type that lost points only that way, or whose used types all pass, is not
regraded.
"""

from __future__ import annotations

import re

from spec import Specification

from ..check import statuses
from ..core import Outcome, Presence
from ..runner import SuiteRun
from .records import TypeGrade

FAILING = frozenset({Outcome.FAILED, Outcome.MISSING, Outcome.NOT_IMPLEMENTED})
"""The statuses of an operation that fail the tests of the types using it."""
ABSENT = frozenset({Presence.MISSING, Presence.NOT_IMPLEMENTED})
_IMPORT_PROBLEM = re.compile(r"module (\w+) could not be imported: (.*)")
NAMED = 6
"""How many operations a note names before it counts the rest."""


def failing_operations(specification: Specification, run: SuiteRun) -> dict[str, Outcome]:
    """The operations that failed their own tests, are missing or are not implemented, with that status."""
    return {
        row.qualname: row.status for row in statuses(specification, run) if row.status in FAILING and not row.extension
    }


def used_types(specification: Specification, type_name: str) -> set[str]:
    """The types ``type_name`` uses, directly or through the types they use."""
    found, todo = set(), [type_name]
    while todo:
        for used in specification.uses(todo.pop()):
            if used not in found and used != type_name:
                found.add(used)
                todo.append(used)
    return found


def lost_to(
    specification: Specification, run: SuiteRun, failing: dict[str, Outcome], grade: TypeGrade
) -> tuple[str, ...]:
    """The other types' failing operations that ``grade``'s failed tests may have lost to: those of
    the types it uses, and those its failed tests stopped at; () if it lost nothing."""
    failed = {t.test for t in grade.counted if t.outcome is Outcome.FAILED}
    if not failed:
        return ()
    used = used_types(specification, grade.name)
    stopped = {r.operation for r in run.tests if r.test in failed and r.operation}
    return tuple(
        sorted(q for q in failing if q.split(".", 1)[0] != grade.name and (q.split(".", 1)[0] in used or q in stopped))
    )


def import_problems(run: SuiteRun) -> dict[str, str]:
    """Why each module that failed at import failed, by module (the tests' messages say it in the sandbox too)."""
    problems = dict(run.import_problems)
    for test in run.tests:
        found = _IMPORT_PROBLEM.search(test.message)
        if found:
            problems.setdefault(found.group(1), found.group(2))
    return problems


def hybrid_can_win(run: SuiteRun, grade: TypeGrade, lost: tuple[str, ...], module: str) -> bool:
    """Whether a hybrid of the type (its ``module`` in a copy of the reference) can earn more: it
    lost to another type's failure, in a test whose own operations the student's module has
    (a test stopped by its own missing or unimplemented operation stops in the hybrid too).
    A module that failed at import may import beside the reference's: its operations are
    not counted as missing."""
    if not lost:
        return False
    if module in import_problems(run):
        return True
    for test in grade.counted:
        if test.outcome is not Outcome.FAILED:
            continue
        own = [q for q in test.covers if q.split(".", 1)[0] == grade.name]
        if not any(run.presence.get(q, Presence.PRESENT) in ABSENT for q in own):
            return True
    return False


def loss_note(lost: tuple[str, ...], failing: dict[str, Outcome]) -> str:
    """The feedback's line on the operations a type lost its points to."""
    if not lost:
        return ""
    named = [q if failing[q] is Outcome.FAILED else f"{q} ({failing[q]})" for q in lost]
    if len(named) > NAMED:
        named = [*named[:NAMED], f"{len(named) - NAMED} more"]
    return f"as submitted it lost points to another type's failure: lost to {', '.join(named)} (its tests use them)"
