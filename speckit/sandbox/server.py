"""The operation server process: its tables, its calls and its command loop.

:meth:`Server.start <speckit.sandbox.process.Server.start>` runs :func:`main`,
which confines the process (:mod:`speckit.sandbox.confine`), imports the implementation
and answers requests until the pipe closes: calls of operations and reads of values
(:mod:`~speckit.sandbox.server_reads`) under a watchdog (:mod:`~speckit.sandbox.server_limits`),
the values they pass (:mod:`~speckit.sandbox.server_values`), twins of the test's mirrored
objects (:mod:`~speckit.sandbox.server_twins`), and the progress page. It imports nothing
of the test-process side.
"""

from __future__ import annotations

import ctypes
import importlib
import io
import json
import marshal
import mmap
import os
import signal
import sys
from typing import Any

from .. import impl as impl_loader
from ..core import FailureKind, ImplementationError, MissingOperation, Presence, SuiteFailure, TimeLimitReached
from ..impl import Implementation
from ..operations import bool_problem, failure_of
from .config import served_classes
from .confine import confine, libc
from .protocol import HEADER, IMPORTING, INDEX_BITS, MAX_MESSAGE, MAX_REPLY, At, Command, ErrorKind, Reply, frame
from .server_limits import (
    WATCHDOG,
    BoundedOutput,
    import_failure,
    limited,
    near_memory_limit,
    over_memory,
    slow_import,
)
from .server_reads import read_value
from .server_twins import TwinTable
from .server_values import ServerValues

PRESENCES = frozenset(p.value for p in Presence)
_CALL, _KEEP = Command.CALL, Reply.KEEP
_TAG, _OP, _HANDLE, _ARGUMENTS, _REPLY, _UPDATED, _KEYWORDS = (
    At.TAG,
    At.CALL_OP,
    At.CALL_HANDLE,
    At.CALL_ARGUMENTS,
    At.CALL_REPLY,
    At.CALL_UPDATED,
    At.CALL_KEYWORDS,
)
"""A call's positions (:class:`~speckit.sandbox.protocol.At`), as globals: read for every call."""
_FUNCTION = 5
"""Where an operation's record (:attr:`_ServerState.ops`) keeps the implementation's function once found."""


