"""What conformance tests are written with: ``covers``, ``expect`` and failure messages.

The one package a suite imports the kit's machinery from (see ``__all__``): the marks and
checks, the failure types and the code rules' check ``obey``; and its modules of shared test
machinery: :mod:`~speckit.testing.frames` (the frame rule: an update changes only what it
documents), :mod:`~speckit.testing.lines` (the four-in-a-row oracle) and
:mod:`~speckit.testing.structure` (the structure test every suite gets from its specification).

A test names the documented operations it checks::

    @covers("IndexType.increment")
    @given(n=st.integers(1, 59))
    def test_increment_adds_one(impl, n):
        ...
        expect(impl.index.equals(after, model), "increment gives the next index")

When a check fails, the message quotes the documented behaviour of the operations
the test covers (from the spec data, with the errata that touch them), lists the
operations called in the failing example with their arguments, and shows what was
expected against what happened.
"""

from __future__ import annotations

import contextvars
import functools
import re
import sys
from collections.abc import Callable
from typing import Any, cast

import pytest

from ..core import ConformanceFailure, MissingOperation, NotImplementedOperation, OperationFailed, SuiteFailure
from ..rules import obey
from ..trace import TRACE

__all__ = [
    # Marking and checking
    "covers",
    "expect",
    "expect_equal",
    "explain",
    # Failures: what a check raises, and what a call of the implementation raises
    "ConformanceFailure",
    "SuiteFailure",
    "MissingOperation",
    "NotImplementedOperation",
    "OperationFailed",
    # The specification's rules on the code itself (imports, loops), checked on the package
    "obey",
]

_COVERED: contextvars.ContextVar[tuple[str, ...]] = contextvars.ContextVar("covered", default=())
_SPEC: contextvars.ContextVar[Any] = contextvars.ContextVar("spec", default=None)


def covers(*operations: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Mark a test as checking these operations (``"Type.operation"``) and explain its failures."""

    def decorate(test: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(test)
        def run(*args: Any, **kwargs: Any) -> Any:
            token = _COVERED.set(operations)
            TRACE.reset()
            try:
                return test(*args, **kwargs)
            finally:
                _COVERED.reset(token)

        return cast(Callable[..., Any], pytest.mark.covers(*operations)(run))

    return decorate


def use_spec(spec: Any) -> None:
    """Tell the failure messages which specification the running tests check."""
    _SPEC.set(spec)


def expect(holds: bool, claim: str, *, expected: Any = True, actual: Any = None) -> None:
    """Fail, in the specification's terms, unless ``holds``.

    ``claim`` says in words, positively, what the specification requires, for example
    ``"equals(v2, v3) after increment: the index should now hold 4"``. The failure shows
    what the last call returned (or ``actual``, when given) against that requirement.
    """
    __tracebackhide__ = True
    if holds:
        return
    raise ConformanceFailure(
        explain(claim, expected=expected, actual=_NOTHING if actual is None else actual), _implicated(claim, actual)
    )


def expect_equal(actual: Any, expected: Any, claim: str) -> None:
    """Fail unless two plain values (model values, bools, ints) are equal."""
    __tracebackhide__ = True
    if actual != expected:
        raise ConformanceFailure(explain(claim, expected=expected, actual=actual), _implicated(claim, actual))


_NOTHING = object()
"""No value given: the failure shows what the last call returned instead."""


def explain(claim: str, *, expected: Any, actual: Any) -> str:
    """The failure message, one screen in the order a student reads it: the documented
    behaviour, the calls made, what the call returned, what the specification requires."""
    spec = _SPEC.get()
    parts = ["Documented behaviour:", *(f"  {_behaviour(spec, q)}" for q in _COVERED.get())]
    parts += ["", "Calls, in order:", TRACE.render(), ""]
    if actual is _NOTHING:
        last = TRACE.entries[-1] if TRACE.entries else None
        if last is not None and last.outcome.startswith(" -> "):
            parts.append(f"The last call returned: {last.outcome.removeprefix(' -> ')}")
    else:
        parts.append(f"The call returned: {_shown(actual)}")
    requirement = claim if expected is True else f"{claim} (that is, {_shown(expected)})"
    parts.append(f"The specification requires: {requirement}")
    return "\n".join(parts)


def _implicated(claim: str, actual: Any = None) -> str:
    """The documented operation a failed check implicates, or "" when it cannot be told (then
    every operation the test covers is failed). It is one the test covers:

    * the one the claim names first (claims start with the operation they check:
      ``"decrement(index 6) gives index 5"``), else
    * with no ``actual`` (the check is on the last call's result), the last one called, else
    * the last one called that returned ``actual``.
    """
    spec = _SPEC.get()
    covered = _COVERED.get()
    named = sorted((m.start(), q) for q in covered if (m := re.search(rf"\b{re.escape(q.split('.')[1])}\b", claim)))
    if named:
        return named[0][1]
    if spec is None or not TRACE.entries:
        return ""
    calls = []
    for entry in TRACE.entries:
        module, _, name = entry.label.rpartition(".")
        try:
            calls.append((f"{spec.type(module).name}.{name}", entry.outcome))
        except KeyError:
            calls.append(("", entry.outcome))
    if actual is None:
        return calls[-1][0] if calls[-1][0] in covered else ""
    returned = [q for q, outcome in calls if q in covered and outcome == f" -> {actual!r}"]
    return returned[-1] if returned else ""


def _shown(value: Any) -> str:
    """``repr(value)``; a value of a sandboxed implementation is shown as the implementation shows it."""
    sandbox = sys.modules.get("speckit.sandbox")
    return repr(value) if sandbox is None else sandbox.shown(value)


def _behaviour(spec: Any, qualname: str) -> str:
    if spec is None:
        return f"Documented behaviour of {qualname}"
    try:
        op = spec.operation(qualname)
    except KeyError:
        return f"{qualname}: (not in the specification)"
    text = f"{qualname}: {' '.join(op.behaviour.split())}"
    errata = [e.id for e in spec.errata_for(qualname)]
    if errata:
        text += f" (errata: {', '.join(errata)})"
    return text
