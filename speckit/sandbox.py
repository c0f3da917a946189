"""The operation server: an implementation's operations run in a separate, confined process.

``pytest --sandbox --impl PATH`` (and ``speckit grade``) never import the implementation
into the test process. The tests run as usual in pytest; only the implementation's
operations run in a child process, the *operation server*, and every call of a
:class:`~speckit.impl.TracedOperation` crosses the process boundary:

* values the implementation makes stay in the server; the tests hold :class:`Handle`
  objects, which they pass back into operations. ``None``, bools, ints, floats, strings
  and tuples, lists and dicts of them cross by value. A test may also read a handle
  (a field, ``==``, ``dir``; ``repr`` in failure messages) and the attributes of a
  module (``impl.module(name)``, a :class:`RemoteModule`): each read runs in the
  server after the pending calls, with the time limit and failure rules of a call.
  The kit's own Display and Input objects (and text streams) that a test passes in are
  mirrored: the server gets a twin, and what the operation writes or reads through it
  is copied back to the test's object.
* calls whose result is a value of a specified type, and whose arguments hold no
  mirrored object, are *pipelined*: the test goes on at once with a handle and the
  calls travel in one batch with the next call whose result the test needs (a Boolean,
  say), at the end of each Hypothesis example and at the end of each test. Inside
  :meth:`SandboxedImplementation.batch` the calls with plain results are pipelined too:
  the test gets a :class:`Later`, filled in when the batch has run. A failure
  of a pipelined call fails the test exactly as if it had happened at the call: the
  trace stops at that call and its message is the in-process message.
* each call has its own time limit, enforced inside the server by a watchdog timer
  that ticks while it works and, should the implementation defeat it, by the test
  process, which kills the server.

The server is started when the implementation is loaded (it imports the package's
``__init__.py``; modules are imported when an operation first needs them) and is
restarted after it dies or is killed. A restart invalidates the handles of the old
server: a test still holding one fails, saying so. The operation that was running when
the server died (or hung) is not called again in this run, like an operation that hung
in-process, so Hypothesis sees one consistent failure.

Confinement of the server (what the machine can enforce; see ``docs/grading.rst``):

* when the test process runs as root, the server drops to an unprivileged uid and gid
  (``nobody`` unless the configuration names another; ``speckit grade`` gives each
  concurrent submission its own), with no supplementary groups and ``no_new_privs``:
  it cannot signal, trace or read the memory of the test process or of another
  submission's server, and it cannot create processes (``RLIMIT_NPROC`` 0 applies to
  non-root users), nor execute programs;
* in a private mount namespace (root only; skipped, and reported, where the kernel
  refuses): the kit's checkout is replaced by an empty directory holding only the
  reference packages the server needs (``adt``, ``spec``, ``speckit``), so the suite's
  tests and the repository history cannot be read; the configured folders (the
  grader's private copy of the tests and rubric, the output folder, the submissions
  folder) are hidden; unreachable ancestors of the Python installation (``/root``) are
  replaced by a directory holding only the installation; ``/tmp``, ``/var/tmp`` and
  ``/dev/shm`` are fresh, small tmpfs, and the working directory is an empty folder there;
* resource limits: address space, processor seconds, file size, open files, no core
  dumps, no locked memory; stdin is ``/dev/null``, stdout and stderr are ``/dev/null``
  and Python's ``sys.stdout``/``sys.stderr`` refuse more than a bounded amount per call;
  the environment is replaced (``PYTHONHASHSEED=0``; ``random`` is seeded with 0) so
  runs are repeatable;
* the channel is two pipes and a progress page; the test process reads only length-
  prefixed JSON (never pickle), bounded in size, validates every message against the
  request it answers (sequence number, shape, handle ids, twin ids, types), and kills
  the server on anything else. The server can therefore only ever make the test
  process see what an implementation could return anyway.

Without root the server still runs in its own process with the resource limits, but
as the same user and without namespaces.
"""

from __future__ import annotations

import ctypes
import errno
import io
import itertools
import json
import mmap
import os
import select
import signal
import struct
import subprocess
import sys
import tempfile
import time
import weakref
from pathlib import Path
from typing import Any

import attrs

from . import impl as impl_loader
from .impl import (
    DEFAULT_TIME_LIMIT,
    HUNG,
    NOT_IMPLEMENTED,
    Implementation,
    ImplementationError,
    MissingOperation,
    NotImplementedOperation,
    OperationFailed,
    SuiteFailure,
    TracedOperation,
    bool_problem,
    failure_of,
)
from .paths import REPO_ROOT
from .trace import TRACE, _current_example

NOBODY = 65534
HEADER = struct.Struct(">I")
PROGRESS = struct.Struct("<q")
"""The progress page: one 64-bit word, ``seq << 20 | index`` of the command the server is running."""
INDEX_BITS = 20
MAX_REPLY = 8 * 2**20
"""Bytes of one message from the server; a longer one is a protocol violation."""
MAX_BATCH = 512
"""Pipelined calls sent in one message at most."""
MAX_LINES = 10_000
"""Scripted input lines mirrored into the server at most."""
MAX_DEPTH = 20
MAX_MESSAGE = 4000
"""Characters of a failure message kept from the server."""

KIT_PACKAGES = ("adt", "spec", "speckit", "reference_games")
"""The kit's packages the server imports (the reference for hybrid packages, Display, Input)."""

READ_LIMIT = DEFAULT_TIME_LIMIT
"""Seconds one read of a value (a field, a module constant, ==, dir, repr) may take in the server."""
MAX_NAMES = 200
"""Names of a value's attributes (``dir``) kept from the server."""
MAX_SHOWN = 200
"""Characters of a value's ``repr`` kept from the server."""


class SandboxError(RuntimeError):
    """The operation server cannot be started at all (a problem of the machine, not of the implementation)."""


@attrs.frozen
class SandboxConfig:
    """How the operation server is confined. Every field has a safe default."""

    uid: int | None = None
    """The unprivileged user the server runs as when started by root (default: nobody)."""
    gid: int | None = None
    memory_mb: int = 1024
    """Address-space limit of the server."""
    cpu_seconds: int = 600
    """Processor seconds one server process may use in all (a restart starts afresh)."""
    output_kb: int = 1024
    """Output the implementation may print per call, and the size of any file it writes."""
    scratch_mb: int = 32
    """Size of the server's fresh /tmp (namespaces only)."""
    open_files: int = 64
    import_seconds: float = 10.0
    """Time to import the package or one of its modules."""
    test_seconds: float = 0.0
    """Operation time one test may use in all; 0 for no limit."""
    max_restarts: int = 20
    """Server restarts in one run, after which every call fails."""
    grace: float = 1.5
    """Seconds past a call's limit before the test process kills a server that did not stop it."""
    hide: tuple[str, ...] = attrs.field(default=(), converter=tuple)
    """Folders and files the server must not see (hidden in its mount namespace)."""
    namespace: bool = True
    """Use a private mount namespace when the kernel allows it."""
    require_isolation: bool = False
    """Refuse to run (SandboxError) unless the server runs unprivileged in its own mount namespace."""

    @classmethod
    def from_file(cls, path: str | Path) -> "SandboxConfig":
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        known = {f.name for f in attrs.fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"{path}: unknown sandbox settings {unknown}")
        return cls(**data)

    def to_json(self) -> str:
        return json.dumps(attrs.asdict(self), sort_keys=True)


# ----------------------------------------------------------------------------------------
# Test-process side
# ----------------------------------------------------------------------------------------


class Handle:
    """A value that lives in the operation server.

    Tests pass it back into operations, and may read it as the implementation's own
    objects are read: ``handle.field`` (a plain value, or another handle), ``==`` and
    ``!=``, ``hasattr`` and ``dir``. Each read runs in the server, under the time limit of
    an operation; a missing attribute is an AttributeError, as in-process. ``repr`` is
    local (it is shown in every trace); failure messages ask the server with :func:`shown`.
    A handle hashes by identity.
    """

    __slots__ = ("_hid", "_gen", "_owner", "__weakref__")

    def __init__(self, id: int, generation: int, owner: "SandboxedImplementation"):
        self._hid = id
        self._gen = generation
        self._owner = owner

    def __repr__(self) -> str:
        return f"<value #{self._hid} of the sandboxed implementation>"

    def __getattr__(self, name: str):
        if name.startswith("__"):
            raise AttributeError(name)
        return self._owner._read_attribute(self, name)

    def __eq__(self, other: Any):
        return self._owner._compare(self, other)

    def __ne__(self, other: Any):
        same = self._owner._compare(self, other)
        return same if same is NotImplemented else not same

    __hash__ = object.__hash__

    def __dir__(self) -> list[str]:
        return self._owner._names(self)

    def __del__(self) -> None:
        try:
            self._owner._released_handle(self)
        except Exception:  # noqa: BLE001 - interpreter shutdown
            pass


