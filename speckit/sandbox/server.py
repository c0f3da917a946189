"""The operation server process: everything that runs inside it.

:meth:`Server.start <speckit.sandbox.process.Server.start>` runs :func:`main`,
which confines the process (:mod:`speckit.sandbox.confine`), imports the implementation
and answers requests until the pipe closes: calls and reads of values under a watchdog,
twins of the test's Display and Input objects, and the progress page. It imports
nothing of the test-process side.
"""

from __future__ import annotations

import collections.abc
import ctypes
import errno
import importlib
import io
import json
import marshal
import mmap
import os
import signal
import sys
from typing import Any

import attrs

from .. import impl as impl_loader
from ..core import FailureKind, ImplementationError, MissingOperation, Presence, SuiteFailure, TimeLimitReached
from ..impl import Implementation
from ..operations import bool_problem, failure_of
from ..watchdog import ProcessorWatchdog
from .config import READ_LIMIT, served_classes
from .confine import confine, libc
from .protocol import (
    HEADER,
    IMPORTING,
    INDEX_BITS,
    MAX_DEPTH,
    MAX_FIELDS,
    MAX_ITEMS,
    MAX_MESSAGE,
    MAX_NAMES,
    MAX_REPLY,
    MAX_SHOWN,
    At,
    Command,
    ErrorKind,
    Reply,
    TwinKind,
    Value,
    frame,
)

_WATCHDOG = ProcessorWatchdog()

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


