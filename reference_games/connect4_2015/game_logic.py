"""GameLogic: the rules of Connect Four on a Grid, and the helpers of the computer player.

Every method takes the grid it works on (erratum S05) and reads it only through the
Grid's public methods; none changes it. Words used below: a *line* is four squares in
a row horizontally, vertically or on a diagonal; a square *completes a four* for a
colour when it is Empty and a disc of that colour there would make a line of four
through it; a *threat* is such a square where a disc may be placed now.
"""

from __future__ import annotations

import random

from .game_state import GameState
from .space import Space

BOARD_WIDTH = 7
"""The number of columns (a private constant of the report's GameLogic)."""
BOARD_HEIGHT = 6
"""The number of rows (a private constant of the report's GameLogic)."""

DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))
"""Horizontal, vertical, rising and falling diagonal."""


def lines_through(x: int, y: int) -> list[tuple[tuple[int, int], ...]]:
    """Every line of four squares of the grid that passes through (x, y)."""
    found = []
    for dx, dy in DIRECTIONS:
        for start in range(-3, 1):
            line = tuple((x + (start + k) * dx, y + (start + k) * dy) for k in range(4))
            if all(0 <= i < BOARD_WIDTH and 0 <= j < BOARD_HEIGHT for i, j in line):
                found.append(line)
    return found


def makePair(x: int, y: int) -> list[int]:
    """The report's makePair: the square (x, y) as the list ``[x, y]``."""
    return [x, y]


