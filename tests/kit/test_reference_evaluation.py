"""The reference's evaluation makes its computer take the quickest win and put off a loss.

E24 leaves the formula open; the reference adds to a won grid's worth a weight per
empty square, larger than anything a single move can add, so a win now outranks any
later win however many lines that later win completes.
"""

from adt import colour, grid, player, symbol
from adt.dimension import Dimension
from adt.index import Index
from adt.location import Location


def _grid(side, picture_rows):
    g = grid.newGridType(Dimension(side))
    for r, row in enumerate(picture_rows, start=1):
        for c, mark in enumerate(row.split(), start=1):
            if mark in "RB":
                tint = colour.newColourType() if mark == "R" else colour.invert(colour.newColourType())
                g = grid.occupySquare(g, Location(Index(r), Index(c)), symbol.newSymbolType(tint))
    return g


BLUE = player.newPlayerType(symbol.newSymbolType(colour.invert(colour.newColourType())))


def test_an_earlier_single_line_win_outranks_a_later_double_line_win():
    early = _grid(6, ["B B B B . .", "R R R . . .", ". . . . . .", ". . . . . .", ". . . . . .", ". . . . . ."])
    late = _grid(6, ["B B B B . .", "B B B B . .", "R R R . . .", "R R R . . .", "R . . . . .", ". . . . . ."])
    assert grid.evaluateGrid(early, BLUE).number > grid.evaluateGrid(late, BLUE).number


def test_a_later_loss_outranks_an_earlier_one():
    early = _grid(5, ["R R R R .", "B B B . .", ". . . . .", ". . . . .", ". . . . ."])
    late = _grid(5, ["R R R R .", "B B B . B", "B . . . .", "R . . . .", "B . R . ."])
    assert grid.evaluateGrid(late, BLUE).number > grid.evaluateGrid(early, BLUE).number


def test_any_win_outranks_any_grid_without_one():
    won = _grid(4, ["B B B B", "R R R .", "R . . .", ". . . ."])
    promising = _grid(4, ["B B B .", "B B B .", "B B . .", "R . R ."])
    assert grid.evaluateGrid(won, BLUE).number > grid.evaluateGrid(promising, BLUE).number