class _BoundedOutput(io.TextIOBase):
    """sys.stdout and sys.stderr of the server: printing is allowed, up to a limit per call.

    The allowance starts afresh with every call (:attr:`~speckit.watchdog.ProcessorWatchdog.calls`), counted here
    when something is printed rather than reset at every call."""

    def __init__(self, limit: int):
        self.limit = limit
        self.used = 0
        self.call = -1
        """The call the output so far was printed in."""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        if self.call != _WATCHDOG.calls:
            self.call, self.used = _WATCHDOG.calls, 0
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

    def __init__(
        self, implementation: Implementation, config: dict, served: dict[str, type[Any]], configured_supplied=()
    ):
        self.implementation = implementation
        self.config = config
        self.home = os.getcwd()
        """The server's own working folder, where ``[FOLDER, None]`` returns."""
        self.values: dict[int, Any] = {}
        self.twins: dict[int, _Twin] = {}
        self.functions: dict[tuple[str, str], Any] = {}
        self.ops: dict[int, list] = {}
        """The operations calls name by number: module, name, qualname, time limit, Boolean
        result?, and the implementation's function once found (else None)."""
        self.output_limit = int(config["output_kb"]) * 1024
        self.import_failures: dict[str, str] = {}
        self.package_dir = os.path.dirname(
            getattr(implementation.package, "__file__", None) or list(implementation.package.__path__)[0] + "/"
        )
        self.served = served
        """The kit's classes the server makes twins of, by twin kind."""
        self.held: dict[int, int] = {}
        """The handle id a value read or answered is held under, by ``id(value)``: read again,
        it is answered with that id (pipelined results are not entered here)."""
        self.arguments: list = []
        """The arguments of the call running, when it asked for them back (else empty: a
        reference kept here would keep a twin pinned and delay finalizers)."""
        self.own_ids = 0
        """The last handle id the server chose itself (negative), for a mirrored object's state."""
        self.supplied = tuple(configured_supplied)
        """The kit's supplied modules: an exception of their classes is named to the test process."""

    # values

    def decode(self, value: Any) -> Any:
        if not isinstance(value, list):
            return value
        tag, payload = value[At.TAG], value[At.PAYLOAD]
        if tag == Value.HANDLE:
            try:
                return self.values[payload]
            except KeyError:
                raise LookupError("a value this call was given no longer exists") from None
        if tag == Value.TWIN:
            return self.twins[payload].value
        if tag == Value.FLOAT:
            return float(payload)
        if tag == Value.TUPLE:
            return tuple(self.decode(v) for v in payload)
        if tag == Value.LIST:
            return [self.decode(v) for v in payload]
        if tag == Value.SET:
            return {self.decode(v) for v in payload}
        if tag == Value.DICT:
            return {self.decode(k): self.decode(v) for k, v in payload}
        raise ValueError(f"unknown value tag {tag!r}")

    def encode_result(self, value: Any, handle_id: int) -> Any:
        """A result on the wire: plain values and plain containers by value, else a handle
        (the id it is already held under, or ``handle_id``)."""
        kind = type(value)
        if value is None or kind is bool or kind is int or kind is str:
            return value
        if kind is float:
            return [Value.FLOAT, repr(value)]
        if kind in _CONTAINERS:
            plain = _plain(value, 0, [MAX_ITEMS])
            if plain is not None:
                return plain
        for tid, twin in self.twins.items():
            if twin.value is value:
                return [Value.TWIN, tid]
        held = self.held.get(id(value))
        if held is not None and self.values.get(held) is value:
            return [Value.HANDLE, held]
        self.values[handle_id] = value
        self.held[id(value)] = handle_id
        return [Value.HANDLE]

    def encode_shared(self, value: Any, depth: int = 0) -> Any:
        """Any value on the wire, for the state of a mirrored object: the server's own values
        as ``[HANDLE, id]`` (the id it is held under, else a new negative one)."""
        kind = type(value)
        if value is None or kind is bool or kind is int or kind is str:
            return value
        if kind is float:
            return [Value.FLOAT, repr(value)]
        if depth < MAX_DEPTH:
            if kind is tuple or kind is list or kind is set or kind is frozenset:
                tag = Value.TUPLE if kind is tuple else Value.LIST if kind is list else Value.SET
                return [tag, [self.encode_shared(v, depth + 1) for v in value]]
            if kind is dict:
                return [
                    Value.DICT,
                    [[self.encode_shared(k, depth + 1), self.encode_shared(v, depth + 1)] for k, v in value.items()],
                ]
        for tid, twin in self.twins.items():
            if twin.value is value:
                return [Value.TWIN, tid]
        held = self.held.get(id(value))
        if held is None or self.values.get(held) is not value:
            self.own_ids -= 1
            held = self.own_ids
            self.values[held] = value
            self.held[id(value)] = held
        return [Value.HANDLE, held]

    # twins

    def apply_twins(self, twins: list) -> None:
        for tid, kind, new, state in twins:
            if new:
                recorder = _Recorder(self.output_limit)
                if kind == TwinKind.DISPLAY:
                    value = self.served[kind](recorder, {})
                elif kind == TwinKind.INPUT:
                    value = self.served[kind](None, recorder)
                elif kind == TwinKind.STREAM:
                    value = recorder
                else:
                    cls: Any = self.served[kind]  # a kit class, made without running its __init__
                    value = cls.__new__(cls)
                self.twins[tid] = _Twin(kind, value, recorder)
            twin = self.twins[tid]
            twin.free = False
            if kind == TwinKind.DISPLAY:
                twin.value.marks.clear()
                twin.value.marks.update({(r, c): m for r, c, m in state})
                twin.snapshot = sorted(state)
            elif kind == TwinKind.INPUT:
                twin.value.lines = None if state is None else _CountingLines(state)
            elif kind != TwinKind.STREAM:
                attributes = vars(twin.value)
                attributes.clear()
                attributes.update(self.decode(state))
                twin.snapshot = state

    def twin_updates(self) -> dict:
        out, marks, used, free, states = [], [], [], [], []
        for tid, twin in self.twins.items():
            if not twin.free and not twin.referred():
                twin.free = True
                free.append(tid)
            text = twin.recorder.take()
            if text:
                out.append([tid, text])
            if twin.kind == TwinKind.DISPLAY:
                try:
                    current = sorted(
                        [r, c, m]
                        for (r, c), m in twin.value.marks.items()
                        if type(r) is int and type(c) is int and type(m) is str
                    )
                except Exception:  # noqa: BLE001 - a twin the implementation broke
                    current = []
                if current != twin.snapshot:
                    marks.append([tid, current])
                    twin.snapshot = current
            elif twin.kind == TwinKind.INPUT and isinstance(twin.value.lines, _CountingLines) and twin.value.lines.used:
                used.append([tid, twin.value.lines.used])
                twin.value.lines = _CountingLines(list(twin.value.lines._iterator))
            elif twin.kind not in (TwinKind.DISPLAY, TwinKind.INPUT, TwinKind.STREAM):
                try:
                    current = self.encode_shared(dict(vars(twin.value)))
                except Exception:  # noqa: BLE001 - a twin the implementation broke
                    continue
                if current != twin.snapshot:
                    states.append([tid, current])
                    twin.snapshot = current
        return {"out": out, "marks": marks, "used": used, "free": free, "state": states}

    # commands

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

    def resolve(self, module: str, name: str) -> dict:
        import inspect

        try:
            function = _limited(self.config["import_seconds"], self.function, module, name)
        except SuiteFailure as e:
            return {ErrorKind.MISSING: str(e)}
        except TimeLimitReached:
            return {
                ErrorKind.MISSING: f"module {module} could not be imported: {module}.py took more than "
                f"{self.config['import_seconds']:g} s to import"
            }
        try:
            signature = _limited(1.0, inspect.signature, function)
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
                    state = _limited(self.config["import_seconds"], reader, qualname)
                else:
                    state = (
                        Presence.PRESENT
                        if _limited(self.config["import_seconds"], self.implementation.has, qualname)
                        else Presence.MISSING
                    )
            except BaseException:  # noqa: BLE001 - a module that cannot even be imported
                state = Presence.MISSING
            answers.append(state if state in PRESENCES else Presence.PRESENT.value)
        return answers

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
                function = op[_FUNCTION] = self.functions.get((module, name)) or _limited(
                    self.config["import_seconds"], self.function, module, name
                )
            except SuiteFailure as e:
                return None, {"kind": ErrorKind.MISSING, "message": str(e)}
            except TimeLimitReached:
                return None, {
                    "kind": ErrorKind.MISSING,
                    "message": f"module {module} could not be imported: {module}.py took more than "
                    f"{self.config['import_seconds']:g} s to import",
                }
        keywords = None
        arguments: tuple[Any, ...] | list[Any]
        try:
            if type(args) is tuple:  # the common case: the ids of values held here (no keywords)
                try:
                    arguments = tuple(map(self.values.__getitem__, args))
                except KeyError:
                    raise LookupError("a value this call was given no longer exists") from None
            else:
                arguments = [self.decode(a) for a in args]
                if len(command) > _KEYWORDS:
                    keywords = {}
                    for name, value in command[_KEYWORDS]:
                        if type(name) is not str or not name.isidentifier():
                            raise LookupError(f"a keyword argument named {name!r}")
                        keywords[name] = self.decode(value)
                if len(command) > _UPDATED and command[_UPDATED]:
                    self.arguments = arguments  # sent back after the call, then dropped
        except LookupError as e:
            return None, {"kind": FailureKind.FAILED, "message": f"{qualname} was not called: {e}"}
        problem = raised = None
        watchdog = _WATCHDOG
        watchdog.calls += 1  # the output allowance starts afresh (_BoundedOutput)
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

    def read(self, command: list) -> tuple[Any, dict | None]:
        """Run one read (a field, a module's attribute, ==, dir, repr): (encoded result, None) or (None, error)."""
        tag, subject = command[At.TAG], command[At.SUBJECT]
        try:
            if tag == Command.MODULE:
                _limited(self.config["import_seconds"], self.import_module, subject)
                subject = _limited(self.config["import_seconds"], self.implementation.module, subject)
            else:
                subject = self.decode(subject)
        except SuiteFailure as e:
            return None, {"kind": ErrorKind.MISSING, "message": str(e)[:MAX_MESSAGE]}
        except TimeLimitReached:
            return None, {
                "kind": ErrorKind.MISSING,
                "message": f"module {command[At.SUBJECT]} could not be imported: {command[At.SUBJECT]}.py "
                f"took more than {self.config['import_seconds']:g} s to import",
            }
        except LookupError as e:
            return None, {"kind": FailureKind.FAILED, "message": f"the value was not read: {e}"}
        if tag == Command.MODULE and command[At.MODULE_ATTRIBUTE] is None:
            return None, None
        label = "reading a value"
        kind: FailureKind | None
        watchdog = _WATCHDOG
        watchdog.arm(READ_LIMIT)
        try:
            try:
                label = _read_label(tag, subject, command)
                result = _READERS[tag](self, subject, command)
            except AttributeError as e:
                if tag not in (Command.FIELD, Command.MODULE):
                    raise
                return None, {"kind": ErrorKind.ATTRIBUTE, "message": (str(e) or label)[:MAX_MESSAGE]}
            else:
                return result, None
        except TimeLimitReached:
            kind, problem = FailureKind.HUNG, failure_of(label, TimeLimitReached(), READ_LIMIT)[1]
        except BaseException as e:  # noqa: BLE001 - classified as a failed call is
            try:
                kind, problem = failure_of(label, e, READ_LIMIT)
                if kind is None:
                    kind, problem = FailureKind.FAILED, f"{label} raised {type(e).__name__}: {e}"
            except BaseException:  # noqa: BLE001 - the description itself failed
                kind, problem = FailureKind.FAILED, f"{label} raised {type(e).__name__} (and describing it failed)"
        finally:
            watchdog.clear()
        return None, {"kind": kind, "message": problem[:MAX_MESSAGE]}