class _ServerState:
    """The server's tables: the implementation, its operations, its values by handle id, the twins."""

    def __init__(
        self, implementation: Implementation, config: dict, served: dict[str, tuple[type, Any]], configured_supplied=()
    ):
        self.implementation = implementation
        self.config = config
        self.home = os.getcwd()
        """The server's own working folder, where ``[FOLDER, None]`` returns."""
        self.store = ServerValues()
        self.values = self.store.values
        """The values the tests refer to, by handle id (the store's table, read for every call)."""
        self.twins = TwinTable(self.store, served, int(config["output_kb"]) * 1024)
        self.functions: dict[tuple[str, str], Any] = {}
        self.ops: dict[int, list] = {}
        """The operations calls name by number: module, name, qualname, time limit, Boolean
        result?, and the implementation's function once found (else None)."""
        self.import_failures: dict[str, str] = {}
        self.package_dir = os.path.dirname(
            getattr(implementation.package, "__file__", None) or list(implementation.package.__path__)[0] + "/"
        )
        self.arguments: list = []
        """The arguments of the call running, when it asked for them back (else empty: a
        reference kept here would keep a twin pinned and delay finalizers)."""
        self.supplied = tuple(configured_supplied)
        """The kit's supplied modules: an exception of their classes is named to the test process."""

    # operations and modules

    def function(self, module: str, name: str):
        key = (module, name)
        found = self.functions.get(key)
        if found is None:
            self.import_module(module)
            facade = getattr(self.implementation, module)
            found = getattr(facade, name).function()
            self.functions[key] = found
        return found

    def import_module(self, module: str) -> None:
        """Import the implementation's ``module``; MissingOperation naming why it cannot be, in the
        words of :func:`import_failure` (a missing module and a syntax error are worded by the loader)."""
        failure = self.import_failures.get(module)
        if failure is None:
            full = f"{self.implementation.package.__name__}.{module}"
            try:
                importlib.import_module(full)
                return
            except ModuleNotFoundError as e:
                if e.name == full:
                    return
                failure = import_failure(e, self.package_dir, self.config)
            except SyntaxError:
                return
            except TimeLimitReached:
                failure = f"{module}.py took more than {self.config['import_seconds']:g} s to import"
            except BaseException as e:  # noqa: BLE001 - any failure while importing is the module's
                failure = import_failure(e, self.package_dir, self.config)
            self.import_failures[module] = failure
        raise MissingOperation(f"module {module} could not be imported: {failure}")

    def found(self, module: str, name: str):
        """The implementation's function ``module.name``, imported under the import time limit;
        MissingOperation saying why it cannot be had."""
        try:
            return self.functions.get((module, name)) or limited(
                self.config["import_seconds"], self.function, module, name
            )
        except TimeLimitReached:
            raise MissingOperation(slow_import(module, self.config)) from None

    def resolve(self, module: str, name: str) -> dict:
        import inspect

        try:
            function = limited(self.config["import_seconds"], self.function, module, name)
        except SuiteFailure as e:
            return {ErrorKind.MISSING: str(e)}
        except TimeLimitReached:
            return {ErrorKind.MISSING: slow_import(module, self.config)}
        try:
            signature = limited(1.0, inspect.signature, function)
            data = [
                [p.name, int(p.kind), p.default is not inspect.Parameter.empty] for p in signature.parameters.values()
            ]
        except BaseException:  # noqa: BLE001 - uninspectable: the tests say so
            data = None
        return {"signature": data}

    def presence(self, names: list[str]) -> list[str]:
        reader = getattr(self.implementation, "state", None)
        answers = []
        for qualname in names:
            try:
                if reader is not None:
                    state = limited(self.config["import_seconds"], reader, qualname)
                else:
                    state = (
                        Presence.PRESENT
                        if limited(self.config["import_seconds"], self.implementation.has, qualname)
                        else Presence.MISSING
                    )
            except BaseException:  # noqa: BLE001 - a module that cannot even be imported
                state = Presence.MISSING
            answers.append(state if state in PRESENCES else Presence.PRESENT.value)
        return answers

    # calls

    def call(self, command: list) -> tuple[Any, dict | None]:
        """Run one call; (result, None) or (None, error).

        It runs for every call of a run (some 800,000), so its common path (a known
        operation given the server's values) makes as few Python calls as it can.
        """
        op = self.ops[command[_OP]]
        module, name, qualname, limit, expects_bool, function = op
        args = command[_ARGUMENTS]
        if function is None:
            try:
                function = op[_FUNCTION] = self.found(module, name)
            except SuiteFailure as e:
                return None, {"kind": ErrorKind.MISSING, "message": str(e)}
        keywords = None
        arguments: tuple[Any, ...] | list[Any]
        try:
            if type(args) is tuple:  # the common case: the ids of values held here (no keywords)
                try:
                    arguments = tuple(map(self.values.__getitem__, args))
                except KeyError:
                    raise LookupError("a value this call was given no longer exists") from None
            else:
                arguments, keywords = self.decoded_arguments(command)
        except LookupError as e:
            return None, {"kind": FailureKind.FAILED, "message": f"{qualname} was not called: {e}"}
        return self.run(function, arguments, keywords, qualname, limit, expects_bool)

    def decoded_arguments(self, command: list) -> tuple[list[Any], dict[str, Any] | None]:
        """A call's arguments and keyword arguments given as values on the wire; kept for the
        answer when the call asks for them back. LookupError if one is not to be had."""
        decode = self.store.decode
        arguments = [decode(a) for a in command[_ARGUMENTS]]
        keywords = None
        if len(command) > _KEYWORDS:
            keywords = {}
            for name, value in command[_KEYWORDS]:
                if type(name) is not str or not name.isidentifier():
                    raise LookupError(f"a keyword argument named {name!r}")
                keywords[name] = decode(value)
        if len(command) > _UPDATED and command[_UPDATED]:
            self.arguments = arguments  # sent back after the call, then dropped
        return arguments, keywords

    def run(self, function, arguments, keywords, qualname: str, limit: float, expects_bool: bool):
        """``function(*arguments, **keywords)`` under the watchdog: (result, None), or (None,
        error) worded as in-process (a memory breach as such, the kit's exception named)."""
        problem = raised = None
        watchdog = WATCHDOG
        watchdog.calls += 1  # the output allowance starts afresh (BoundedOutput)
        watchdog.arm(limit)
        try:
            try:
                result = function(*arguments, **keywords) if keywords else function(*arguments)
            except BaseException as e:  # noqa: BLE001 - classified as in-process
                kind, problem = failure_of(qualname, e, limit)
                if kind is None:
                    kind, problem = FailureKind.FAILED, f"{qualname} raised {type(e).__name__}: {e}"
                if isinstance(e, MemoryError) or (kind == FailureKind.HUNG and near_memory_limit(self.config)):
                    kind, problem = FailureKind.FAILED, over_memory(qualname, self.config)
                else:
                    raised = self.kit_class(type(e))
            else:
                if expects_bool and type(result) is not bool:
                    kind, problem = FailureKind.FAILED, bool_problem(qualname, result)
        except TimeLimitReached:
            kind, problem = FailureKind.HUNG, failure_of(qualname, TimeLimitReached(), limit)[1]
            if near_memory_limit(self.config):
                kind, problem = FailureKind.FAILED, over_memory(qualname, self.config)
        except MemoryError:
            kind, problem = FailureKind.FAILED, over_memory(qualname, self.config)
        except BaseException as e:  # noqa: BLE001 - the description itself failed
            kind, problem = FailureKind.FAILED, f"{qualname} raised {type(e).__name__} (and describing it failed)"
        finally:
            watchdog.clear()
        if problem is not None:
            error = {"kind": kind, "message": problem[:MAX_MESSAGE]}
            if raised is not None:
                error["raised"] = raised
            return None, error
        return result, None

    def kit_class(self, cls: type) -> str | None:
        """``module.Class`` of the nearest class of ``cls``'s ancestry (itself first) that the
        test process has too: a builtin, or a class of the kit's supplied modules, the very
        object the module defines. A subclass of the implementation's own is thus reported as
        the kit's class it derives from, as ``issubclass`` sees it in process. None if none is."""
        try:
            for ancestor in cls.__mro__:
                module, name = ancestor.__module__, ancestor.__qualname__
                if (module == "builtins" or module in self.supplied) and getattr(
                    sys.modules.get(module), name, None
                ) is ancestor:
                    return f"{module}.{name}"
        except Exception:  # noqa: BLE001 - a class that lies about itself is not the kit's
            pass
        return None

    # reads

    def read(self, command: list) -> tuple[Any, dict | None]:
        """Run one read (a field, a module's attribute, ==, dir, repr): (encoded result, None) or (None, error)."""
        tag, subject = command[At.TAG], command[At.SUBJECT]
        try:
            if tag == Command.MODULE:
                limited(self.config["import_seconds"], self.import_module, subject)
                subject = limited(self.config["import_seconds"], self.implementation.module, subject)
            else:
                subject = self.store.decode(subject)
        except SuiteFailure as e:
            return None, {"kind": ErrorKind.MISSING, "message": str(e)[:MAX_MESSAGE]}
        except TimeLimitReached:
            return None, {"kind": ErrorKind.MISSING, "message": slow_import(command[At.SUBJECT], self.config)}
        except LookupError as e:
            return None, {"kind": FailureKind.FAILED, "message": f"the value was not read: {e}"}
        if tag == Command.MODULE and command[At.MODULE_ATTRIBUTE] is None:
            return None, None
        return read_value(self.store, tag, subject, command)


