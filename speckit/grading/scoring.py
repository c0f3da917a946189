"""Scoring one type from the records of a run, by the rubric, in exact hundredths of a point.

A type's points are shared among its covered operations by weight; an operation's among
its counted behaviour tests; each share is a whole number of hundredths (largest
remainders), so operations add up to the type and tests to their operations. An
operation earns the shares of its tests that pass. Structure tests (marker
``structure``) gate but never score: an operation whose structure test fails earns
nothing. See "The rubric" in ``docs/grading.rst``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from decimal import Decimal
from fractions import Fraction

import attrs

from ..core import Outcome
from ..rubric import Rubric, TypeRubric
from .records import CENT, ZERO, GradedAs, OperationGrade, TestGrade, TestRecord, TypeGrade, points


def apportion(total: Decimal, weights: Sequence[float]) -> list[Decimal]:
    """Split ``total`` points in proportion to ``weights`` into hundredths that add up to it exactly.

    Largest remainders; a tie goes to the earlier weight, so the split is the same every time.
    """
    cents = int(total / CENT)
    exact = [Fraction(w) for w in weights]
    denominator = math.lcm(*(w.denominator for w in exact)) if exact else 1
    parts = [int(w * denominator) for w in exact]
    whole = sum(parts)
    if whole == 0:
        return [ZERO for _ in weights]
    shares = [cents * p // whole for p in parts]
    order = sorted(range(len(parts)), key=lambda i: (-(cents * parts[i] % whole), i))
    for i in order[: cents - sum(shares)]:
        shares[i] += 1
    return [Decimal(s) * CENT for s in shares]


def score_type(
    entry: TypeRubric,
    rubric: Rubric,
    specification,
    records: Iterable[TestRecord],
    graded_as: GradedAs,
    clean: Callable[[str], str],
) -> TypeGrade:
    """A type's grade from the records of one run (partial credit by behaviour)."""
    operations_of_type = specification.type(entry.name).operations
    mine = {op.qualname for op in operations_of_type if entry.weight(op.name) > 0}
    relevant = _relevant(records, set(entry.tests) | set(rubric.common), mine, clean)
    covering, gated = _by_operation(relevant)
    covered = [op for op in operations_of_type if any(r.counted for r in covering.get(op.qualname, ()))]
    allotted = apportion(points(entry.points), [entry.weight(op.name) for op in covered])
    operations, shares = _operation_grades(covered, allotted, covering, gated)
    grades = []
    for record, covers in relevant:
        maximum = sum((shares.get((record.test, q), ZERO) for q in covers), ZERO)
        earned = ZERO
        if record.outcome is Outcome.PASSED:
            earned = sum((shares.get((record.test, q), ZERO) for q in covers if q not in gated), ZERO)
        grades.append(TestGrade(record, covers, rubric.is_hidden(record.test), earned, maximum))
    uncovered = [op.qualname for op in operations_of_type if op.qualname in mine and op not in covered]
    return TypeGrade(
        name=entry.name,
        score=sum((o.score for o in operations), ZERO),
        max_score=points(entry.points),
        graded_as=graded_as,
        tests=tuple(grades),
        operations=tuple(operations),
        note="; ".join(_notes(bool(covered), uncovered, operations, relevant)),
    )


Relevant = list[tuple[TestRecord, tuple[str, ...]]]
"""The records of a type's tests, each with the type's graded operations it covers."""


def _relevant(records: Iterable[TestRecord], files: set[str], mine: set[str], clean: Callable[[str], str]) -> Relevant:
    """The records of ``files`` that cover operations of ``mine``, messages cleaned, by test name."""
    relevant: Relevant = []
    for record in records:
        if record.module not in files:
            continue
        covers = tuple(q for q in record.covers if q in mine)
        if covers:
            relevant.append((attrs.evolve(record, message=clean(record.message)), covers))
    relevant.sort(key=lambda rc: rc[0].test)
    return relevant


def _by_operation(relevant: Relevant) -> tuple[dict[str, list[TestRecord]], set[str]]:
    """Each operation's behaviour records, and the operations a failed structure test gates."""
    covering: dict[str, list[TestRecord]] = {}
    gated: set[str] = set()
    for record, covers in relevant:
        for qualname in covers:
            if record.structural:
                if record.outcome is Outcome.FAILED:
                    gated.add(qualname)
            else:
                covering.setdefault(qualname, []).append(record)
    return covering, gated


def _operation_grades(
    covered: list, allotted: list[Decimal], covering: dict[str, list[TestRecord]], gated: set[str]
) -> tuple[list[OperationGrade], dict[tuple[str, str], Decimal]]:
    """Each covered operation's grade, and each (test, operation)'s share of its points."""
    operations = []
    shares: dict[tuple[str, str], Decimal] = {}
    for op, op_points in zip(covered, allotted, strict=True):
        counted = [r for r in covering[op.qualname] if r.counted]
        for record, share in zip(counted, apportion(op_points, [1] * len(counted)), strict=True):
            shares[record.test, op.qualname] = share
        passed = [r for r in counted if r.outcome is Outcome.PASSED]
        earned = ZERO if op.qualname in gated else sum((shares[r.test, op.qualname] for r in passed), ZERO)
        operations.append(
            OperationGrade(op.qualname, op_points, earned, len(passed), len(counted), op.qualname in gated)
        )
    return operations, shares


def _notes(covered: bool, uncovered: list[str], operations: list[OperationGrade], relevant: Relevant) -> list[str]:
    """What a type's grade says besides its score: ungraded, absent or misshapen operations, import problems."""
    notes = []
    if not covered:
        notes.append("no graded test covers its operations")
    elif uncovered:
        notes.append(f"not graded (no test covers them): {', '.join(uncovered)}")
    unimportable = {q for record, covers in relevant if record.structural and record.module_problem for q in covers}
    missing = {
        q
        for record, covers in relevant
        if record.structural and record.outcome is Outcome.FAILED and record.kind is Outcome.MISSING
        for q in covers
    }
    absent = [o.qualname for o in operations if o.gated and o.qualname in missing - unimportable]
    if absent:
        notes.append(f"no points for operations the submission does not have: {', '.join(absent)}")
    lost = [o.qualname for o in operations if o.gated and o.qualname not in missing]
    if lost:
        notes.append(f"no points for operations without their documented signature: {', '.join(lost)}")
    notes += list(dict.fromkeys(record.module_problem for record, _ in relevant if record.module_problem))
    return notes


def failed_run(entry: TypeRubric, reference: TypeGrade | None, reason: str) -> TypeGrade:
    """A type whose run produced no report: every test of ``reference`` failed, for ``reason``."""
    if reference is None:
        return TypeGrade(entry.name, ZERO, points(entry.points), GradedAs.NONE, note=reason)
    tests = tuple(
        attrs.evolve(
            t, record=attrs.evolve(t.record, outcome=Outcome.FAILED, kind=Outcome.FAILED, message=reason), score=ZERO
        )
        for t in reference.tests
    )
    operations = tuple(attrs.evolve(o, score=ZERO, passed=0) for o in reference.operations)
    return attrs.evolve(
        reference, score=ZERO, tests=tests, operations=operations, note=reason, graded_as=GradedAs.SUBMITTED
    )


def summary(how: str, grade: TypeGrade) -> str:
    """One line on a way of grading a type, for the feedback's comparison."""
    return f"{how}: {grade.score} of {grade.max_score} points ({grade.passed} of {len(grade.counted)} tests passed)"