_CONTAINERS = frozenset({tuple, list, set, frozenset, dict})
_TAGS: dict[type, str] = {tuple: Value.TUPLE, list: Value.LIST, set: Value.SET, frozenset: Value.SET}


def _plain(value: Any, depth: int, budget: list[int]) -> Any:
    """``value`` on the wire if it is a plain value or a container (exactly list, tuple, set,
    frozenset, dict) of plain values within the limits; else None."""
    kind = type(value)
    if value is None or kind is bool or kind is int or kind is str:
        return value
    if kind is float:
        return [Value.FLOAT, repr(value)]
    if depth >= MAX_DEPTH or kind not in _CONTAINERS:
        return None
    budget[0] -= len(value)
    if budget[0] < 0:
        return None
    if kind is dict:
        items = []
        for k, v in value.items():
            key, item = _plain(k, depth + 1, budget), _plain(v, depth + 1, budget)
            if (key is None and k is not None) or (item is None and v is not None):
                return None
            items.append([key, item])
        return [Value.DICT, items]
    items = []
    for v in value:
        item = _plain(v, depth + 1, budget)
        if item is None and v is not None:
            return None
        items.append(item)
    return [_TAGS[kind], items]


def _read_label(tag: str, subject: Any, command: list) -> str:
    """How a failure of a read names what was read (``Value.empty``, ``color.red``, ``Color.__eq__``)."""
    if tag == Command.MODULE:
        return f"{command[At.SUBJECT]}.{command[At.MODULE_ATTRIBUTE]}"
    owner = type(subject).__name__
    if tag == Command.FIELD:
        return f"{owner}.{command[At.FIELD_NAME]}"
    return {
        Command.EQUALS: f"{owner}.__eq__",
        Command.SHOW: f"{owner}.__repr__",
        Command.NAMES: f"dir() of a {owner}",
        Command.ITEMS: f"iterating over a {owner}",
    }[tag]


