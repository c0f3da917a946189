"""The sequence of operations a test has called, for failure messages in the spec's terms.

Each value an operation returns gets a short name (``v1``, ``v2``, ...), so a failure
can show the calls that led to it, for example::

    v1 = index.newIndexType()
    v2 = index.increment(v1)
    index.equals(v2, v1) -> True

The trace starts afresh for every test and, inside a Hypothesis test, for every
example, so a shrunk failure shows only the calls of the smallest failing example.
"""

from __future__ import annotations

from typing import Any

MAX_LINES = 40
"""A failure shows at most this many calls: the first few and the last ones."""


class Entry:
    """One call: what was called with what, and what came of it.

    Recording a call keeps only references (it runs on every operation); the text of a
    call is made when a failure shows the trace (:meth:`Trace.render`).
    """

    __slots__ = ("label", "args", "keywords", "result", "named", "problem")

    def __init__(self, label: str, args: tuple, keywords: dict[str, Any] | None):
        self.label = label
        self.args = args
        self.keywords = keywords
        self.result: Any = _NO_RESULT
        """What the call returned, once it has returned."""
        self.named = False
        """Whether the result is a value the trace names (``v3``) rather than shows."""
        self.problem = ""
        """Why the call failed, if it did."""

    def returned(self, value: Any, primitive: bool) -> None:
        self.result = value
        self.named = not (primitive or value is None or isinstance(value, (int, str, float, tuple)))

    def failed(self, problem: str) -> None:
        self.problem = problem

    @property
    def outcome(self) -> str:
        """What is shown after the call: `` -> value``, ``  !! problem``, or "" (a named value)."""
        if self.problem:
            return "  !! " + self.problem
        if self.result is _NO_RESULT or self.named:
            return ""
        return f" -> {self.result!r}"


_NO_RESULT = object()


class Trace:
    """The calls made so far in the current test or example."""

    def __init__(self) -> None:
        self._owner: object = None
        self.entries: list[Entry] = []

    def reset(self, owner: object = None) -> None:
        """Start a new trace (for a new test, or a new Hypothesis example)."""
        self._owner = owner
        self.entries = []

    def call(self, label: str, args: tuple[Any, ...], keywords: dict[str, Any] | None = None) -> Entry:
        """Record a call (its arguments are shown as they are named when the trace is rendered)."""
        owner = current_example()
        if owner is not None and owner is not self._owner:
            self.reset(owner)
        entry = Entry(label, args, keywords)
        self.entries.append(entry)
        return entry

    def operations(self, specification: Any) -> tuple[str, ...]:
        """The documented operations (``Type.operation``) of ``specification`` the calls so far made,
        first call first, each once."""
        self._follow_example()
        found: dict[str, None] = {}
        for entry in self.entries:
            module, _, name = entry.label.rpartition(".")
            try:
                qualname = f"{specification.type(module).name}.{name}"
                specification.operation(qualname)
            except KeyError:
                continue
            found.setdefault(qualname)
        return tuple(found)

    def render(self) -> str:
        """The calls as numbered lines, the middle elided when there are many.

        Values are named in the order calls returned them (``v1``, ``v2``, ...; a value
        returned again takes its newest name), and an argument is shown by the name its
        value had when the call was made; an argument no call returned (a number the test
        chose, say) is shown by its ``repr``.
        """
        self._follow_example()
        names: dict[int, int] = {}
        count = 0
        lines = []
        for entry in self.entries:
            shown = [f"v{names[id(a)]}" if id(a) in names else _shown(a) for a in entry.args]
            if entry.keywords:
                shown += [
                    f"{k}=v{names[id(a)]}" if id(a) in names else f"{k}={_shown(a)}" for k, a in entry.keywords.items()
                ]
            call = f"{entry.label}({', '.join(shown)})"
            outcome = entry.outcome
            if outcome:
                lines.append(call + outcome)
            elif entry.named:
                count += 1
                names[id(entry.result)] = count
                lines.append(f"v{count} = {call}")
            else:
                lines.append(call)
        if len(lines) > MAX_LINES:
            head, tail = lines[:10], lines[-(MAX_LINES - 11) :]
            lines = head + [f"... {len(lines) - len(head) - len(tail)} more calls ..."] + tail
        return "\n".join(f"  {line}" for line in lines) if lines else "  (no operations were called)"

    def _follow_example(self) -> None:
        """Start afresh when Hypothesis has moved on to another example."""
        owner = current_example()
        if owner is not None and owner is not self._owner:
            self.reset(owner)


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _read_example_slowly() -> object:
    try:
        from hypothesis.control import current_build_context

        return current_build_context()
    except Exception:  # noqa: BLE001 - outside Hypothesis there is no example
        return None


def _make_example_reader():
    """A function giving the running Hypothesis example's build context, or None outside one.

    It runs on every traced operation, so it reads Hypothesis's context variable directly
    when this Hypothesis has one (else it falls back to the public, slower function).
    """
    try:
        from hypothesis.control import _current_build_context

        data, default = _current_build_context.data, _current_build_context.default
    except Exception:  # noqa: BLE001 - another Hypothesis version, or none installed
        return _read_example_slowly

    def read_context() -> object:
        return getattr(data, "value", default)

    return read_context


def current_example() -> object:  # noqa: F811 -- rebinds itself to the fastest reader on first call
    """The running Hypothesis example's build context, or None outside one.

    The first call puts the fastest reader in its place, so that importing this module
    does not import Hypothesis (the operation server imports it and never traces).
    """
    global current_example
    current_example = _make_example_reader()
    return current_example()


TRACE = Trace()
"""The one trace of this process: tests run one at a time."""
