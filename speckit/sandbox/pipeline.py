"""The pending calls of a sandboxed implementation: pipelined, batched, and run together.

A call whose answer the test does not need yet waits in :attr:`Pipeline.pending` and
travels with the next message; :class:`Later` holds the result of a call made inside
``impl.batch``. Running a batch raises its first failure as if raised where that call
was made.
"""

from __future__ import annotations

import builtins
import importlib
import time
from typing import TYPE_CHECKING, Any

import attrs

from .. import trace
from ..core import FailureKind, MissingOperation, NotImplementedOperation, OperationFailed
from ..operations import bool_problem
from ..trace import TRACE
from .config import READ_LIMIT
from .process import ProtocolViolation, ServerDied, bounded_text
from .protocol import MAX_BATCH, MAX_DEPTH, At, Command, ErrorKind
from .values import Encoder, decode, uses_handles

if TYPE_CHECKING:
    from .client import SandboxedImplementation
    from .operation import SandboxedOperation


_Pending = tuple
"""A call waiting in a batch: ``(operation, trace entry, command, later)``, where ``command`` is
its wire form (the result's handle id is ``command[At.CALL_HANDLE]``) and ``later`` the :class:`Later` its
result goes to (a call made inside :meth:`Pipeline.batch`), else None. A plain
tuple, read by unpacking: one is made per call, and a named tuple costs four times as much."""


@attrs.frozen
class ValueRead:
    """A read of a value (a field, a module's attribute, ==, dir, repr), sent after the pending calls."""

    command: list
    label: str
    """What is read, for a failure found by the test process (the server words its own)."""
    key: str
    """Under which name a read that hung is remembered (and not run again in this run)."""
    uses_handles: bool = True


class Later:
    """The result of a call made inside ``impl.batch(...)``, until the batch has run."""

    __slots__ = ("value", "ready")

    def __init__(self) -> None:
        self.value: Any = None
        self.ready = False

    def _refuse(self, *args: Any) -> Any:
        raise TypeError(
            "a result of a call inside impl.batch(...) was looked at before the batch ran: "
            "the function given to batch may only collect results (batch returns them filled in)"
        )

    __bool__ = __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = __hash__ = __index__ = _refuse

    def __repr__(self) -> str:
        return (
            f"<result of a batched call: {self.value!r}>" if self.ready else "<result of a batched call, not yet run>"
        )


def _filled(answers: Any, depth: int = 0) -> Any:
    """``answers`` with every :class:`Later` in it (in lists, tuples, dict values) replaced by its value."""
    kind = type(answers)
    if kind is Later:
        if not answers.ready:
            raise TypeError("a result of a call inside impl.batch(...) was never computed")
        return answers.value
    if depth > MAX_DEPTH:
        return answers
    if kind is list:
        return [_filled(a, depth + 1) for a in answers]
    if kind is tuple:
        return tuple(_filled(a, depth + 1) for a in answers)
    if kind is dict:
        return {k: _filled(v, depth + 1) for k, v in answers.items()}
    return answers