def _read_field(state: _ServerState, subject: Any, command: list) -> Any:
    return state.encode_result(getattr(subject, command[At.MODULE_ATTRIBUTE]), command[At.MODULE_HANDLE])


def _read_record_field(state: _ServerState, subject: Any, command: list) -> list:
    """The field asked for and, alongside, the record's other fields: ``[value, [[name, value, id], ...]]``.

    A test that reads one field of a record usually reads the others next (``value.empty``,
    then ``value.color``); sending them along saves those round trips. A field that is
    not a plain value takes one of the spare handle ids the request offers, or is left out.
    """
    name, handle_id, spare = command[At.FIELD_NAME], command[At.FIELD_HANDLE], command[At.FIELD_SPARE]
    value = state.encode_result(getattr(subject, name), handle_id)
    spare_ids = list(spare)
    others: list[Any] = []
    for other in _record_fields(subject):
        if other == name or len(others) >= MAX_FIELDS:
            continue
        try:
            field = getattr(subject, other)
        except Exception:  # noqa: BLE001 - it is read (and fails) on its own if the test asks for it
            continue
        if field is None or type(field) in (bool, int, str, float):
            others.append([other, state.encode_result(field, 0), None])
        elif spare_ids:
            handle = spare_ids.pop(0)
            others.append([other, state.encode_result(field, handle), handle])
    return [value, others]


