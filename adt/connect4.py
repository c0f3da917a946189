"""Connect4Type: a game of Connect-4 between a person and the computer.

A game holds the input and display it talks through, the game tree whose root holds
the current grid, the two players and the computer's look-ahead. Player 1 is the
person and player 2 the computer; red always moves first, so the player to move is red
when the grid holds an even number of marks (erratum E34). Any empty square is a move
(erratum E18) and four in a line wins (erratum E17).

The questions go through the kit's Input, which asks again, saying why, until an
answer is acceptable; what is shown goes through the kit's Display.
"""

from __future__ import annotations

import attrs

from spec import require

from . import colour as colour_adt
from . import display as display_adt
from . import game_tree as game_tree_adt
from . import grid as grid_adt
from . import input as input_adt
from . import level_number as level_number_adt
from . import location as location_adt
from . import player as player_adt
from . import symbol as symbol_adt
from .dimension import SMALLEST, Dimension
from .display import Display
from .game_tree import GameTree
from .grid import Grid
from .index import Index
from .input import Input
from .level_number import LevelNumber
from .location import Location
from .player import Player

LARGEST = 9
"""The largest grid side the game offers."""

LOOK_AHEAD_LIMITS = {4: 4, 5: 4, 6: 3, 7: 3, 8: 3, 9: 2}
"""The deepest look-ahead offered on each grid side.

The tree holds every sequence of moves, so each level more multiplies the work by the
number of empty squares. At each limit the first move (the largest tree) takes under
2 seconds of processor time and 100 megabytes on this kind of machine (see
benchmarks/game_tree.py); one more level would multiply the work by 11 (4 x 4) to
79 (9 x 9). A 4 x 4 grid stops at 4: its 571,000-node tree at 5 took 2.3 s on a quiet
machine and 5 s on a busy one, over the 2 s a move may take.
"""


@attrs.define(eq=False)
class Connect4:
    """A game value: its input and display, game tree, players and look-ahead."""

    input: Input | None = None
    display: Display | None = None
    tree: GameTree = attrs.field(factory=game_tree_adt.newGameTreeType)
    player1: Player = attrs.field(factory=player_adt.newPlayerType)
    player2: Player = attrs.field(factory=player_adt.newPlayerType)
    level: LevelNumber = attrs.field(factory=level_number_adt.newLevelNumberType)


# Construction ---------------------------------------------------------------------


def newConnect4Type(input: Input, display: Display) -> Connect4:
    """Make a game talking through the input and display, asking the person how to set it up.

    The person is asked the grid's size, whether they move first and how far the
    computer looks ahead, in that order. The game tree is then one node at level 0
    holding an empty grid of that size; player 1 is the person, player 2 the computer
    with the other colour.
    """
    game = setDisplay(setInput(Connect4(), input), display)
    # The tree comes first so that howSmartIsComputer can offer the look-aheads for its size.
    dimension = whatSizeGrid(game)
    game = setGameTree(game, game_tree_adt.setGrid(game_tree_adt.newGameTreeType(), grid_adt.newGridType(dimension)))
    person = whoStarts(game)
    game = setPlayer1(game, person)
    game = setPlayer2(game, _opposite(person))
    return setLevelNumber(game, howSmartIsComputer(game))


# Components -----------------------------------------------------------------------


def setInput(game: Connect4, input: Input) -> Connect4:
    """Set the game's input and return the game (erratum E33)."""
    game.input = input
    return game


def getInput(game: Connect4) -> Input:
    """Return the game's input."""
    return game.input


def setDisplay(game: Connect4, display: Display) -> Connect4:
    """Set the game's display and return the game."""
    game.display = display
    return game


def getDisplay(game: Connect4) -> Display:
    """Return the game's display."""
    return game.display


def setGameTree(game: Connect4, tree: GameTree) -> Connect4:
    """Set the game's tree and return the game."""
    game.tree = tree
    return game


def getGameTree(game: Connect4) -> GameTree:
    """Return the game's tree; its root holds the current grid."""
    return game.tree


def setPlayer1(game: Connect4, player: Player) -> Connect4:
    """Set player 1, the person, and return the game (erratum E33)."""
    game.player1 = player
    return game


