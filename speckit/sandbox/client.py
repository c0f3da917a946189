"""The test-process side of the sandbox: the implementation whose operations run in the operation server.

:class:`SandboxedImplementation` sends the calls of a test to the operation server, at once
or pipelined in batches (:mod:`~speckit.sandbox.pipeline`), reads values there
(:mod:`~speckit.sandbox.reads`), restarts a server that died
(:mod:`~speckit.sandbox.connection`), and raises its failures as the in-process failures
are raised. ``impl.working_folder()`` makes a folder in the server's shared folders and
moves both processes into it, for operations that read or write files by a relative name.
"""

from __future__ import annotations

import contextlib
import warnings
import weakref
from pathlib import Path
from typing import Any

from ..core import ImplementationError, MissingOperation, OperationFailed, Presence
from ..operations import bool_problem, module_facade
from ..trace import TRACE
from .catalogue import RemoteCatalogue
from .config import SandboxConfig
from .connection import Connection
from .folders import shared_folder
from .isolation import probe_isolation
from .operation import SandboxedOperation
from .pipeline import Later, Pipeline, raise_failure, stale_problem
from .process import ProtocolViolation, ServerDied
from .protocol import At, Command, Reply
from .reads import RemoteModule, RemoteReads
from .values import Encoder, Handle, StaleHandle, TwinRegistry, plain_arguments


def load_sandboxed(target: str | Path, spec, config: SandboxConfig) -> SandboxedImplementation:
    """Start an operation server for the package directory ``target``."""
    path = Path(target)
    if not path.is_dir():
        if path.exists():
            raise ImplementationError(f"{target}: not a package directory (expected a folder of modules)")
        raise ImplementationError(f"{target}: no such folder (the sandbox runs package directories only)")
    path = path.resolve()
    if not (path / "__init__.py").is_file() and not any(path.glob("*.py")):
        raise ImplementationError(f"{path}: not a package (no Python modules in it)")
    isolation = probe_isolation(config)
    if isolation.warning:
        warnings.warn(isolation.warning, IncompleteIsolation, stacklevel=2)  # shown once per run
    return SandboxedImplementation(path, spec, config)


class IncompleteIsolation(UserWarning):
    """The operation server runs without bubblewrap: the confinement is a fallback (see the message)."""


