"""The test-process side of the sandbox: the implementation and its operations.

:class:`SandboxedImplementation` and :class:`SandboxedOperation` send the calls of a test
to the operation server, at once or pipelined in batches (:class:`Later` holds the
result of a call inside ``impl.batch``), read values there (fields, module attributes
through :class:`RemoteModule`, ``==``, ``dir``, ``repr``), restart a server that died,
and raise its failures as the in-process failures are raised. ``impl.working_folder()``
makes a folder in the server's shared folders and moves both processes into it, for
operations that read or write files by a relative name.
"""

from __future__ import annotations

import builtins
import contextlib
import importlib
import os
import re
import shutil
import tempfile
import time
import warnings
import weakref
from pathlib import Path
from typing import Any, Iterator

import attrs

from .. import trace
from ..core import FailureKind, ImplementationError, MissingOperation, NotImplementedOperation, OperationFailed, Presence, SuiteFailure
from ..impl import Implementation, TracedOperation, bool_problem
from ..trace import TRACE
from .config import READ_LIMIT, SandboxConfig, target_ids, wall_backstop
from .isolation import probe_isolation
from .protocol import IMPORTING, MAX_BATCH, MAX_DEPTH, MAX_FIELDS, MAX_ITEMS, MAX_NAMES, MAX_SHOWN, SPARE_HANDLES, At, Command, ErrorKind, Reply, Value
from .process import ProtocolViolation, ServerDied, Server, bounded_text
from .values import Handle, decode, Encoder, StaleHandle, TwinRegistry, uses_handles


_Pending = tuple
"""A call waiting in a batch: ``(operation, trace entry, command, later)``, where ``command`` is
its wire form (the result's handle id is ``command[At.CALL_HANDLE]``) and ``later`` the :class:`Later` its
result goes to (a call made inside :meth:`SandboxedImplementation.batch`), else None. A plain
tuple, read by unpacking: one is made per call, and a named tuple costs four times as much."""


@attrs.frozen
class _Read:
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
        return f"<result of a batched call: {self.value!r}>" if self.ready else "<result of a batched call, not yet run>"


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


