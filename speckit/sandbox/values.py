"""Values crossing between the test process and the operation server, seen from the test process.

:class:`Handle` (a value that stays in the server), the encoder of a call's arguments
and the decoder of its result, and the registry of the kit's served objects (those of
the classes ``[kit] served`` names, a Display or a recording fake, say, and text streams)
that are mirrored into the server as twins.
"""

from __future__ import annotations

import io
import itertools
import sys
import weakref
from typing import Any, Protocol

from .mirror import fields_of, fits, set_fields
from .process import ProtocolViolation
from .protocol import MAX_DEPTH, MAX_LINES, At, TwinKind, Value


class HandleOwner(Protocol):
    """What handles, the encoder, the decoder and the twin registry need from the sandboxed
    implementation that owns them (:class:`~speckit.sandbox.client.SandboxedImplementation`)."""

    spec: Any
    generation: int
    """Which server the values belong to: it changes when a server dies."""

    @property
    def dead_reason(self) -> str: ...

    released: list[int]
    """Ids of values and twins the test dropped, released with the next message."""
    twins: TwinRegistry

    def new_id(self) -> int: ...

    def handle(self, handle_id: int, known: bool = False) -> Handle: ...

    def read_attribute(self, handle: Handle, name: str) -> Any: ...

    def compare(self, handle: Handle, other: Any) -> Any: ...

    def items(self, handle: Handle) -> tuple[bool, bool, list]: ...

    def names(self, handle: Handle) -> list[str]: ...

    def shown(self, handle: Handle) -> str: ...


class Handle:
    """A value that lives in the operation server.

    Tests pass it back into operations, and may read it as the implementation's own
    objects are read: ``handle.field`` (a plain value, or another handle), ``==`` and
    ``!=``, ``hasattr`` and ``dir``, and, for a value that iterates (a named tuple, a
    deque), ``iter``, ``len`` and indexing. Each read runs in the server, under the time
    limit of an operation; a missing attribute is an AttributeError, and iterating over a
    value that does not iterate a TypeError, as in-process. ``repr`` is local (it is shown
    in every trace); failure messages ask the server with :func:`shown`. A handle hashes
    by identity, and is true.
    """

    __slots__ = ("_hid", "_gen", "_owner", "__weakref__")

    def __init__(self, id: int, generation: int, owner: HandleOwner):
        self._hid = id
        self._gen = generation
        self._owner = owner

    def __repr__(self) -> str:
        return f"<value #{self._hid} of the sandboxed implementation>"

    def __getattr__(self, name: str):
        if name.startswith("__"):
            raise AttributeError(name)
        return self._owner.read_attribute(self, name)

    def __eq__(self, other: Any):
        return self._owner.compare(self, other)

    def __ne__(self, other: Any):
        same = self._owner.compare(self, other)
        return same if same is NotImplemented else not same

    __hash__ = object.__hash__

    def __bool__(self) -> bool:
        return True  # as for any object of the implementation's: truth never asks the server

    def __iter__(self):
        return iter(self._owner.items(self)[2])

    def __len__(self) -> int:
        sized, _, items = self._owner.items(self)
        if not sized:
            raise TypeError("the value has no len()")
        return len(items)

    def __getitem__(self, index: Any) -> Any:
        if not isinstance(index, (int, slice)) or isinstance(index, bool):
            raise TypeError(
                f"a value of the sandboxed implementation is indexed by position only, not by {type(index).__name__}"
            )
        _, indexable, items = self._owner.items(self)
        if not indexable:
            raise TypeError("the value is not subscriptable")
        return items[index]

    def __dir__(self) -> list[str]:
        return self._owner.names(self)

    def __del__(self) -> None:
        # The value is released with the next message (a run drops some 700,000 handles).
        try:
            owner = self._owner
            if self._gen == owner.generation:
                owner.released.append(self._hid)
        except Exception:  # noqa: BLE001 - interpreter shutdown
            pass


