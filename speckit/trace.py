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

    __slots__ = ("trace", "label", "arguments", "name", "outcome")

    def __init__(self, trace: "Trace", label: str, arguments: list[str]):
        self.trace = trace
        self.label = label
        self.arguments = arguments
        """Each argument as it appears: its short name, or its repr."""
        self.name = 0
        """The short name (``v<name>``) given to the value the call returned, if any."""
        self.outcome = ""
        """What is shown after the call: `` -> value`` or ``  !! problem``."""

    @property
    def args(self) -> str:
        return ", ".join(self.arguments)

    def returned(self, value: Any, primitive: bool) -> None:
        if primitive or value is None or isinstance(value, (int, str, float, tuple)) and not self.trace.knows(value):
            self.outcome = f" -> {value!r}"
        else:
            self.name = self.trace.number(value)

    def failed(self, problem: str) -> None:
        self.outcome = "  !! " + problem

    def render(self) -> str:
        call = f"{self.label}({self.args})"
        if self.outcome:
            return call + self.outcome
        if self.name:
            return f"v{self.name} = {call}"
        return call


class Trace:
    """The calls made so far in the current test or example."""

    def __init__(self) -> None:
        self._owner: object = None
        self.entries: list[Entry] = []
        self._names: dict[int, int] = {}
        self._keep: list[Any] = []

    def reset(self, owner: object = None) -> None:
        """Start a new trace (for a new test, or a new Hypothesis example)."""
        self._owner = owner
        self.entries = []
        self._names = {}
        self._keep = []

    def call(self, label: str, args: tuple[Any, ...], keywords: dict[str, Any] | None = None) -> Entry:
        owner = current_example()
        if owner is not None and owner is not self._owner:
            self.reset(owner)
        names = self._names
        arguments = [f"v{names[id(a)]}" if id(a) in names else _shown(a) for a in args]
        if keywords:
            arguments += [f"{k}=v{names[id(a)]}" if id(a) in names else f"{k}={_shown(a)}" for k, a in keywords.items()]
        entry = Entry(self, label, arguments)
        self.entries.append(entry)
        return entry

    def number(self, value: Any) -> int:
        """Give a value returned by an operation its short name's number (the newest name wins)."""
        keep = self._keep
        keep.append(value)  # keeps ids from being reused while the trace lives
        self._names[id(value)] = len(keep)
        return len(keep)

    def knows(self, value: Any) -> bool:
        return id(value) in self._names

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


def current_example() -> object:
    """The running Hypothesis example's build context, or None outside one.

    The first call puts the fastest reader in its place, so that importing this module
    does not import Hypothesis (the operation server imports it and never traces).
    """
    global current_example
    current_example = _make_example_reader()
    return current_example()


TRACE = Trace()
"""The one trace of this process: tests run one at a time."""