class SandboxedImplementation(Implementation):
    """An implementation whose operations run in an operation server."""

    def __init__(self, path: Path, spec, config: SandboxConfig):
        super().__init__(None, spec, origin=str(path))
        self.path = path
        self.config = config
        self.server = Server(path, spec.name, config)
        self.generation = 1
        """Which server the handles belong to: it changes as soon as a server dies."""
        self.restarts = 0
        self.dead_reason = ""
        self.isolation = ""
        self._next_id = 0
        self._seq = 0
        self._pending: list[_Pending] = []
        self._batching = 0
        self._numbered: list[SandboxedOperation] = []
        self._defined: set[int] = set()
        """The operation numbers the running server has been told."""
        """How many :meth:`batch` calls are running: inside one, questions are deferred."""
        self.released: list[int] = []
        self._budget = config.test_seconds or float("inf")
        """Wall-clock seconds of messages a test may use before its processor time is asked about."""
        self._resolved: dict[tuple[str, str], tuple[bool, Any]] = {}
        self._presence: dict[str, str] | None = None
        self._constants: dict[tuple[str, str], tuple[bool, Any]] = {}
        """Module attributes read so far, by (module, name): (True, value) or (False, why not); per server."""
        self._fields: dict[tuple[int, str], tuple[bool, Any]] = {}
        """Fields read since the last operation call, by (handle id, name), as for ``_constants``."""
        self.twins = TwinRegistry(self)
        self._handles: weakref.WeakValueDictionary[int, Handle] = weakref.WeakValueDictionary()
        """The handles of values read or answered, by id: read again, the test gets the same handle."""
        self._example: object = None
        self._test_used = 0.0
        """Wall-clock time of this test's messages to the server: never less than its processor time."""
        self._test_cpu: tuple[int | None, float | None] | None = None
        """(server pid, its processor time) when this test began."""
        self._broken = ""
        self._down = False
        self._working: str | None = None
        """The server's view of the folder of the running ``working_folder()`` block, if any."""
        self.isolation = self._start(first=True)

    def __repr__(self) -> str:
        return f"<Implementation {self.origin} (sandboxed)>"

    # -- the server's life ---------------------------------------------------------------

    def _start(self, first: bool) -> str:
        try:
            reply = self.server.start()
        except ServerDied as e:
            code = self.server.exit_code
            if e.index != IMPORTING:
                said = self.server.errors()  # its folder is removed with it: the reason goes in the message
                message = f"the operation server did not start ({e.reason})" + (f"; it said: {said}" if said else "")
            elif e.hung:
                message = f"the package took more than {self.config.import_seconds:g} s to import"
            elif code is not None and code >= 0:
                message = "the program ended itself at import (os._exit)"
            else:
                message = f"the program was ended at import ({e.reason})"
            if first:
                self.server.close()
                raise ImplementationError(message) from None
            self._broken = message
            return ""
        if reply.get("error"):
            message = bounded_text(reply["error"])
            if first:
                self.server.close()
                raise ImplementationError(message)
            self._broken = message
            return ""
        return bounded_text(reply.get("isolation", ""))

    def _ensure_server(self, running: bool = False) -> None:
        """Start a server if none runs. ``running``: :meth:`_notice_death` just found it running."""
        if self._broken:
            raise OperationFailed(self._broken)
        if running or self._notice_death() or self.server.alive():
            return
        if self.restarts >= self.config.max_restarts:
            self._broken = (
                f"the implementation's process ended {self.restarts + 1} times ({self.dead_reason}); "
                "no more of its operations are run"
            )
            raise OperationFailed(self._broken)
        self.restarts += 1
        self._start(first=False)
        self._down = False
        if self._broken:
            raise OperationFailed(self._broken)
        if self._working is not None:  # a new server starts in its own folder: move it back in
            self._seq += 1
            message = {"seq": self._seq, "ops": [], "commands": [[Command.FOLDER, self._working]], "release": [], "twins": []}
            try:
                self.server.exchange(message, [READ_LIMIT, READ_LIMIT])
            except (ServerDied, ProtocolViolation) as e:
                self._lost(str(e))
                raise OperationFailed(f"the implementation's process could not enter its working folder ({e})") from None

    def _notice_death(self) -> bool:
        """A server that died between calls (nothing was running) has lost its values all the same.

        Whether the server is running, asked just now: every message asks once (a poll is a
        system call, and a run sends some 14,000 messages)."""
        process = self.server.process
        if self._down or process is None:
            return False
        if process.poll() is None:
            return True
        self._lost(self.server._death())
        return False

    def _lost(self, reason: str) -> None:
        """The server died: its values are gone."""
        self.server.kill()
        self._down = True
        self.dead_reason = reason
        self.generation += 1
        self._defined.clear()
        self.twins.reset()
        self._handles.clear()
        self.released.clear()
        self._constants.clear()
        self._fields.clear()

    def fresh_server(self) -> None:
        """Replace the server by a new one of its own (new process, scratch space and folders):
        the values of the old one are gone, as after a restart, and it does not count as one."""
        self._pending.clear()
        self._lost("replaced by a fresh server")
        self.server.close()
        self.server = Server(self.path, self.spec.name, self.config)
        self._start(first=False)
        self._down = False

    def close(self) -> None:
        self._pending.clear()
        self.server.close()

    # -- what the implementation provides -------------------------------------------------

    def module(self, module_name: str) -> "RemoteModule":
        """A read-only view of the implementation's module, or :class:`MissingOperation` saying why not."""
        problem = self._modules.get(module_name)
        if problem is None:
            try:
                self._remote(_Read([Command.MODULE, module_name, None, 0], f"importing module {module_name}", f"module {module_name}", False))
            except MissingOperation as e:
                self._modules[module_name] = str(e)
                raise
            problem = self._modules[module_name] = ""
        if problem:
            _raise(MissingOperation(problem))
        return RemoteModule(self, module_name)

    def state(self, qualname: str) -> str:
        """``"present"``, ``"missing"`` or ``"not implemented"``, as the server reads its source."""
        if self._presence is None or qualname not in self._presence:
            names = [op.qualname for op in self.spec.operations(extensions=True)]
            if qualname not in names:
                names.append(qualname)
            try:
                answer = self._exchange([[Command.PRESENCE, names]], [self.config.import_seconds * 4])
                values = answer.get("result")
                if not (isinstance(values, list) and len(values) == len(names) and all(v in PRESENCES for v in values)):
                    raise ProtocolViolation("presence answer malformed")
                self._presence = dict(zip(names, values))
            except (*SuiteFailureTypes, ProtocolViolation):
                return Presence.MISSING
        return self._presence.get(qualname, Presence.MISSING)

    def has(self, qualname: str) -> bool:
        return self.state(qualname) != Presence.MISSING

    def resolve(self, op: "SandboxedOperation") -> Any:
        """The operation's signature (or None); :class:`MissingOperation` when it cannot be called."""
        key = op.key
        known = self._resolved.get(key)
        if known is None:
            try:
                answer = self._exchange([[Command.RESOLVE, op.module_name, op.operation.name]], [self.config.import_seconds])
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
            _raise(MissingOperation(detail, op.qualname))
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
        if self._fields:
            self._fields.clear()  # the call may change what the fields read so far hold
        known = self._resolved.get(op.key)
        if known is None or not known[0]:
            try:
                self.resolve(op)
            except MissingOperation:
                self.flush()
                raise
        entry = TRACE.call(op.label, args, kwargs)
        problem = self.hung.get(op.qualname) if self.hung else None
        if problem is None and self._test_used > self._budget and self._over_test_budget():
            problem = (
                f"{op.qualname} was not called: this test's operations already took more than "
                f"{self.config.test_seconds:g} s in all"
            )
        twins: list = []
        mutable: list[int] = []
        """The test's lists, dicts and sets given to the call: they come back updated, as in process."""
        keywords: list | None = None
        if problem is None:
            encoded = self._plain_arguments(args) if not kwargs else None
            if encoded is None:
                mutable = [i for i, a in enumerate(args) if type(a) in _MUTABLE]
                encoder = Encoder(self)
                try:
                    encoded = encoder.arguments(args)
                    if kwargs:
                        keywords = [[name, encoder.encode(value)] for name, value in kwargs.items()]
                except StaleHandle as e:
                    problem = _stale(op.qualname, str(e))
                twins = encoder.twins
        if problem is not None:
            self.flush()
            entry.failed(problem)
            _raise(OperationFailed(problem))
        self._next_id += 1
        handle_id = self._next_id
        command = [_CALL, op.number, handle_id, encoded, _KEEP]
        if mutable or keywords:
            command.append(mutable)
        if keywords:
            command.append(keywords)
        pipelined = not twins and not mutable and (op.cannot_reach_kit_objects or not self.twins.pinned_ids)
        if pipelined and op.pipelinable:
            handle = Handle(handle_id, self.generation, self)
            self._defer((op, entry, command, None))
            entry.returned(handle, False)
            return handle
        if pipelined and self._batching and op.answers_by_value:
            later = Later()
            command[At.CALL_REPLY] = Reply.LATER
            self._defer((op, entry, command, later))
            return later
        encoder = None
        if twins or self.twins.pinned_ids:  # (most answered calls have no mirrored object to send)
            encoder = Encoder(self)
            encoder.twins = twins
            self.twins.send_pinned(encoder)
        command[At.CALL_REPLY] = Reply.ANSWER
        self._pending.append((op, entry, command, None))
        reply = self._run(self._pending, encoder)
        if mutable:
            self._update_arguments(args, mutable, reply.get("arguments"))
        result = self._decode_result(reply.get("result"), handle_id)
        if op.expects_bool and type(result) is not bool:
            # Checked here, on decoded data: the server's own check runs where the
            # implementation could have patched it (builtins.isinstance, say).
            problem = bool_problem(op.qualname, result)
            entry.failed(problem)
            _raise(OperationFailed(problem))
        entry.returned(result, op.expects_bool)
        return result

    def _update_arguments(self, args: tuple, mutable: list[int], updates: Any) -> None:
        """Give the test's lists, dicts and sets that a call was given what the call left in them."""
        __tracebackhide__ = True
        if not (isinstance(updates, list) and len(updates) == len(mutable)):
            self._malformed("updated arguments malformed")
        for index, item in zip(mutable, updates):
            if not (isinstance(item, list) and len(item) == 2 and item[0] == index):
                self._malformed("updated arguments malformed")
            try:
                value = decode(item[1], self, 0, 0, named=True)
            except ProtocolViolation as e:
                self._malformed(str(e))
            target = args[index]
            if type(value) is not type(target):
                self._malformed("updated arguments malformed")
            if type(target) is list:
                target[:] = value
            else:
                target.clear()
                target.update(value)

    def number_of(self, op: "SandboxedOperation") -> int:
        self._numbered.append(op)
        return len(self._numbered) - 1

    def _definitions(self, commands: list) -> list:
        """What the server must be told of the operations these commands call, before it runs them."""
        defined, new = self._defined, []
        for number in sorted({command[At.CALL_OP] for command in commands if command[At.TAG] == _CALL} - defined):
            defined.add(number)
            op = self._numbered[number]
            new.append([number, op.module_name, op.operation.name, op.qualname, op.time_limit, op.expects_bool])
        return new

    def _plain_arguments(self, args: tuple) -> list | tuple | None:
        """The wire form of arguments that are all this server's values or plain scalars; else None.

        Arguments that are all this server's values (the common case) go as a tuple of
        their ids, which the server looks up at once (:mod:`~speckit.sandbox.protocol`)."""
        held = self._held_ids(args)
        if held is not None:
            return held
        generation, encoded = self.generation, []
        for value in args:
            kind = type(value)
            if kind is Handle and value._gen == generation and value._owner is self:
                encoded.append([_HANDLE, value._hid])
            elif value is None or kind is bool or kind is int or kind is str:
                encoded.append(value)
            else:
                return None
        return encoded

    def _held_ids(self, args: tuple) -> tuple | None:
        """The ids of the arguments when every one is a value this server holds (the wire form
        of the common call, :mod:`~speckit.sandbox.protocol`), else None."""
        generation = self.generation
        for value in args:
            if type(value) is not Handle or value._gen != generation or value._owner is not self:
                return None
        return tuple([value._hid for value in args])

    def _defer(self, pending: _Pending) -> None:
        if not self._pending:
            self._watch_example()  # later pipelined calls of the same example are covered
        self._pending.append(pending)
        if len(self._pending) >= MAX_BATCH:
            self.flush()

    def batch(self, queries):
        """Call ``queries``; the results of its calls travel back together (see :meth:`Implementation.batch`)."""
        __tracebackhide__ = True
        self._batching += 1
        try:
            answers = queries()
        finally:
            self._batching -= 1
        self.flush()
        return _filled(answers)

    @contextlib.contextmanager
    def working_folder(self) -> Iterator[Path]:
        """A fresh folder both processes work in (see :meth:`Implementation.working_folder`).

        It is made in the server's shared folders (bind-mounted read-write into the server
        under bubblewrap), owned by the server's user; files the test writes there during the
        block are made group-writable for it (umask 002 in a set-group-id folder)."""
        self.flush()
        host = Path(tempfile.mkdtemp(prefix="folder-", dir=self.server.folders))
        uid, gid = target_ids(self.config)
        mask = None
        if uid is not None:
            os.chown(host, uid, gid)
            os.chmod(host, 0o2775)
            mask = os.umask(0o002)
        before = Path.cwd()
        try:
            self._folder(self.server.server_path(host))
            os.chdir(host)
            try:
                yield host
                self.flush()  # the block's pipelined calls run in the folder
            finally:
                os.chdir(before)
                try:
                    self._folder(None)
                except (*SuiteFailureTypes, ServerDied, ProtocolViolation):
                    self._working = None  # the server is gone: its next one starts in its own folder
        finally:
            if mask is not None:
                os.umask(mask)
            shutil.rmtree(host, ignore_errors=True)

    def _folder(self, path: str | None) -> None:
        """Have the server change its working folder to ``path`` (None: its own)."""
        self._working = path
        if path is None and (self._down or not self.server.alive()):
            return  # a new server starts in its own folder anyway
        answer = self._exchange([[Command.FOLDER, path]], [READ_LIMIT, READ_LIMIT])
        problem = answer.get("result")
        if problem is not None:
            raise OperationFailed(f"the implementation's process could not enter its working folder: {bounded_text(problem)}")

    def flush(self) -> None:
        """Run the pipelined calls now; raise the first one's failure as if raised at its call."""
        __tracebackhide__ = True
        if self._pending:
            self._run(self._pending, None)

    def _run(self, batch: list[_Pending], encoder: "Encoder | None", read: "_Read | None" = None) -> dict:
        """Run the batch of calls (and, after them, the ``read``); raise the first failure as if raised where it was made."""
        __tracebackhide__ = True
        self._pending = []  # (``batch`` may be the list that was pending)
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
        generation = self.generation
        running = self._notice_death()
        if self.generation != generation:
            # The server died while idle, after these calls were given its values.
            stale = next((i for i, (_, _, command, _) in enumerate(batch) if uses_handles(command[At.CALL_ARGUMENTS])), None)
            if stale is not None:
                self._fail(batch, stale, _stale(batch[stale][0].qualname, self.dead_reason))
            if read is not None and read.uses_handles:
                self._fail(batch, len(batch), _stale(read.label, self.dead_reason))
        try:
            reply = self._exchange(commands, limits, twins, running=running)
        except OperationFailed as e:
            failure = (0, str(e), OperationFailed)
        except ServerDied as e:
            if e.index >= len(commands):  # while releasing values, after every command ran
                if e.hung:
                    release_problem = f"releasing a value took more than {READ_LIMIT:g} s"
                else:
                    release_problem = f"releasing a value ended the implementation's process ({e.reason})"
            index = min(max(e.index, 0), len(commands) - 1)
            qualname = read.label if index == len(batch) else batch[index][0].qualname
            if e.hung:
                problem = f"{qualname} did not return within {limits[index]:g} s (an endless loop?); it is not called again in this run"
            else:
                problem = f"{qualname} ended the implementation's process ({e.reason}); it is not called again in this run"
            if release_problem is None:
                self.hung[read.key if index == len(batch) else qualname] = problem
                failure = (index, problem, OperationFailed)
        finally:
            self._test_used += time.monotonic() - started
        if release_problem is not None:
            self._pending.clear()
            _raise(OperationFailed(release_problem))
        if failure is None and reply.get("error") is not None:
            try:
                index, kind, problem = _error_fields(reply["error"], len(commands))
            except ProtocolViolation as e:
                self._lost(f"it wrote into the grader's channel ({e})")
                index, kind, problem = len(commands) - 1, "failed", f"the implementation's process sent a malformed answer ({e}) and was stopped"
            if index == len(commands):
                self._pending.clear()
                _raise(OperationFailed(problem))  # releasing a value failed: no call's fault
            if index == len(batch):
                key, errors = read.key, READ_ERRORS
            else:
                key, errors = batch[index][0].qualname, CALL_ERRORS
            if kind == FailureKind.HUNG:
                self.hung[key] = problem
            failure = (index, problem, errors.get(kind, OperationFailed), self._raised_class(reply["error"].get("raised")))
        if failure is None and any(later is not None for _, _, _, later in batch):
            failure = self._fill_later(batch, reply.get("results"))
        if failure is not None:
            self._fail(batch, *failure)
        return reply

    def _fill_later(self, batch: list[_Pending], results: Any) -> tuple | None:
        """Give the batched calls their results; a failure tuple when the server's answer is malformed."""
        wanted = [(index, p) for index, p in enumerate(batch) if p[3] is not None]
        try:
            if not isinstance(results, list) or len(results) != len(wanted):
                raise ProtocolViolation("batched results malformed")
            for (index, pending), item in zip(wanted, results):
                if not (isinstance(item, list) and len(item) == 2 and item[0] == index):
                    raise ProtocolViolation("batched results malformed")
                operation, entry, command, later = pending
                value = decode(item[1], self, command[At.CALL_HANDLE], 0)
                if operation.expects_bool and type(value) is not bool:
                    return index, bool_problem(operation.qualname, value), OperationFailed
                later.value, later.ready = value, True
                entry.returned(value, operation.expects_bool)
        except ProtocolViolation as e:
            self._lost(f"it wrote into the grader's channel ({e})")
            return len(batch) - 1, f"the implementation's process sent a malformed answer ({e}) and was stopped", OperationFailed
        return None

    def _raised_class(self, name: Any) -> type | None:
        """The exception class ``module.Class`` the server named, if it is a builtin one or one of
        the kit's supplied modules (no other module is looked at)."""
        if not isinstance(name, str):
            return None
        module, _, qualname = name.rpartition(".")
        if module == "builtins":
            found = getattr(builtins, qualname, None)
        elif module in self.spec.kit.supplied:
            found = getattr(importlib.import_module(module), qualname, None)
        else:
            return None
        return found if isinstance(found, type) and issubclass(found, BaseException) else None

    def _fail(self, batch: list[_Pending], index: int, problem: str, exception: type = OperationFailed, raised: type | None = None):
        """Fail the test as if the ``index``-th call of the batch had failed where it was made."""
        __tracebackhide__ = True
        self._pending.clear()
        error = exception(problem)
        if raised is not None:
            error.raised = raised
        if index == len(batch):  # the read after the calls: nothing of the trace to undo
            _raise(error)
        _, entry, _, _ = batch[index]
        if exception is OperationFailed:
            entry.failed(problem)
        entries = TRACE.entries
        for position, candidate in enumerate(entries):
            if candidate is entry:
                del entries[position + 1 :]
                break
        _raise(error)

    def _exchange(self, commands: list, limits: list[float], twins: list | None = None, running: bool = False) -> dict:
        """Send one message and read its answer; a dead or lying server is killed (ServerDied).

        The values the tests dropped are released only by a message that carries the pending
        calls (a pending call may still be given one of them). ``running``: whether
        :meth:`_notice_death` just found the server running.
        """
        self._ensure_server(running)
        self._seq += 1
        release: list[int] = []
        if not self._pending:
            release, self.released = self.released, release
        message = {
            "seq": self._seq,
            "ops": self._definitions(commands),
            "commands": commands,
            "release": release,
            "twins": twins or [],
        }
        try:
            reply = self.server.exchange(message, limits)
        except ServerDied as e:
            self._lost(e.reason)
            raise
        except ProtocolViolation as e:
            reason = f"it wrote into the grader's channel ({e})"
            index = min(self.server.progress_index(self._seq), len(commands) - 1)  # a forged answer is no release
            self._lost(reason)
            raise ServerDied(index, reason) from None
        try:
            twins = reply.get("twins")
            if twins is not None:
                self.twins.apply(twins)
        except ProtocolViolation as e:
            reason = f"it wrote into the grader's channel ({e})"
            self._lost(reason)
            raise ServerDied(len(commands) - 1, reason) from None
        return reply

    def _decode_result(self, encoded: Any, handle_id: int) -> Any:
        try:
            return decode(encoded, self, handle_id, 0)
        except ProtocolViolation as e:
            problem = f"the implementation's process sent a malformed answer ({e}) and was stopped"
            self._lost(f"it wrote into the grader's channel ({e})")
        _raise(OperationFailed(problem))

    # -- reading values: fields, module constants, ==, dir, repr ---------------------------------

    def _remote(self, read: _Read) -> Any:
        """Run ``read`` after the pending calls; its encoded answer."""
        __tracebackhide__ = True
        problem = self.hung.get(read.key) if self.hung else None
        if problem is not None:
            self.flush()
            _raise(OperationFailed(problem))
        return self._run(self._pending, None, read).get("result")

    def _wire(self, handle: Handle, label: str) -> list:
        """How the server names the value of ``handle``; a failure if that value no longer exists."""
        if handle._owner is not self or handle._gen != self.generation:
            _raise(OperationFailed(_stale(label, self.dead_reason or "the value belongs to another implementation")))
        return [Value.HANDLE, handle._hid]

    def read_attribute(self, handle: Handle, name: str) -> Any:
        """``handle.name``, read in the server: a plain value or a new handle; AttributeError if it has none."""
        __tracebackhide__ = True
        if not (name.isidentifier() and len(name) <= 100):
            raise AttributeError(name)
        key = (handle._hid, name)
        known = self._fields.get(key) if handle._gen == self.generation else None
        if known is None:
            label = f"reading the field {name} of a value"
            handle_id, spare = self.new_id(), [self.new_id() for _ in range(SPARE_HANDLES)]
            try:
                answer = self._remote(_Read([Command.FIELD, self._wire(handle, label), name, handle_id, spare], label, f"field {name}"))
            except AttributeError as e:
                known = (False, str(e))
            else:
                encoded, others = self._field_answer(answer, spare)
                known = (True, self._decode_result(encoded, handle_id))
                for other, value in others:
                    self._fields.setdefault((handle._hid, other), (True, value))
            self._fields[key] = known
        found, value = known
        if not found:
            raise AttributeError(value)
        return value

    def _field_answer(self, answer: Any, spare: list[int]) -> tuple[Any, list[tuple[str, Any]]]:
        """The encoded field a read asked for, and the record's other fields sent along, decoded."""
        __tracebackhide__ = True
        if not (isinstance(answer, list) and len(answer) == 2 and isinstance(answer[1], list) and len(answer[1]) <= MAX_FIELDS):
            self._malformed("field answer malformed")
        encoded, others = answer
        unused, decoded = list(spare), []
        for item in others:
            if not (isinstance(item, list) and len(item) == 3 and isinstance(item[0], str) and item[0].isidentifier() and len(item[0]) <= 100):
                self._malformed("field answer malformed")
            name, value, handle_id = item
            if handle_id is not None:
                if handle_id not in unused:
                    self._malformed("field answer names a handle it was not offered")
                unused.remove(handle_id)
            try:
                # Without an id, the value must be plain: depth 1 refuses a handle.
                decoded.append((name, decode(value, self, handle_id or 0, 0 if handle_id is not None else 1)))
            except ProtocolViolation as e:
                self._malformed(str(e))
        return encoded, decoded

    def module_attribute(self, module_name: str, name: str) -> Any:
        """``module.name`` of the implementation's module, read in the server; AttributeError if it has none."""
        __tracebackhide__ = True
        if not (name.isidentifier() and len(name) <= 100):
            raise AttributeError(name)
        key = (module_name, name)
        known = self._constants.get(key)
        if known is None:
            label = f"reading {module_name}.{name}"
            handle_id = self.new_id()
            try:
                encoded = self._remote(_Read([Command.MODULE, module_name, name, handle_id], label, f"{module_name}.{name}", False))
            except AttributeError as e:
                known = self._constants[key] = (False, str(e))
            else:
                known = self._constants[key] = (True, self._decode_result(encoded, handle_id))
        found, value = known
        if not found:
            raise AttributeError(value)
        return value

    def compare(self, handle: Handle, other: Any) -> Any:
        """``handle == other``, decided by the server's ``==``; NotImplemented for what cannot cross."""
        __tracebackhide__ = True
        label = "comparing values with =="
        if type(other) is Handle:
            if other._owner is not self:
                return NotImplemented
            wire = self._wire(other, label)
        else:
            encoder = Encoder(self)
            try:
                wire = encoder.encode(other)
            except (TypeError, StaleHandle):
                return NotImplemented
            if encoder.twins:
                return NotImplemented
        answer = self._remote(_Read([Command.EQUALS, self._wire(handle, label), wire], label, "=="))
        if type(answer) is not bool:
            self._malformed("comparison answer malformed")
        return answer

    def items(self, handle: Handle) -> tuple[bool, bool, list]:
        """The items of the value, iterated in the server, as ``(sized, indexable, items)``;
        TypeError, as in process, if the value is not iterable."""
        __tracebackhide__ = True
        label = "iterating over a value"
        first_id = self._next_id + 1
        self._next_id += MAX_ITEMS  # ids for the items that stay in the server
        answer = self._remote(_Read([Command.ITEMS, self._wire(handle, label), first_id], label, "iter"))
        if answer is None:
            raise TypeError("the value is not iterable")
        if not (isinstance(answer, list) and len(answer) == 3 and type(answer[0]) is bool and type(answer[1]) is bool
                and isinstance(answer[2], list) and len(answer[2]) <= MAX_ITEMS):  # fmt: skip
            self._malformed("items malformed")
        sized, indexable, encoded = answer
        return sized, indexable, [self._decode_result(item, first_id + i) for i, item in enumerate(encoded)]

    def names(self, handle: Handle) -> list[str]:
        """``dir(handle)``, as the server sees the value (at most :data:`MAX_NAMES` names)."""
        __tracebackhide__ = True
        label = "listing the attributes of a value"
        answer = self._remote(_Read([Command.NAMES, self._wire(handle, label)], label, "dir"))
        if not (isinstance(answer, list) and len(answer) <= MAX_NAMES and all(isinstance(n, str) and len(n) <= 100 for n in answer)):
            self._malformed("attribute names malformed")
        return answer

    def shown(self, handle: Handle) -> str:
        """The server's ``repr`` of the value (bounded), or the handle's own when it cannot be had."""
        if handle._owner is not self or handle._gen != self.generation or self._broken or not self.server.alive():
            return repr(handle)
        try:
            answer = self._remote(_Read([Command.SHOW, [Value.HANDLE, handle._hid]], "the repr of a value", "repr"))
        except (SuiteFailure, AttributeError):
            return repr(handle)
        if not (isinstance(answer, str) and len(answer) <= MAX_SHOWN):
            return repr(handle)
        return answer

    def _malformed(self, problem: str) -> None:
        __tracebackhide__ = True
        self._lost(f"it wrote into the grader's channel ({problem})")
        _raise(OperationFailed(f"the implementation's process sent a malformed answer ({problem}) and was stopped"))

    # -- handles ------------------------------------------------------------------------------

    def new_id(self) -> int:
        self._next_id += 1
        return self._next_id

    def handle(self, handle_id: int, known: bool = False) -> Handle:
        """The handle of the server's value ``handle_id``: the one the test holds, if it holds one.

        ``known``: the server names a value it held before (or, negative, one it chose an id
        for); if the test just dropped its handle, the release is taken back.
        """
        found = self._handles.get(handle_id)
        if found is not None:
            return found
        if known:
            if handle_id > self._next_id or handle_id == 0:
                raise ProtocolViolation("result names a value the test was never given")
            if handle_id in self.released:
                self.released.remove(handle_id)
        handle = self._handles[handle_id] = Handle(handle_id, self.generation, self)
        return handle

    # -- tests and examples --------------------------------------------------------------------

    def begin_test(self) -> None:
        self._test_used = 0.0
        self._test_cpu = (self.server.server_pid(), self.server.cpu_seconds()) if self.server.alive() else None
        self._example = None

    def _over_test_budget(self) -> bool:
        """Whether this test's operations used more than ``test_seconds`` of the server's processor
        time, or their wall-clock backstop; asked only once their wall-clock time (never less
        than their processor time) is over ``test_seconds``.

        A server started during the test counts from its start (the processor time of one
        that died is not counted: it is gone with it).
        """
        budget = self.config.test_seconds
        if self._test_used > wall_backstop(budget, self.config.wall_factor):
            return True
        pid, cpu = self.server.server_pid(), self.server.cpu_seconds()
        if cpu is None:
            return True  # cannot be measured: the wall clock, which is over, decides
        base = self._test_cpu[1] if self._test_cpu is not None and self._test_cpu[0] == pid and self._test_cpu[1] is not None else 0.0
        return cpu - base > budget

    def end_test(self) -> None:
        self.flush()

    def _watch_example(self) -> None:
        """Make sure a Hypothesis example's pipelined calls are run before the example ends."""
        example = trace.current_example()
        if example is None or example is self._example:
            return
        self._example = example
        try:
            from hypothesis.control import cleanup

            cleanup(self.flush)
        except Exception:  # noqa: BLE001 - outside a test: flushed at the end of the test
            pass


