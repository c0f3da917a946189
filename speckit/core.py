"""The kit's shared vocabulary: the error root, failure types, outcome enumerations, the time-limit exception
and the default limits.

Every other module of :mod:`speckit` may import this one; it imports nothing of the kit.
The operation server (:mod:`speckit.sandbox.server`) and the test process both word their
results with it, so the two sides of the sandbox agree without importing each other.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from typing import Any

import attrs


class KitError(Exception):
    """The root of every error the kit raises on purpose, wherever its class is defined.

    The command line catches it in one place, prints its message and exits with the usage
    status; any other exception is the kit's own bug and keeps its traceback.
    """


class UserError(KitError):
    """Something the user gave the kit is wrong (a path, a folder, a file of data)."""


class ImplementationError(UserError):
    """The implementation cannot be loaded at all (bad path, not a package)."""


class SuiteFailure(KitError, AssertionError):
    """A conformance failure caused by the implementation; pytest reports it as a failure.

    ``operation`` names the documented operation (``Type.operation``) whose own call
    failed, when the failure is one operation's; "" for a failed check of behaviour.
    """

    def __init__(self, message: str = "", operation: str = ""):
        super().__init__(message)
        self.operation = operation


class MissingOperation(SuiteFailure):
    """The implementation has no such module or function."""


class NotImplementedOperation(SuiteFailure):
    """The operation exists but raises NotImplementedError (a fresh skeleton)."""


class OperationFailed(SuiteFailure):
    """The operation raised, ran too long, or returned a value of the wrong kind."""

    raised: type | None = None
    """The class of the exception the operation raised, when the test process can name it: in
    process any class; through the grading sandbox a builtin exception or a class of the kit's
    supplied modules (None for the implementation's own classes, which stay in the server)."""


class ConformanceFailure(SuiteFailure):
    """A documented behaviour does not hold.

    Suites import it from :mod:`speckit.testing`, its public home, under whose name failures
    are reported; it is defined here so that :mod:`speckit.rules` can raise it too.
    """

    __module__ = "speckit.testing"


class TimeLimitReached(BaseException):
    """Raised inside an operation by the alarm; a BaseException so ``except Exception`` cannot swallow it."""


class Presence(str, enum.Enum):
    """Whether an implementation has an operation, as read from its source."""

    PRESENT = "present"
    MISSING = "missing"
    NOT_IMPLEMENTED = "not implemented"
    """The operation exists and its body only raises NotImplementedError."""


class FailureKind(str, enum.Enum):
    """What an exception escaping an operation means."""

    NOT_IMPLEMENTED = "not implemented"
    HUNG = "hung"
    """The call reached its time limit; the operation is not called again in this run."""
    FAILED = "failed"


class Outcome(str, enum.Enum):
    """The result of one test, or the status of one documented operation in a check."""

    PASSED = "passed"
    FAILED = "failed"
    MISSING = "missing"
    NOT_IMPLEMENTED = "not implemented"
    UNTESTED = "untested"
    """No test covering the operation ran to a verdict."""
    BLOCKED = "blocked"
    """A test covering the operation stopped when another operation failed."""
    SUSPECT = "suspect"
    """A test covering the operation failed, and cannot tell whether this operation or another it called broke."""
    SKIPPED = "skipped"

    def __str__(self) -> str:
        return self.value


DEFAULT_TIME_LIMIT = 2.0
"""Seconds one operation call may take, unless its specification's ``[kit] time_limits`` say otherwise."""


@attrs.frozen
class Limits:
    """The default resource limits of one implementation under test: the one place they are written.

    The sandbox's configuration and a rubric's ``[limits]`` table start from these values.
    """

    memory_mb: int = 1024
    """Address-space limit of the operation server."""
    cpu_seconds: int = 600
    """Processor seconds one server process may use in all (a restart starts afresh)."""
    output_kb: int = 1024
    """Output the implementation may print per call, and the size of any file it writes."""
    import_seconds: float = 10.0
    """Time to import the package or one of its modules."""
    call_seconds: float = DEFAULT_TIME_LIMIT
    """Time one operation call may take, unless the specification says otherwise."""
    test_seconds: float = 120.0
    """Operation time one test may use in all when grading."""
    run_seconds: float = 1800.0
    """Time one run of the suite may take when grading, before it is stopped."""


DEFAULT_LIMITS = Limits()


def _names(names: Iterable[str]) -> tuple[str, ...]:
    """A record's names as a tuple (attrs' converter: a typed one, which mypy can check)."""
    return tuple(names)


@attrs.frozen
class TestRecord:
    """One test's result, as the report plugin writes it and ``check``, the zoo and grading read it."""

    __test__ = False  # not a test class, whoever imports it into a test module

    test: str
    """The pytest node id (``tests/connect4/test_index.py::test_increment_gives_the_next_index``)."""
    covers: tuple[str, ...] = attrs.field(converter=_names)
    """The documented operations the test declares it checks."""
    outcome: Outcome = attrs.field(converter=Outcome)
    """:attr:`Outcome.PASSED`, :attr:`Outcome.FAILED` or :attr:`Outcome.SKIPPED`."""
    kind: Outcome = attrs.field(converter=Outcome)
    """For a failure, what failed: :attr:`Outcome.MISSING`, :attr:`Outcome.NOT_IMPLEMENTED` (an
    operation the test needed) or :attr:`Outcome.FAILED`; otherwise the outcome itself."""
    structural: bool = False
    """The test checks only that operations exist with their signatures."""
    message: str = ""
    """The failure's explanation, or why the test was skipped."""
    operation: str = ""
    """The operation (``Type.operation``) whose own call failed the test, or that the failed check
    names; "" when the failure cannot tell."""
    suspects: tuple[str, ...] = attrs.field(default=(), converter=_names)
    """For a failure, the documented operations the failing example called, in the order first called:
    any of them may have broken it."""

    def to_json(self) -> dict[str, Any]:
        return attrs.asdict(self, value_serializer=lambda _, __, v: v.value if isinstance(v, enum.Enum) else v)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TestRecord:
        return cls(**data)

    # Read access by key, for callers written against the records' former dict form.
    def __getitem__(self, key: str) -> Any:
        if key not in attrs.fields_dict(type(self)):
            raise KeyError(key)
        return getattr(self, key)

    def get(self, key: str, default: Any = None) -> Any:
        return self[key] if key in attrs.fields_dict(type(self)) else default