def uses_handles(arguments: list | tuple) -> bool:
    """Whether a call's encoded arguments name a value held by the server."""
    if type(arguments) is tuple:  # the ids of values held by the server (protocol.py)
        return bool(arguments)
    return any(_names_handle(a, 0) for a in arguments)


def plain_arguments(args: tuple, owner: HandleOwner) -> list | tuple | None:
    """The wire form of arguments that are all this server's values or plain scalars; else None.

    Arguments that are all this server's values (the common case) go as a tuple of
    their ids, which the server looks up at once (:mod:`~speckit.sandbox.protocol`)."""
    held = held_ids(args, owner)
    if held is not None:
        return held
    generation, encoded = owner.generation, []
    for value in args:
        kind = type(value)
        if kind is Handle and value._gen == generation and value._owner is owner:
            encoded.append([Value.HANDLE, value._hid])
        elif value is None or kind is bool or kind is int or kind is str:
            encoded.append(value)
        else:
            return None
    return encoded


def held_ids(args: tuple, owner: HandleOwner) -> tuple | None:
    """The ids of the arguments when every one is a value this server holds (the wire form
    of the common call, :mod:`~speckit.sandbox.protocol`), else None."""
    generation = owner.generation
    for value in args:
        if type(value) is not Handle or value._gen != generation or value._owner is not owner:
            return None
    return tuple([value._hid for value in args])


def _names_handle(wire: Any, depth: int) -> bool:
    if not isinstance(wire, list) or not wire or depth > MAX_DEPTH:
        return False
    tag = wire[At.TAG]
    if tag == Value.HANDLE:
        return True
    if tag in (Value.TUPLE, Value.LIST, Value.SET):
        return any(_names_handle(item, depth + 1) for item in wire[At.PAYLOAD])
    if tag == Value.DICT:
        return any(_names_handle(k, depth + 1) or _names_handle(v, depth + 1) for k, v in wire[At.PAYLOAD])
    return False


class StaleHandle(Exception):
    pass


class Encoder:
    """Turns a call's arguments into the wire form, mirroring kit objects it meets."""

    def __init__(self, owner: HandleOwner):
        self.owner = owner
        self.twins: list = []

    def arguments(self, args: tuple) -> list:
        """A call's arguments, as a plain list of wire values (the implementation's fast paths,
        ``SandboxedOperation.__call__`` and :func:`plain_arguments`, handle the common case of
        handles and scalars only)."""
        return [self.encode(value) for value in args]

    def encode(self, value: Any, depth: int = 0) -> Any:
        kind = type(value)
        if value is None or kind is bool or kind is int or kind is str:
            return value
        if kind is Handle:
            if value._owner is not self.owner or value._gen != self.owner.generation:
                raise StaleHandle(self.owner.dead_reason or "the value belongs to another implementation")
            return [Value.HANDLE, value._hid]
        if depth > MAX_DEPTH:
            raise TypeError("argument nested too deeply to cross into the sandbox")
        if kind is float:
            return [Value.FLOAT, repr(value)]
        if kind is tuple:
            return [Value.TUPLE, [self.encode(v, depth + 1) for v in value]]
        if kind is list:
            return [Value.LIST, [self.encode(v, depth + 1) for v in value]]
        if kind is set or kind is frozenset:
            return [Value.SET, [self.encode(v, depth + 1) for v in value]]
        if kind is dict:
            return [Value.DICT, [[self.encode(k, depth + 1), self.encode(v, depth + 1)] for k, v in value.items()]]
        twin = self.owner.twins.encode(value, self)
        if twin is not None:
            return twin
        if isinstance(value, bool):
            return bool(value)
        if isinstance(value, int):
            return int(value)
        if isinstance(value, str):
            return str(value)
        raise TypeError(f"a {type(value).__name__} cannot be passed to a sandboxed implementation")