_CALL, _KEEP, _LATER, _HANDLE = Command.CALL, Reply.KEEP, Reply.LATER, Value.HANDLE
_MUTABLE = (list, dict, set)
"""The containers a call may update in place, which the sandbox copies back."""
SuiteFailureTypes = (OperationFailed, MissingOperation, ServerDied)
CALL_ERRORS = {ErrorKind.MISSING: MissingOperation, FailureKind.NOT_IMPLEMENTED: NotImplementedOperation}
"""The exception a failure of each kind the server reports is raised as (else OperationFailed)."""
READ_ERRORS = {**CALL_ERRORS, ErrorKind.ATTRIBUTE: AttributeError}
PRESENCES = frozenset(p.value for p in Presence)


class RemoteModule:
    """A read-only view of a module of the sandboxed implementation: reading an attribute reads
    it in the server (constants by value, other objects as handles)."""

    __slots__ = ("_owner", "_name")

    def __init__(self, owner: SandboxedImplementation, name: str):
        object.__setattr__(self, "_owner", owner)
        object.__setattr__(self, "_name", name)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return self._owner.module_attribute(self._name, name)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"module {self._name} of a sandboxed implementation is read-only")

    __delattr__ = __setattr__

    def __repr__(self) -> str:
        return f"<module {self._name} of the sandboxed implementation>"