class SandboxedImplementation:
    """An implementation whose operations run in an operation server
    (a :class:`~speckit.interface.TestedImplementation`, as the in-process one is).

    It coordinates its parts: the :class:`~speckit.sandbox.connection.Connection` to the
    server, the :class:`~speckit.sandbox.pipeline.Pipeline` of pending calls, the
    :class:`~speckit.sandbox.reads.RemoteReads` of values, and the
    :class:`~speckit.sandbox.values.TwinRegistry` of mirrored objects.
    """

    operation_class = SandboxedOperation

    def __init__(self, path: Path, spec, config: SandboxConfig):
        self.spec = spec
        self.origin = str(path)
        self.hung: dict[str, str] = {}
        self.path = path
        self.config = config
        self.generation = 1
        """Which server the handles belong to: it changes as soon as a server dies."""
        self.next_id = 0
        self.released: list[int] = []
        self.test_budget = config.test_seconds or float("inf")
        """Wall-clock seconds of messages a test may use before its processor time is asked about."""
        self.test_used = 0.0
        """Wall-clock time of this test's messages to the server: never less than its processor time."""
        self.twins = TwinRegistry(self)
        self._handles: weakref.WeakValueDictionary[int, Handle] = weakref.WeakValueDictionary()
        """The handles of values read or answered, by id: read again, the test gets the same handle."""
        self.pipeline = Pipeline(self)
        self.reads = RemoteReads(self)
        self.catalogue = RemoteCatalogue(self)
        self.connection = Connection(path, spec.name, config, self._forget_server)
        self.isolation = self.connection.start(first=True)

    def __repr__(self) -> str:
        return f"<Implementation {self.origin} (sandboxed)>"

    def __getattr__(self, module_name: str):
        """``impl.grid`` is the grid module's operations, sent to the server: ``impl.grid.occupySquare(g, l, s)``."""
        return module_facade(self, module_name)

    # -- the server's life ---------------------------------------------------------------

    @property
    def server(self):
        """The running operation server's process (:class:`~speckit.sandbox.process.Server`)."""
        return self.connection.server

    @property
    def restarts(self) -> int:
        return self.connection.restarts

    @property
    def dead_reason(self) -> str:
        return self.connection.dead_reason

    def lost(self, reason: str) -> None:
        """The server died: its values are gone."""
        self.connection.lost(reason)

    def _forget_server(self, reason: str) -> None:
        self.generation += 1
        self.pipeline.defined.clear()
        self.twins.reset()
        self._handles.clear()
        self.released.clear()
        self.reads.forget()

    def fresh_server(self) -> None:
        """Replace the server by a new one of its own (new process, scratch space and folders):
        the values of the old one are gone, as after a restart, and it does not count as one."""
        self.pipeline.pending.clear()
        self.connection.fresh()

    def close(self) -> None:
        self.pipeline.pending.clear()
        self.connection.close()

    def exchange(self, commands: list, limits: list[float], twins: list | None = None, running: bool = False) -> dict:
        """Send one message and read its answer; a dead or lying server is killed (ServerDied).

        The values the tests dropped are released only by a message that carries the pending
        calls (a pending call may still be given one of them). ``running``: whether
        :meth:`Connection.notice_death` just found the server running.
        """
        connection = self.connection
        connection.ensure(running)
        connection.seq += 1
        release: list[int] = []
        if not self.pipeline.pending:
            release, self.released = self.released, release
        message = {
            "seq": connection.seq,
            "ops": self.pipeline.definitions(commands),
            "commands": commands,
            "release": release,
            "twins": twins or [],
        }
        reply = connection.send(message, limits, len(commands))
        try:
            twins = reply.get("twins")
            if twins is not None:
                self.twins.apply(twins)
        except ProtocolViolation as e:
            reason = f"it wrote into the grader's channel ({e})"
            self.lost(reason)
            raise ServerDied(len(commands) - 1, reason) from None
        return reply

    # -- what the implementation provides -------------------------------------------------

    def module(self, module_name: str, operation: str = "") -> RemoteModule:
        """A read-only view of the implementation's module, or :class:`MissingOperation` saying why not
        (charged to ``operation``, the operation that needed the module, if given)."""
        __tracebackhide__ = True
        return self.catalogue.module(module_name, operation)

    def state(self, qualname: str) -> Presence:
        """Whether the implementation has the operation, as the server reads its source."""
        return self.catalogue.state(qualname)

    def has(self, qualname: str) -> bool:
        return self.state(qualname) != Presence.MISSING

    def import_problems(self) -> dict[str, str]:
        """None: a module the server cannot import fails the operations that need it, each with the server's reason."""
        return {}

    def resolve(self, op: SandboxedOperation) -> Any:
        """The operation's signature (or None); :class:`MissingOperation` when it cannot be called."""
        __tracebackhide__ = True
        return self.catalogue.resolve(op)

    # -- calls ------------------------------------------------------------------------------

    def call(self, op: SandboxedOperation, args: tuple, kwargs: dict[str, Any] | None = None) -> Any:
        """Call ``op`` in the server: at once, or (when the test needs no answer yet) with the next batch.

        ``kwargs``: keyword arguments (``Computer_Move(board, level="greedy")``), which cross
        as the positional ones do. This runs for every operation call of a test, so its
        common path is kept short.
        """
        __tracebackhide__ = True
        if self.reads.fields:
            self.reads.fields.clear()  # the call may change what the fields read so far hold
        known = self.catalogue.resolved.get(op.key)
        if known is None or not known[0]:
            try:
                self.resolve(op)
            except MissingOperation:
                self.flush()
                raise
        entry = TRACE.call(op.label, args, kwargs)
        problem = self._refusal(op) if self.hung or self.test_used > self.test_budget else None
        twins: list = []
        mutable: list[int] = []
        """The test's lists, dicts and sets given to the call: they come back updated, as in process."""
        keywords: list | None = None
        if problem is None:
            encoded = plain_arguments(args, self) if not kwargs else None
            if encoded is None:
                encoded, twins, mutable, keywords, problem = _encoded(self, op, args, kwargs)
        if problem is not None:
            self.flush()
            entry.failed(problem)
            raise_failure(OperationFailed(problem))
        self.next_id += 1
        handle_id = self.next_id
        command = [_CALL, op.number, handle_id, encoded, _KEEP]
        if mutable or keywords:
            command.append(mutable)
        if keywords:
            command.append(keywords)
        pipelined = not twins and not mutable and (op.cannot_reach_kit_objects or not self.twins.pinned_ids)
        if pipelined and op.pipelinable:
            handle = Handle(handle_id, self.generation, self)
            self.pipeline.defer((op, entry, command, None))
            entry.returned(handle, False)
            return handle
        if pipelined and self.pipeline.batching and op.answers_by_value:
            later = Later()
            command[At.CALL_REPLY] = Reply.LATER
            self.pipeline.defer((op, entry, command, later))
            return later
        return self._answered(op, entry, command, args, twins, mutable)

    def _refusal(self, op: SandboxedOperation) -> str | None:
        """Why ``op`` must not be called now (an operation hung, or the test's time is spent), if so."""
        problem = self.hung.get(op.qualname) if self.hung else None
        if problem is None and self.test_used > self.test_budget and self.connection.over_test_budget(self.test_used):
            problem = (
                f"{op.qualname} was not called: this test's operations already took more than "
                f"{self.config.test_seconds:g} s in all"
            )
        return problem

    def _answered(
        self, op: SandboxedOperation, entry: Any, command: list, args: tuple, twins: list, mutable: list[int]
    ) -> Any:
        """Run ``command`` (with the calls pending before it) and return its decoded result."""
        __tracebackhide__ = True
        encoder = None
        if twins or self.twins.pinned_ids:  # (most answered calls have no mirrored object to send)
            encoder = Encoder(self)
            encoder.twins = twins
            self.twins.send_pinned(encoder)
        command[At.CALL_REPLY] = Reply.ANSWER
        self.pipeline.pending.append((op, entry, command, None))
        reply = self.pipeline.run(self.pipeline.pending, encoder)
        if mutable:
            self.reads.update_arguments(args, mutable, reply.get("arguments"))
        result = self.reads.decoded(reply.get("result"), command[At.CALL_HANDLE])
        if op.expects_bool and type(result) is not bool:
            # Checked here, on decoded data: the server's own check runs where the
            # implementation could have patched it (builtins.isinstance, say).
            problem = bool_problem(op.qualname, result)
            assert problem is not None  # the result is not a bool
            entry.failed(problem)
            raise_failure(OperationFailed(problem))
        entry.returned(result, op.expects_bool)
        return result

    def working_folder(self) -> contextlib.AbstractContextManager[Path]:
        """A fresh folder both processes work in (see :func:`~speckit.sandbox.folders.shared_folder`)."""
        return shared_folder(self)

    def batch(self, queries):
        """Call ``queries``; the results of its calls travel back together (see :meth:`Implementation.batch`)."""
        __tracebackhide__ = True
        return self.pipeline.batch(queries)

    def flush(self) -> None:
        """Run the pipelined calls now; raise the first one's failure as if raised at its call."""
        __tracebackhide__ = True
        self.pipeline.flush()

    # -- values: the handles' owner (values.HandleOwner) ----------------------------------------

    def read_attribute(self, handle: Handle, name: str) -> Any:
        __tracebackhide__ = True
        return self.reads.read_attribute(handle, name)

    def module_attribute(self, module_name: str, name: str) -> Any:
        __tracebackhide__ = True
        return self.reads.module_attribute(module_name, name)

    def compare(self, handle: Handle, other: Any) -> Any:
        __tracebackhide__ = True
        return self.reads.compare(handle, other)

    def items(self, handle: Handle) -> tuple[bool, bool, list]:
        __tracebackhide__ = True
        return self.reads.items(handle)

    def names(self, handle: Handle) -> list[str]:
        __tracebackhide__ = True
        return self.reads.names(handle)

    def shown(self, handle: Handle) -> str:
        return self.reads.shown(handle)

    def new_id(self) -> int:
        self.next_id += 1
        return self.next_id

    def handle(self, handle_id: int, known: bool = False) -> Handle:
        """The handle of the server's value ``handle_id``: the one the test holds, if it holds one.

        ``known``: the server names a value it held before (or, negative, one it chose an id
        for); if the test just dropped its handle, the release is taken back.
        """
        found = self._handles.get(handle_id)
        if found is not None:
            return found
        if known:
            if handle_id > self.next_id or handle_id == 0:
                raise ProtocolViolation("result names a value the test was never given")
            if handle_id in self.released:
                self.released.remove(handle_id)
        handle = self._handles[handle_id] = Handle(handle_id, self.generation, self)
        return handle

    # -- tests and examples --------------------------------------------------------------------

    def begin_test(self) -> None:
        self.test_used = 0.0
        self.connection.mark_test()
        self.pipeline.example = None

    def end_test(self) -> None:
        self.flush()


_CALL, _KEEP = Command.CALL, Reply.KEEP
_MUTABLE = (list, dict, set)
"""The containers a call may update in place, which the sandbox copies back."""


def _encoded(
    impl: SandboxedImplementation, op: SandboxedOperation, args: tuple, kwargs: dict[str, Any] | None
) -> tuple[Any, list, list[int], list | None, str | None]:
    """Arguments that are not all plain, encoded: the positional ones, the mirrored objects they send,
    the positions of the test's lists, dicts and sets, the keyword ones; and a stale handle's problem."""
    mutable = [i for i, a in enumerate(args) if type(a) in _MUTABLE]
    encoder = Encoder(impl)
    encoded = keywords = problem = None
    try:
        encoded = encoder.arguments(args)
        if kwargs:
            keywords = [[name, encoder.encode(value)] for name, value in kwargs.items()]
    except StaleHandle as e:
        problem = stale_problem(op.qualname, str(e))
    return encoded, encoder.twins, mutable, keywords, problem