class Pipeline:
    """The calls waiting to be sent, the batches they go in, and what the server is told of the operations."""

    def __init__(self, owner: SandboxedImplementation):
        self.owner = owner
        self.pending: list[_Pending] = []
        self.batching = 0
        """How many :meth:`batch` calls are running: inside one, questions are deferred."""
        self.example: object = None
        """The Hypothesis example whose end flushes the pending calls."""
        self.numbered: list[SandboxedOperation] = []
        """The operations, by the number calls name them with."""
        self.defined: set[int] = set()
        """The operation numbers the running server has been told."""

    def defer(self, pending: _Pending) -> None:
        if not self.pending:
            self.watch_example()  # later pipelined calls of the same example are covered
        self.pending.append(pending)
        if len(self.pending) >= MAX_BATCH:
            self.flush()

    def batch(self, queries):
        """Call ``queries``; the results of its calls travel back together
        (see :meth:`speckit.impl.Implementation.batch`)."""
        __tracebackhide__ = True
        self.batching += 1
        try:
            answers = queries()
        finally:
            self.batching -= 1
        self.flush()
        return _filled(answers)

    def flush(self) -> None:
        """Run the pipelined calls now; raise the first one's failure as if raised at its call."""
        __tracebackhide__ = True
        if self.pending:
            self.run(self.pending, None)

    def run(self, batch: list[_Pending], encoder: Encoder | None, read: ValueRead | None = None) -> dict:
        """Run the batch of calls (and, after them, the ``read``); raise the first failure as if raised
        where it was made."""
        __tracebackhide__ = True
        self.pending = []  # (``batch`` may be the list that was pending)
        commands = [command for _, _, command, _ in batch]
        limits = [operation.time_limit for operation, _, _, _ in batch]
        if read is not None:
            commands.append(read.command)
            limits.append(READ_LIMIT)
        limits.append(READ_LIMIT)  # releasing the values the tests dropped, after the commands
        twins = encoder.twins if encoder else []
        # Failures are raised outside the except blocks, so that they carry no context:
        # Hypothesis tells failures apart by where they come from, context included.
        failure: tuple | None = None
        release_problem: str | None = None
        reply: dict = {}
        started = time.monotonic()
        running = self._notice_death(batch, read)
        try:
            reply = self.owner.exchange(commands, limits, twins, running=running)
        except OperationFailed as e:
            failure = (0, str(e), OperationFailed)
        except ServerDied as e:
            failure, release_problem = self._died(e, batch, read, limits, len(commands))
        finally:
            self.owner.test_used += time.monotonic() - started
        if release_problem is not None:
            self.pending.clear()
            raise_failure(OperationFailed(release_problem))
        if failure is None and reply.get("error") is not None:
            failure = self._error_failure(reply["error"], batch, read, len(commands))
        if failure is None and any(later is not None for _, _, _, later in batch):
            failure = self._fill_later(batch, reply.get("results"))
        if failure is not None:
            self._fail(batch, *failure)
        return reply

    def _notice_death(self, batch: list[_Pending], read: ValueRead | None) -> bool:
        """Whether the server is running (restarted if it died while idle); fail the batch if it used the dead
        server's values."""
        __tracebackhide__ = True
        generation = self.owner.generation
        running = self.owner.connection.notice_death()
        if self.owner.generation != generation:
            # The server died while idle, after these calls were given its values.
            stale = next(
                (i for i, (_, _, command, _) in enumerate(batch) if uses_handles(command[At.CALL_ARGUMENTS])), None
            )
            if stale is not None:
                self._fail(batch, stale, stale_problem(batch[stale][0].qualname, self.owner.dead_reason))
            if read is not None and read.uses_handles:
                self._fail(batch, len(batch), stale_problem(read.label, self.owner.dead_reason))
        return running

    def _died(
        self, e: ServerDied, batch: list[_Pending], read: ValueRead | None, limits: list[float], count: int
    ) -> tuple[tuple | None, str | None]:
        """The failure of the call the server died in (marked hung), or the problem if it died releasing values.
        ``count``: the commands sent."""
        release_problem: str | None = None
        if e.index >= count:  # while releasing values, after every command ran
            if e.hung:
                release_problem = f"releasing a value took more than {READ_LIMIT:g} s"
            else:
                release_problem = f"releasing a value ended the implementation's process ({e.reason})"
        index = min(max(e.index, 0), count - 1)
        qualname = read.label if read is not None and index == len(batch) else batch[index][0].qualname
        if e.hung:
            problem = (
                f"{qualname} did not return within {limits[index]:g} s (an endless loop?); "
                "it is not called again in this run"
            )
        else:
            problem = f"{qualname} ended the implementation's process ({e.reason}); it is not called again in this run"
        if release_problem is not None:
            return None, release_problem
        self.owner.hung[read.key if read is not None and index == len(batch) else qualname] = problem
        return (index, problem, OperationFailed), None

    def _error_failure(self, error: Any, batch: list[_Pending], read: ValueRead | None, count: int) -> tuple:
        """The failure the server's error answer names (the call marked hung if it was); raise at once if
        releasing a value failed, no call's fault. ``count``: the commands sent."""
        __tracebackhide__ = True
        try:
            index, kind, problem = _error_fields(error, count)
        except ProtocolViolation as e:
            self.owner.lost(f"it wrote into the grader's channel ({e})")
            index, kind, problem = (
                count - 1,
                "failed",
                f"the implementation's process sent a malformed answer ({e}) and was stopped",
            )
        if index == count:
            self.pending.clear()
            raise_failure(OperationFailed(problem))  # releasing a value failed: no call's fault
        if read is not None and index == len(batch):
            key, errors = read.key, READ_ERRORS
        else:
            key, errors = batch[index][0].qualname, CALL_ERRORS
        if kind == FailureKind.HUNG:
            self.owner.hung[key] = problem
        return (index, problem, errors.get(kind, OperationFailed), self._raised_class(error.get("raised")))

    def _fill_later(self, batch: list[_Pending], results: Any) -> tuple | None:
        """Give the batched calls their results; a failure tuple when the server's answer is malformed."""
        wanted = [(index, p) for index, p in enumerate(batch) if p[3] is not None]
        try:
            if not isinstance(results, list) or len(results) != len(wanted):
                raise ProtocolViolation("batched results malformed")
            for (index, pending), item in zip(wanted, results, strict=True):
                if not (isinstance(item, list) and len(item) == 2 and item[0] == index):
                    raise ProtocolViolation("batched results malformed")
                operation, entry, command, later = pending
                value = decode(item[1], self.owner, command[At.CALL_HANDLE], 0)
                if operation.expects_bool and type(value) is not bool:
                    return index, bool_problem(operation.qualname, value), OperationFailed
                later.value, later.ready = value, True
                entry.returned(value, operation.expects_bool)
        except ProtocolViolation as e:
            self.owner.lost(f"it wrote into the grader's channel ({e})")
            return (
                len(batch) - 1,
                f"the implementation's process sent a malformed answer ({e}) and was stopped",
                OperationFailed,
            )
        return None

    def _raised_class(self, name: Any) -> type | None:
        """The exception class ``module.Class`` the server named, if it is a builtin one or one of
        the kit's supplied modules (no other module is looked at)."""
        if not isinstance(name, str):
            return None
        module, _, qualname = name.rpartition(".")
        if module == "builtins":
            found = getattr(builtins, qualname, None)
        elif module in self.owner.spec.kit.supplied:
            found = getattr(importlib.import_module(module), qualname, None)
        else:
            return None
        return found if isinstance(found, type) and issubclass(found, BaseException) else None

    def _fail(
        self,
        batch: list[_Pending],
        index: int,
        problem: str,
        exception: type = OperationFailed,
        raised: type | None = None,
    ):
        """Fail the test as if the ``index``-th call of the batch had failed where it was made."""
        __tracebackhide__ = True
        self.pending.clear()
        error = exception(problem)
        if raised is not None:
            error.raised = raised
        if index == len(batch):  # the read after the calls: nothing of the trace to undo
            raise_failure(error)
        _, entry, _, _ = batch[index]
        if exception is OperationFailed:
            entry.failed(problem)
        entries = TRACE.entries
        for position, candidate in enumerate(entries):
            if candidate is entry:
                del entries[position + 1 :]
                break
        raise_failure(error)

    def watch_example(self) -> None:
        """Make sure a Hypothesis example's pipelined calls are run before the example ends."""
        example = trace.current_example()
        if example is None or example is self.example:
            return
        self.example = example
        try:
            from hypothesis.control import cleanup

            cleanup(self.flush)
        except Exception:  # noqa: BLE001 - outside a test: flushed at the end of the test
            pass

    def number_of(self, op: SandboxedOperation) -> int:
        self.numbered.append(op)
        return len(self.numbered) - 1

    def definitions(self, commands: list) -> list:
        """What the server must be told of the operations these commands call, before it runs them."""
        defined, new = self.defined, []
        for number in sorted({command[At.CALL_OP] for command in commands if command[At.TAG] == _CALL} - defined):
            defined.add(number)
            op = self.numbered[number]
            new.append([number, op.module_name, op.operation.name, op.qualname, op.time_limit, op.expects_bool])
        return new