class ServerDied(Exception):
    """The server ended (or was killed) while answering: at which command, and why."""

    def __init__(self, index: int, reason: str, hung: bool = False):
        super().__init__(reason)
        self.index = index
        self.reason = reason
        self.hung = hung


class ProtocolViolation(Exception):
    """The server sent something that is not a valid answer."""


@attrs.define
class _Pending:
    operation: "SandboxedOperation"
    entry: Any
    handle_id: int
    command: list
    later: "Later | None" = None
    """Where the result goes, for a call made inside :meth:`SandboxedImplementation.batch`."""


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
    return SandboxedImplementation(path, spec, config)


class SandboxedImplementation(Implementation):
    """An implementation whose operations run in an operation server."""

    def __init__(self, path: Path, spec, config: SandboxConfig):
        super().__init__(None, spec, origin=str(path))
        self.path = path
        self.config = config
        self.server = _Server(path, spec.name, config)
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
        self._released: list[int] = []
        self._resolved: dict[tuple[str, str], tuple[bool, Any]] = {}
        self._presence: dict[str, str] | None = None
        self._constants: dict[tuple[str, str], tuple[bool, Any]] = {}
        """Module attributes read so far, by (module, name): (True, value) or (False, why not); per server."""
        self._fields: dict[tuple[int, str], tuple[bool, Any]] = {}
        """Fields read since the last operation call, by (handle id, name), as for ``_constants``."""
        self._twins = _TwinRegistry(self)
        self._example: object = None
        self._test_used = 0.0
        self._broken = ""
        self._down = False
        self.isolation = self._start(first=True)

    def __repr__(self) -> str:
        return f"<Implementation {self.origin} (sandboxed)>"

    # -- the server's life ---------------------------------------------------------------

    def _start(self, first: bool) -> str:
        try:
            reply = self.server.start()
        except ServerDied as e:
            message = f"{self.path}/__init__.py could not be imported: it ended the process ({e.reason})"
            if first:
                self.server.close()
                raise ImplementationError(message) from None
            self._broken = message
            return ""
        if reply.get("error"):
            message = _text(reply["error"])
            if first:
                self.server.close()
                raise ImplementationError(message)
            self._broken = message
            return ""
        return _text(reply.get("isolation", ""))

    def _ensure_server(self) -> None:
        if self._broken:
            raise OperationFailed(self._broken)
        self._notice_death()
        if self.server.alive():
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

    def _notice_death(self) -> None:
        """A server that died between calls (nothing was running) has lost its values all the same."""
        if not self._down and self.server.process is not None and self.server.process.poll() is not None:
            self._lost(self.server._death())

    def _lost(self, reason: str) -> None:
        """The server died: its values are gone."""
        self.server.kill()
        self._down = True
        self.dead_reason = reason
        self.generation += 1
        self._defined.clear()
        self._twins.reset()
        self._released.clear()
        self._constants.clear()
        self._fields.clear()

    def close(self) -> None:
        self._pending.clear()
        self.server.close()

    # -- what the implementation provides -------------------------------------------------

    def module(self, module_name: str) -> "RemoteModule":
        """A read-only view of the implementation's module, or :class:`MissingOperation` saying why not."""
        problem = self._modules.get(module_name)
        if problem is None:
            try:
                self._remote(_Read(["m", module_name, None, 0], f"importing module {module_name}", f"module {module_name}", False))
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
                answer = self._exchange([["p", names]], [self.config.import_seconds * 4])
                values = answer["result"]
                if not (isinstance(values, list) and len(values) == len(names) and all(v in STATES for v in values)):
                    raise ProtocolViolation("presence answer malformed")
                self._presence = dict(zip(names, values))
            except (SuiteFailureTypes, ProtocolViolation):
                return "missing"
        return self._presence.get(qualname, "missing")

    def has(self, qualname: str) -> bool:
        return self.state(qualname) != "missing"

    def resolve(self, op: "SandboxedOperation") -> Any:
        """The operation's signature (or None); :class:`MissingOperation` when it cannot be called."""
        key = op.key
        known = self._resolved.get(key)
        if known is None:
            try:
                answer = self._exchange([["r", op.module_name, op.operation.name]], [self.config.import_seconds])
            except ServerDied as e:
                known = (False, f"module {op.module_name} could not be imported: importing it ended the process ({e.reason})")
            except OperationFailed as e:
                known = (False, str(e))
            else:
                result = answer["result"]
                if not isinstance(result, dict):
                    raise ProtocolViolation("resolve answer malformed")
                if "missing" in result:
                    known = (False, _text(result["missing"]))
                else:
                    known = (True, _signature(result.get("signature")))
            self._resolved[key] = known
        ok, detail = known
        if not ok:
            _raise(MissingOperation(detail))
        return detail

    # -- calls ------------------------------------------------------------------------------

    def call(self, op: "SandboxedOperation", args: tuple) -> Any:
        """Call ``op`` in the server: at once, or (when the test needs no answer yet) with the next batch.

        This runs for every operation call of a test, so its common path is kept short.
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
        entry = TRACE.call(op.label, args)
        problem = self.hung.get(op.qualname) if self.hung else None
        if problem is None and self.config.test_seconds and self._test_used > self.config.test_seconds:
            problem = (
                f"{op.qualname} was not called: this test's operations already took more than "
                f"{self.config.test_seconds:g} s in all"
            )
        twins: list = []
        if problem is None:
            encoded = self._plain_arguments(args)
            if encoded is None:
                encoder = _Encoder(self)
                try:
                    encoded = encoder.arguments(args)
                except _StaleHandle as e:
                    problem = _stale(op.qualname, str(e))
                twins = encoder.twins
        if problem is not None:
            self.flush()
            entry.failed(problem)
            _raise(OperationFailed(problem))
        self._next_id += 1
        command = ["c", op.number, self._next_id, encoded, False]
        pipelined = not twins and (op.cannot_reach_kit_objects or not self._twins.pinned_ids)
        if pipelined and op.pipelinable:
            handle = Handle(self._next_id, self.generation, self)
            self._defer(_Pending(op, entry, self._next_id, command))
            entry.returned(handle, False)
            return handle
        if pipelined and self._batching and op.answers_by_value:
            later = Later()
            command[4] = True
            self._defer(_Pending(op, entry, self._next_id, command, later))
            return later
        encoder = _Encoder(self)
        encoder.twins = twins
        self._twins.send_pinned(encoder)
        handle_id = self._next_id
        final = _Pending(op, entry, handle_id, command)
        reply = self._run([*self._pending, final], encoder)
        result = self._decode_result(reply.get("result"), handle_id)
        entry.returned(result, op.expects_bool)
        return result

    def _number(self, op: "SandboxedOperation") -> int:
        self._numbered.append(op)
        return len(self._numbered) - 1

    def _definitions(self, commands: list) -> list:
        """What the server must be told of the operations these commands call, before it runs them."""
        new = []
        for command in commands:
            if command[0] == "c" and command[1] not in self._defined:
                self._defined.add(command[1])
                op = self._numbered[command[1]]
                new.append([command[1], op.module_name, op.operation.name, op.qualname, op.time_limit, op.expects_bool])
        return new

    def _plain_arguments(self, args: tuple) -> list | None:
        """The wire form of arguments that are all this server's values or plain scalars; else None."""
        generation, encoded = self.generation, []
        for value in args:
            kind = type(value)
            if kind is Handle and value._gen == generation and value._owner is self:
                encoded.append(["h", value._hid])
            elif value is None or kind is bool or kind is int or kind is str:
                encoded.append(value)
            else:
                return None
        return encoded

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

    def flush(self) -> None:
        """Run the pipelined calls now; raise the first one's failure as if raised at its call."""
        __tracebackhide__ = True
        if self._pending:
            self._run(list(self._pending), None)

    def _run(self, batch: list[_Pending], encoder: "_Encoder | None", read: "_Read | None" = None) -> dict:
        """Run the batch of calls (and, after them, the ``read``); raise the first failure as if raised where it was made."""
        __tracebackhide__ = True
        self._pending.clear()
        commands = [p.command for p in batch]
        limits = [p.operation.time_limit for p in batch]
        if read is not None:
            commands.append(read.command)
            limits.append(READ_LIMIT)
        twins = encoder.twins if encoder else []
        # Failures are raised outside the except blocks, so that they carry no context:
        # Hypothesis tells failures apart by where they come from, context included.
        failure: tuple | None = None
        reply: dict = {}
        started = time.monotonic()
        generation = self.generation
        self._notice_death()
        if self.generation != generation:
            # The server died while idle, after these calls were given its values.
            stale = next((i for i, p in enumerate(batch) if _uses_handles(p.command[3])), None)
            if stale is not None:
                self._fail(batch, stale, _stale(batch[stale].operation.operation.qualname, self.dead_reason))
            if read is not None and read.uses_handles:
                self._fail(batch, len(batch), _stale(read.label, self.dead_reason))
        try:
            reply = self._exchange(commands, limits, twins)
        except OperationFailed as e:
            failure = (0, str(e), OperationFailed)
        except ServerDied as e:
            index = min(max(e.index, 0), len(commands) - 1)
            qualname = read.label if index == len(batch) else batch[index].operation.operation.qualname
            if e.hung:
                problem = f"{qualname} did not return within {limits[index]:g} s (an endless loop?); it is not called again in this run"
            else:
                problem = f"{qualname} ended the implementation's process ({e.reason}); it is not called again in this run"
            self.hung[read.key if index == len(batch) else qualname] = problem
            failure = (index, problem, OperationFailed)
        finally:
            self._test_used += time.monotonic() - started
        if failure is None and reply.get("error") is not None:
            try:
                index, kind, problem = _error_fields(reply["error"], len(commands))
            except ProtocolViolation as e:
                self._lost(f"it wrote into the grader's channel ({e})")
                index, kind, problem = len(commands) - 1, "failed", f"the implementation's process sent a malformed answer ({e}) and was stopped"
            if index == len(batch):
                key, errors = read.key, READ_ERRORS
            else:
                key, errors = batch[index].operation.operation.qualname, CALL_ERRORS
            if kind == HUNG:
                self.hung[key] = problem
            failure = (index, problem, errors.get(kind, OperationFailed))
        if failure is None and any(p.later is not None for p in batch):
            failure = self._fill_later(batch, reply.get("results"))
        if failure is not None:
            self._fail(batch, *failure)
        return reply

    def _fill_later(self, batch: list[_Pending], results: Any) -> tuple | None:
        """Give the batched calls their results; a failure tuple when the server's answer is malformed."""
        wanted = [(index, p) for index, p in enumerate(batch) if p.later is not None]
        try:
            if not isinstance(results, list) or len(results) != len(wanted):
                raise ProtocolViolation("batched results malformed")
            for (index, pending), item in zip(wanted, results):
                if not (isinstance(item, list) and len(item) == 2 and item[0] == index):
                    raise ProtocolViolation("batched results malformed")
                value = _decode(item[1], self, pending.handle_id, 0)
                pending.later.value, pending.later.ready = value, True
                pending.entry.returned(value, pending.operation.expects_bool)
        except ProtocolViolation as e:
            self._lost(f"it wrote into the grader's channel ({e})")
            return len(batch) - 1, f"the implementation's process sent a malformed answer ({e}) and was stopped", OperationFailed
        return None

    def _fail(self, batch: list[_Pending], index: int, problem: str, exception: type = OperationFailed):
        """Fail the test as if the ``index``-th call of the batch had failed where it was made."""
        __tracebackhide__ = True
        self._pending.clear()
        if index == len(batch):  # the read after the calls: nothing of the trace to undo
            _raise(exception(problem))
        entry = batch[index].entry
        if exception is OperationFailed:
            entry.failed(problem)
        entries = TRACE.entries
        for position, candidate in enumerate(entries):
            if candidate is entry:
                del entries[position + 1 :]
                break
        _raise(exception(problem))

    def _exchange(self, commands: list, limits: list[float], twins: list | None = None) -> dict:
        """Send one message and read its answer; a dead or lying server is killed (ServerDied)."""
        self._ensure_server()
        self._seq += 1
        message = {
            "seq": self._seq,
            "ops": self._definitions(commands),
            "commands": commands,
            "release": self._released[:],
            "twins": twins or [],
        }
        self._released.clear()
        try:
            reply = self.server.exchange(message, limits)
        except ServerDied as e:
            self._lost(e.reason)
            raise
        except ProtocolViolation as e:
            reason = f"it wrote into the grader's channel ({e})"
            index = self.server.progress_index(self._seq)
            self._lost(reason)
            raise ServerDied(index, reason) from None
        try:
            self._twins.apply(reply.get("twins") or {})
        except ProtocolViolation as e:
            reason = f"it wrote into the grader's channel ({e})"
            self._lost(reason)
            raise ServerDied(len(commands) - 1, reason) from None
        return reply

    def _decode_result(self, encoded: Any, handle_id: int) -> Any:
        try:
            return _decode(encoded, self, handle_id, 0)
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
        return self._run(list(self._pending), None, read).get("result")

    def _wire(self, handle: Handle, label: str) -> list:
        """How the server names the value of ``handle``; a failure if that value no longer exists."""
        if handle._owner is not self or handle._gen != self.generation:
            _raise(OperationFailed(_stale(label, self.dead_reason or "the value belongs to another implementation")))
        return ["h", handle._hid]

    def _read_attribute(self, handle: Handle, name: str) -> Any:
        """``handle.name``, read in the server: a plain value or a new handle; AttributeError if it has none."""
        __tracebackhide__ = True
        if not (name.isidentifier() and len(name) <= 100):
            raise AttributeError(name)
        key = (handle._hid, name)
        known = self._fields.get(key) if handle._gen == self.generation else None
        if known is None:
            label = f"reading the field {name} of a value"
            handle_id = self._new_id()
            try:
                encoded = self._remote(_Read(["a", self._wire(handle, label), name, handle_id], label, f"field {name}"))
            except AttributeError as e:
                known = (False, str(e))
            else:
                known = (True, self._decode_result(encoded, handle_id))
            self._fields[key] = known
        found, value = known
        if not found:
            raise AttributeError(value)
        return value

    def _module_attribute(self, module_name: str, name: str) -> Any:
        """``module.name`` of the implementation's module, read in the server; AttributeError if it has none."""
        __tracebackhide__ = True
        if not (name.isidentifier() and len(name) <= 100):
            raise AttributeError(name)
        key = (module_name, name)
        known = self._constants.get(key)
        if known is None:
            label = f"reading {module_name}.{name}"
            handle_id = self._new_id()
            try:
                encoded = self._remote(_Read(["m", module_name, name, handle_id], label, f"{module_name}.{name}", False))
            except AttributeError as e:
                known = self._constants[key] = (False, str(e))
            else:
                known = self._constants[key] = (True, self._decode_result(encoded, handle_id))
        found, value = known
        if not found:
            raise AttributeError(value)
        return value

    def _compare(self, handle: Handle, other: Any) -> Any:
        """``handle == other``, decided by the server's ``==``; NotImplemented for what cannot cross."""
        __tracebackhide__ = True
        label = "comparing values with =="
        if type(other) is Handle:
            if other._owner is not self:
                return NotImplemented
            wire = self._wire(other, label)
        else:
            encoder = _Encoder(self)
            try:
                wire = encoder.encode(other)
            except (TypeError, _StaleHandle):
                return NotImplemented
            if encoder.twins:
                return NotImplemented
        answer = self._remote(_Read(["e", self._wire(handle, label), wire], label, "=="))
        if type(answer) is not bool:
            self._malformed("comparison answer malformed")
        return answer

    def _names(self, handle: Handle) -> list[str]:
        """``dir(handle)``, as the server sees the value (at most :data:`MAX_NAMES` names)."""
        __tracebackhide__ = True
        label = "listing the attributes of a value"
        answer = self._remote(_Read(["d", self._wire(handle, label)], label, "dir"))
        if not (isinstance(answer, list) and len(answer) <= MAX_NAMES and all(isinstance(n, str) and len(n) <= 100 for n in answer)):
            self._malformed("attribute names malformed")
        return answer

    def shown(self, handle: Handle) -> str:
        """The server's ``repr`` of the value (bounded), or the handle's own when it cannot be had."""
        if handle._owner is not self or handle._gen != self.generation or self._broken or not self.server.alive():
            return repr(handle)
        try:
            answer = self._remote(_Read(["s", ["h", handle._hid]], "the repr of a value", "repr"))
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

    def _new_id(self) -> int:
        self._next_id += 1
        return self._next_id

    def _released_handle(self, handle: Handle) -> None:
        if handle._gen == self.generation:
            self._released.append(handle._hid)

    # -- tests and examples --------------------------------------------------------------------

    def begin_test(self) -> None:
        self._test_used = 0.0
        self._example = None

    def end_test(self) -> None:
        self.flush()

    def _watch_example(self) -> None:
        """Make sure a Hypothesis example's pipelined calls are run before the example ends."""
        example = _current_example()
        if example is None or example is self._example:
            return
        self._example = example
        try:
            from hypothesis.control import cleanup

            cleanup(self.flush)
        except Exception:  # noqa: BLE001 - outside a test: flushed at the end of the test
            pass


