"""LevelNumberType: the level of a game-tree node, a whole number from 0 upwards."""

from __future__ import annotations

import attrs

from spec import require


@attrs.define
class LevelNumber:
    """A level number; ``number`` is at least 0."""

    number: int = 0


def newLevelNumberType() -> LevelNumber:
    """Make a new level number holding 0."""
    return LevelNumber()


def increment(level: LevelNumber) -> LevelNumber:
    """Add one to the level number and return it."""
    level.number += 1
    return level


def decrement(level: LevelNumber) -> LevelNumber:
    """Subtract one from the level number and return it; it must be above 0."""
    require(level.number > 0, "LevelNumberType.decrement", f"the level number must be greater than 0 (it is {level.number})")
    level.number -= 1
    return level


def lessThan(first: LevelNumber, second: LevelNumber) -> bool:
    """Whether the first level number is numerically smaller than the second."""
    return first.number < second.number


def greaterThan(first: LevelNumber, second: LevelNumber) -> bool:
    """Whether the first level number is numerically larger than the second."""
    return first.number > second.number


def equals(first: LevelNumber, second: LevelNumber) -> bool:
    """Whether the two level numbers hold the same number."""
    return first.number == second.number


def clone(level: LevelNumber) -> LevelNumber:
    """Return an independent copy of the level number, as described (erratum E02: a worth's clone, as declared, is a reading too)."""
    return LevelNumber(level.number)
