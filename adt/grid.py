"""GridType: the state of a game, an N x N board of squares with a dimension and a worth.

Representation. A game tree holds around 10^5 grids, so a grid is kept compact: its
side N, one bitmask per colour (bit ``(row - 1) * N + (column - 1)`` is set when that
colour's mark is on the square) and its worth as a plain number. Squares, locations
and symbols are made on demand by the operations that return them.

Rules (errata E17, E18): a symbol wins when it fills four consecutive squares of a
row, a column or either diagonal; any empty square on the grid is a legal move.

The win and evaluate operations test precomputed masks of every four-square line
instead of walking the squares with indexes as their documented calls do: the same
answer, fast enough for the game tree. The simpler operations follow their calls.

Faster path. The game tree does not call evaluateGrid on each of its grids: a child
differs from its parent by one mark, which changes only the lines through that square.
``Lines.gains`` works out, once per parent, how much a mark on each empty square would
change the parent's worth, so each child's worth is its parent's plus one number
(``tests/kit/test_reference_evaluation.py`` checks it is exactly evaluateGrid's).
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

import attrs

from spec import require

from . import colour as colour_adt
from . import dimension as dimension_adt
from . import display as display_adt
from . import location as location_adt
from . import player as player_adt
from . import square as square_adt
from . import symbol as symbol_adt
from . import worth as worth_adt
from .dimension import Dimension
from .display import Display
from .index import Index
from .location import Location
from .player import Player
from .square import Square
from .symbol import Symbol
from .worth import Worth

LINE = 4
"""How many symbols in a line win."""

WEIGHTS = (0, 1, 4, 16)
"""What an open line (no opposing mark) holding 0, 1, 2 or 3 of a player's marks is worth."""


@attrs.define
class Grid:
    """A grid value: its side, where each colour's marks are, and its worth."""

    side: int = dimension_adt.SMALLEST
    red: int = 0
    blue: int = 0
    worth: int = 0


class Lines(NamedTuple):
    """Every four-square line of one grid size: masks by direction, squares, and what lines are worth."""

    side: int
    rows: tuple[int, ...]
    columns: tuple[int, ...]
    diagonals: tuple[int, ...]
    win_bonus: int
    speed: int
    squares: tuple[tuple[int, ...], ...]
    """The square numbers of each line, in the order of ``every``."""

    def every(self) -> tuple[int, ...]:
        """The masks of all the lines, rows first, then columns, then diagonals."""
        return self.rows + self.columns + self.diagonals

    def weights(self) -> tuple[int, ...]:
        """What an open line holding 0, 1, 2, 3 or 4 of a player's marks is worth."""
        return WEIGHTS + (self.win_bonus,)

    def gains(self, mine: int, theirs: int, i_move: bool) -> tuple[list[int], int]:
        """What one more mark on each empty square would change in the player's score.

        ``mine`` and ``theirs`` are the player's and the opponent's marks, on a grid where
        nobody has won yet; the new mark is the player's when ``i_move``, else the
        opponent's. Returns, by square number (meaningful for the empty squares), the
        change of the score of the rows, columns and diagonals (evaluateGrid without the
        bonus for a quick win), and the bitmask of the squares where the mark completes
        a line. Only the lines through a square change when it is marked, so one pass
        over the lines evaluates all the children of a grid.
        """
        movers, others = (mine, theirs) if i_move else (theirs, mine)
        gain_of = _line_gains(self.win_bonus, i_move)
        empty = ~(mine | theirs)
        gains = [0] * (self.side * self.side)
        winning = 0
        for mask, squares in zip(self.every(), self.squares):
            moved, waiting = (movers & mask).bit_count(), (others & mask).bit_count()
            gain = gain_of[moved][waiting]
            if gain:
                for square in squares:
                    gains[square] += gain
            if moved == LINE - 1 and not waiting:
                winning |= mask & empty
        return gains, winning


