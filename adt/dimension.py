"""DimensionType: the side length of a square grid, a whole number from 4 upwards."""

from __future__ import annotations

import attrs

from spec import require

from .index import Index

SMALLEST = 4


@attrs.define
class Dimension:
    """A dimension value; ``number`` is at least 4."""

    number: int = SMALLEST


def newDimensionType(side: Index | None = None) -> Dimension:
    """Make a new dimension: 4, or the number held by the given index (at least 4).

    Both forms exist because the declaration and the description disagree (erratum E03).
    """
    if side is None:
        return Dimension()
    require(side.number >= SMALLEST, "DimensionType.newDimensionType", f"a dimension must be at least 4 (the index is {side.number})")
    return Dimension(side.number)


def lessThan(first: Dimension, second: Dimension) -> bool:
    """Whether the first dimension is numerically smaller than the second."""
    return first.number < second.number


def greaterThan(first: Dimension, second: Dimension) -> bool:
    """Whether the first dimension is numerically larger than the second."""
    return first.number > second.number


def equals(first: Dimension, second: Dimension) -> bool:
    """Whether the two dimensions hold the same number."""
    return first.number == second.number


def clone(dimension: Dimension) -> Dimension:
    """Return an independent copy of the dimension."""
    return Dimension(dimension.number)
