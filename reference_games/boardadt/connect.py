"""connect: a person plays Connect Four against the computer (draft 2 of the assignment).

Before the first game the person chooses red or blue; red always moves first. A
legend above the board says who has which colour. The person's moves are asked for as
in play_two; the computer's come from the unit Player's ``Computer_Move``. Each move,
and the win or the draw, is announced below the board. After each game the person may
play again, and the person and the computer then swap colours, to be fair.

Run it with ``python -m reference_games.boardadt.connect``. ``--level`` sets how the
computer plays (random, greedy, depth:N or perfect, the default of ``Computer_Move``
too), ``--budget`` the seconds (at most 60) a perfect or depth:N move may take, ``--seed`` the
random moves, ``--graphics turtle`` also draws the board in a turtle-graphics
window, and ``--impl PATH`` plays on a student's package (once it passes the
conformance check) with the supplied unit Player. When the perfect level cannot finish its search within the budget, the
computer says so and plays its best guess.
"""

from __future__ import annotations

import argparse
import math
import random
import sys

from . import player
from .game import Seat, open_console, parser, play_game, run
from .pieces import chosen

TITLE = "Connect Four against the computer"
PROG = "boardadt-connect"
"""The command that runs this program (its console script)."""


def level(text: str) -> str:
    """An argparse type: ``random``, ``greedy``, ``perfect`` or ``depth:N`` with N a positive integer."""
    if text in ("random", "greedy", "perfect"):
        return text
    prefix, _, depth = text.partition(":")
    if prefix == "depth" and depth.isdigit() and int(depth) >= 1:
        return text
    raise argparse.ArgumentTypeError(
        f"{text!r} is not a level: use random, greedy, depth:N (N a positive whole number) or perfect"
    )


MAX_BUDGET = 60.0
"""The longest a move may be given, in seconds: a person waits for every move."""


def budget(text: str) -> float:
    """An argparse type: a number of seconds above 0 and at most :data:`MAX_BUDGET`."""
    try:
        seconds = float(text)
    except ValueError:
        seconds = math.nan
    if not 0 < seconds <= MAX_BUDGET:  # refuses NaN and infinity too: the first move would never come
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds above 0 and at most {MAX_BUDGET:g}")
    return seconds


def main(argv: list[str] | None = None) -> int:
    """Entry point: parse the options, ask for the person's colour, play until they stop."""
    options = parser(PROG, "Play Connect Four against the computer: red moves first, four in a line wins.")
    options.add_argument(
        "--level",
        type=level,
        default=player.DEFAULT_LEVEL,
        help="how the computer plays: random, greedy, depth:N (N plies, or as deep as the budget allows) or perfect "
        f"(default: {player.DEFAULT_LEVEL})",
    )
    options.add_argument(
        "--budget",
        type=budget,
        default=player.DEFAULT_BUDGET,
        metavar="SECONDS",
        help=f"seconds a perfect or depth:N move may take, above 0 and at most {MAX_BUDGET:g} "
        f"(default {player.DEFAULT_BUDGET})",
    )
    options.add_argument("--seed", type=int, default=None, help="seed for the computer's random choices")
    args = options.parse_args(argv)
    pieces = chosen(args.impl, PROG)
    console = open_console(args.graphics, TITLE, PROG, pieces)
    rng = random.Random(args.seed)
    board = pieces.Board()
    name, letter = pieces.name, pieces.letter

    def you(board):
        return console.ask_column(board, f"{name(board.Get_Current_Color())} (you), your move (column 1-7): ")

    def computer(board):
        choice = player.computer_choice(board, level=args.level, budget=args.budget, rng=rng)
        if args.level == "perfect" and not choice.proven:
            console.say(f"The computer could not finish its search within {args.budget:g} s and plays its best guess.")
        return choice.column

    def winner_message(seat: Seat) -> str:
        return "You win!" if seat.choose is you else "The computer wins."

    def games() -> None:
        print(f"{TITLE} (level {args.level}). Red moves first; four in a line, across, up or diagonally, wins.")
        print("Answer with a column number from 1 to 7. End of input (Ctrl-D) or Ctrl-C stops the game.")
        person = console.ask_colour("Would you like to be red or blue? (r/b): ")
        while True:
            machine = pieces.other(person)
            console.legend = (
                f"Legend: you are {name(person)} ({letter(person)}), "
                f"the computer is {name(machine)} ({letter(machine)})."
            )
            seats = [
                Seat(person, f"You ({name(person)})", you, plays="play"),
                Seat(machine, f"The computer ({name(machine)})", computer),
            ]
            play_game(board, seats, console, winner_message)
            if not console.ask_yes_no("Play again? (y/n): "):
                return
            person = machine
            print(f"New game: you and the computer swap colours, so you are {name(person)} now. Red moves first.")

    return run(games, console)


if __name__ == "__main__":
    sys.exit(main())