@cache
def lines(side: int) -> Lines:
    """The four-square lines of a side x side grid (cached per size)."""

    def mask(row: int, column: int, d_row: int, d_column: int) -> int:
        return sum(1 << ((row + k * d_row) * side + column + k * d_column) for k in range(LINE))

    span = range(side - LINE + 1)
    rows = tuple(mask(r, c, 0, 1) for r in range(side) for c in span)
    columns = tuple(mask(r, c, 1, 0) for r in span for c in range(side))
    diagonals = tuple(mask(r, c, 1, 1) for r in span for c in span) + tuple(
        mask(r, c + LINE - 1, 1, -1) for r in span for c in span
    )
    # A completed line must outweigh everything else the grid can score (erratum E24).
    win_bonus = 2 * WEIGHTS[-1] * (len(rows) + len(columns) + len(diagonals)) + 1
    # Each empty square left when a game is won outweighs the most lines one move can
    # complete (four in each direction), so a quicker win is always worth more.
    speed = 16 * win_bonus + 1
    squares = tuple(tuple(n for n in range(side * side) if line >> n & 1) for line in rows + columns + diagonals)
    return Lines(side, rows, columns, diagonals, win_bonus, speed, squares)


@cache
def _line_gains(win_bonus: int, i_move: bool) -> tuple[tuple[int, ...], ...]:
    """How much one more mark changes a line's score for the player, by the marks of the mover and the other.

    Indexed ``[mover's marks][other's marks]``: the line's worth to the mover after the
    mark less its worth before, with the player's sign. A blocked or full line gains 0.
    """
    weights = WEIGHTS + (win_bonus,)
    sign = 1 if i_move else -1

    def gain(moved: int, waiting: int) -> int:
        if moved + waiting >= LINE or (moved and waiting):
            return 0
        if waiting:
            return sign * weights[waiting]  # the mark blocks the other's open line
        return sign * (weights[moved + 1] - weights[moved])

    return tuple(tuple(gain(moved, waiting) for waiting in range(LINE + 1)) for moved in range(LINE + 1))


# Construction ---------------------------------------------------------------------


def newGridType(
    dimension: Dimension | None = None, location: Location | None = None, symbol: Symbol | None = None
) -> Grid:
    """Make a grid of empty squares with worth 0: 4 x 4, or of the given dimension.

    Given a location and a symbol too, that symbol is placed on that square.
    """
    grid = setDimension(Grid(), dimension_adt.newDimensionType() if dimension is None else dimension)
    grid = setWorth(grid, worth_adt.newWorthType())
    if location is not None:
        require(validMove(grid, location), "GridType.newGridType", f"the location {_describe(location)} is not on the grid")
        grid = occupySquare(grid, location, symbol_adt.newSymbolType() if symbol is None else symbol)
    return grid


# Squares --------------------------------------------------------------------------


def squareOccupied(grid: Grid, location: Location) -> bool:
    """Whether the square at the location holds a symbol."""
    return not square_adt.isEmpty(getSquare(grid, location))


def occupySquare(grid: Grid, location: Location, symbol: Symbol) -> Grid:
    """Put the symbol on the (empty) square at the location and return the grid."""
    square = getSquare(grid, location)
    require(square_adt.isEmpty(square), "GridType.occupySquare", f"the square at {_describe(location)} is already occupied")
    return setSquare(grid, square_adt.setSymbol(square, symbol))


def setSquare(grid: Grid, square: Square) -> Grid:
    """Put the square's symbol on the grid at the square's own location and return the grid."""
    location = square_adt.getLocation(square)
    bit = _bit(grid, location, "GridType.setSquare")
    symbol = square_adt.getSymbol(square)
    grid.red &= ~bit
    grid.blue &= ~bit
    if not symbol_adt.isEmpty(symbol):
        if symbol_adt.getColour(symbol).name == colour_adt.RED:
            grid.red |= bit
        else:
            grid.blue |= bit
    return grid


def getSquare(grid: Grid, location: Location) -> Square:
    """Return the square at the location: a copy of the location with its symbol (erratum E13)."""
    bit = _bit(grid, location, "GridType.getSquare")
    return square_adt.newSquareType(location_adt.clone(location), _symbol_at(grid, bit))


