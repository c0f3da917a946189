"""play_two: two people play Connect Four against each other (draft 1 of the assignment).

Red moves first, then Blue, each answering with a column number; an answer that is
not a whole number, not a column from 1 to 7 or a full column is asked again with the
reason. Each move is shown on the board and announced below it, and so is the win or
the draw. After each game the players may play again, Red first again.

Run it with ``python -m reference_games.boardadt.play_two`` (``--graphics turtle``
also draws the board in a turtle-graphics window; ``--impl PATH`` plays on a student's
package once it passes the conformance check).
"""

from __future__ import annotations

import sys

from .game import Seat, open_console, parser, play_game, run
from .pieces import chosen

TITLE = "Connect Four: two players"
PROG = "boardadt-play-two"
"""The command that runs this program (its console script)."""


def main(argv: list[str] | None = None) -> int:
    """Entry point: parse the options and play games until the players stop."""
    args = parser(
        PROG, "Two people play Connect Four on one board: Red moves first, four in a line wins."
    ).parse_args(argv)
    pieces = chosen(args.impl, PROG)
    console = open_console(args.graphics, TITLE, PROG, pieces)
    board = pieces.Board()

    def human(colour):
        return lambda board: console.ask_column(board, f"{pieces.name(colour)}, your move (column 1-7): ")

    seats = [Seat(colour, pieces.name(colour), human(colour)) for colour in (pieces.red, pieces.blue)]

    def games() -> None:
        print(f"{TITLE}. Red moves first; four in a line, across, up or diagonally, wins.")
        print("Answer with a column number from 1 to 7. End of input (Ctrl-D) or Ctrl-C stops the game.")
        while True:
            play_game(board, seats, console, lambda seat: f"{seat.name} wins with four in a line!")
            if not console.ask_yes_no("Play again? (y/n): "):
                return
            print("New game: Red moves first again.")

    return run(games, console)


if __name__ == "__main__":
    sys.exit(main())