SuiteFailureTypes = (OperationFailed, MissingOperation, ServerDied)
CALL_ERRORS = {"missing": MissingOperation, NOT_IMPLEMENTED: NotImplementedOperation}
"""The exception a failure of each kind the server reports is raised as (else OperationFailed)."""
READ_ERRORS = {**CALL_ERRORS, "attribute": AttributeError}


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
        return self._owner._module_attribute(self._name, name)

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


def _uses_handles(arguments: list) -> bool:
    """Whether a call's encoded arguments name a value held by the server."""
    return any(_names_handle(a, 0) for a in arguments)


def _names_handle(wire: Any, depth: int) -> bool:
    if not isinstance(wire, list) or not wire or depth > MAX_DEPTH:
        return False
    tag = wire[0]
    if tag == "h":
        return True
    if tag in ("t", "l"):
        return any(_names_handle(item, depth + 1) for item in wire[1])
    if tag == "d":
        return any(_names_handle(k, depth + 1) or _names_handle(v, depth + 1) for k, v in wire[1])
    return False


def _raise(error: BaseException) -> None:
    """Every failure of a sandboxed call is raised from this one line, as in-process failures are
    raised from one line of TracedOperation: Hypothesis then sees one consistent failure."""
    __tracebackhide__ = True
    raise error.with_traceback(None)
