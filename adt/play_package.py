"""Play Connect-4 on a student's package: the ``connect4`` program of the student bundle.

    connect4 --impl PATH [--seed N]

Each game is the package's own ``Connect4Type.newConnect4Type`` (asking its questions)
and ``play``, on the supplied display and input; the package is checked against the
specification first (:func:`speckit.playable.load_for_play`). This module needs only
the supplied modules, so the student bundle carries it with no reference module; the
reference's driver (:mod:`adt.driver`) plays its sessions through :func:`session` too.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from collections.abc import Callable, Sequence

from . import display as display_adt
from . import input as input_adt
from .display import Display
from .input import Input

RULES = "Connect-4: get four of your marks in a line, across, down or diagonally. Any empty square is a move."

class PackageFailed(Exception):
    """An operation of the package given with ``--impl`` raised an exception during a game."""


def main(argv: Sequence[str] | None = None, *, input: Input | None = None, display: Display | None = None) -> int:
    """Play on the package of ``--impl PATH`` and return the exit status; without a package, say that one is needed."""
    parser = argparse.ArgumentParser(
        prog="connect4",
        description="Play Connect-4 against the computer with your own package: its newConnect4Type asks the "
        "questions and its play plays, on the supplied display and input.",
    )
    parser.add_argument(
        "--impl", metavar="PATH", help="your package's folder (checked against the specification first)"
    )
    parser.add_argument("--seed", type=int, metavar="N", help="seed for random numbers, should your package use them")
    options = parser.parse_args(argv)
    if options.impl is None:
        from speckit.playable import needs_a_package

        raise needs_a_package("connect4")
    random.seed(options.seed)
    return session(package_game(options.impl), input=input, display=display)


def session(
    game: Callable[[Input, Display], None], *, input: Input | None = None, display: Display | None = None
) -> int:
    """Play games with ``game`` until the person declines another; the exit status.

    The input and display are the terminal's unless given (tests pass scripted ones).
    The end of the input says goodbye (status 0); Ctrl-C too (status 130).
    """
    input = input_adt.newInputType() if input is None else input
    display = display_adt.newDisplayType() if display is None else display
    try:
        display_adt.showMessage(display, RULES)
        try:
            while True:
                game(input, display)
                if not input_adt.readYesNo(input, "Play again? (y/n) "):
                    break
        except EOFError:  # EndOfInput, or the end of input as a package's own input module reports it
            pass
        except KeyboardInterrupt:
            display_adt.showMessage(display, "\nGoodbye.")
            return 130
        except PackageFailed as e:
            print(f"connect4: {e}", file=sys.stderr)
            return 1
        display_adt.showMessage(display, "Goodbye.")
    except BrokenPipeError:
        # The reader of the output has gone (``connect4 | head``): leave quietly, and point
        # standard output at the null device so Python's flush at exit cannot fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    return 0


def package_game(path: str) -> Callable[[Input, Display], None]:
    """A function playing one game with the Connect4Type of the package at ``path``, once it passes the check."""
    from speckit.impl import _where
    from speckit.playable import load_for_play

    implementation = load_for_play(path, "connect4", program="connect4", types=["Connect4Type"])
    game_ops = implementation.module("connect4")

    def play(input: Input, display: Display) -> None:
        operation = "newConnect4Type"
        try:
            game = game_ops.newConnect4Type(input, display)
            operation = "play"
            game_ops.play(game)
        except (EOFError, KeyboardInterrupt, BrokenPipeError):
            raise
        except Exception as e:  # noqa: BLE001 - whatever the package's code raised, said in one line
            where = _where(e, implementation.package.__path__[0])
            raised = f"{type(e).__name__}{where}"
            raise PackageFailed(f"the package's Connect4Type.{operation} raised {raised}: {e}") from None

    return play
