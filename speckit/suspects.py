"""Failing tests whose example is shown as found: those a narrower failure earlier in the run explains.

A failing test is shown with its smallest example, which Hypothesis finds by shrinking. For a
test of many operations (a state machine over a whole type) that can take a minute or more,
most of a faulty submission's grading time. When a test that ran earlier in the same run,
checking only operations this one checks too, has already failed, this test is a *suspect*:
its failure is most likely the same fault, which the earlier test already shows with a
smaller example. A suspect still runs every example it would have run and passes or fails
exactly as before (the examples Hypothesis generates do not depend on shrinking); only its
failing example is reported as it was found, not reduced, and its message names the test
that explains it. The run's order of tests is fixed, so the same submission gets the same
suspects every time.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
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


def note(explaining_test: str) -> str:
    """What a suspect's failure message says about its example."""
    name = explaining_test.rpartition("::")[2]
    return (
        f"This example is shown as found, not reduced to its smallest: {name}, which checks only "
        "operations this test checks too, failed earlier in the run, and its example is smaller."
    )


def unreduced(options: settings) -> settings:
    """``options`` without the shrink phase."""
    return settings(options, phases=tuple(p for p in options.phases if p is not Phase.shrink))


@contextlib.contextmanager
def without_shrinking(test: Callable[..., Any], profile: str) -> Iterator[None]:
    """Run ``test`` with no shrinking: its own settings (a ``@given`` test's, fixed when it was
    decorated) and the loaded profile ``profile`` (read by tests that build settings as they run,
    such as a state machine's), both put back afterwards."""
    given = _given_function(test)
    own = given.__dict__.get("_hypothesis_internal_use_settings") if given is not None else None
    if own is not None:
        given._hypothesis_internal_use_settings = unreduced(own)
    settings.register_profile(f"{profile}-unreduced", unreduced(settings.get_profile(profile)))
    settings.load_profile(f"{profile}-unreduced")
    try:
        yield
    finally:
        settings.load_profile(profile)
        if own is not None:
            given._hypothesis_internal_use_settings = own


def _given_function(test: Callable[..., Any]) -> Any:
    """The function ``@given`` made, under the decorators wrapped around it, or None.

    ``functools.wraps`` copies a function's attributes to its wrapper, so the one ``@given``
    made is the innermost that has them (it wraps the test as written, which has none)."""
    found, seen = None, test
    while seen is not None:
        if "hypothesis" in getattr(seen, "__dict__", {}):
            found = seen
        seen = getattr(seen, "__wrapped__", None)
    return found