STATES = ("present", "missing", "not implemented")


class SandboxedOperation(TracedOperation):
    """A traced operation whose calls go to the operation server."""

    def __init__(self, impl: SandboxedImplementation, operation, module_name: str):
        super().__init__(impl, operation, module_name)
        self.qualname = operation.qualname
        self.key = (module_name, operation.name)
        self.number = impl._number(self)
        """How calls name the operation on the wire (defined to each server once)."""
        result_type = impl.spec.type(operation.result) if _is_type(impl.spec, operation.result) else None
        self.pipelinable = result_type is not None and not result_type.supplied
        self.answers_by_value = not _is_type(impl.spec, operation.result)
        """Its result is a plain value (a Boolean, say), which inside a batch can come back later."""
        holders = kit_object_holders(impl.spec)
        self.cannot_reach_kit_objects = all(p.type not in holders for p in operation.params)
        """None of its parameters can hold (the specification's components say) a Display or an Input."""

    def function(self):
        signature = self.impl.resolve(self)
        return RemoteFunction(self, signature)

    def __call__(self, *args: Any) -> Any:
        __tracebackhide__ = True
        return self.impl.call(self, args)


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

    def __call__(self, *args: Any) -> Any:
        return self._operation(*args)


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


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise ProtocolViolation("expected text")
    return value[:MAX_MESSAGE]


def _error_fields(error: Any, count: int) -> tuple[int, str, str]:
    if not (isinstance(error, dict) and isinstance(error.get("at"), int) and isinstance(error.get("kind"), str)):
        raise ProtocolViolation("error answer malformed")
    index = error["at"]
    if not 0 <= index < count:
        raise ProtocolViolation("error names no command of the request")
    return index, error["kind"], _text(error.get("message"))


# -- values crossing the boundary ----------------------------------------------------------


class _StaleHandle(Exception):
    pass


class _Encoder:
    """Turns a call's arguments into the wire form, mirroring kit objects it meets."""

    def __init__(self, owner: SandboxedImplementation):
        self.owner = owner
        self.twins: list = []

    def arguments(self, args: tuple) -> list:
        """A call's arguments, as a plain list of wire values."""
        generation, owner, encoded = self.owner.generation, self.owner, []
        for value in args:
            kind = type(value)
            if kind is Handle and value._gen == generation and value._owner is owner:
                encoded.append(["h", value._hid])
            elif value is None or kind is bool or kind is int or kind is str:
                encoded.append(value)
            else:
                encoded.append(self.encode(value))
        return encoded

    def encode(self, value: Any, depth: int = 0) -> Any:
        kind = type(value)
        if value is None or kind is bool or kind is int or kind is str:
            return value
        if kind is Handle:
            if value._owner is not self.owner or value._gen != self.owner.generation:
                raise _StaleHandle(self.owner.dead_reason or "the value belongs to another implementation")
            return ["h", value._hid]
        if depth > MAX_DEPTH:
            raise TypeError("argument nested too deeply to cross into the sandbox")
        if kind is float:
            return ["f", repr(value)]
        if kind is tuple:
            return ["t", [self.encode(v, depth + 1) for v in value]]
        if kind is list:
            return ["l", [self.encode(v, depth + 1) for v in value]]
        if kind is dict:
            return ["d", [[self.encode(k, depth + 1), self.encode(v, depth + 1)] for k, v in value.items()]]
        twin = self.owner._twins.encode(value, self)
        if twin is not None:
            return twin
        if isinstance(value, bool):
            return bool(value)
        if isinstance(value, int):
            return int(value)
        if isinstance(value, str):
            return str(value)
        raise TypeError(f"a {type(value).__name__} cannot be passed to a sandboxed implementation")


def _decode(value: Any, owner: SandboxedImplementation, handle_id: int, depth: int) -> Any:
    """A result from the server: checked, and turned into plain values, a handle or a mirrored object."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if depth > MAX_DEPTH or not isinstance(value, list) or not value or not isinstance(value[0], str):
        raise ProtocolViolation("result malformed")
    tag = value[0]
    if tag == "h" and len(value) == 1 and depth == 0:
        return Handle(handle_id, owner.generation, owner)
    if tag == "f" and len(value) == 2 and isinstance(value[1], str) and len(value[1]) < 40:
        try:
            return float(value[1])
        except ValueError:
            raise ProtocolViolation("float malformed") from None
    if tag == "t" and len(value) == 2 and isinstance(value[1], list):
        return tuple(_decode(v, owner, handle_id, depth + 1) for v in value[1])
    if tag == "T" and len(value) == 2 and isinstance(value[1], int):
        return owner._twins.original(value[1])
    raise ProtocolViolation("result malformed")


class _TwinRegistry:
    """The kit's Display and Input objects and text streams that have a twin in the server.

    A twin lives as long as the server may still use it: while the server reports that
    something of its own (a game holding its display, say) refers to it, the test's
    object is *pinned* here, its state is sent before every call (the test's object is
    the authority) and no call is pipelined, since any call could read or write it. When
    the server reports that nothing refers to it any more, it is unpinned, and released
    once the test drops the object.
    """

    def __init__(self, owner: SandboxedImplementation):
        self.owner = owner
        self.by_object: dict[int, int] = {}
        self.twins: dict[int, dict] = {}
        self.pinned_ids: set[int] = set()
        self._kinds: tuple | None = None

    def kinds(self) -> tuple:
        if self._kinds is None:
            from adt.display import Display
            from adt.input import Input

            self._kinds = (Display, Input)
        return self._kinds

    def reset(self) -> None:
        self.by_object.clear()
        self.twins.clear()
        self.pinned_ids.clear()

    def pinned(self) -> bool:
        return bool(self.pinned_ids)

    def encode(self, value: Any, encoder: _Encoder) -> list | None:
        display_class, input_class = self.kinds()
        if isinstance(value, display_class):
            kind = "display"
        elif isinstance(value, input_class):
            kind = "input"
        elif isinstance(value, io.TextIOBase):
            kind = "stream"
        else:
            return None
        tid = self.by_object.get(id(value))
        new = tid is None
        if new:
            tid = self.owner._new_id()
            self.twins[tid] = {"kind": kind, "ref": weakref.ref(value), "strong": None, "rest": None}
            self.by_object[id(value)] = tid
            weakref.finalize(value, self._forget, tid, id(value), self.owner.generation)
        self._state(tid, value, new, encoder)
        return ["T", tid]

    def _state(self, tid: int, value: Any, new: bool, encoder: _Encoder) -> None:
        if any(item[0] == tid for item in encoder.twins):
            return
        record = self.twins[tid]
        record["strong"] = value
        self.pinned_ids.add(tid)
        kind, state = record["kind"], None
        if kind == "display":
            state = [[r, c, m] for (r, c), m in value.marks.items() if type(r) is int and type(c) is int and type(m) is str]
        elif kind == "input":
            if value.lines is None:
                record["rest"] = None
            else:
                rest = list(itertools.islice(value.lines, MAX_LINES + 1))
                if len(rest) > MAX_LINES or not all(isinstance(line, str) for line in rest):
                    raise TypeError(f"scripted input for a sandboxed implementation must be at most {MAX_LINES} strings")
                record["rest"] = rest
                value.lines = iter(rest)
            state = record["rest"]
        encoder.twins.append([tid, kind, new, state])

    def send_pinned(self, encoder: _Encoder) -> None:
        """Send the state of every object the server still refers to: the test's copy is the authority."""
        for tid in sorted(self.pinned_ids):
            self._state(tid, self.twins[tid]["strong"], False, encoder)

    def _forget(self, tid: int, object_id: int, generation: int) -> None:
        if self.by_object.get(object_id) == tid:
            del self.by_object[object_id]
        if self.twins.pop(tid, None) is not None and generation == self.owner.generation:
            self.owner._released.append(tid)

    def original(self, tid: int) -> Any:
        record = self.twins.get(tid)
        value = record["ref"]() if record else None
        if value is None:
            raise ProtocolViolation("unknown mirrored object")
        return value

    def apply(self, updates: Any) -> None:
        """Copy what the server's twins wrote, drew and read back into the test's objects."""
        if not isinstance(updates, dict):
            raise ProtocolViolation("twin updates malformed")
        for tid, text in _pairs(updates.get("out", [])):
            if not isinstance(text, str):
                raise ProtocolViolation("twin output malformed")
            target = self.original(tid)
            stream = target if isinstance(target, io.TextIOBase) else target.stream
            stream.write(text)
        for tid, marks in _pairs(updates.get("marks", [])):
            target = self.original(tid)
            if not isinstance(marks, list) or not all(
                isinstance(m, list) and len(m) == 3 and type(m[0]) is int and type(m[1]) is int and isinstance(m[2], str)
                for m in marks
            ):
                raise ProtocolViolation("twin marks malformed")
            target.marks.clear()
            target.marks.update({(r, c): m for r, c, m in marks})
        for tid, used in _pairs(updates.get("used", [])):
            target, record = self.original(tid), self.twins[tid]
            rest = record["rest"]
            if rest is None or not isinstance(used, int) or not 0 <= used <= len(rest):
                raise ProtocolViolation("twin input malformed")
            record["rest"] = rest[used:]
            target.lines = iter(record["rest"])
        free = updates.get("free", [])
        if not isinstance(free, list) or not all(isinstance(tid, int) for tid in free):
            raise ProtocolViolation("twin updates malformed")
        for tid in free:
            record = self.twins.get(tid)
            if record is not None:
                record["strong"] = None
                self.pinned_ids.discard(tid)