def getPlayer1(game: Connect4) -> Player:
    """Return player 1, the person (erratum E33)."""
    return game.player1


def setPlayer2(game: Connect4, player: Player) -> Connect4:
    """Set player 2, the computer, and return the game (erratum E33)."""
    game.player2 = player
    return game


def getPlayer2(game: Connect4) -> Player:
    """Return player 2, the computer (erratum E33)."""
    return game.player2


def setLevelNumber(game: Connect4, level: LevelNumber) -> Connect4:
    """Set the computer's look-ahead and return the game."""
    game.level = level
    return game


def getLevelNumber(game: Connect4) -> LevelNumber:
    """Return the computer's look-ahead: how many moves it looks ahead."""
    return game.level


# Questions ------------------------------------------------------------------------


def whoStarts(game: Connect4) -> Player:
    """Ask whether the person moves first; return their player: red if so, blue if not (erratum E34)."""
    first = input_adt.readYesNo(getInput(game), "Do you want to move first? (y/n) ")
    colour = colour_adt.newColourType()
    if not first:
        colour = colour_adt.invert(colour)
    return player_adt.newPlayerType(symbol_adt.newSymbolType(colour))


def whatSizeGrid(game: Connect4) -> Dimension:
    """Ask for the grid's side, from 4 to 9, and return it as a dimension."""
    side = input_adt.readInteger(
        getInput(game), f"How many squares a side should the grid have ({SMALLEST} to {LARGEST})? ", SMALLEST, LARGEST
    )
    return Dimension(side)


def howSmartIsComputer(game: Connect4) -> LevelNumber:
    """Ask how many moves the computer looks ahead, up to the limit for the grid's size; return it."""
    limit = _look_ahead_limit(_side(game))
    moves = input_adt.readInteger(
        getInput(game), f"How many moves should the computer look ahead (1 to {limit}; more is slower)? ", 1, limit
    )
    return LevelNumber(moves)


def whatIsHumanMove(game: Connect4) -> Location:
    """Ask for the square of the person's move and return its location (movePossible judges it)."""
    row, column = input_adt.readLocation(getInput(game), "Your move (row and column, like 2 3): ", _side(game))
    return Location(Index(row), Index(column))


# Moves ----------------------------------------------------------------------------


def movePossible(game: Connect4, location: Location) -> bool:
    """Whether the location is on the current grid and its square is empty."""
    grid = game_tree_adt.getGrid(getGameTree(game))
    return grid_adt.validMove(grid, location) and not grid_adt.squareOccupied(grid, location)


def makeHumanMove(game: Connect4, location: Location) -> Connect4:
    """Put the person's mark on the location of the current grid and return the game."""
    require(movePossible(game, location), "Connect4Type.makeHumanMove", "the square must be on the grid and empty")
    tree = getGameTree(game)
    grid = grid_adt.occupySquare(game_tree_adt.getGrid(tree), location, player_adt.getSymbol(getPlayer1(game)))
    tree = game_tree_adt.setGrid(tree, grid)
    return setGameTree(game, tree)


def makeComputerMove(game: Connect4) -> Connect4:
    """Choose and make the computer's move with the game tree; return the game.

    The tree is grown to the look-ahead with the computer as first player, its
    minimax value taken, and the child with that value becomes the game's tree, so its
    root holds the grid after the computer's move (its level is still 1: play
    renumbers the tree).
    """
    require(not gameOver(game), "Connect4Type.makeComputerMove", "the game must not be over")
    tree = getGameTree(game)
    require(
        level_number_adt.equals(game_tree_adt.getLevel(tree), level_number_adt.newLevelNumberType()),
        "Connect4Type.makeComputerMove",
        "the game tree's root must be at level 0",
    )
    tree = game_tree_adt.buildGame(
        tree, game_tree_adt.getGrid(tree), getPlayer2(game), getPlayer1(game), getLevelNumber(game)
    )
    best = game_tree_adt.chooseBest(tree)
    return setGameTree(game, game_tree_adt.findBest(tree, best))


def gameOver(game: Connect4) -> bool:
    """Whether the game on the current grid has ended in a win or a draw."""
    return grid_adt.gameOver(game_tree_adt.getGrid(getGameTree(game)))


# Playing and showing --------------------------------------------------------------