_CALL = Command.CALL
CALL_ERRORS: dict[str, type[Exception]] = {
    ErrorKind.MISSING: MissingOperation,
    FailureKind.NOT_IMPLEMENTED: NotImplementedOperation,
}
"""The exception a failure of each kind the server reports is raised as (else OperationFailed)."""
READ_ERRORS: dict[str, type[Exception]] = {**CALL_ERRORS, ErrorKind.ATTRIBUTE: AttributeError}


def stale_problem(qualname: str, reason: str) -> str:
    return (
        f"{qualname} was given a value made by an earlier run of the implementation, which ended ({reason}); "
        "that value no longer exists"
    )


def raise_failure(error: BaseException) -> None:
    """Every failure of a sandboxed call is raised from this one line, as in-process failures are
    raised from one line of TracedOperation: Hypothesis then sees one consistent failure."""
    __tracebackhide__ = True
    raise error.with_traceback(None)


def _error_fields(error: Any, count: int) -> tuple[int, str, str]:
    if not (isinstance(error, dict) and isinstance(error.get("at"), int) and isinstance(error.get("kind"), str)):
        raise ProtocolViolation("error answer malformed")
    index = error["at"]
    if not (0 <= index < count or (index == count and error["kind"] == ErrorKind.RELEASE)):
        raise ProtocolViolation("error names no command of the request")
    return index, error["kind"], bounded_text(error.get("message"))