def decode(value: Any, owner: HandleOwner, handle_id: int, depth: int, named: bool = False) -> Any:
    """A result from the server: checked, and turned into plain values, a handle or a mirrored object.

    A handle is allowed at the top (``[HANDLE]``: the new value ``handle_id``; ``[HANDLE, id]``:
    a value the test was given before), and anywhere when ``named`` (a mirrored object's state).
    """
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if depth > MAX_DEPTH or not isinstance(value, list) or not value or not isinstance(value[At.TAG], str):
        raise ProtocolViolation("result malformed")
    tag = value[At.TAG]
    if tag == Value.HANDLE:
        if len(value) == 1 and depth == 0:
            return owner.handle(handle_id)
        if len(value) == 2 and type(value[At.PAYLOAD]) is int and (depth == 0 or named):
            return owner.handle(value[At.PAYLOAD], known=True)
    elif tag == Value.FLOAT and len(value) == 2 and isinstance(value[At.PAYLOAD], str) and len(value[At.PAYLOAD]) < 40:
        try:
            return float(value[At.PAYLOAD])
        except ValueError:
            raise ProtocolViolation("float malformed") from None
    elif tag in _CONTAINERS and len(value) == 2 and isinstance(value[At.PAYLOAD], list):
        items = value[At.PAYLOAD]
        try:
            if tag == Value.DICT:
                if not all(isinstance(item, list) and len(item) == 2 for item in items):
                    raise ProtocolViolation("result malformed")
                return {
                    decode(k, owner, handle_id, depth + 1, named): decode(v, owner, handle_id, depth + 1, named)
                    for k, v in items
                }
            return _CONTAINERS[tag](decode(v, owner, handle_id, depth + 1, named) for v in items)
        except TypeError:  # an unhashable key or set item
            raise ProtocolViolation("result malformed") from None
    elif tag == Value.TWIN and len(value) == 2 and isinstance(value[At.PAYLOAD], int):
        return owner.twins.original(value[At.PAYLOAD])
    raise ProtocolViolation("result malformed")


_CONTAINERS = {Value.TUPLE: tuple, Value.LIST: list, Value.SET: set, Value.DICT: dict}


