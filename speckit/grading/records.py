"""The records of a grade: a test's part, an operation's, a type's and a student's.

Points are exact decimals in hundredths (:data:`CENT`): every total is the sum of its
parts as written in the grade files.
"""

from __future__ import annotations

import enum
import re
from decimal import Decimal
from pathlib import Path
from typing import Any

import attrs

from ..core import Outcome
from ..core import TestRecord as RunRecord

CENT = Decimal("0.01")
"""The unit of points: scores are whole numbers of hundredths."""
ZERO = Decimal("0.00")


def points(value: Any) -> Decimal:
    """``value`` as points (a Decimal in hundredths); exact for the numbers a rubric holds."""
    return Decimal(str(value)).quantize(CENT)


def join_notes(*parts: str) -> str:
    """The parts that say something, as one note."""
    return "; ".join(p for p in parts if p)


class GradedAs(str, enum.Enum):
    """How a type's grade was obtained."""

    SUBMITTED = "submitted"
    """The student's package as it is."""
    HYBRID = "hybrid"
    """A copy of the reference holding the student's module for the type (and helpers)."""
    NONE = "none"
    """Not graded: the submission could not be read."""


@attrs.frozen
class Submission:
    """One entry of the submissions folder."""

    name: str
    """The safe name the output files are called by."""
    source: Path
    original: str
    """The entry's own name (``a b``, ``café.zip``), kept beside the safe one in the gradebook."""


_MODULE_PROBLEM = re.compile(
    r"^(module \w+ (could not be imported|has a syntax error|did not finish importing)"
    r"|the implementation has no module )"
)
"""How the loader words a module that is missing or cannot be imported (rather than one operation's
fault)."""


@attrs.frozen
class TestRecord:
    """One test's outcome in one run of the suite, as the report plugin wrote it."""

    __test__ = False  # not a pytest test class

    test: str
    covers: tuple[str, ...]
    outcome: Outcome
    """``passed``, ``failed`` or ``skipped``."""
    kind: Outcome
    """What the failure was: ``missing``, ``not implemented`` or ``failed`` (else the outcome)."""
    message: str = ""
    structural: bool = False
    """A structure test (marker ``structure``): it gates an operation, it never scores."""

    @classmethod
    def from_report(cls, data: dict[str, Any] | RunRecord) -> TestRecord:
        outcome = Outcome(data["outcome"])
        return cls(
            test=data["test"],
            covers=tuple(data.get("covers", ())),
            outcome=outcome,
            kind=Outcome(data.get("kind", outcome)),
            message=data.get("message", ""),
            structural=bool(data.get("structural", False)),
        )

    @property
    def module_problem(self) -> str:
        """Why the test could not run, when a module it needs is missing or cannot be imported (a
        syntax error, an error at import), in the loader's words; "" for any other outcome."""
        if self.outcome is not Outcome.FAILED or self.kind is not Outcome.MISSING:
            return ""
        first = self.message.strip().splitlines()[0] if self.message.strip() else ""
        return first if _MODULE_PROBLEM.match(first) else ""

    @property
    def counted(self) -> bool:
        """Whether it reached a verdict (skipped tests do not count)."""
        return self.outcome in (Outcome.PASSED, Outcome.FAILED)

    @property
    def module(self) -> str:
        return self.test.split("::", 1)[0].rsplit("/", 1)[-1]

    @property
    def name(self) -> str:
        """The test's id without its module path."""
        return self.test.split("::", 1)[-1]


@attrs.frozen
class TestGrade:
    """One test's part in one type's grade."""

    __test__ = False  # not a pytest test class

    record: TestRecord
    covers: tuple[str, ...]
    """The operations of the type it counts for."""
    hidden: bool
    score: Decimal
    max_score: Decimal

    @property
    def test(self) -> str:
        return self.record.test

    @property
    def outcome(self) -> Outcome:
        return self.record.outcome

    @property
    def message(self) -> str:
        return self.record.message


@attrs.frozen
class OperationGrade:
    qualname: str
    points: Decimal
    score: Decimal
    passed: int
    counted: int
    gated: bool = False
    """A structure test of it failed: it earns nothing whatever its other tests say."""


@attrs.frozen
class TypeGrade:
    name: str
    score: Decimal
    max_score: Decimal
    graded_as: GradedAs
    tests: tuple[TestGrade, ...] = ()
    operations: tuple[OperationGrade, ...] = ()
    note: str = ""
    other: str = ""
    """How the other way of grading it went, when both were tried."""

    @property
    def counted(self) -> tuple[TestGrade, ...]:
        """Its tests that reached a verdict and carry points (structure tests gate, never score)."""
        return tuple(t for t in self.tests if t.record.counted and not t.record.structural)

    @property
    def passed(self) -> int:
        return sum(1 for t in self.counted if t.outcome is Outcome.PASSED)


@attrs.frozen
class StudentGrade:
    name: str
    types: tuple[TypeGrade, ...]
    reason: str = ""
    """Why the submission earned nothing at all (unreadable), else empty."""
    notes: tuple[str, ...] = ()
    original: str = ""
    """The submission's own name (the folder's or the zip file's)."""
    fallbacks: tuple[str, ...] = attrs.field(default=(), eq=False)
    """The fallbacks applied in grading it (for the grading log, never the grade files)."""
    seconds: float = attrs.field(default=0.0, eq=False)
    """Wall time of grading it (for the log and the progress bar, never the grade files)."""

    @property
    def total(self) -> Decimal:
        return sum((t.score for t in self.types), ZERO)

    @property
    def max_score(self) -> Decimal:
        return sum((t.max_score for t in self.types), ZERO)
