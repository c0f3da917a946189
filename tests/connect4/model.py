"""The Connect-4 suite's oracle: models of the values and the rules, independent of any implementation.

* an index, worth, level number or dimension is an ``int``;
* a colour is ``"red"`` or ``"blue"``; a symbol is ``None`` (empty) or a colour;
* a location is a ``(row, column)`` pair; a grid is ``(side, {location: colour})``, or a
  :class:`GridModel` when its worth counts too.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

from speckit.testing import lines

RED, BLUE = "red", "blue"
OTHER = {RED: BLUE, BLUE: RED}

DIRECTIONS = {"row": (0, 1), "column": (1, 0), "diagonal": (1, 1), "antidiagonal": (1, -1)}


def lines_of(side: int, kinds=tuple(DIRECTIONS)) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Every four-square line of a side x side grid, as tuples of (row, column)."""
    return _lines_of(side, tuple(kinds))


@functools.cache
def _lines_of(side: int, kinds: tuple[str, ...]) -> tuple[tuple[tuple[int, int], ...], ...]:
    return lines.lines(range(1, side + 1), range(1, side + 1), {kind: DIRECTIONS[kind] for kind in kinds})


def winners(side: int, marks: dict, kinds=tuple(DIRECTIONS)) -> set[str]:
    """The colours that fill some four-square line of the given kinds."""
    return lines.filled(lines_of(side, kinds), marks.get)


def winner(side: int, marks: dict):
    """One winning colour, or None."""
    return next(iter(sorted(winners(side, marks))), None)


class GridModel(NamedTuple):
    """A grid's model: its side, its marks (sorted ``((row, column), colour)`` pairs) and its worth."""

    side: int
    marks: tuple
    worth: int = 0

    @classmethod
    def of(cls, side: int, marks: dict, worth: int = 0) -> GridModel:
        return cls(side, tuple(sorted(marks.items())), worth)

    @property
    def squares(self) -> dict:
        return dict(self.marks)

    def __str__(self) -> str:
        rows = (
            "".join({RED: "R", BLUE: "B"}.get(self.squares.get((r, c)), ".") for c in range(1, self.side + 1))
            for r in range(1, self.side + 1)
        )
        return f"the {self.side} x {self.side} grid {'/'.join(rows)} with worth {self.worth}"