class TwinRegistry:
    """The kit's served objects (those of the classes ``[kit] served`` names) and text streams
    that have a twin in the server. One adapter for every served class: an object travels as
    its class's ``[kit.mirrors]`` entry says (:mod:`speckit.sandbox.mirror`: an output stream,
    scripted lines, fields by value), else as its attributes (``vars``); fields may hold the
    server's values as handles.

    A twin lives as long as the server may still use it: while the server reports that
    something of its own (a game holding its display, say) refers to it, the test's
    object is *pinned* here, its state is sent before every call (the test's object is
    the authority) and no call is pipelined, since any call could read or write it. When
    the server reports that nothing refers to it any more, it is unpinned, and released
    once the test drops the object.
    """

    def __init__(self, owner: HandleOwner):
        self.owner = owner
        self.by_object: dict[int, int] = {}
        self.twins: dict[int, dict] = {}
        self.pinned_ids: set[int] = set()
        self._kinds: tuple | None = None
        self._mirrors: dict[str, Any] | None = None

    def kinds(self) -> tuple:
        """The served classes, as ``(twin kind, class, mirror)`` triples, in the order ``[kit] served`` gives."""
        if self._kinds is None:
            from .config import served_classes

            self._kinds = tuple((kind, cls, mirror) for kind, (cls, mirror) in served_classes(self.owner.spec).items())
        return self._kinds

    def mirror(self, kind: str) -> Any:
        """How objects of twin kind ``kind`` travel (:class:`spec.model.Mirror`)."""
        if self._mirrors is None:
            self._mirrors = {known: mirror for known, _, mirror in self.kinds()}
        return self._mirrors[kind]

    def reset(self) -> None:
        self.by_object.clear()
        self.twins.clear()
        self.pinned_ids.clear()

    def pinned(self) -> bool:
        return bool(self.pinned_ids)

    def encode(self, value: Any, encoder: Encoder) -> list | None:
        kind = next((kind for kind, cls, _ in self.kinds() if isinstance(value, cls)), None)
        if kind is None:
            if not isinstance(value, io.TextIOBase):
                return None
            kind = TwinKind.STREAM
        tid = self.by_object.get(id(value))
        new = tid is None
        if tid is None:
            tid = self.owner.new_id()
            self.twins[tid] = {"kind": kind, "ref": weakref.ref(value), "strong": None, "rest": None}
            self.by_object[id(value)] = tid
            weakref.finalize(value, self._forget, tid, id(value), self.owner.generation)
        self._state(tid, value, new, encoder)
        return [Value.TWIN, tid]

    def _state(self, tid: int, value: Any, new: bool, encoder: Encoder) -> None:
        if any(item[0] == tid for item in encoder.twins):
            return
        record = self.twins[tid]
        record["strong"] = value
        self.pinned_ids.add(tid)
        kind, state = record["kind"], None
        if kind != TwinKind.STREAM:
            mirror = self.mirror(kind)
            state = [encoder.encode(fields_of(value, mirror), 1), self._lines(record, value, mirror)]
        encoder.twins.append([tid, kind, new, state])

    @staticmethod
    def _lines(record: dict, value: Any, mirror: Any) -> list[str] | None:
        """The scripted lines ``value`` has not read yet (None if it has none), kept in ``record``."""
        if not mirror.lines:
            return None
        lines = getattr(value, mirror.lines)
        if lines is None:
            record["rest"] = None
            return None
        rest = list(itertools.islice(lines, MAX_LINES + 1))
        if len(rest) > MAX_LINES or not all(isinstance(line, str) for line in rest):
            raise TypeError(f"scripted input for a sandboxed implementation must be at most {MAX_LINES} strings")
        record["rest"] = rest
        setattr(value, mirror.lines, iter(rest))
        return rest

    def send_pinned(self, encoder: Encoder) -> None:
        """Send the state of every object the server still refers to: the test's copy is the authority."""
        for tid in sorted(self.pinned_ids):
            self._state(tid, self.twins[tid]["strong"], False, encoder)

    def _forget(self, tid: int, object_id: int, generation: int) -> None:
        if self.by_object.get(object_id) == tid:
            del self.by_object[object_id]
        if self.twins.pop(tid, None) is not None and generation == self.owner.generation:
            self.owner.released.append(tid)

    def _stream(self, tid: int) -> Any:
        """Where what twin ``tid`` wrote goes: the test's stream, or its object's declared stream
        (standard output as it is now when that is None)."""
        target = self.original(tid)
        kind = self.twins[tid]["kind"]
        if kind == TwinKind.STREAM:
            return target
        mirror = self.mirror(kind)
        stream = getattr(target, mirror.stream, None) if mirror.stream else None
        return stream if stream is not None else sys.stdout

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
            self._stream(tid).write(text)
        for tid, used in _pairs(updates.get("used", [])):
            target, record = self.original(tid), self.twins[tid]
            rest, mirror = record["rest"], self.mirror(record["kind"])
            if rest is None or not mirror.lines or not isinstance(used, int) or not 0 <= used <= len(rest):
                raise ProtocolViolation("twin input malformed")
            record["rest"] = rest[used:]
            setattr(target, mirror.lines, iter(record["rest"]))
        for tid, state in _pairs(updates.get("state", [])):
            target, kind = self.original(tid), self.twins[tid]["kind"]
            fields = decode(state, self.owner, 0, 0, named=True)
            mirror = None if kind == TwinKind.STREAM else self.mirror(kind)
            if mirror is None or not fits(fields, mirror):
                raise ProtocolViolation("twin state malformed")
            set_fields(target, mirror, fields)
        free = updates.get("free", [])
        if not isinstance(free, list) or not all(isinstance(tid, int) for tid in free):
            raise ProtocolViolation("twin updates malformed")
        for tid in free:
            freed = self.twins.get(tid)
            if freed is not None:
                freed["strong"] = None
                self.pinned_ids.discard(tid)


def _pairs(items: Any):
    if not isinstance(items, list):
        raise ProtocolViolation("twin updates malformed")
    for item in items:
        if not (isinstance(item, list) and len(item) == 2 and isinstance(item[0], int)):
            raise ProtocolViolation("twin updates malformed")
        yield item[0], item[1]
