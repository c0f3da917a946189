"""WorthType: how promising a grid looks for a player, any whole number."""

from __future__ import annotations

import attrs


@attrs.define
class Worth:
    """A worth value; ``number`` may be negative, zero or positive."""

    number: int = 0


def newWorthType() -> Worth:
    """Make a new worth holding 0."""
    return Worth()


def increment(worth: Worth) -> Worth:
    """Add one to the worth and return it."""
    worth.number += 1
    return worth


def decrement(worth: Worth) -> Worth:
    """Subtract one from the worth and return it (worths have no lower bound)."""
    worth.number -= 1
    return worth


def lessThan(first: Worth, second: Worth) -> bool:
    """Whether the first worth is numerically smaller than the second."""
    return first.number < second.number


def greaterThan(first: Worth, second: Worth) -> bool:
    """Whether the first worth is numerically larger than the second."""
    return first.number > second.number


def equals(first: Worth, second: Worth) -> bool:
    """Whether the two worths hold the same number."""
    return first.number == second.number


def clone(worth: Worth) -> Worth:
    """Return an independent copy of the worth."""
    return Worth(worth.number)
