"""Values on the wire, seen from the operation server: its table of values and their encoding.

:class:`ServerValues` holds the values the tests refer to by handle id and the mirrored
objects by twin id, decodes a request's values (:meth:`~ServerValues.decode`) and encodes
a result (:meth:`~ServerValues.encode_result`) or a mirrored object's state
(:meth:`~ServerValues.encode_shared`), and drops the values the tests released
(:meth:`~ServerValues.release`); the encoding is in :mod:`speckit.sandbox.protocol`.
Part of the server's side: it imports nothing of the test process.
"""

from __future__ import annotations

from typing import Any

from ..core import TimeLimitReached
from .config import READ_LIMIT
from .protocol import MAX_DEPTH, MAX_ITEMS, At, Value
from .server_limits import WATCHDOG

CONTAINERS = frozenset({tuple, list, set, frozenset, dict})
"""The containers a result crosses by value in (exactly these types, not subclasses)."""
_TAGS: dict[type, str] = {tuple: Value.TUPLE, list: Value.LIST, set: Value.SET, frozenset: Value.SET}


class ServerValues:
    """The server's values by handle id and its mirrored objects by twin id."""

    def __init__(self) -> None:
        self.values: dict[int, Any] = {}
        self.twins: dict[int, Any] = {}
        """The mirrored objects by twin id (each a :class:`~speckit.sandbox.server_twins.Twin`)."""
        self.held: dict[int, int] = {}
        """The handle id a value read or answered is held under, by ``id(value)``: read again,
        it is answered with that id (pipelined results are not entered here)."""
        self.own_ids = 0
        """The last handle id the server chose itself (negative), for a mirrored object's state."""

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
        if kind in CONTAINERS:
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

    def forget_held(self, handle_ids) -> None:
        """The values the test dropped are never answered again as held (released after the
        commands; no reference to them is kept here, so their finalizers run when released)."""
        held = self.held
        if not held:
            return
        values = self.values
        for handle_id in handle_ids:
            key = id(values.get(handle_id))
            if held.get(key) == handle_id:
                del held[key]

    def release(self, handle_ids, memory_mb: int) -> str | None:
        """Drop the values the tests released, each under the read time limit; why one failed, or None."""
        watchdog, problem = WATCHDOG, None
        values, twins, held = self.values, self.twins, self.held
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
                    problem or f"releasing a value ({owner.__name__}) went over the memory limit of {memory_mb} MB"
                )
            except BaseException:  # noqa: BLE001 - a finalizer's exception is ignored, as Python does
                pass
            finally:
                watchdog.clear()
        return problem


def _plain(value: Any, depth: int, budget: list[int]) -> Any:
    """``value`` on the wire if it is a plain value or a container (exactly list, tuple, set,
    frozenset, dict) of plain values within the limits; else None."""
    kind = type(value)
    if value is None or kind is bool or kind is int or kind is str:
        return value
    if kind is float:
        return [Value.FLOAT, repr(value)]
    if depth >= MAX_DEPTH or kind not in CONTAINERS:
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