# the process


def main() -> None:
    """The server process: confine, import the package, answer requests until the pipe closes."""
    argument = json.loads(sys.argv[1])
    reply, config = argument["reply"], argument["config"]
    progress = _map_progress(argument["progress"])
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    import spec as spec_data

    specification = spec_data.load(argument["spec"])
    for name in specification.kit.supplied:  # before the view of the files narrows
        importlib.import_module(name)
    served = served_classes(specification)
    try:
        isolation = confine(
            config,
            argument["uid"],
            argument["gid"],
            argument["work"],
            argument["package"],
            kit=argument["kit"],
            mechanism=argument["mechanism"],
        )
    except OSError as e:
        _write_frame(reply, {"seq": 0, "fatal": str(e)})
        return
    _bound_the_process(config)
    progress.value = IMPORTING
    implementation = _load_implementation(argument["package"], specification, config, reply)
    if implementation is None:
        return
    state = _ServerState(implementation, config, served, specification.kit.supplied)
    _write_frame(reply, {"seq": 0, "isolation": isolation})
    _serve(state, argument["request"], reply, progress)


def _bound_the_process(config: dict) -> None:
    """Arm the watchdog's clock, make runs repeatable and bound what the implementation prints."""
    import random

    WATCHDOG.wall_factor = float(config["wall_factor"])
    signal.signal(signal.SIGALRM, WATCHDOG.on_alarm)
    random.seed(0)
    sys.stdout = BoundedOutput(int(config["output_kb"]) * 1024)
    sys.stderr = BoundedOutput(int(config["output_kb"]) * 1024)
    sys.stdin = io.StringIO("")


def _load_implementation(package: str, specification, config: dict, reply: int) -> Implementation | None:
    """The implementation in ``package``, imported under the import time limit; None once the
    greeting has said why it cannot be."""
    try:
        return limited(config["import_seconds"], impl_loader.load, package, specification)
    except ImplementationError as e:
        cause = e.__context__
        reason = import_failure(cause, package, config) if cause is not None else str(e)
        _write_frame(reply, {"seq": 0, "error": reason[:MAX_MESSAGE]})
    except TimeLimitReached:
        _write_frame(reply, {"seq": 0, "error": f"the package took more than {config['import_seconds']:g} s to import"})
    return None


