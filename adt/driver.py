"""The text driver: play Connect-4 against the computer at the terminal.

    connect4 [--size N] [--first {you,computer}] [--lookahead N] [--seed N] [--impl PATH]
    python -m adt [the same options]

Each game asks the grid's size, whether you move first and how far the computer looks
ahead, as Connect4Type.newConnect4Type does; an option answers its question in advance
for every game of the session. After a game you are offered another. The end of the
input (Ctrl-D) says goodbye and exits with status 0; Ctrl-C does the same with status
130.

The computer's play is deterministic: among equally good moves it takes the first, row
by row. ``--seed`` seeds Python's random numbers all the same, so that a session stays
reproducible should the game ever use them.

``--impl PATH`` plays on a student's package instead (:mod:`adt.play_package`, the
student bundle's ``connect4``): once it passes the conformance check of
:func:`speckit.playable.load_for_play`, each game is the package's own
``newConnect4Type`` (asking its questions) and ``play``, on the supplied display and
input. The options that answer questions apply to the reference only.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence

from . import colour as colour_adt
from . import connect4
from . import display as display_adt
from . import game_tree as game_tree_adt
from . import grid as grid_adt
from . import player as player_adt
from . import symbol as symbol_adt
from .connect4 import LARGEST, LOOK_AHEAD_LIMITS, Connect4
from .dimension import SMALLEST, Dimension
from .display import Display
from .input import Input
from .level_number import LevelNumber
from .play_package import package_game, session


def main(argv: Sequence[str] | None = None, *, input: Input | None = None, display: Display | None = None) -> int:
    """Run the driver with the command-line arguments and return the exit status.

    The input and display are the terminal's unless given (tests pass scripted ones).
    """
    options = _options(argv)
    random.seed(options.seed)
    if options.impl is not None:
        return session(package_game(options.impl), input=input, display=display)
    return session(lambda input, display: _reference_game(input, display, options), input=input, display=display)


def _options(argv: Sequence[str] | None) -> argparse.Namespace:
    """The parsed command line; a bad option ends the program with a one-line error (status 2)."""
    parser = argparse.ArgumentParser(
        prog="connect4",
        description="Play Connect-4 against the computer on a square grid: any empty square is a move, "
        "and four marks in a row, column or diagonal win.",
        epilog="Each option answers one of the questions asked before a game; the others are still asked.",
    )
    parser.add_argument(
        "--size", type=_whole_number(SMALLEST, LARGEST), metavar="N", help=f"squares a side, {SMALLEST} to {LARGEST}"
    )
    parser.add_argument("--first", choices=("you", "computer"), help="who moves first (and plays red)")
    limits = ", ".join(f"{limit} on {side} x {side}" for side, limit in LOOK_AHEAD_LIMITS.items())
    parser.add_argument(
        "--lookahead",
        type=_whole_number(1, max(LOOK_AHEAD_LIMITS.values())),
        metavar="N",
        help=f"how many moves the computer looks ahead, at most {limits} (more is slower)",
    )
    parser.add_argument(
        "--seed",
        type=int,
        metavar="N",
        help="seed for random numbers (the computer's play is deterministic: sessions replay)",
    )
    parser.add_argument(
        "--impl",
        metavar="PATH",
        help="play on the package at PATH (checked against the specification first) instead of the reference",
    )
    options = parser.parse_args(argv)
    if options.impl is not None and (options.size, options.first, options.lookahead) != (None, None, None):
        parser.error(
            "--size, --first and --lookahead answer the reference's questions: "
            "with --impl, the package's newConnect4Type asks them"
        )
    if options.size is not None and options.lookahead is not None:
        limit = LOOK_AHEAD_LIMITS[options.size]
        if options.lookahead > limit:
            side = options.size
            parser.error(f"--lookahead {options.lookahead} is too slow on a {side} x {side} grid (at most {limit})")
    return options


def _whole_number(low: int, high: int):
    """An argparse type: a whole number from low to high."""

    def convert(text: str) -> int:
        try:
            number = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if not low <= number <= high:
            raise argparse.ArgumentTypeError(f"{number} is not between {low} and {high}")
        return number

    return convert


def _reference_game(input: Input, display: Display, options: argparse.Namespace) -> None:
    """Play one game on the reference."""
    connect4.play(_new_game(input, display, options))


def _new_game(input: Input, display: Display, options: argparse.Namespace) -> Connect4:
    """A new game, asking only the questions the options have not answered."""
    if options.size is None and options.first is None and options.lookahead is None:
        game = connect4.newConnect4Type(input, display)
    else:
        # newConnect4Type's steps, with the options' answers in place of questions.
        game = connect4.setDisplay(connect4.setInput(Connect4(), input), display)
        dimension = connect4.whatSizeGrid(game) if options.size is None else Dimension(options.size)
        tree = game_tree_adt.setGrid(game_tree_adt.newGameTreeType(), grid_adt.newGridType(dimension))
        game = connect4.setGameTree(game, tree)
        person = connect4.whoStarts(game) if options.first is None else _person(options.first == "you")
        game = connect4.setPlayer1(game, person)
        game = connect4.setPlayer2(game, _person(not _plays_red(person)))
        game = connect4.setLevelNumber(game, _look_ahead(game, dimension, options.lookahead))
    display_adt.showMessage(display, _introduction(game))
    return game


def _look_ahead(game: Connect4, dimension: Dimension, wanted: int | None) -> LevelNumber:
    """The --lookahead option, no deeper than the grid allows, or the person's answer."""
    if wanted is None:
        return connect4.howSmartIsComputer(game)
    limit = LOOK_AHEAD_LIMITS[dimension.number]
    if wanted > limit:
        display_adt.showMessage(
            connect4.getDisplay(game),
            f"Looking {wanted} moves ahead is too slow on a {dimension.number} x {dimension.number} grid: "
            f"the computer will look {limit} ahead.",
        )
        wanted = limit
    return LevelNumber(wanted)


def _person(red: bool) -> player_adt.Player:
    """A player with a red mark, or a blue one."""
    colour = colour_adt.newColourType()
    return player_adt.newPlayerType(symbol_adt.newSymbolType(colour if red else colour_adt.invert(colour)))


def _plays_red(player: player_adt.Player) -> bool:
    return colour_adt.equals(symbol_adt.getColour(player_adt.getSymbol(player)), colour_adt.newColourType())


def _introduction(game: Connect4) -> str:
    side = grid_adt.getDimension(game_tree_adt.getGrid(connect4.getGameTree(game))).number
    moves = connect4.getLevelNumber(game).number
    if _plays_red(connect4.getPlayer1(game)):
        who = "You play red (R) and move first; the computer plays blue (B)"
    else:
        who = "The computer plays red (R) and moves first; you play blue (B)"
    return f"{who}. The grid is {side} x {side}; the computer looks {moves} move{'s' if moves > 1 else ''} ahead."
