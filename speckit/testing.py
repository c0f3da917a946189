"""What conformance tests are written with: ``covers``, ``expect`` and failure messages.

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
import sys
from typing import Any, Callable

import pytest

from .impl import SuiteFailure
from .trace import TRACE

_COVERED: contextvars.ContextVar[tuple[str, ...]] = contextvars.ContextVar("covered", default=())
_SPEC: contextvars.ContextVar[Any] = contextvars.ContextVar("spec", default=None)


class ConformanceFailure(SuiteFailure):
    """A documented behaviour does not hold."""


def covers(*operations: str) -> Callable[[Callable], Callable]:
    """Mark a test as checking these operations (``"Type.operation"``) and explain its failures."""

    def decorate(test: Callable) -> Callable:
        @functools.wraps(test)
        def run(*args: Any, **kwargs: Any) -> Any:
            token = _COVERED.set(operations)
            TRACE.reset()
            try:
                return test(*args, **kwargs)
            finally:
                _COVERED.reset(token)

        return pytest.mark.covers(*operations)(run)

    return decorate


def use_spec(spec: Any) -> None:
    """Tell the failure messages which specification the running tests check."""
    _SPEC.set(spec)


def expect(holds: bool, claim: str, *, expected: Any = True, actual: Any = None) -> None:
    """Fail, in the specification's terms, unless ``holds``.

    ``claim`` says in words what should be true, for example
    ``"equals(v2, v3) after increment: the index should now hold 4"``.
    """
    __tracebackhide__ = True
    if holds:
        return
    raise ConformanceFailure(explain(claim, expected=expected, actual=holds if actual is None else actual))


def expect_equal(actual: Any, expected: Any, claim: str) -> None:
    """Fail unless two plain values (model values, bools, ints) are equal."""
    __tracebackhide__ = True
    if actual != expected:
        raise ConformanceFailure(explain(claim, expected=expected, actual=actual))


def explain(claim: str, *, expected: Any, actual: Any) -> str:
    """The failure message: documented behaviour, the calls made, expected against actual."""
    parts = [f"Check: {claim}", ""]
    spec = _SPEC.get()
    for qualname in _COVERED.get():
        parts.append(_behaviour(spec, qualname))
    parts += ["", "Operations called, in order:", TRACE.render(), "", f"Expected: {_shown(expected)}", f"Actual:   {_shown(actual)}"]
    return "\n".join(parts)


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