def _serve(state: _ServerState, request: int, reply: int, progress: ctypes.c_int64) -> None:
    """Answer each request read from ``request`` until the pipe closes."""
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
        message = marshal.loads(buffer[HEADER.size : end])  # from the grader: trusted (protocol.py)
        del buffer[:end]
        _write_frame(reply, _answer(state, message, progress))


def _map_progress(fd: int) -> ctypes.c_int64:
    """Map the progress page without keeping its file open (Python's mmap would keep a copy of the fd)."""
    c = libc()
    c.mmap.restype = ctypes.c_void_p
    c.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
    address = c.mmap(None, mmap.PAGESIZE, mmap.PROT_READ | mmap.PROT_WRITE, mmap.MAP_SHARED, fd, 0)
    if address is None or address == ctypes.c_void_p(-1).value:
        raise OSError(ctypes.get_errno(), "mmap of the progress page failed")
    os.close(fd)
    return ctypes.c_int64.from_address(address)


def _answer(state: _ServerState, message: dict, progress: ctypes.c_int64) -> dict:
    seq = message["seq"]
    for definition in message.get("ops", ()):
        state.ops[definition[At.DEFINITION_NUMBER]] = [*definition[At.DEFINITION_NUMBER + 1 :], None]
    state.twins.apply(message.get("twins", ()))
    state.store.forget_held(message.get("release", ()))
    commands = message["commands"]
    answer: dict[str, Any] = {"seq": seq}  # "error", "result", "results": only when there are any
    WATCHDOG.start()
    try:
        _run_commands(state, commands, seq, answer, progress)
        # Released after the commands (a value the test dropped right after passing it to a
        # pipelined call is still that call's argument), under the same limits: a finalizer
        # (__del__) that loops is stopped and reported as such, not blamed on a later call.
        progress.value = seq << INDEX_BITS | len(commands)
        problem = state.store.release(message.get("release", ()), state.config["memory_mb"])
        if problem is not None and "error" not in answer:
            answer["error"] = {"at": len(commands), "kind": ErrorKind.RELEASE, "message": problem}
    finally:
        WATCHDOG.stop()
    if state.twins.twins:
        updates = {key: items for key, items in state.twins.updates().items() if items}
        if updates:
            answer["twins"] = updates
    return answer


_JSON = json.JSONEncoder(separators=(",", ":"))
"""The answers' encoder, made once (``json.dumps`` with separators makes one per call)."""


def _write_frame(fd: int, message: dict) -> None:
    data = _JSON.encode(message).encode()
    if len(data) > MAX_REPLY:
        data = json.dumps(
            {
                "seq": message["seq"],
                "error": {"at": 0, "kind": FailureKind.FAILED, "message": "the answer was too long"},
            }
        ).encode()
    view = memoryview(frame(data))
    while view:
        view = view[os.write(fd, view) :]


def _run_commands(state: _ServerState, commands: list, seq: int, answer: dict, progress: ctypes.c_int64) -> None:
    base, call, values = seq << INDEX_BITS, state.call, state.values
    for index, command in enumerate(commands):
        progress.value = base | index
        tag = command[_TAG]
        if tag == _CALL:
            result, error = call(command)
            if error is not None:
                state.arguments = []
                error["at"] = index
                answer["error"] = error
                break
            handle_id, reply = command[_HANDLE], command[_REPLY]
            if len(command) > _UPDATED and command[_UPDATED]:  # the test's lists, dicts and sets, as the call left them
                answer["arguments"] = [[i, state.store.encode_shared(state.arguments[i])] for i in command[_UPDATED]]
                state.arguments = []
            if reply == _KEEP:
                # The test holds a handle for it, whatever the value is (a plain str too).
                values[handle_id] = result
            elif reply == Reply.LATER:
                answer.setdefault("results", []).append([index, state.store.encode_result(result, handle_id)])
            else:
                answer["result"] = state.store.encode_result(result, handle_id)
        elif tag == Command.RESOLVE:
            answer["result"] = state.resolve(command[At.RESOLVE_MODULE], command[At.RESOLVE_NAME])
        elif tag == Command.PRESENCE:
            answer["result"] = state.presence(command[At.PRESENCE_NAMES])
        elif tag == Command.FOLDER:
            try:
                path = command[At.FOLDER_PATH]
                os.chdir(state.home if path is None else str(path))
                answer["result"] = None
            except (OSError, TypeError, ValueError) as e:
                answer["result"] = f"{type(e).__name__}: {e}"[:MAX_MESSAGE]
        else:
            result, error = state.read(command)
            if error is not None:
                error["at"] = index
                answer["error"] = error
                break
            answer["result"] = result
    progress.value = seq << INDEX_BITS | len(commands)