def _pairs(items: Any):
    if not isinstance(items, list):
        raise ProtocolViolation("twin updates malformed")
    for item in items:
        if not (isinstance(item, list) and len(item) == 2 and isinstance(item[0], int)):
            raise ProtocolViolation("twin updates malformed")
        yield item[0], item[1]


# -- the server process, seen from the test process -----------------------------------------


class _Server:
    """One operation server process at a time: start, exchange messages, kill."""

    def __init__(self, package: Path, spec_name: str, config: SandboxConfig):
        self.package = package
        self.spec_name = spec_name
        self.config = config
        self.process: subprocess.Popen | None = None
        self.run_dir = Path(tempfile.mkdtemp(prefix="speckit-sandbox-"))
        os.chmod(self.run_dir, 0o711)
        self.buffer = bytearray()
        self.progress: mmap.mmap | None = None
        self.killed_because = ""

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def start(self) -> dict:
        self.kill()
        request_read, self.request = os.pipe()
        self.reply, reply_write = os.pipe()
        progress_fd = os.memfd_create("speckit-progress", 0)
        os.ftruncate(progress_fd, mmap.PAGESIZE)
        self.progress = mmap.mmap(progress_fd, mmap.PAGESIZE)
        PROGRESS.pack_into(self.progress, 0, -1)
        os.set_blocking(self.request, False)
        work = self.run_dir / "work"
        work.mkdir(exist_ok=True)
        uid, gid = _target_ids(self.config)
        if uid is not None:
            os.chown(work, uid, gid)
            os.chmod(work, 0o700)
        argument = json.dumps(
            {
                "request": request_read,
                "reply": reply_write,
                "progress": progress_fd,
                "package": str(self.package),
                "spec": self.spec_name,
                "config": attrs.asdict(self.config),
                "uid": uid,
                "gid": gid,
                "work": str(work),
                "repo": str(REPO_ROOT),
            }
        )
        environment = {
            "PATH": "/usr/bin:/bin",
            "LANG": "C.UTF-8",
            "PYTHONHASHSEED": "0",
            "PYTHONDONTWRITEBYTECODE": "1",
            "PYTHONNOUSERSITE": "1",
            "PYTHONSAFEPATH": "1",
            "HOME": str(work),
            "TMPDIR": str(work),
        }
        boot = f"import sys; sys.path.insert(0, {str(REPO_ROOT)!r}); from speckit.sandbox import _server_main; _server_main()"
        errors = open(self.run_dir / "server-errors.txt", "ab")
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-c", boot, argument],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=errors,
                pass_fds=(request_read, reply_write, progress_fd),
                env=environment,
                cwd="/",
                start_new_session=True,
            )
        finally:
            errors.close()
            os.close(request_read)
            os.close(reply_write)
            os.close(progress_fd)
        self.buffer.clear()
        self.killed_because = ""
        try:
            reply = self._read(0, [self.config.import_seconds + 20.0], startup=True)
        except ProtocolViolation as e:
            self.kill()
            raise ServerDied(0, f"it wrote into the grader's channel ({e})") from None
        if not isinstance(reply, dict) or reply.get("seq") != 0:
            self.kill()
            raise ServerDied(0, "it wrote into the grader's channel (bad greeting)")
        if reply.get("fatal"):
            self.kill()
            raise SandboxError(f"the operation server could not be confined: {_text(reply['fatal'])}")
        return reply

    def progress_index(self, seq: int) -> int:
        if self.progress is None:
            return 0
        try:
            (word,) = PROGRESS.unpack_from(self.progress, 0)
        except (ValueError, struct.error):
            return 0
        at_seq, index = word >> INDEX_BITS, word & ((1 << INDEX_BITS) - 1)
        return index if at_seq == seq else 0

    def exchange(self, message: dict, limits: list[float]) -> dict:
        data = json.dumps(message, separators=(",", ":")).encode()
        self._send(HEADER.pack(len(data)) + data, deadline=time.monotonic() + 10.0 + self.config.grace)
        reply = self._read(message["seq"], limits)
        if not isinstance(reply, dict) or reply.get("seq") != message["seq"]:
            raise ProtocolViolation("answer to another request")
        return reply

    def _send(self, data: bytes, deadline: float) -> None:
        view = memoryview(data)
        while view:
            try:
                written = os.write(self.request, view)
                view = view[written:]
                continue
            except BlockingIOError:
                pass
            except (BrokenPipeError, OSError):
                raise ServerDied(0, self._death()) from None
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not self.alive():
                self.kill()
                raise ServerDied(0, self._death() if not self.killed_because else self.killed_because)
            select.select([], [self.request], [], min(remaining, 0.25))

    def _read(self, seq: int, limits: list[float], startup: bool = False) -> Any:
        grace = self.config.grace
        now = time.monotonic()
        hard_deadline = now + sum(limits) + grace + 2.0
        current, since = None, now
        while True:
            frame = self._frame()
            if frame is not None:
                try:
                    return json.loads(frame)
                except (ValueError, RecursionError):
                    raise ProtocolViolation("not JSON") from None
            readable, _, _ = select.select([self.reply], [], [], 0.1)
            if readable:
                try:
                    chunk = os.read(self.reply, 1 << 16)
                except OSError:
                    chunk = b""
                if not chunk:
                    raise ServerDied(self.progress_index(seq), self._death())
                self.buffer += chunk
                if len(self.buffer) > MAX_REPLY + HEADER.size:
                    raise ProtocolViolation("answer too long")
                continue
            now = time.monotonic()
            index = 0 if startup else self.progress_index(seq)
            if index != current:
                current, since = index, now
            limit = limits[index] if index < len(limits) else limits[-1]
            if now - since > limit + grace or now > hard_deadline:
                self.kill()
                raise ServerDied(index, f"it did not return within {limit:g} s", hung=True)

    def _frame(self) -> bytes | None:
        if len(self.buffer) < HEADER.size:
            return None
        (length,) = HEADER.unpack_from(self.buffer, 0)
        if length > MAX_REPLY:
            raise ProtocolViolation("answer too long")
        end = HEADER.size + length
        if len(self.buffer) < end:
            return None
        frame = bytes(self.buffer[HEADER.size : end])
        del self.buffer[:end]
        return frame

    def _death(self) -> str:
        """Why the server ended, in words."""
        if self.process is None:
            return "it was not running"
        try:
            code = self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.kill()
            code = self.process.returncode
        if self.killed_because:
            return self.killed_because
        return describe_exit(code, self.config)

    def kill(self) -> None:
        process = self.process
        if process is not None and process.poll() is None:
            for kill in (os.kill, os.killpg):
                try:
                    kill(process.pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass
        for name in ("request", "reply"):
            fd = getattr(self, name, None)
            if fd is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass
                setattr(self, name, None)
        if self.progress is not None:
            self.progress.close()
            self.progress = None

    def close(self) -> None:
        self.kill()
        import shutil

        shutil.rmtree(self.run_dir, ignore_errors=True)


def describe_exit(code: int | None, config: SandboxConfig) -> str:
    if code is None:
        return "it ended"
    if code >= 0:
        return f"it exited with status {code}"
    number = -code
    if number == signal.SIGXCPU:
        return f"it used more than {config.cpu_seconds} s of processor time (SIGXCPU)"
    if number == signal.SIGXFSZ:
        return f"it wrote a file larger than {config.output_kb} KB (SIGXFSZ)"
    if number == signal.SIGKILL:
        return "it was killed (SIGKILL)"
    try:
        name = signal.Signals(number).name
    except ValueError:
        name = f"signal {number}"
    return f"it was ended by {name}"


def _target_ids(config: SandboxConfig) -> tuple[int | None, int | None]:
    """The uid and gid the server drops to (None when not started by root)."""
    if os.geteuid() != 0:
        return None, None
    uid = NOBODY if config.uid is None else config.uid
    gid = (NOBODY if config.uid is None else uid) if config.gid is None else config.gid
    return uid, gid


def probe(config: SandboxConfig, package: Path | None = None, spec_name: str = "connect4") -> str:
    """Start a server on a package (default: the reference) and say how it is confined; SandboxError if it cannot be."""
    from .registry import kit

    server = _Server((package or kit(spec_name).reference_dir).resolve(), spec_name, config)
    try:
        reply = server.start()
        if reply.get("error"):
            raise SandboxError(f"the operation server cannot load the reference: {_text(reply['error'])}")
        return _text(reply.get("isolation", ""))
    except ServerDied as e:
        raise SandboxError(f"the operation server does not start: {e.reason}; see {server.run_dir}") from None
    finally:
        server.close()


# ----------------------------------------------------------------------------------------
# Server-process side
# ----------------------------------------------------------------------------------------

_libc = None


def _c():
    global _libc
    if _libc is None:
        _libc = ctypes.CDLL(None, use_errno=True)
    return _libc


CLONE_NEWNS = 0x00020000
MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_BIND, MS_REC, MS_PRIVATE = 2, 4, 8, 4096, 16384, 1 << 18
PR_SET_NO_NEW_PRIVS = 38


def _mount(source: str | None, target: str, fstype: str | None, flags: int, data: str | None = None) -> None:
    result = _c().mount(
        source.encode() if source else None,
        target.encode(),
        fstype.encode() if fstype else None,
        ctypes.c_ulong(flags),
        data.encode() if data else None,
    )
    if result != 0:
        number = ctypes.get_errno()
        raise OSError(number, f"mount {target}: {os.strerror(number)}")


def _inside(path: str, folder: str) -> bool:
    return path != folder and path.startswith(folder.rstrip("/") + "/")


def _mask(folder: str, keeps: list[str], mode: int, size: str) -> None:
    """Cover ``folder`` with an empty tmpfs, then bind the ``keeps`` (paths inside it) back in place."""
    keeps = sorted({k for k in keeps if not any(_inside(k, other) for other in keeps)})
    handles = []
    for keep in keeps:
        try:
            handles.append((keep, os.open(keep, os.O_PATH | os.O_CLOEXEC), os.path.isdir(keep)))
        except OSError:
            continue
    _mount("tmpfs", folder, "tmpfs", MS_NOSUID | MS_NODEV, f"mode={mode:o},size={size}")
    for keep, fd, is_dir in handles:
        if is_dir:
            os.makedirs(keep, mode=0o755, exist_ok=True)
        else:
            os.makedirs(os.path.dirname(keep), mode=0o755, exist_ok=True)
            open(keep, "a").close()
        _mount(f"/proc/self/fd/{fd}", keep, None, MS_BIND | MS_REC)
        os.close(fd)


def _isolate(package: str, hide: list[str], scratch_mb: int) -> list[str]:
    """Give this process a private view of the filesystem (see the module docstring)."""
    libc = _c()
    if libc.unshare(CLONE_NEWNS) != 0:
        number = ctypes.get_errno()
        raise OSError(number, f"unshare: {os.strerror(number)}")
    _mount(None, "/", None, MS_REC | MS_PRIVATE)
    repo = os.path.realpath(str(REPO_ROOT))
    needed = {os.path.realpath(p) for p in sys.path if p and os.path.isdir(p)}
    needed |= {os.path.realpath(p) for p in (sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix)}
    needed |= {os.path.join(repo, name) for name in KIT_PACKAGES}
    needed.add(os.path.realpath(package))
    needed = {p for p in needed if os.path.exists(p)}
    masks: dict[str, tuple[int, str]] = {repo: (0o755, "64k")}
    for path in needed:
        parts = path.split("/")
        for depth in range(2, len(parts)):
            ancestor = "/".join(parts[:depth])
            if ancestor and not os.stat(ancestor).st_mode & 0o001:
                masks.setdefault(ancestor, (0o711, "64k"))
                break
    scratch = [d for d in ("/tmp", "/var/tmp", "/dev/shm") if os.path.isdir(d) and not os.path.islink(d)]
    for folder in scratch:
        masks[os.path.realpath(folder)] = (0o1777, f"{scratch_mb}m")
    done: list[str] = []
    for folder in sorted(masks, key=lambda f: f.count("/")):
        mode, size = masks[folder]
        keeps = [p for p in needed if _inside(p, folder)]
        _mask(folder, keeps, mode, size)
        done.append(folder)
    hidden = []
    for path in sorted({os.path.realpath(h) for h in hide}):
        if not os.path.exists(path):
            continue
        if os.path.isdir(path):
            _mount("tmpfs", path, "tmpfs", MS_NOSUID | MS_NODEV, "mode=0,size=4k")
        else:
            _mount("/dev/null", path, None, MS_BIND)
        hidden.append(path)
    return done + hidden


class _Watchdog:
    """Stops an implementation's code at its deadline.

    While the server works on a message, a periodic timer ticks every :attr:`TICK`
    seconds; a tick past the running call's deadline raises ``_TimeLimitReached`` in it.
    Setting a deadline is then just a clock read, not two timer system calls per call.
    """

    TICK = 0.05

    def __init__(self) -> None:
        self.deadline = float("inf")
        self.ticking = False

    def start(self) -> None:
        self.ticking = True
        signal.setitimer(signal.ITIMER_REAL, self.TICK, self.TICK)

    def stop(self) -> None:
        signal.setitimer(signal.ITIMER_REAL, 0)
        self.ticking = False
        self.deadline = float("inf")

    def on_alarm(self, signum, frame) -> None:
        if time.monotonic() >= self.deadline:
            self.deadline = float("inf")
            raise impl_loader._TimeLimitReached()


_WATCHDOG = _Watchdog()


class _BoundedOutput(io.TextIOBase):
    """sys.stdout and sys.stderr of the server: printing is allowed, up to a limit per call."""

    def __init__(self, limit: int):
        self.limit = limit
        self.used = 0

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        self.used += len(text)
        if self.used > self.limit:
            raise OSError(errno.EFBIG, f"the implementation printed more than {self.limit // 1024} KB")
        return len(text)


class _Recorder(io.TextIOBase):
    """A twin's stream: keeps what is written, for the test process."""

    def __init__(self, limit: int):
        self.limit = limit
        self.parts: list[str] = []
        self.size = 0

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        self.size += len(text)
        if self.size > self.limit:
            raise OSError(errno.EFBIG, f"the implementation wrote more than {self.limit // 1024} KB to a display")
        self.parts.append(text)
        return len(text)

    def take(self) -> str:
        text = "".join(self.parts)
        self.parts.clear()
        self.size = 0
        return text


class _CountingLines:
    def __init__(self, lines: list[str]):
        self._iterator = iter(lines)
        self.used = 0

    def __iter__(self):
        return self

    def __next__(self) -> str:
        line = next(self._iterator)
        self.used += 1
        return line


@attrs.define
class _Twin:
    kind: str
    value: Any
    recorder: _Recorder
    snapshot: list = attrs.Factory(list)
    free: bool = False
    """Reported to the test process as referred to by nothing of the server's."""

    def referred(self) -> bool:
        """Whether anything besides this record refers to the twin (the implementation kept it)."""
        own = 3 if self.value is self.recorder else 2
        return sys.getrefcount(self.value) > own


class _ServerState:
    """The server's tables: the implementation, its values by handle id, the twins."""

    def __init__(self, implementation: Implementation, config: dict):
        self.implementation = implementation
        self.config = config
        self.values: dict[int, Any] = {}
        self.twins: dict[int, _Twin] = {}
        self.functions: dict[tuple[str, str], Any] = {}
        self.ops: dict[int, tuple] = {}
        """The operations calls name by number: module, name, qualname, time limit, Boolean result?"""
        self.output_limit = int(config["output_kb"]) * 1024
        self.outputs = [stream for stream in (sys.stdout, sys.stderr) if isinstance(stream, _BoundedOutput)]
        """The server's own stdout and stderr, whose allowance starts afresh at every call."""
        from adt.display import Display
        from adt.input import Input

        self.display_class, self.input_class = Display, Input

    # values

    def decode(self, value: Any) -> Any:
        if not isinstance(value, list):
            return value
        tag = value[0]
        if tag == "h":
            try:
                return self.values[value[1]]
            except KeyError:
                raise LookupError("a value this call was given no longer exists") from None
        if tag == "T":
            return self.twins[value[1]].value
        if tag == "f":
            return float(value[1])
        if tag == "t":
            return tuple(self.decode(v) for v in value[1])
        if tag == "l":
            return [self.decode(v) for v in value[1]]
        if tag == "d":
            return {self.decode(k): self.decode(v) for k, v in value[1]}
        raise ValueError(f"unknown value tag {tag!r}")

    def encode_result(self, value: Any, handle_id: int, depth: int = 0) -> Any:
        kind = type(value)
        if value is None or kind is bool or kind is int or kind is str:
            return value
        if kind is float:
            return ["f", repr(value)]
        if kind is tuple and depth < 4 and len(value) <= 64:
            items = [self.encode_result(v, handle_id, depth + 1) for v in value]
            if all(not (isinstance(i, list) and i and i[0] == "h") for i in items):
                return ["t", items]
        if depth == 0:
            for tid, twin in self.twins.items():
                if twin.value is value:
                    return ["T", tid]
        if depth > 0:
            return ["h"]
        self.values[handle_id] = value
        return ["h"]

    # twins

    def apply_twins(self, twins: list) -> None:
        for tid, kind, new, state in twins:
            if new:
                recorder = _Recorder(self.output_limit)
                if kind == "display":
                    value = self.display_class(recorder, {})
                elif kind == "input":
                    value = self.input_class(None, recorder)
                else:
                    value = recorder
                self.twins[tid] = _Twin(kind, value, recorder)
            twin = self.twins[tid]
            twin.free = False
            if kind == "display":
                twin.value.marks.clear()
                twin.value.marks.update({(r, c): m for r, c, m in state})
                twin.snapshot = sorted(state)
            elif kind == "input":
                twin.value.lines = None if state is None else _CountingLines(state)

    def twin_updates(self) -> dict:
        out, marks, used, free = [], [], [], []
        for tid, twin in self.twins.items():
            if not twin.free and not twin.referred():
                twin.free = True
                free.append(tid)
            text = twin.recorder.take()
            if text:
                out.append([tid, text])
            if twin.kind == "display":
                try:
                    current = sorted(
                        [r, c, m] for (r, c), m in twin.value.marks.items() if type(r) is int and type(c) is int and type(m) is str
                    )
                except Exception:  # noqa: BLE001 - a twin the implementation broke
                    current = []
                if current != twin.snapshot:
                    marks.append([tid, current])
                    twin.snapshot = current
            elif twin.kind == "input" and isinstance(twin.value.lines, _CountingLines) and twin.value.lines.used:
                used.append([tid, twin.value.lines.used])
                twin.value.lines = _CountingLines(list(twin.value.lines._iterator))
        return {"out": out, "marks": marks, "used": used, "free": free}

    # commands

    def function(self, module: str, name: str):
        key = (module, name)
        found = self.functions.get(key)
        if found is None:
            facade = getattr(self.implementation, module)
            found = getattr(facade, name).function()
            self.functions[key] = found
        return found

    def resolve(self, module: str, name: str) -> dict:
        import inspect

        try:
            function = _limited(self.config["import_seconds"], self.function, module, name)
        except impl_loader.SuiteFailure as e:
            return {"missing": str(e)}
        except impl_loader._TimeLimitReached:
            return {"missing": f"module {module} could not be imported: importing it took more than {self.config['import_seconds']:g} s"}
        try:
            signature = _limited(1.0, inspect.signature, function)
            data = [[p.name, int(p.kind), p.default is not inspect.Parameter.empty] for p in signature.parameters.values()]
        except BaseException:  # noqa: BLE001 - uninspectable: the tests say so
            data = None
        return {"signature": data}

    def presence(self, names: list[str]) -> list[str]:
        reader = getattr(self.implementation, "state", None)
        answers = []
        for qualname in names:
            try:
                if reader is not None:
                    state = _limited(self.config["import_seconds"], reader, qualname)
                else:
                    state = "present" if _limited(self.config["import_seconds"], self.implementation.has, qualname) else "missing"
            except BaseException:  # noqa: BLE001 - a module that cannot even be imported
                state = "missing"
            answers.append(state if state in STATES else "present")
        return answers

    def call(self, command: list) -> tuple[Any, dict | None]:
        """Run one call; (result, None) or (None, error)."""
        module, name, qualname, limit, expects_bool = self.ops[command[1]]
        args = command[3]
        try:
            function = self.functions.get((module, name)) or _limited(self.config["import_seconds"], self.function, module, name)
        except impl_loader.SuiteFailure as e:
            return None, {"kind": "missing", "message": str(e)}
        except impl_loader._TimeLimitReached:
            return None, {"kind": "missing", "message": f"module {module} could not be imported: importing it took more than {self.config['import_seconds']:g} s"}
        try:
            arguments = [self.decode(a) for a in args]
        except LookupError as e:
            return None, {"kind": "failed", "message": f"{qualname} was not called: {e}"}
        for stream in self.outputs:
            stream.used = 0
        problem = None
        watchdog = _WATCHDOG
        watchdog.deadline = time.monotonic() + limit
        try:
            try:
                result = function(*arguments)
            except BaseException as e:  # noqa: BLE001 - classified as in-process
                kind, problem = failure_of(qualname, e, limit)
                if kind is None:
                    kind, problem = "failed", f"{qualname} raised {type(e).__name__}: {e}"
            else:
                kind = "failed"
                if expects_bool:
                    problem = bool_problem(qualname, result)
        except impl_loader._TimeLimitReached:
            kind, problem = HUNG, failure_of(qualname, impl_loader._TimeLimitReached(), limit)[1]
        except BaseException as e:  # noqa: BLE001 - the description itself failed
            kind, problem = "failed", f"{qualname} raised {type(e).__name__} (and describing it failed)"
        finally:
            watchdog.deadline = float("inf")
        if problem is not None:
            return None, {"kind": kind, "message": problem[:MAX_MESSAGE]}
        return result, None

    def read(self, command: list) -> tuple[Any, dict | None]:
        """Run one read (a field, a module's attribute, ==, dir, repr): (encoded result, None) or (None, error)."""
        tag = command[0]
        try:
            if tag == "m":
                subject = _limited(self.config["import_seconds"], self.implementation.module, command[1])
            else:
                subject = self.decode(command[1])
        except impl_loader.SuiteFailure as e:
            return None, {"kind": "missing", "message": str(e)[:MAX_MESSAGE]}
        except impl_loader._TimeLimitReached:
            return None, {"kind": "missing", "message": f"module {command[1]} could not be imported: importing it took more than {self.config['import_seconds']:g} s"}
        except LookupError as e:
            return None, {"kind": "failed", "message": f"the value was not read: {e}"}
        if tag == "m" and command[2] is None:
            return None, None
        label = "reading a value"
        watchdog = _WATCHDOG
        watchdog.deadline = time.monotonic() + READ_LIMIT
        try:
            try:
                label = _read_label(tag, subject, command)
                result = _READERS[tag](self, subject, command)
            except AttributeError as e:
                if tag not in ("a", "m"):
                    raise
                return None, {"kind": "attribute", "message": (str(e) or label)[:MAX_MESSAGE]}
            else:
                return result, None
        except impl_loader._TimeLimitReached:
            kind, problem = HUNG, failure_of(label, impl_loader._TimeLimitReached(), READ_LIMIT)[1]
        except BaseException as e:  # noqa: BLE001 - classified as a failed call is
            try:
                kind, problem = failure_of(label, e, READ_LIMIT)
                if kind is None:
                    kind, problem = "failed", f"{label} raised {type(e).__name__}: {e}"
            except BaseException:  # noqa: BLE001 - the description itself failed
                kind, problem = "failed", f"{label} raised {type(e).__name__} (and describing it failed)"
        finally:
            watchdog.deadline = float("inf")
        return None, {"kind": kind, "message": problem[:MAX_MESSAGE]}


def _read_label(tag: str, subject: Any, command: list) -> str:
    """How a failure of a read names what was read (``Value.empty``, ``color.red``, ``Color.__eq__``)."""
    if tag == "m":
        return f"{command[1]}.{command[2]}"
    owner = type(subject).__name__
    if tag == "a":
        return f"{owner}.{command[2]}"
    return {"e": f"{owner}.__eq__", "s": f"{owner}.__repr__", "d": f"dir() of a {owner}"}[tag]


def _read_field(state: _ServerState, subject: Any, command: list) -> Any:
    return state.encode_result(getattr(subject, command[2]), command[3])


def _compare_values(state: _ServerState, subject: Any, command: list) -> bool:
    return bool(subject == state.decode(command[2]))


def _list_names(state: _ServerState, subject: Any, command: list) -> list[str]:
    names = [name for name in dir(subject) if type(name) is str and len(name) <= 100]
    return names[:MAX_NAMES]


def _show_value(state: _ServerState, subject: Any, command: list) -> str:
    text = repr(subject)
    return text if len(text) <= MAX_SHOWN else text[: MAX_SHOWN - 3] + "..."


_READERS = {"a": _read_field, "m": _read_field, "e": _compare_values, "d": _list_names, "s": _show_value}


def _limited(seconds: float, function, *args):
    """``function(*args)``, stopped after ``seconds``."""
    watchdog = _WATCHDOG
    started = not watchdog.ticking
    if started:
        watchdog.start()
    watchdog.deadline = time.monotonic() + seconds
    try:
        return function(*args)
    finally:
        watchdog.deadline = float("inf")
        if started:
            watchdog.stop()


def _write_frame(fd: int, message: dict) -> None:
    data = json.dumps(message, separators=(",", ":")).encode()
    if len(data) > MAX_REPLY:
        data = json.dumps({"seq": message["seq"], "error": {"at": 0, "kind": "failed", "message": "the answer was too long"}}).encode()
    data = HEADER.pack(len(data)) + data
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _confine(config: dict, uid: int | None, gid: int | None, work: str, package: str) -> str:
    """Everything done as root before the implementation's code runs; says what is in force."""
    settings = config
    notes = []
    if uid is not None and settings.get("namespace", True):
        try:
            _isolate(package, list(settings.get("hide", ())), int(settings["scratch_mb"]))
            work = "/tmp/speckit-work"
            os.makedirs(work, mode=0o700, exist_ok=True)
            os.chown(work, uid, gid)
            notes.append("private mount namespace")
        except OSError as e:
            if settings.get("require_isolation"):
                raise
            notes.append(f"no mount namespace ({e.strerror or e})")
    elif uid is not None:
        notes.append("no mount namespace (disabled)")
    os.chdir(work)
    os.environ["HOME"] = os.environ["TMPDIR"] = work
    tempfile.tempdir = work
    mb = 2**20
    limits = [
        ("RLIMIT_AS", int(settings["memory_mb"]) * mb, int(settings["memory_mb"]) * mb),
        ("RLIMIT_CPU", int(settings["cpu_seconds"]), int(settings["cpu_seconds"]) + 5),
        ("RLIMIT_FSIZE", int(settings["output_kb"]) * 1024, int(settings["output_kb"]) * 1024),
        ("RLIMIT_NOFILE", int(settings["open_files"]), int(settings["open_files"])),
        ("RLIMIT_NPROC", 0, 0),
        ("RLIMIT_CORE", 0, 0),
        ("RLIMIT_MEMLOCK", 0, 0),
        ("RLIMIT_MSGQUEUE", 0, 0),
    ]
    import resource

    for name, soft, hard in limits:
        which = getattr(resource, name, None)
        if which is None:
            continue
        try:
            resource.setrlimit(which, (soft, hard))
        except (ValueError, OSError) as e:
            if name in ("RLIMIT_AS", "RLIMIT_CPU", "RLIMIT_FSIZE"):
                raise OSError(f"setrlimit {name}: {e}") from None
    notes.append(
        f"limits: {settings['memory_mb']} MB memory, {settings['cpu_seconds']} s CPU, "
        f"{settings['output_kb']} KB files and output per call, {settings['open_files']} open files, no new processes"
    )
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    os.close(devnull)
    if uid is not None:
        os.setgroups([])
        os.setgid(gid)
        os.setuid(uid)
        try:
            os.setuid(0)
        except PermissionError:
            pass
        else:
            raise OSError("privileges could not be dropped")
        notes.insert(0, f"uid {uid}, gid {gid}")
    else:
        notes.insert(0, f"same user as the tests (uid {os.getuid()}; not started by root)")
    _c().prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
    if settings.get("require_isolation") and (uid is None or "private mount namespace" not in notes):
        raise OSError("the operation server could not be isolated (it needs root and mount namespaces)")
    return "; ".join(notes)


def _server_main() -> None:
    """The server process: confine, import the package, answer requests until the pipe closes."""
    argument = json.loads(sys.argv[1])
    request, reply, config = argument["request"], argument["reply"], argument["config"]
    progress = _map_progress(argument["progress"])
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    import random

    import spec as spec_data

    specification = spec_data.load(argument["spec"])
    import adt.display  # noqa: F401 - the twins' classes, before the view of the files narrows
    import adt.input  # noqa: F401

    try:
        isolation = _confine(config, argument["uid"], argument["gid"], argument["work"], argument["package"])
    except OSError as e:
        _write_frame(reply, {"seq": 0, "fatal": str(e)})
        return
    signal.signal(signal.SIGALRM, _WATCHDOG.on_alarm)
    random.seed(0)
    sys.stdout = _BoundedOutput(int(config["output_kb"]) * 1024)
    sys.stderr = _BoundedOutput(int(config["output_kb"]) * 1024)
    sys.stdin = io.StringIO("")
    try:
        implementation = _limited(config["import_seconds"], impl_loader.load, argument["package"], specification)
    except impl_loader.ImplementationError as e:
        _write_frame(reply, {"seq": 0, "error": str(e)[:MAX_MESSAGE]})
        return
    except impl_loader._TimeLimitReached:
        _write_frame(reply, {"seq": 0, "error": f"{argument['package']}/__init__.py could not be imported: importing it took more than {config['import_seconds']:g} s"})
        return
    state = _ServerState(implementation, config)
    _write_frame(reply, {"seq": 0, "isolation": isolation})
    buffer = bytearray()
    while True:
        try:
            while len(buffer) < HEADER.size or len(buffer) < HEADER.size + HEADER.unpack_from(buffer)[0]:
                chunk = os.read(request, 1 << 16)
                if not chunk:
                    return
                buffer += chunk
        except OSError:
            return
        end = HEADER.size + HEADER.unpack_from(buffer)[0]
        message = json.loads(bytes(buffer[HEADER.size : end]))
        del buffer[:end]
        _write_frame(reply, _answer(state, message, progress))


def _map_progress(fd: int) -> ctypes.c_int64:
    """Map the progress page without keeping its file open (Python's mmap would keep a copy of the fd)."""
    libc = _c()
    libc.mmap.restype = ctypes.c_void_p
    libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
    address = libc.mmap(None, mmap.PAGESIZE, mmap.PROT_READ | mmap.PROT_WRITE, mmap.MAP_SHARED, fd, 0)
    if address is None or address == ctypes.c_void_p(-1).value:
        raise OSError(ctypes.get_errno(), "mmap of the progress page failed")
    os.close(fd)
    return ctypes.c_int64.from_address(address)


def _answer(state: _ServerState, message: dict, progress: ctypes.c_int64) -> dict:
    seq = message["seq"]
    for number, *definition in message.get("ops", ()):
        state.ops[number] = tuple(definition)
    state.apply_twins(message.get("twins", ()))
    commands = message["commands"]
    answer: dict[str, Any] = {"seq": seq, "error": None, "result": None, "results": []}
    _WATCHDOG.start()
    try:
        _run_commands(state, commands, seq, answer, progress)
    finally:
        _WATCHDOG.stop()
    # Released after the commands: a value the test dropped right after passing it to a
    # pipelined call is still that call's argument.
    for handle_id in message.get("release", ()):
        state.values.pop(handle_id, None)
        state.twins.pop(handle_id, None)
    answer["twins"] = state.twin_updates()
    return answer


def _run_commands(state: _ServerState, commands: list, seq: int, answer: dict, progress: ctypes.c_int64) -> None:
    for index, command in enumerate(commands):
        progress.value = seq << INDEX_BITS | index
        last = index == len(commands) - 1
        tag = command[0]
        if tag == "c":
            result, error = state.call(command)
            if error is not None:
                error["at"] = index
                answer["error"] = error
                break
            _, _, handle_id, _, answer_later = command
            if answer_later:
                answer["results"].append([index, state.encode_result(result, handle_id)])
            elif last:
                answer["result"] = state.encode_result(result, handle_id)
            else:
                state.values[handle_id] = result
        elif tag == "r":
            answer["result"] = state.resolve(command[1], command[2])
        elif tag == "p":
            answer["result"] = state.presence(command[1])
        else:
            result, error = state.read(command)
            if error is not None:
                error["at"] = index
                answer["error"] = error
                break
            answer["result"] = result
    progress.value = seq << INDEX_BITS | len(commands)