def shown(value: Any, depth: int = 0) -> str:
    """``repr(value)``, with the server's repr of each sandboxed value in it (for failure messages)."""
    kind = type(value)
    if kind is Handle:
        return value._owner.shown(value)
    if depth < 3 and kind in (tuple, list) and len(value) <= 20:
        items = [shown(v, depth + 1) for v in value]
        if kind is tuple:
            return f"({items[0]},)" if len(items) == 1 else f"({', '.join(items)})"
        return f"[{', '.join(items)}]"
    if depth < 3 and kind is dict and len(value) <= 20:
        return "{" + ", ".join(f"{shown(k, depth + 1)}: {shown(v, depth + 1)}" for k, v in value.items()) + "}"
    return repr(value)


def _stale(qualname: str, reason: str) -> str:
    return f"{qualname} was given a value made by an earlier run of the implementation, which ended ({reason}); that value no longer exists"


def _raise(error: BaseException) -> None:
    """Every failure of a sandboxed call is raised from this one line, as in-process failures are
    raised from one line of TracedOperation: Hypothesis then sees one consistent failure."""
    __tracebackhide__ = True
    raise error.with_traceback(None)


class SandboxedOperation(TracedOperation):
    """A traced operation whose calls go to the operation server."""

    def __init__(self, impl: SandboxedImplementation, operation, module_name: str):
        super().__init__(impl, operation, module_name)
        self.qualname = operation.qualname
        self.key = (module_name, operation.name)
        self.fast = False
        """Whether its calls may take the short way of :meth:`__call__`: it is pipelinable, or
        answers by value (inside a batch), and the implementation was found to have it
        (then it has it for every server)."""
        self.number = impl.number_of(self)
        """How calls name the operation on the wire (defined to each server once)."""
        result_type = impl.spec.type(operation.result) if _is_type(impl.spec, operation.result) else None
        by_value = operation.qualname in impl.spec.kit.results_by_value
        self.pipelinable = result_type is not None and not result_type.supplied and not documents_raising(operation) and not by_value
        """Its result stays in the server and it cannot fail by design: the test goes on with a handle."""
        self.answers_by_value = by_value or result_type is None
        """Its result is a plain value (a Boolean, say), which inside a batch can come back later; for an
        operation the specification's ``[kit] results_by_value`` names, a plain value if the result is one."""
        holders = kit_object_holders(impl.spec)
        self.cannot_reach_kit_objects = all(p.type not in holders for p in operation.params)
        """None of its parameters can hold (the specification's components say) a Display or an Input."""

    def function(self):
        signature = self.impl.resolve(self)
        return RemoteFunction(self, signature)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Call the operation (:meth:`SandboxedImplementation.call`).

        Most calls of a run (hundreds of thousands in a suite) are handled here: a
        pipelinable operation the implementation has (or, inside ``impl.batch``, one that
        answers by value), given this server's values (or none), in a test within its
        time budget, with no operation hung and no kit object in reach. This does exactly
        what ``call`` does for such a call, in fewer steps; any other call goes to ``call``.
        The steps of :meth:`~SandboxedImplementation._held_ids`, ``_defer`` and
        ``Entry.returned`` are written out here on purpose: calling them made each call
        about a fifth dearer (1.3 µs of the test process's 6).
        """
        __tracebackhide__ = True
        impl = self.impl
        if (
            kwargs
            or not self.fast
            or impl.hung
            or impl._test_used > impl._budget
            or (impl.twins.pinned_ids and not self.cannot_reach_kit_objects)
            or not (self.pipelinable or impl._batching)
        ):
            return impl.call(self, args, kwargs)
        generation = impl.generation
        count = len(args)
        if count == 1:
            (first,) = args
            if type(first) is not Handle or first._gen != generation or first._owner is not impl:
                return impl.call(self, args, kwargs)
            encoded: tuple = (first._hid,)
        elif count == 2:
            first, second = args
            if (
                type(first) is not Handle or first._gen != generation or first._owner is not impl
                or type(second) is not Handle or second._gen != generation or second._owner is not impl
            ):  # fmt: skip
                return impl.call(self, args, kwargs)
            encoded = (first._hid, second._hid)
        else:
            for value in args:
                if type(value) is not Handle or value._gen != generation or value._owner is not impl:
                    return impl.call(self, args, kwargs)
            encoded = tuple([value._hid for value in args])
        if impl._fields:
            impl._fields.clear()  # the call may change what the fields read so far hold
        entry = TRACE.call(self.label, args, kwargs)
        impl._next_id += 1
        handle_id = impl._next_id
        pending = impl._pending
        if not self.pipelinable:  # inside impl.batch: the plain result comes back with the batch
            later = Later()
            if not pending:
                impl._watch_example()
            pending.append((self, entry, [_CALL, self.number, handle_id, encoded, _LATER], later))
            if len(pending) >= MAX_BATCH:
                impl.flush()
            return later
        handle = Handle(handle_id, generation, impl)
        if not pending:
            impl._watch_example()  # later pipelined calls of the same example are covered
        pending.append((self, entry, [_CALL, self.number, handle_id, encoded, _KEEP], None))
        if len(pending) >= MAX_BATCH:
            impl.flush()
        entry.result, entry.named = handle, True  # entry.returned(handle, False)
        return handle


SandboxedImplementation.operation_class = SandboxedOperation

_HOLDERS: dict[str, frozenset[str]] = {}


def kit_object_holders(spec) -> frozenset[str]:
    """The types whose values may hold the kit's objects: the supplied types, and the types
    whose components (as the specification lists them) mention one of those, transitively."""
    found = _HOLDERS.get(spec.name)
    if found is None:
        holders = {t.name for t in spec.types if t.supplied}
        changed = True
        while changed:
            changed = False
            for t in spec.types:
                if t.name not in holders and any(h in component for component in t.components for h in holders):
                    holders.add(t.name)
                    changed = True
        found = _HOLDERS[spec.name] = frozenset(holders)
    return found


_RAISES = re.compile(r"\braises?\b")


def documents_raising(operation) -> bool:
    """Whether the specification documents the operation raising an exception (its preconditions
    or decision table say it raises): its call is never pipelined, so that the exception reaches
    the test at the call, where a test expecting it catches it."""
    return any(_RAISES.search(text) for text in (*operation.preconditions, *operation.decisions))


def _is_type(spec, name: str) -> bool:
    try:
        spec.type(name)
    except KeyError:
        return False
    return True


class RemoteFunction:
    """What ``TracedOperation.function()`` gives in the sandbox: callable, with the server's signature."""

    def __init__(self, operation: SandboxedOperation, signature):
        self._operation = operation
        self._signature = signature

    @property
    def __signature__(self):
        if self._signature is None:
            raise ValueError(f"{self._operation.label}: its signature cannot be inspected")
        return self._signature

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._operation(*args, **kwargs)


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


def _error_fields(error: Any, count: int) -> tuple[int, str, str]:
    if not (isinstance(error, dict) and isinstance(error.get("at"), int) and isinstance(error.get("kind"), str)):
        raise ProtocolViolation("error answer malformed")
    index = error["at"]
    if not (0 <= index < count or (index == count and error["kind"] == ErrorKind.RELEASE)):
        raise ProtocolViolation("error names no command of the request")
    return index, error["kind"], bounded_text(error.get("message"))
