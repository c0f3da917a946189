"""Grid: the 7 x 6 frame of Connect Four and the discs on it.

Squares are ``(x, y)``: x the column 0..6 from the left, y the row 0..5 from the
bottom. The grid has no gravity of its own: :meth:`Grid.setSpace` writes any square,
and :meth:`Grid.isValidSpot` is the rule a move must follow.
"""

from __future__ import annotations

from .space import Space

BOARD_WIDTH = 7
"""The number of columns (private in the report's design)."""
BOARD_HEIGHT = 6
"""The number of rows (private in the report's design; not 7, erratum S01)."""


class Grid:
    """The frame: a Space for each of the 42 squares, all Empty at first."""

    def __init__(self) -> None:
        self._connectFourBoard = [[Space.Empty] * BOARD_HEIGHT for _ in range(BOARD_WIDTH)]

    def __repr__(self) -> str:
        rows = ("".join(_LETTER[self._connectFourBoard[x][y]] for x in range(BOARD_WIDTH)) for y in reversed(range(BOARD_HEIGHT)))
        return f"Grid({'/'.join(rows)})"

    def getWidth(self) -> int:
        """The number of columns, 7."""
        return BOARD_WIDTH

    def getHeight(self) -> int:
        """The number of rows, 6."""
        return BOARD_HEIGHT

    def isFull(self) -> bool:
        """Whether every square holds a disc (all of them, not only the top row: erratum S02)."""
        return all(space is not Space.Empty for column in self._connectFourBoard for space in column)

    def isValidSpot(self, x: int, y: int) -> bool:
        """Whether a disc may be placed on (x, y) now: on the grid, Empty and supported."""
        return self.isInGridRange(x, y) and self.isSpotEmpty(x, y) and self.isSupported(x, y)

    def isSupported(self, x: int, y: int) -> bool:
        """Whether no square below (x, y) is Empty; never true off the grid (erratum S03)."""
        if not self.isInGridRange(x, y):
            return False
        return all(self._connectFourBoard[x][below] is not Space.Empty for below in range(y))

    def setSpace(self, x: int, y: int, colour: Space) -> None:
        """Put ``colour`` (Red, Blue, or Empty to clear) on (x, y); IndexError off the grid (erratum S04)."""
        self._require_in_range(x, y)
        self._connectFourBoard[x][y] = colour

    def getSpaceType(self, x: int, y: int) -> Space:
        """What (x, y) holds; IndexError off the grid (erratum S04)."""
        self._require_in_range(x, y)
        return self._connectFourBoard[x][y]

    def endSpaceInRange(self) -> bool:
        """Whether the red and blue counts differ by at most one, either way (erratum S06)."""
        spaces = [space for column in self._connectFourBoard for space in column]
        return abs(spaces.count(Space.Red) - spaces.count(Space.Blue)) <= 1

    # Private in the report's internal design: the reference's own, kept under their names.

    def isInGridRange(self, x: int, y: int) -> bool:
        """Whether (x, y) is a square of the grid."""
        return 0 <= x < BOARD_WIDTH and 0 <= y < BOARD_HEIGHT

    def isSpotEmpty(self, x: int, y: int) -> bool:
        """Whether (x, y) is on the grid and Empty."""
        return self.isInGridRange(x, y) and self._connectFourBoard[x][y] is Space.Empty

    def _require_in_range(self, x: int, y: int) -> None:
        if not self.isInGridRange(x, y):
            raise IndexError(f"({x}, {y}) is not a square of the {BOARD_WIDTH} x {BOARD_HEIGHT} grid")


_LETTER = {Space.Red: "R", Space.Blue: "B", Space.Empty: "."}