def play(game: Connect4) -> Connect4:
    """Play one game to its end, as the algorithm outline describes, and return it.

    Until the game is over: show the grid; on the person's turn ask for a move until
    it is possible and make it, moving the tree down to the matching child when the
    tree has looked that far (findMove); on the computer's turn make its move and say
    where. The tree is renumbered from 0 after every move. At the end show the final
    grid and announce the winner or the draw.
    """
    display = getDisplay(game)
    while not gameOver(game):
        showConnect4(game)
        if _persons_turn(game):
            location = whatIsHumanMove(game)
            while not movePossible(game, location):
                display_adt.showMessage(display, f"{_describe(location)} is taken: choose an empty square.")
                location = whatIsHumanMove(game)
            game = makeHumanMove(game, location)
            tree = getGameTree(game)
            if not game_tree_adt.isEmpty(game_tree_adt.getChild(tree)):
                tree = game_tree_adt.findMove(tree, game_tree_adt.getGrid(tree))
                game = setGameTree(game, game_tree_adt.adjustLevel(tree))
        else:
            before = grid_adt.clone(game_tree_adt.getGrid(getGameTree(game)))
            game = makeComputerMove(game)
            game = setGameTree(game, game_tree_adt.adjustLevel(getGameTree(game)))
            move = _new_mark(before, game_tree_adt.getGrid(getGameTree(game)))
            display_adt.showMessage(display, f"The computer plays {_describe(move).lower()}.")
    showConnect4(game)
    display_adt.showMessage(display, _outcome(game))
    return game


def showConnect4(game: Connect4) -> Connect4:
    """Show the current grid on the game's display and return the game unchanged (erratum E35)."""
    grid_adt.showGrid(game_tree_adt.getGrid(getGameTree(game)), getDisplay(game))
    return game


# Private helpers ------------------------------------------------------------------


def _side(game: Connect4) -> int:
    """The side of the game's grid: 4 before the game has a tree."""
    tree = getGameTree(game)
    if game_tree_adt.isEmpty(tree):
        return SMALLEST
    return grid_adt.getDimension(game_tree_adt.getGrid(tree)).number


def _look_ahead_limit(side: int) -> int:
    """The deepest look-ahead offered on a grid of the given side (larger grids: that of the largest)."""
    return LOOK_AHEAD_LIMITS[min(side, LARGEST)]


def _opposite(player: Player) -> Player:
    """A new player with the other colour."""
    colour = colour_adt.clone(symbol_adt.getColour(player_adt.getSymbol(player)))
    return player_adt.newPlayerType(symbol_adt.newSymbolType(colour_adt.invert(colour)))


def _locations(grid: Grid):
    """Every location of the grid, row by row."""
    side = grid_adt.getDimension(grid).number
    for row in range(1, side + 1):
        for column in range(1, side + 1):
            yield Location(Index(row), Index(column))


def _persons_turn(game: Connect4) -> bool:
    """Whether the person moves next: red moves when the grid holds an even number of marks."""
    grid = game_tree_adt.getGrid(getGameTree(game))
    marks = sum(grid_adt.squareOccupied(grid, location) for location in _locations(grid))
    to_move = colour_adt.newColourType()
    if marks % 2:
        to_move = colour_adt.invert(to_move)
    return colour_adt.equals(symbol_adt.getColour(player_adt.getSymbol(getPlayer1(game))), to_move)


def _new_mark(before: Grid, after: Grid) -> Location:
    """The location occupied in the later grid but not in the earlier one."""
    for location in _locations(after):
        if grid_adt.squareOccupied(after, location) and not grid_adt.squareOccupied(before, location):
            return location
    raise AssertionError("the computer's move left the grid unchanged")


def _describe(location: Location) -> str:
    """'Row 2, column 3'."""
    return f"Row {location_adt.getRow(location).number}, column {location_adt.getColumn(location).number}"


def _outcome(game: Connect4) -> str:
    """What to announce when the game is over."""
    grid = game_tree_adt.getGrid(getGameTree(game))
    if grid_adt.draw(grid):
        return "It's a draw."
    if symbol_adt.equals(grid_adt.win(grid), player_adt.getSymbol(getPlayer1(game))):
        return "You win!"
    return "The computer wins."