def _record_fields(subject: Any) -> list[str]:
    """The data fields of a record (attrs, dataclass or plain instance attributes); none for an
    object whose class customises attribute access, since reading it could run anything."""
    import dataclasses

    cls = type(subject)
    if cls.__getattribute__ is not object.__getattribute__ or hasattr(cls, "__getattr__"):
        return []
    if attrs.has(cls):
        return [f.name for f in attrs.fields(cls)]
    if dataclasses.is_dataclass(cls):
        return [f.name for f in dataclasses.fields(cls)]
    instance = getattr(subject, "__dict__", None)
    if not isinstance(instance, dict):
        return []
    return [
        n
        for n in list(instance)[: MAX_FIELDS + 1]
        if type(n) is str and n.isidentifier() and not n.startswith("_") and not hasattr(cls, n)
    ]


def _compare_values(state: _ServerState, subject: Any, command: list) -> bool:
    return bool(subject == state.decode(command[At.EQUALS_OTHER]))


def _list_names(state: _ServerState, subject: Any, command: list) -> list[str]:
    names = [name for name in dir(subject) if type(name) is str and len(name) <= 100]
    return names[:MAX_NAMES]


def _show_value(state: _ServerState, subject: Any, command: list) -> str:
    text = repr(subject)
    return text if len(text) <= MAX_SHOWN else text[: MAX_SHOWN - 3] + "..."


def _read_items(state: _ServerState, subject: Any, command: list) -> list | None:
    """``[sized, indexable, items]`` of an iterable value, each item as a result is sent (a
    plain value, else a handle under ``first_id`` plus its position); None if it is not
    iterable. A value indexes as it iterates unless it is a mapping."""
    try:
        iterator = iter(subject)
    except TypeError:
        return None
    first_id = command[At.ITEMS_FIRST]
    items: list[Any] = []
    for item in iterator:
        if len(items) == MAX_ITEMS:
            raise ValueError(f"it has more than {MAX_ITEMS} items")
        items.append(state.encode_result(item, first_id + len(items)))
    kind = type(subject)
    indexable = hasattr(kind, "__getitem__") and not isinstance(subject, collections.abc.Mapping)
    return [hasattr(kind, "__len__"), indexable, items]


_READERS = {
    Command.FIELD: _read_record_field,
    Command.MODULE: _read_field,
    Command.EQUALS: _compare_values,
    Command.NAMES: _list_names,
    Command.SHOW: _show_value,
    Command.ITEMS: _read_items,
}


def _limited(seconds: float, function, *args):
    """``function(*args)``, stopped after ``seconds``."""
    watchdog = _WATCHDOG
    started = not watchdog.ticking
    if started:
        watchdog.start()
    watchdog.arm(seconds)
    try:
        return function(*args)
    finally:
        watchdog.clear()
        if started:
            watchdog.stop()


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


def main() -> None:
    """The server process: confine, import the package, answer requests until the pipe closes."""
    argument = json.loads(sys.argv[1])
    request, reply, config = argument["request"], argument["reply"], argument["config"]
    progress = _map_progress(argument["progress"])
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    import random

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
    _WATCHDOG.wall_factor = float(config["wall_factor"])
    signal.signal(signal.SIGALRM, _WATCHDOG.on_alarm)
    random.seed(0)
    sys.stdout = _BoundedOutput(int(config["output_kb"]) * 1024)
    sys.stderr = _BoundedOutput(int(config["output_kb"]) * 1024)
    sys.stdin = io.StringIO("")
    progress.value = IMPORTING
    try:
        implementation = _limited(config["import_seconds"], impl_loader.load, argument["package"], specification)
    except ImplementationError as e:
        cause = e.__context__
        reason = import_failure(cause, argument["package"], config) if cause is not None else str(e)
        _write_frame(reply, {"seq": 0, "error": reason[:MAX_MESSAGE]})
        return
    except TimeLimitReached:
        _write_frame(reply, {"seq": 0, "error": f"the package took more than {config['import_seconds']:g} s to import"})
        return
    state = _ServerState(implementation, config, served, specification.kit.supplied)
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
    state.apply_twins(message.get("twins", ()))
    _forget_held(state, message.get("release", ()))
    commands = message["commands"]
    answer: dict[str, Any] = {"seq": seq}  # "error", "result", "results": only when there are any
    _WATCHDOG.start()
    try:
        _run_commands(state, commands, seq, answer, progress)
        # Released after the commands (a value the test dropped right after passing it to a
        # pipelined call is still that call's argument), under the same limits: a finalizer
        # (__del__) that loops is stopped and reported as such, not blamed on a later call.
        progress.value = seq << INDEX_BITS | len(commands)
        problem = _release(state, message.get("release", ()))
        if problem is not None and "error" not in answer:
            answer["error"] = {"at": len(commands), "kind": ErrorKind.RELEASE, "message": problem}
    finally:
        _WATCHDOG.stop()
    if state.twins:
        updates = {key: items for key, items in state.twin_updates().items() if items}
        if updates:
            answer["twins"] = updates
    return answer