def getSymbol(grid: Grid, location: Location) -> Symbol:
    """Return the symbol on the square at the location (erratum E14)."""
    return square_adt.getSymbol(getSquare(grid, location))


def validMove(grid: Grid, location: Location) -> bool:
    """Whether the location is on the grid: row and column both from 1 to N."""
    side = grid.side
    return 1 <= location_adt.getRow(location).number <= side and 1 <= location_adt.getColumn(location).number <= side


# Dimension and worth --------------------------------------------------------------


def setDimension(grid: Grid, dimension: Dimension) -> Grid:
    """Set the grid's dimension and return it; marks that still fit keep their squares (erratum E23)."""
    old_side, new_side = grid.side, dimension.number
    red, blue = grid.red, grid.blue
    grid.side, grid.red, grid.blue = new_side, 0, 0
    for row in range(min(old_side, new_side)):
        for column in range(min(old_side, new_side)):
            old_bit, new_bit = 1 << (row * old_side + column), 1 << (row * new_side + column)
            if red & old_bit:
                grid.red |= new_bit
            elif blue & old_bit:
                grid.blue |= new_bit
    return grid


def getDimension(grid: Grid) -> Dimension:
    """Return the grid's dimension."""
    return Dimension(grid.side)


def setWorth(grid: Grid, worth: Worth) -> Grid:
    """Set the grid's worth and return it."""
    grid.worth = worth.number
    return grid


def getWorth(grid: Grid) -> Worth:
    """Return the grid's worth."""
    return Worth(grid.worth)


# The state of the game ------------------------------------------------------------


def fullGrid(grid: Grid) -> bool:
    """Whether every square holds a symbol."""
    return (grid.red | grid.blue) == (1 << grid.side * grid.side) - 1


def gameOver(grid: Grid) -> bool:
    """Whether the game has ended, in a win or a draw."""
    return draw(grid) or not symbol_adt.isEmpty(win(grid))


def draw(grid: Grid) -> bool:
    """Whether the grid is full and nobody has won (erratum E38)."""
    return fullGrid(grid) and symbol_adt.isEmpty(win(grid))


def win(grid: Grid) -> Symbol:
    """The symbol filling a line in any direction, or an empty symbol (errata E15, E17, E19)."""
    for winner in (horizWin(grid), vertWin(grid), diagWin(grid)):
        if not symbol_adt.isEmpty(winner):
            return winner
    return symbol_adt.newSymbolType()


def diagWin(grid: Grid) -> Symbol:
    """The symbol filling a line on either diagonal, or an empty symbol."""
    return _winner(grid, lines(grid.side).diagonals)


def horizWin(grid: Grid) -> Symbol:
    """The symbol filling a line within a row, or an empty symbol (erratum E16)."""
    return _winner(grid, lines(grid.side).rows)


def vertWin(grid: Grid) -> Symbol:
    """The symbol filling a line within a column, or an empty symbol (erratum E16)."""
    return _winner(grid, lines(grid.side).columns)


# Evaluation (erratum E24) ---------------------------------------------------------


def evaluateGrid(grid: Grid, player: Player) -> Worth:
    """How promising the whole grid looks for the player: rows, columns and diagonals together.

    A finished game also counts how early it ended: a win is worth more, and a loss
    less, the more squares are still empty. So the computer takes the quickest win
    and puts off a loss, whatever its look-ahead.
    """
    _marks_of(grid, player, "GridType.evaluateGrid")  # the player must have a symbol
    total = sum(
        w.number for w in (evaluateRows(grid, player), evaluateColumns(grid, player), evaluateDiagonals(grid, player))
    )
    return Worth(total + _quickness(grid, player))


def evaluateRows(grid: Grid, player: Player) -> Worth:
    """How promising the grid's rows look for the player."""
    return Worth(_score(grid, player, lines(grid.side).rows, "GridType.evaluateRows"))


def evaluateColumns(grid: Grid, player: Player) -> Worth:
    """How promising the grid's columns look for the player."""
    return Worth(_score(grid, player, lines(grid.side).columns, "GridType.evaluateColumns"))