class GameLogic:
    """The rules: wins, draws, free-play errors, and where the computer may play.

    ``rng`` (keyword-only, the reference's own) draws findSpot's random choice; by
    default a fresh unseeded generator.
    """

    def __init__(self, *, rng: random.Random | None = None) -> None:
        self._rng = rng or random.Random()

    # Wins, draws and errors ------------------------------------------------------------

    def isWin(self, grid, x: int, y: int) -> GameState:
        """Win if (x, y) is in a line of four, else Draw on a full grid, else Ongoing."""
        if self.isConnect4(grid, x, y):
            return GameState.Win
        return GameState.Draw if grid.isFull() else GameState.Ongoing

    def isConnect4(self, grid, x: int, y: int) -> bool:
        """Whether (x, y) holds a disc that is part of a line of four of its colour."""
        colour = grid.getSpaceType(x, y)
        if colour == Space.Empty:
            return False
        return any(all(grid.getSpaceType(i, j) == colour for i, j in line) for line in lines_through(x, y))

    def endFreePlay(self, grid) -> list[list[int]]:
        """The squares in error on a free-play grid (errata S07, S08).

        With a line of four on the grid, only the squares of the lines of four;
        otherwise every unsupported disc and every threat of either colour.
        """
        fours = self.endRegularPlay(grid)
        if fours:
            return fours
        errors = []
        for x, y in self._squares(grid):
            if grid.getSpaceType(x, y) != Space.Empty:
                if not grid.isSupported(x, y):
                    errors.append(makePair(x, y))
            elif grid.isValidSpot(x, y) and (self._completes(grid, x, y, Space.Red) or self._completes(grid, x, y, Space.Blue)):
                errors.append(makePair(x, y))
        return errors

    def endRegularPlay(self, grid) -> list[list[int]]:
        """The squares of every line of four on the grid, each once; [] when there is none."""
        return [makePair(x, y) for x, y in self._squares(grid) if self.isConnect4(grid, x, y)]

    # The computer player's helpers -----------------------------------------------------

    def connectThree(self, grid, c: Space) -> list[int] | None:
        """A threat of colour ``c`` (gaps included, erratum S10), or None."""
        for x, y in self._squares(grid):
            if grid.isValidSpot(x, y) and self._completes(grid, x, y, c):
                return makePair(x, y)
        return None

    def connectAmountOfThree(self, grid, c: Space) -> int:
        """The number of threats of colour ``c``; 0 when there is none."""
        return sum(1 for x, y in self._squares(grid) if grid.isValidSpot(x, y) and self._completes(grid, x, y, c))

    def unsupportedConnectThree(self, grid, dontPlace: list, c: Space) -> None:
        """Add to ``dontPlace`` each valid spot right below a square completing a four for ``c``."""
        for x, y in self._squares(grid):
            if grid.isValidSpot(x, y) and y + 1 < grid.getHeight() and self._completes(grid, x, y + 1, c):
                dontPlace.append(makePair(x, y))

    def blockL(self, grid, c: Space) -> list[int] | None:
        """A square where :meth:`checkL` finds an "L" of colour ``c``, or None."""
        for i, j in self._squares(grid):
            if self.checkL(grid, i, j, c):
                return makePair(i, j)
        return None

    def findSpot(self, grid, dontPlace: list, x_pos: int) -> list[int]:
        """Column ``x_pos`` if allowed, else the nearest allowed one right or left, chosen at random."""
        if self.canPlaceCheck(grid, dontPlace, x_pos):
            return makePair(x_pos, self.findY(grid, x_pos))
        if self._rng.randrange(2) > 0:
            return self.moveRight(grid, dontPlace, x_pos, 0)
        return self.moveLeft(grid, dontPlace, x_pos, 0)

    def moveRight(self, grid, dontPlace: list, x_pos: int, reps: int = 0) -> list[int]:
        """The first allowed column from ``x_pos`` going right, wrapping around (erratum S11)."""
        return self._move(grid, dontPlace, x_pos, reps, +1)

    def moveLeft(self, grid, dontPlace: list, x_pos: int, reps: int = 0) -> list[int]:
        """The first allowed column from ``x_pos`` going left, wrapping around (erratum S11)."""
        return self._move(grid, dontPlace, x_pos, reps, -1)

    def canPlaceCheck(self, grid, dontPlace: list, x_pos: int) -> bool:
        """Whether column ``x_pos`` is not full and holds no square of ``dontPlace``."""
        if any(pair[0] == x_pos for pair in dontPlace):
            return False
        return grid.getSpaceType(x_pos, grid.getHeight() - 1) == Space.Empty

    def findY(self, grid, x: int) -> int:
        """The row a disc dropped into column ``x`` lands on; -1 for a full column or one off the grid."""
        if x < 0 or x > grid.getWidth() - 1 or grid.getSpaceType(x, grid.getHeight() - 1) != Space.Empty:
            return -1
        return next((y for y in range(grid.getHeight()) if grid.isValidSpot(x, y)), -1)

    def inverseSpace(self, c: Space) -> Space:
        """The other colour: Blue for Red, Red for Blue, Empty for Empty."""
        if c == Space.Red:
            return Space.Blue
        if c == Space.Blue:
            return Space.Red
        return Space.Empty

    # Private in the report's internal design: the reference's own, kept under their names.

    def checkL(self, grid, i: int, j: int, c: Space) -> bool:
        """Whether (i, j) is Empty with two ``c`` discs below it and two beside it (right, else left)."""
        width = grid.getWidth()
        if not (j > 1 and 0 <= i < width and j < grid.getHeight()):
            return False
        column = grid.getSpaceType(i, j - 2) == c and grid.getSpaceType(i, j - 1) == c and grid.getSpaceType(i, j) == Space.Empty
        if not column:
            return False
        right = 0 < i < width - 2 and grid.getSpaceType(i + 1, j) == c and grid.getSpaceType(i + 2, j) == c
        left = 1 < i < width - 1 and grid.getSpaceType(i - 1, j) == c and grid.getSpaceType(i - 2, j) == c
        return right or left

    def pieceRotate(self, grid, x: int) -> int:
        """Wrap a column around the grid: past the right edge is column 0, past the left the last."""
        if x >= grid.getWidth():
            return 0
        if x < 0:
            return grid.getWidth() - 1
        return x

    def _move(self, grid, dontPlace: list, x_pos: int, reps: int, step: int) -> list[int]:
        """moveRight (step +1) and moveLeft (step -1): the report's recursion, as a loop."""
        x = self.pieceRotate(grid, x_pos)
        while not self.canPlaceCheck(grid, dontPlace, x):
            if reps >= grid.getWidth():  # every column refused: stay legal, forget dontPlace
                for _ in range(grid.getWidth()):
                    if self.findY(grid, x) >= 0:
                        break
                    x = self.pieceRotate(grid, x + step)
                break
            x, reps = self.pieceRotate(grid, x + step), reps + 1
        return makePair(x, self.findY(grid, x))

    def _completes(self, grid, x: int, y: int, c: Space) -> bool:
        """Whether a disc of ``c`` on the Empty square (x, y) would make a line of four through it."""
        return any(
            all((i, j) == (x, y) or grid.getSpaceType(i, j) == c for i, j in line) for line in lines_through(x, y)
        )

    @staticmethod
    def _squares(grid):
        """Every square, column by column from the left, each from the bottom up."""
        return ((x, y) for x in range(grid.getWidth()) for y in range(grid.getHeight()))
