"""The operations of a sandboxed implementation: what the test calls, and what it knows of each before calling.

:class:`SandboxedOperation` sends a call to the operation server through its
implementation (:class:`OperationHost`, the interface it relies on); most calls take its
short way, pipelined with a handle for their result.
"""

from __future__ import annotations

import re
from typing import Any, Protocol

from ..operations import TracedOperation
from ..trace import TRACE
from .pipeline import Later, Pipeline
from .protocol import MAX_BATCH, Command, Reply, Value
from .reads import RemoteReads
from .values import Handle, TwinRegistry

_CALL, _KEEP, _LATER, _HANDLE = Command.CALL, Reply.KEEP, Reply.LATER, Value.HANDLE


class OperationHost(Protocol):
    """What a :class:`SandboxedOperation` needs from the sandboxed implementation it belongs to."""

    spec: Any
    hung: dict[str, str]
    """Why each operation that hung or ended the server is not called again, by qualified name."""
    generation: int
    next_id: int
    """The last handle id given out (a pipelined call takes the next one for its result)."""
    test_used: float
    """Wall-clock seconds this test's messages took."""
    test_budget: float
    """Seconds of ``test_used`` past which a call first asks whether the test is over its time."""
    twins: TwinRegistry
    pipeline: Pipeline
    reads: RemoteReads

    def call(self, op: SandboxedOperation, args: tuple, kwargs: dict[str, Any] | None = None) -> Any: ...

    def resolve(self, op: SandboxedOperation) -> Any: ...


class SandboxedOperation(TracedOperation):
    """A traced operation whose calls go to the operation server."""

    def __init__(self, impl: OperationHost, operation, module_name: str):
        super().__init__(impl, operation, module_name)
        self.qualname = operation.qualname
        self.key = (module_name, operation.name)
        self.fast = False
        """Whether its calls may take the short way of :meth:`__call__`: it is pipelinable, or
        answers by value (inside a batch), and the implementation was found to have it
        (then it has it for every server)."""
        self.number = impl.pipeline.number_of(self)
        """How calls name the operation on the wire (defined to each server once)."""
        result_type = impl.spec.type(operation.result) if _is_type(impl.spec, operation.result) else None
        by_value = operation.qualname in impl.spec.kit.results_by_value
        self.pipelinable = (
            result_type is not None and not result_type.supplied and not documents_raising(operation) and not by_value
        )
        """Its result stays in the server and it cannot fail by design: the test goes on with a handle."""
        self.answers_by_value = by_value or result_type is None
        """Its result is a plain value (a Boolean, say), which inside a batch can come back later; for an
        operation the specification's ``[kit] results_by_value`` names, a plain value if the result is one."""
        holders = kit_object_holders(impl.spec)
        self.cannot_reach_kit_objects = all(p.type not in holders for p in operation.params)
        """None of its parameters can hold (the specification's components say) an object of a served class."""

    def function(self):
        signature = self.impl.resolve(self)
        return RemoteFunction(self, signature)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Call the operation (:meth:`SandboxedImplementation.call`).

        Most calls of a run (hundreds of thousands in a suite) are handled here: a pipelinable
        operation the implementation has (or, inside ``impl.batch``, one that answers by value), given
        this server's values (or none), in a test within its time budget, with no operation hung and no
        kit object in reach. This does exactly what ``call`` does for such a call, in fewer steps; any
        other call goes to ``call``. The steps of :func:`~speckit.sandbox.values.held_ids`,
        :meth:`~speckit.sandbox.pipeline.Pipeline.defer` and ``Entry.returned`` are written out here on
        purpose: calling them made each call about a fifth dearer (1.3 µs of the test process's 6).
        """
        __tracebackhide__ = True
        impl = self.impl
        pipeline = impl.pipeline
        if (
            kwargs
            or not self.fast
            or impl.hung
            or impl.test_used > impl.test_budget
            or (impl.twins.pinned_ids and not self.cannot_reach_kit_objects)
            or not (self.pipelinable or pipeline.batching)
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
                type(first) is not Handle
                or first._gen != generation
                or first._owner is not impl
                or type(second) is not Handle
                or second._gen != generation
                or second._owner is not impl
            ):
                return impl.call(self, args, kwargs)
            encoded = (first._hid, second._hid)
        else:
            for value in args:
                if type(value) is not Handle or value._gen != generation or value._owner is not impl:
                    return impl.call(self, args, kwargs)
            encoded = tuple([value._hid for value in args])
        fields = impl.reads.fields
        if fields:
            fields.clear()  # the call may change what the fields read so far hold
        entry = TRACE.call(self.label, args, kwargs)
        impl.next_id += 1
        handle_id = impl.next_id
        if not self.pipelinable:  # inside impl.batch: the plain result comes back with the batch
            return self._by_value(pipeline, entry, handle_id, encoded)
        pending = pipeline.pending
        handle = Handle(handle_id, generation, impl)
        if not pending:
            pipeline.watch_example()  # later pipelined calls of the same example are covered
        pending.append((self, entry, [_CALL, self.number, handle_id, encoded, _KEEP], None))
        if len(pending) >= MAX_BATCH:
            pipeline.flush()
        entry.result, entry.named = handle, True  # entry.returned(handle, False)
        return handle

    def _by_value(self, pipeline: Pipeline, entry: Any, handle_id: int, encoded: tuple) -> Later:
        """Defer a call inside ``impl.batch`` whose plain result comes back with the batch."""
        later = Later()
        pending = pipeline.pending
        if not pending:
            pipeline.watch_example()
        pending.append((self, entry, [_CALL, self.number, handle_id, encoded, _LATER], later))
        if len(pending) >= MAX_BATCH:
            pipeline.flush()
        return later


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