def evaluateDiagonals(grid: Grid, player: Player) -> Worth:
    """How promising the grid's diagonals look for the player."""
    return Worth(_score(grid, player, lines(grid.side).diagonals, "GridType.evaluateDiagonals"))


# Comparison, copying, showing -----------------------------------------------------


def equals(first: Grid, second: Grid) -> bool:
    """Whether the grids have the same dimension and the same symbols (worths aside: erratum E22)."""
    return first.side == second.side and first.red == second.red and first.blue == second.blue


def clone(grid: Grid) -> Grid:
    """Return an independent copy of the grid: same dimension, symbols and worth."""
    return Grid(grid.side, grid.red, grid.blue, grid.worth)


def showGrid(grid: Grid, display: Display) -> Grid:
    """Draw every square on the display, then show the board with labels; return the grid."""
    for row in range(1, grid.side + 1):
        for column in range(1, grid.side + 1):
            square_adt.showSquare(getSquare(grid, Location(Index(row), Index(column))), display)
    display_adt.showBoard(display, grid.side)
    return grid


# Private helpers ------------------------------------------------------------------


def _bit(grid: Grid, location: Location, operation: str) -> int:
    require(validMove(grid, location), operation, f"the location {_describe(location)} is not on the {grid.side} x {grid.side} grid")
    row, column = location_adt.getRow(location).number, location_adt.getColumn(location).number
    return 1 << ((row - 1) * grid.side + column - 1)


def _describe(location: Location) -> str:
    return f"(row {location_adt.getRow(location).number}, column {location_adt.getColumn(location).number})"


def _symbol_at(grid: Grid, bit: int) -> Symbol:
    if grid.red & bit:
        return symbol_adt.newSymbolType(colour_adt.Colour(colour_adt.RED))
    if grid.blue & bit:
        return symbol_adt.newSymbolType(colour_adt.Colour(colour_adt.BLUE))
    return symbol_adt.newSymbolType()


def _winner(grid: Grid, masks: tuple[int, ...]) -> Symbol:
    for mask in masks:
        if grid.red & mask == mask:
            return symbol_adt.newSymbolType(colour_adt.Colour(colour_adt.RED))
        if grid.blue & mask == mask:
            return symbol_adt.newSymbolType(colour_adt.Colour(colour_adt.BLUE))
    return symbol_adt.newSymbolType()


def _quickness(grid: Grid, player: Player) -> int:
    """For a won game: empty squares times a weight, added for the player's win, taken off for a loss."""
    mine, theirs = _marks_of(grid, player, "GridType.evaluateGrid")
    every = lines(grid.side)
    masks = every.every()
    won = any(mine & mask == mask for mask in masks)
    lost = any(theirs & mask == mask for mask in masks)
    if won == lost:
        return 0
    empty = grid.side * grid.side - (grid.red | grid.blue).bit_count()
    return (1 if won else -1) * empty * every.speed


def _marks_of(grid: Grid, player: Player, operation: str) -> tuple[int, int]:
    """The player's marks and the opponent's, as bitmasks."""
    symbol = player_adt.getSymbol(player)
    require(not symbol_adt.isEmpty(symbol), operation, "the player's symbol must not be empty")
    red = symbol_adt.getColour(symbol).name == colour_adt.RED
    mine, theirs = (grid.red, grid.blue) if red else (grid.blue, grid.red)
    return mine, theirs


def _score(grid: Grid, player: Player, masks: tuple[int, ...], operation: str) -> int:
    """Open lines count for whoever holds them: the player's add, the opponent's subtract."""
    mine, theirs = _marks_of(grid, player, operation)
    weights = lines(grid.side).weights()
    total = 0
    for mask in masks:
        if not (mine | theirs) & mask:
            continue  # an empty line scores nothing
        own, other = (mine & mask).bit_count(), (theirs & mask).bit_count()
        if not other:
            total += weights[own]
        elif not own:
            total -= weights[other]
    return total
