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
import os
import shutil
import tempfile
import warnings
import weakref
from pathlib import Path
from typing import Any, Iterator

from ..core import ImplementationError, MissingOperation, OperationFailed, Presence
from ..impl import bool_problem, module_facade
from ..trace import TRACE
from ..watchdog import wall_backstop
from .config import READ_LIMIT, SandboxConfig, target_ids
from .connection import Connection
from .isolation import probe_isolation
from .operation import SandboxedOperation
from .pipeline import Later, Pipeline, ValueRead, raise_failure, stale
from .process import ProtocolViolation, ServerDied, bounded_text
from .protocol import At, Command, ErrorKind, Reply
from .reads import RemoteModule, RemoteReads
from .values import Encoder, Handle, StaleHandle, TwinRegistry, decode, plain_arguments


def load_sandboxed(target: str | Path, spec, config: SandboxConfig) -> "SandboxedImplementation":
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
        self._modules: dict[str, str] = {}
        """Modules asked for so far: "" if the server imported it, else why not."""
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
        self._test_cpu: tuple[int | None, float | None] | None = None
        """(server pid, its processor time) when this test began."""
        self._resolved: dict[tuple[str, str], tuple[bool, Any]] = {}
        self._presence: dict[str, str] | None = None
        self.twins = TwinRegistry(self)
        self._handles: weakref.WeakValueDictionary[int, Handle] = weakref.WeakValueDictionary()
        """The handles of values read or answered, by id: read again, the test gets the same handle."""
        self.pipeline = Pipeline(self)
        self.reads = RemoteReads(self)
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

    def module(self, module_name: str, operation: str = "") -> "RemoteModule":
        """A read-only view of the implementation's module, or :class:`MissingOperation` saying why not
        (charged to ``operation``, the operation that needed the module, if given)."""
        problem = self._modules.get(module_name)
        if problem is None:
            try:
                self.reads.remote(ValueRead([Command.MODULE, module_name, None, 0], f"importing module {module_name}", f"module {module_name}", False))
            except MissingOperation as e:
                self._modules[module_name] = str(e)
                raise
            problem = self._modules[module_name] = ""
        if problem:
            raise_failure(MissingOperation(problem, operation))
        return RemoteModule(self, module_name)

    def state(self, qualname: str) -> Presence:
        """Whether the implementation has the operation, as the server reads its source."""
        if self._presence is None or qualname not in self._presence:
            names = [op.qualname for op in self.spec.operations(extensions=True)]
            if qualname not in names:
                names.append(qualname)
            try:
                answer = self.exchange([[Command.PRESENCE, names]], [self.config.import_seconds * 4])
                values = answer.get("result")
                if not (isinstance(values, list) and len(values) == len(names) and all(v in PRESENCES for v in values)):
                    raise ProtocolViolation("presence answer malformed")
                self._presence = dict(zip(names, values))
            except (*SuiteFailureTypes, ProtocolViolation):
                return Presence.MISSING
        return Presence(self._presence.get(qualname, Presence.MISSING))

    def has(self, qualname: str) -> bool:
        return self.state(qualname) != Presence.MISSING

    def import_problems(self) -> dict[str, str]:
        """None: a module the server cannot import fails the operations that need it, each with the server's reason."""
        return {}

    def resolve(self, op: "SandboxedOperation") -> Any:
        """The operation's signature (or None); :class:`MissingOperation` when it cannot be called."""
        key = op.key
        known = self._resolved.get(key)
        if known is None:
            try:
                answer = self.exchange([[Command.RESOLVE, op.module_name, op.operation.name]], [self.config.import_seconds])
            except ServerDied as e:
                known = (False, f"module {op.module_name} could not be imported: importing it ended the process ({e.reason})")
            except OperationFailed as e:
                known = (False, str(e))
            else:
                result = answer.get("result")
                if not isinstance(result, dict):
                    raise ProtocolViolation("resolve answer malformed")
                if ErrorKind.MISSING in result:
                    known = (False, bounded_text(result[ErrorKind.MISSING]))
                else:
                    known = (True, _signature(result.get("signature")))
            self._resolved[key] = known
        ok, detail = known
        if not ok:
            # Charged to the operation, as in process: a test of another type stopped by it names it,
            # and grading can tell that type lost its points to this one (and grade it as a hybrid).
            raise_failure(MissingOperation(detail, op.qualname))
        op.fast = op.pipelinable or op.answers_by_value  # found once, it is found for every server
        return detail


    # -- calls ------------------------------------------------------------------------------

    def call(self, op: "SandboxedOperation", args: tuple, kwargs: dict[str, Any] | None = None) -> Any:
        """Call ``op`` in the server: at once, or (when the test needs no answer yet) with the next batch.

        ``kwargs``: keyword arguments (``Computer_Move(board, level="greedy")``), which cross
        as the positional ones do. This runs for every operation call of a test, so its
        common path is kept short.
        """
        __tracebackhide__ = True
        if self.reads.fields:
            self.reads.fields.clear()  # the call may change what the fields read so far hold
        known = self._resolved.get(op.key)
        if known is None or not known[0]:
            try:
                self.resolve(op)
            except MissingOperation:
                self.flush()
                raise
        entry = TRACE.call(op.label, args, kwargs)
        problem = self.hung.get(op.qualname) if self.hung else None
        if problem is None and self.test_used > self.test_budget and self._over_test_budget():
            problem = (
                f"{op.qualname} was not called: this test's operations already took more than "
                f"{self.config.test_seconds:g} s in all"
            )
        twins: list = []
        mutable: list[int] = []
        """The test's lists, dicts and sets given to the call: they come back updated, as in process."""
        keywords: list | None = None
        if problem is None:
            encoded = plain_arguments(args, self) if not kwargs else None
            if encoded is None:
                mutable = [i for i, a in enumerate(args) if type(a) in _MUTABLE]
                encoder = Encoder(self)
                try:
                    encoded = encoder.arguments(args)
                    if kwargs:
                        keywords = [[name, encoder.encode(value)] for name, value in kwargs.items()]
                except StaleHandle as e:
                    problem = stale(op.qualname, str(e))
                twins = encoder.twins
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
        encoder = None
        if twins or self.twins.pinned_ids:  # (most answered calls have no mirrored object to send)
            encoder = Encoder(self)
            encoder.twins = twins
            self.twins.send_pinned(encoder)
        command[At.CALL_REPLY] = Reply.ANSWER
        self.pipeline.pending.append((op, entry, command, None))
        reply = self.pipeline.run(self.pipeline.pending, encoder)
        if mutable:
            self._update_arguments(args, mutable, reply.get("arguments"))
        result = self.reads.decoded(reply.get("result"), handle_id)
        if op.expects_bool and type(result) is not bool:
            # Checked here, on decoded data: the server's own check runs where the
            # implementation could have patched it (builtins.isinstance, say).
            problem = bool_problem(op.qualname, result)
            entry.failed(problem)
            raise_failure(OperationFailed(problem))
        entry.returned(result, op.expects_bool)
        return result

    def _update_arguments(self, args: tuple, mutable: list[int], updates: Any) -> None:
        """Give the test's lists, dicts and sets that a call was given what the call left in them."""
        __tracebackhide__ = True
        if not (isinstance(updates, list) and len(updates) == len(mutable)):
            self.reads.malformed("updated arguments malformed")
        for index, item in zip(mutable, updates):
            if not (isinstance(item, list) and len(item) == 2 and item[0] == index):
                self.reads.malformed("updated arguments malformed")
            try:
                value = decode(item[1], self, 0, 0, named=True)
            except ProtocolViolation as e:
                self.reads.malformed(str(e))
            target = args[index]
            if type(value) is not type(target):
                self.reads.malformed("updated arguments malformed")
            if type(target) is list:
                target[:] = value
            else:
                target.clear()
                target.update(value)


    def batch(self, queries):
        """Call ``queries``; the results of its calls travel back together (see :meth:`Implementation.batch`)."""
        __tracebackhide__ = True
        return self.pipeline.batch(queries)

    def flush(self) -> None:
        """Run the pipelined calls now; raise the first one's failure as if raised at its call."""
        __tracebackhide__ = True
        self.pipeline.flush()

    @contextlib.contextmanager
    def working_folder(self) -> Iterator[Path]:
        """A fresh folder both processes work in (see :meth:`Implementation.working_folder`).

        It is made in the server's shared folders (bind-mounted read-write into the server
        under bubblewrap), owned by the server's user; files the test writes there during the
        block are made group-writable for it (umask 002 in a set-group-id folder)."""
        self.flush()
        host = Path(tempfile.mkdtemp(prefix="folder-", dir=self.connection.server.folders))
        uid, gid = target_ids(self.config)
        mask = None
        if uid is not None:
            os.chown(host, uid, gid)
            os.chmod(host, 0o2775)
            mask = os.umask(0o002)
        before = Path.cwd()
        try:
            self._folder(self.connection.server.server_path(host))
            os.chdir(host)
            try:
                yield host
                self.flush()  # the block's pipelined calls run in the folder
            finally:
                os.chdir(before)
                try:
                    self._folder(None)
                except (*SuiteFailureTypes, ServerDied, ProtocolViolation):
                    self.connection.working = None  # the server is gone: its next one starts in its own folder
        finally:
            if mask is not None:
                os.umask(mask)
            shutil.rmtree(host, ignore_errors=True)

    def _folder(self, path: str | None) -> None:
        """Have the server change its working folder to ``path`` (None: its own)."""
        self.connection.working = path
        if path is None and (self.connection.down or not self.connection.server.alive()):
            return  # a new server starts in its own folder anyway
        answer = self.exchange([[Command.FOLDER, path]], [READ_LIMIT, READ_LIMIT])
        problem = answer.get("result")
        if problem is not None:
            raise OperationFailed(f"the implementation's process could not enter its working folder: {bounded_text(problem)}")

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
        self._test_cpu = (self.connection.server.server_pid(), self.connection.server.cpu_seconds()) if self.connection.server.alive() else None
        self._example = None

    def _over_test_budget(self) -> bool:
        """Whether this test's operations used more than ``test_seconds`` of the server's processor
        time, or their wall-clock backstop; asked only once their wall-clock time (never less
        than their processor time) is over ``test_seconds``.

        A server started during the test counts from its start (the processor time of one
        that died is not counted: it is gone with it).
        """
        budget = self.config.test_seconds
        if self.test_used > wall_backstop(budget, self.config.wall_factor):
            return True
        pid, cpu = self.connection.server.server_pid(), self.connection.server.cpu_seconds()
        if cpu is None:
            return True  # cannot be measured: the wall clock, which is over, decides
        base = self._test_cpu[1] if self._test_cpu is not None and self._test_cpu[0] == pid and self._test_cpu[1] is not None else 0.0
        return cpu - base > budget

    def end_test(self) -> None:
        self.flush()


_CALL, _KEEP = Command.CALL, Reply.KEEP
_MUTABLE = (list, dict, set)
"""The containers a call may update in place, which the sandbox copies back."""
SuiteFailureTypes = (OperationFailed, MissingOperation, ServerDied)
PRESENCES = frozenset(p.value for p in Presence)


def _signature(data: Any):
    import inspect

    if data is None:
        return None
    try:
        parameters = []
        for name, kind, has_default in data:
            if not isinstance(name, str) or not isinstance(kind, int) or not isinstance(has_default, bool):
                return None
            default = None if has_default else inspect.Parameter.empty
            parameters.append(inspect.Parameter(name, inspect._ParameterKind(kind), default=default))
        return inspect.Signature(parameters)
    except (TypeError, ValueError):
        return None
