"""Reading the sandboxed implementation's values in the server: fields, module attributes, ``==``,
``dir``, ``repr``, items.

Each read runs after the pending calls, under the read time limit; what was read is
remembered until the next operation call (fields) or for the server's life (module
attributes).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core import OperationFailed, SuiteFailure
from .pipeline import ValueRead, raise_failure, stale_problem
from .process import ProtocolViolation
from .protocol import MAX_FIELDS, MAX_ITEMS, MAX_NAMES, MAX_SHOWN, SPARE_HANDLES, Command, Value
from .values import Encoder, Handle, StaleHandle, decode

if TYPE_CHECKING:
    from .client import SandboxedImplementation


class RemoteReads:
    """The reads of values held by one sandboxed implementation's server, and what they found."""

    def __init__(self, owner: SandboxedImplementation):
        self.owner = owner
        self.constants: dict[tuple[str, str], tuple[bool, Any]] = {}
        """Module attributes read so far, by (module, name): (True, value) or (False, why not); per server."""
        self.fields: dict[tuple[int, str], tuple[bool, Any]] = {}
        """Fields read since the last operation call, by (handle id, name), as for ``constants``."""

    def forget(self) -> None:
        """The server's values are gone: so is what was read of them."""
        self.constants.clear()
        self.fields.clear()

    def remote(self, read: ValueRead) -> Any:
        """Run ``read`` after the pending calls; its encoded answer."""
        __tracebackhide__ = True
        problem = self.owner.hung.get(read.key) if self.owner.hung else None
        if problem is not None:
            self.owner.pipeline.flush()
            raise_failure(OperationFailed(problem))
        return self.owner.pipeline.run(self.owner.pipeline.pending, None, read).get("result")

    def wire(self, handle: Handle, label: str) -> list:
        """How the server names the value of ``handle``; a failure if that value no longer exists."""
        if handle._owner is not self.owner or handle._gen != self.owner.generation:
            raise_failure(
                OperationFailed(
                    stale_problem(label, self.owner.dead_reason or "the value belongs to another implementation")
                )
            )
        return [Value.HANDLE, handle._hid]

    def read_attribute(self, handle: Handle, name: str) -> Any:
        """``handle.name``, read in the server: a plain value or a new handle; AttributeError if it has none."""
        __tracebackhide__ = True
        if not (name.isidentifier() and len(name) <= 100):
            raise AttributeError(name)
        key = (handle._hid, name)
        known = self.fields.get(key) if handle._gen == self.owner.generation else None
        if known is None:
            label = f"reading the field {name} of a value"
            handle_id, spare = self.owner.new_id(), [self.owner.new_id() for _ in range(SPARE_HANDLES)]
            try:
                answer = self.remote(
                    ValueRead([Command.FIELD, self.wire(handle, label), name, handle_id, spare], label, f"field {name}")
                )
            except AttributeError as e:
                known = (False, str(e))
            else:
                encoded, others = self._field_answer(answer, spare)
                known = (True, self.decoded(encoded, handle_id))
                for other, value in others:
                    self.fields.setdefault((handle._hid, other), (True, value))
            self.fields[key] = known
        found, value = known
        if not found:
            raise AttributeError(value)
        return value

    def _field_answer(self, answer: Any, spare: list[int]) -> tuple[Any, list[tuple[str, Any]]]:
        """The encoded field a read asked for, and the record's other fields sent along, decoded."""
        __tracebackhide__ = True
        if not (
            isinstance(answer, list)
            and len(answer) == 2
            and isinstance(answer[1], list)
            and len(answer[1]) <= MAX_FIELDS
        ):
            self.malformed("field answer malformed")
        encoded, others = answer
        unused, decoded = list(spare), []
        for item in others:
            if not (
                isinstance(item, list)
                and len(item) == 3
                and isinstance(item[0], str)
                and item[0].isidentifier()
                and len(item[0]) <= 100
            ):
                self.malformed("field answer malformed")
            name, value, handle_id = item
            if handle_id is not None:
                if handle_id not in unused:
                    self.malformed("field answer names a handle it was not offered")
                unused.remove(handle_id)
            try:
                # Without an id, the value must be plain: depth 1 refuses a handle.
                decoded.append((name, decode(value, self.owner, handle_id or 0, 0 if handle_id is not None else 1)))
            except ProtocolViolation as e:
                self.malformed(str(e))
        return encoded, decoded

    def module_attribute(self, module_name: str, name: str) -> Any:
        """``module.name`` of the implementation's module, read in the server; AttributeError if it has none."""
        __tracebackhide__ = True
        if not (name.isidentifier() and len(name) <= 100):
            raise AttributeError(name)
        key = (module_name, name)
        known = self.constants.get(key)
        if known is None:
            label = f"reading {module_name}.{name}"
            handle_id = self.owner.new_id()
            try:
                encoded = self.remote(
                    ValueRead([Command.MODULE, module_name, name, handle_id], label, f"{module_name}.{name}", False)
                )
            except AttributeError as e:
                known = self.constants[key] = (False, str(e))
            else:
                known = self.constants[key] = (True, self.decoded(encoded, handle_id))
        found, value = known
        if not found:
            raise AttributeError(value)
        return value

    def compare(self, handle: Handle, other: Any) -> Any:
        """``handle == other``, decided by the server's ``==``; NotImplemented for what cannot cross."""
        __tracebackhide__ = True
        label = "comparing values with =="
        if type(other) is Handle:
            if other._owner is not self.owner:
                return NotImplemented
            wire = self.wire(other, label)
        else:
            encoder = Encoder(self.owner)
            try:
                wire = encoder.encode(other)
            except (TypeError, StaleHandle):
                return NotImplemented
            if encoder.twins:
                return NotImplemented
        answer = self.remote(ValueRead([Command.EQUALS, self.wire(handle, label), wire], label, "=="))
        if type(answer) is not bool:
            self.malformed("comparison answer malformed")
        return answer

    def items(self, handle: Handle) -> tuple[bool, bool, list]:
        """The items of the value, iterated in the server, as ``(sized, indexable, items)``;
        TypeError, as in process, if the value is not iterable."""
        __tracebackhide__ = True
        label = "iterating over a value"
        first_id = self.owner.next_id + 1
        self.owner.next_id += MAX_ITEMS  # ids for the items that stay in the server
        answer = self.remote(ValueRead([Command.ITEMS, self.wire(handle, label), first_id], label, "iter"))
        if answer is None:
            raise TypeError("the value is not iterable")
        if not (
            isinstance(answer, list)
            and len(answer) == 3
            and type(answer[0]) is bool
            and type(answer[1]) is bool
            and isinstance(answer[2], list)
            and len(answer[2]) <= MAX_ITEMS
        ):
            self.malformed("items malformed")
        sized, indexable, encoded = answer
        return sized, indexable, [self.decoded(item, first_id + i) for i, item in enumerate(encoded)]

    def names(self, handle: Handle) -> list[str]:
        """``dir(handle)``, as the server sees the value (at most :data:`MAX_NAMES` names)."""
        __tracebackhide__ = True
        label = "listing the attributes of a value"
        answer = self.remote(ValueRead([Command.NAMES, self.wire(handle, label)], label, "dir"))
        if not (
            isinstance(answer, list)
            and len(answer) <= MAX_NAMES
            and all(isinstance(n, str) and len(n) <= 100 for n in answer)
        ):
            self.malformed("attribute names malformed")
        return answer

    def shown(self, handle: Handle) -> str:
        """The server's ``repr`` of the value (bounded), or the handle's own when it cannot be had."""
        if (
            handle._owner is not self.owner
            or handle._gen != self.owner.generation
            or self.owner.connection.broken
            or not self.owner.connection.server.alive()
        ):
            return repr(handle)
        try:
            answer = self.remote(ValueRead([Command.SHOW, [Value.HANDLE, handle._hid]], "the repr of a value", "repr"))
        except (SuiteFailure, AttributeError):
            return repr(handle)
        if not (isinstance(answer, str) and len(answer) <= MAX_SHOWN):
            return repr(handle)
        return answer

    def malformed(self, problem: str) -> None:
        __tracebackhide__ = True
        self.owner.lost(f"it wrote into the grader's channel ({problem})")
        raise_failure(
            OperationFailed(f"the implementation's process sent a malformed answer ({problem}) and was stopped")
        )

    def decoded(self, encoded: Any, handle_id: int) -> Any:
        try:
            return decode(encoded, self.owner, handle_id, 0)
        except ProtocolViolation as e:
            problem = f"the implementation's process sent a malformed answer ({e}) and was stopped"
            self.owner.lost(f"it wrote into the grader's channel ({e})")
        raise_failure(OperationFailed(problem))

    def update_arguments(self, args: tuple, mutable: list[int], updates: Any) -> None:
        """Give the test's lists, dicts and sets that a call was given what the call left in them."""
        __tracebackhide__ = True
        if not (isinstance(updates, list) and len(updates) == len(mutable)):
            self.malformed("updated arguments malformed")
        for index, item in zip(mutable, updates, strict=True):
            if not (isinstance(item, list) and len(item) == 2 and item[0] == index):
                self.malformed("updated arguments malformed")
            try:
                value = decode(item[1], self.owner, 0, 0, named=True)
            except ProtocolViolation as e:
                self.malformed(str(e))
            target = args[index]
            if type(value) is not type(target):
                self.malformed("updated arguments malformed")
            if type(target) is list:
                target[:] = value
            else:
                target.clear()
                target.update(value)


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

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"module {self._name} of a sandboxed implementation is read-only")

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
