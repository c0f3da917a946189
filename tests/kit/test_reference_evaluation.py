"""The reference's evaluation makes its computer take the quickest win and put off a loss.

E24 leaves the formula open; the reference adds to a won grid's worth a weight per
empty square, larger than anything a single move can add, so a win now outranks any
later win however many lines that later win completes.
"""

from hypothesis import given, settings
from hypothesis import strategies as st

from adt import colour, game_tree, grid, player, symbol
from adt.dimension import Dimension
from adt.index import Index
from adt.level_number import LevelNumber
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


# The game tree's faster path ------------------------------------------------------
#
# The reference game tree works out each child's worth from its parent's (see the
# docstring of adt/game_tree.py) instead of calling evaluateGrid on every grid. These
# tests build trees by the fast path and check every worth, and which nodes get
# children, against the documented calls.

RED = player.newPlayerType(symbol.newSymbolType(colour.newColourType()))


@st.composite
def positions(draw):
    """A grid of side 4 to 7 with marks on some squares (wins included), and who moves first."""
    side = draw(st.integers(4, 7))
    squares = draw(st.lists(st.integers(0, side * side - 1), unique=True, max_size=side * side))
    g = grid.newGridType(Dimension(side))
    for n, square in enumerate(squares):
        tint = colour.newColourType() if n % 2 == 0 else colour.invert(colour.newColourType())
        g = grid.occupySquare(
            g, Location(Index(square // side + 1), Index(square % side + 1)), symbol.newSymbolType(tint)
        )
    first, second = draw(st.sampled_from([(RED, BLUE), (BLUE, RED)]))
    return g, first, second


def _nodes_below(tree):
    """Every node of the tree below its root."""
    stack, found = [tree.node.child], []
    while stack:
        node = stack.pop()
        while node is not None:
            found.append(node)
            stack.append(node.child)
            node = node.sibling
    return found


@settings(max_examples=60, deadline=None)
@given(positions(), st.integers(1, 2))
def test_every_worth_in_a_built_tree_is_evaluate_grid_of_its_grid(position, depth):
    g, first, second = position
    empty = g.side * g.side - (g.red | g.blue).bit_count()
    depth = min(depth, 3 if empty <= 12 else 2 if empty <= 40 else 1)
    tree = game_tree.buildGame(game_tree.newGameTreeType(), g, first, second, LevelNumber(depth))
    for node in _nodes_below(tree):
        assert node.grid.worth == grid.evaluateGrid(node.grid, first).number, node
        assert (node.child is not None) == (node.level < depth and not grid.gameOver(node.grid)), node


@settings(max_examples=60, deadline=None)
@given(positions())
def test_generate_level_gives_children_the_worths_of_evaluate_grid(position):
    g, first, second = position
    tree = game_tree.generateLevel(game_tree.newGameTreeType(g, LevelNumber(1)), first, second)
    children = _nodes_below(tree)
    assert len(children) == (0 if grid.gameOver(g) else g.side * g.side - (g.red | g.blue).bit_count())
    for child in children:
        assert (child.grid.red | child.grid.blue) & ~(g.red | g.blue)
        assert child.grid.worth == grid.evaluateGrid(child.grid, first).number
