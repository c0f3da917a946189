"""Failing tests whose example is shown as found: those a failure earlier in the run explains.

A failing test is shown with its smallest example, which Hypothesis finds by shrinking. For a
test of many operations (a state machine over a whole type) that can take a minute or more,
most of a faulty submission's grading time. A failing test is a *suspect*, its failure most
likely the same fault another test already shows with a smaller example, when a test that
ran earlier in the same run has failed and

- checks only operations this test checks too (a narrower test of the same operations), or
- checks an operation of another type that this test's failing example called (the type this
  test builds on is already known to be broken; the tests of a specification's types run in
  the order its document gives them, the types that others use first).

A suspect passes or fails exactly as before (Hypothesis generates the same examples whether
it shrinks or not): only its failing example is reported as found, not reduced, and its
message names the test that explains it. The run's order of tests is fixed, so the same
submission gets the same suspects every time.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import attrs
from hypothesis import Phase, settings


@attrs.define
class Suspects:
    """The failures of one run so far, by the operations their tests check."""

    failed: list[tuple[str, frozenset[str]]] = attrs.field(factory=list)

    def record_failure(self, test: str, operations: frozenset[str]) -> None:
        """``test``, checking ``operations``, failed (a test that names no operation explains nothing)."""
        if operations:
            self.failed.append((test, operations))

    def explained_by(self, operations: frozenset[str]) -> str | None:
        """The first failed test whose operations are all among ``operations``, or None."""
        return next((test for test, checked in self.failed if checked <= operations), None)

    def called_and_failed(self, called: Iterable[str], operations: frozenset[str]) -> tuple[str, str] | None:
        """The first operation among ``called`` of a type none of ``operations`` belongs to that a
        failed test checks, with that test; or None."""
        own_types = {_type_of(o) for o in operations}
        for operation in called:
            if _type_of(operation) not in own_types:
                for test, checked in self.failed:
                    if operation in checked:
                        return operation, test
        return None


def _type_of(operation: str) -> str:
    return operation.partition(".")[0]


def _name(test: str) -> str:
    return test.rpartition("::")[2]


def note(explaining_test: str) -> str:
    """What a suspect's failure message says when a narrower test explains it."""
    return (
        f"This example is shown as found, not reduced to its smallest: {_name(explaining_test)}, which checks "
        "only operations this test checks too, failed earlier in the run, and its example is smaller."
    )


def note_called(operation: str, explaining_test: str) -> str:
    """What a suspect's failure message says when a failure of a type it builds on explains it."""
    return (
        f"This example is shown as found, not reduced to its smallest: it calls {operation}, which "
        f"{_name(explaining_test)} checks and which failed earlier in the run; start there."
    )


def in_type_order(items: list[Any], rank: Callable[[Any], int | None]) -> list[Any]:
    """``items`` with each folder's items sorted (stably) by ``rank``: the place of the type its
    module checks in the specification, or None for a module that checks no one type (last)."""
    first: dict[Any, int] = {}
    keys = {}
    for index, item in enumerate(items):
        place = rank(item)
        keys[id(item)] = (first.setdefault(item.path.parent, index), place is None, place or 0)
    return sorted(items, key=lambda item: keys[id(item)])


def unreduced(options: settings) -> settings:
    """``options`` without the shrink phase."""
    return settings(options, phases=tuple(p for p in options.phases if p is not Phase.shrink))


def _unreduced_name(profile: str) -> str:
    return f"{profile}-unreduced"


def register_unreduced(profile: str) -> None:
    """Register the Hypothesis profile ``profile`` without shrinking, which :func:`without_shrinking` loads."""
    settings.register_profile(_unreduced_name(profile), unreduced(settings.get_profile(profile)))


@contextlib.contextmanager
def without_shrinking(test: Callable[..., Any] | None, profile: str) -> Iterator[None]:
    """Run ``test`` with no shrinking: its own settings (a ``@given`` test's, fixed when it was
    decorated) and the loaded profile ``profile`` (read by tests that build settings as they run,
    such as a state machine's; registered unreduced by :func:`register_unreduced`), both put back
    afterwards."""
    given = _given_function(test)
    own = given.__dict__.get("_hypothesis_internal_use_settings") if given is not None else None
    if own is not None:
        given._hypothesis_internal_use_settings = unreduced(own)
    settings.load_profile(_unreduced_name(profile))
    try:
        yield
    finally:
        settings.load_profile(profile)
        if own is not None:
            given._hypothesis_internal_use_settings = own


def _given_function(test: Callable[..., Any] | None) -> Any:
    """The function ``@given`` made, under the decorators wrapped around it, or None.

    ``functools.wraps`` copies a function's attributes to its wrapper, so the one ``@given``
    made is the innermost that has them (it wraps the test as written, which has none)."""
    found: Any = None
    seen: Any = test
    while seen is not None:
        if "hypothesis" in getattr(seen, "__dict__", {}):
            found = seen
        seen = getattr(seen, "__wrapped__", None)
    return found
