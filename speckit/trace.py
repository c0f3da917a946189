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
    """One call: what was called with what, and what came of it."""

    def __init__(self, trace: "Trace", label: str, args: tuple[Any, ...]):
        self.trace = trace
        self.label = label
        self.args = ", ".join(trace.describe(a) for a in args)
        self.outcome = ""

    def returned(self, value: Any, primitive: bool) -> None:
        if primitive or value is None or isinstance(value, (int, str, float, tuple)) and not self.trace.knows(value):
            self.outcome = f" -> {value!r}"
        else:
            self.outcome = self.trace.name(value)

    def failed(self, problem: str) -> None:
        self.outcome = "  !! " + problem

    def render(self) -> str:
        call = f"{self.label}({self.args})"
        if self.outcome.startswith(" ->") or self.outcome.startswith("  !!"):
            return call + self.outcome
        if self.outcome:
            return f"{self.outcome} = {call}"
        return call


class Trace:
    """The calls made so far in the current test or example."""

    def __init__(self) -> None:
        self._owner: object = None
        self.entries: list[Entry] = []
        self._names: dict[int, str] = {}
        self._keep: list[Any] = []

    def reset(self, owner: object = None) -> None:
        """Start a new trace (for a new test, or a new Hypothesis example)."""
        self._owner = owner
        self.entries = []
        self._names = {}
        self._keep = []

    def call(self, label: str, args: tuple[Any, ...]) -> Entry:
        self._follow_example()
        entry = Entry(self, label, args)
        self.entries.append(entry)
        return entry

    def name(self, value: Any) -> str:
        """Give a value returned by an operation its short name (the newest name wins)."""
        label = f"v{len(self._keep) + 1}"
        self._names[id(value)] = label
        self._keep.append(value)  # keeps ids from being reused while the trace lives
        return label

    def knows(self, value: Any) -> bool:
        return id(value) in self._names

    def describe(self, value: Any) -> str:
        """How an argument appears: its short name if an operation returned it, else its repr."""
        if id(value) in self._names:
            return self._names[id(value)]
        text = repr(value)
        return text if len(text) <= 40 else text[:37] + "..."

    def render(self) -> str:
        """The calls as numbered lines, the middle elided when there are many."""
        self._follow_example()
        lines = [entry.render() for entry in self.entries]
        if len(lines) > MAX_LINES:
            head, tail = lines[:10], lines[-(MAX_LINES - 11):]
            lines = head + [f"... {len(lines) - len(head) - len(tail)} more calls ..."] + tail
        return "\n".join(f"  {line}" for line in lines) if lines else "  (no operations were called)"

    def _follow_example(self) -> None:
        """Start afresh when Hypothesis has moved on to another example."""
        owner = _current_example()
        if owner is not None and owner is not self._owner:
            self.reset(owner)


def _current_example() -> object:
    try:
        from hypothesis.control import current_build_context

        return current_build_context()
    except Exception:  # noqa: BLE001 - outside Hypothesis there is no example
        return None


TRACE = Trace()
"""The one trace of this process: tests run one at a time."""
