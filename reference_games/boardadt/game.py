"""What the two programs share: one game on a board, the options, and a clean exit.

:func:`play_game` plays a game from ``Initialize`` to a win or a draw, asking each
colour's :class:`Seat` for its move, showing the board after every move with the move
announced below it, and announcing the end. :func:`run` wraps a program's main loop so
that end of input and Ctrl-C end it with a short message instead of a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

import attrs

from ..program_exit import EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, closed_output
from .console import Console
from .pieces import Pieces
from .turtle_board import GraphicsUnavailable, open_turtle_board


@attrs.frozen
class Seat:
    """Who plays a colour: how they are named in messages and how they choose a column."""

    colour: Any
    name: str
    """Used in messages: "Red", "You (Red)", "The computer (Blue)"."""
    choose: Callable[[Any], int]
    """Given the board, the column to move to."""
    plays: str = "plays"
    """The verb after ``name``: "You (Red) play column 4"."""


def play_game(board, seats: list[Seat], console: Console, winner_message: Callable[[Seat], str]) -> Any:
    """Play one game on ``board`` from the start; the winning colour, or None for a draw.

    The seat whose colour is ``==`` to ``Get_Current_Color()`` moves next.
    """
    board.Initialize()
    console.show(board)
    while True:
        current = board.Get_Current_Color()
        seat = next(seat for seat in seats if seat.colour == current)
        column = seat.choose(board)
        board.Make_Move(column)
        console.show(board)
        console.say(f"{seat.name} {seat.plays} column {column}.")
        if board.Is_Win():  # asked before Is_Draw: the last move may fill the board and win (erratum B04)
            console.say(winner_message(seat))
            return seat.colour
        if board.Is_Draw():
            console.say("The board is full and nobody has four in a line: the game is a draw.")
            return None


def parser(prog: str, description: str) -> argparse.ArgumentParser:
    """The options both programs take."""
    result = argparse.ArgumentParser(prog=prog, description=description)
    result.add_argument(
        "--impl",
        metavar="PATH",
        help="play on the package at PATH (checked against the specification first) instead of the reference",
    )
    result.add_argument(
        "--graphics",
        choices=["text", "turtle"],
        default="text",
        help="text: the board on the terminal only (default); turtle: also draw it in a turtle-graphics window",
    )
    return result


def open_console(graphics: str, title: str, prog: str, pieces: Pieces | None = None) -> Console:
    """The console for the pieces, with a turtle window if asked for; exits with a one-line error if none can open."""
    window = None
    if graphics == "turtle":
        try:
            window = open_turtle_board(title)
        except GraphicsUnavailable as e:
            print(f"{prog}: --graphics turtle: {e}", file=sys.stderr)
            raise SystemExit(EXIT_USAGE) from None
    return Console(window, pieces=pieces)


def run(main_loop: Callable[[], None], console: Console) -> int:
    """Run a program's loop; end of input and Ctrl-C leave with a short message, no traceback."""
    try:
        main_loop()
    except EOFError:
        print("\nEnd of input: goodbye.")
        return EXIT_OK
    except KeyboardInterrupt:
        print("\nInterrupted: goodbye.")
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        return closed_output()
    finally:
        console.close()
    print("Goodbye.")
    return EXIT_OK