def _forget_held(state: _ServerState, handle_ids) -> None:
    """The values the test dropped are never answered again as held (released after the
    commands; no reference to them is kept here, so their finalizers run in :func:`_release`)."""
    held = state.held
    if not held:
        return
    values = state.values
    for handle_id in handle_ids:
        key = id(values.get(handle_id))
        if held.get(key) == handle_id:
            del held[key]


def _release(state: _ServerState, handle_ids) -> str | None:
    """Drop the values the tests released, each under the read time limit; why one failed, or None."""
    watchdog, problem = _WATCHDOG, None
    values, twins, held = state.values, state.twins, state.held
    for handle_id in handle_ids:
        value = values.pop(handle_id, None)
        if twins:
            twins.pop(handle_id, None)
        if value is None:
            continue
        if held and held.get(id(value)) == handle_id:
            del held[id(value)]
        owner = type(value)
        watchdog.fired = False
        watchdog.arm(READ_LIMIT)
        try:
            del value  # runs the value's finalizers, if this was its last reference
            if watchdog.fired:  # the finalizer swallowed the time-out
                raise TimeLimitReached()
        except TimeLimitReached:
            problem = problem or f"releasing a value ({owner.__name__}) took more than {READ_LIMIT:g} s"
        except MemoryError:
            problem = (
                problem
                or f"releasing a value ({owner.__name__}) went over the memory limit of {state.config['memory_mb']} MB"
            )
        except BaseException:  # noqa: BLE001 - a finalizer's exception is ignored, as Python does
            pass
        finally:
            watchdog.clear()
    return problem


def near_memory_limit(config: dict) -> bool:
    """Whether the server's address space is within a quarter of its limit (a call that ran out
    of time while allocating is reported as the memory breach it was about to be)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024 >= 0.75 * int(config["memory_mb"]) * 2**20
    except (OSError, ValueError):
        pass
    return False


def over_memory(label: str, config: dict) -> str:
    return f"{label} went over the memory limit of {config['memory_mb']} MB"


def import_failure(error: BaseException, package: str, config: dict) -> str:
    """Why importing the package failed, naming the file that raised and its innermost line there:
    "grid.py raised NameError at import (line 22): ...", "grid.py went over the memory limit of
    N MB at import", or "the package took more than N s to import"."""
    if isinstance(error, TimeLimitReached):
        return f"the package took more than {config['import_seconds']:g} s to import"
    where, line = "the package", 0
    folder = os.path.realpath(package).rstrip("/") + "/"
    trace = error.__traceback__
    while trace is not None:
        filename = os.path.realpath(trace.tb_frame.f_code.co_filename)
        if filename.startswith(folder):
            where, line = filename[len(folder) :], trace.tb_lineno
        trace = trace.tb_next
    if isinstance(error, SyntaxError) and error.filename and os.path.realpath(error.filename).startswith(folder):
        where, line = os.path.realpath(error.filename)[len(folder) :], error.lineno or 0
    if isinstance(error, MemoryError):
        return f"{where} went over the memory limit of {config['memory_mb']} MB at import"
    at = f" (line {line})" if line else ""
    return f"{where} raised {type(error).__name__} at import{at}: {error}"


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
                answer["arguments"] = [[i, state.encode_shared(state.arguments[i])] for i in command[_UPDATED]]
                state.arguments = []
            if reply == _KEEP:
                # The test holds a handle for it, whatever the value is (a plain str too).
                values[handle_id] = result
            elif reply == Reply.LATER:
                answer.setdefault("results", []).append([index, state.encode_result(result, handle_id)])
            else:
                answer["result"] = state.encode_result(result, handle_id)
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
