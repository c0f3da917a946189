"""What the two programs show and ask: the board as text, messages, and questions.

The board is drawn with rows 6 to 1 from the top, the column numbers under it, red's
checkers as ``R`` and blue's as ``B`` (in colour on a terminal that shows colour). A
:class:`Console` writes to standard output and reads answers with :func:`input`, so
end of input raises :class:`EOFError` and Ctrl-C :class:`KeyboardInterrupt`, which
the programs turn into a short goodbye. Every question is asked again, with the
reason, until the answer is valid.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable

from .pieces import Pieces, number_of_columns, number_of_rows, reference

_ANSI = {"R": "\033[1;31m", "B": "\033[1;34m"}
_RESET = "\033[0m"


def render(board, pieces: Pieces | None = None, *, ansi: bool = False) -> str:
    """The board as lines of text, read through ``Get_Value``: rows 6 to 1, then column numbers."""
    pieces = pieces or reference()
    lines = []
    for row in range(number_of_rows, 0, -1):
        cells = []
        for column in range(1, number_of_columns + 1):
            value = board.Get_Value(pieces.Square(column, row))
            cells.append("." if value.empty else _paint(pieces.letter(value.color), ansi))
        lines.append(f"{row}  " + "  ".join(cells))
    lines.append("   " + "  ".join(str(column) for column in range(1, number_of_columns + 1)))
    return "\n".join(lines)


def _paint(letter: str, ansi: bool) -> str:
    return f"{_ANSI[letter]}{letter}{_RESET}" if ansi else letter


def column_answer(answer: str, board) -> tuple[int | None, str]:
    """Read an answer to "your move?": the column, or None and why the answer is refused."""
    text = answer.strip()
    if not text:
        return None, f"Please answer with a column number from 1 to {number_of_columns}."
    try:
        column = int(text)
    except ValueError:
        return None, f"{text!r} is not a whole number: answer with a column number from 1 to {number_of_columns}."
    if not 1 <= column <= number_of_columns:
        return None, f"There is no column {column}: the columns are numbered 1 to {number_of_columns}."
    if board.Is_Full(column):
        return None, f"Column {column} is full: choose another column."
    return column, ""


class Console:
    """The terminal, and optionally a turtle-graphics window showing the same board."""

    def __init__(
        self,
        graphics=None,
        *,
        pieces: Pieces | None = None,
        ansi: bool | None = None,
        ask: Callable[[str], str] = input,
    ) -> None:
        self.graphics = graphics
        self.pieces = pieces or reference()
        self.ansi = _terminal_shows_colour() if ansi is None else ansi
        self.legend = ""
        self._ask = ask
        self._board = None

    def show(self, board) -> None:
        """Show the board: the legend (if any) above it, on the terminal and in the window."""
        self._board = board
        print()
        if self.legend:
            print(self.legend)
        print(render(board, self.pieces, ansi=self.ansi))
        if self.graphics is not None:
            self.graphics.draw(board, self.legend, "", self.pieces)

    def say(self, message: str) -> None:
        """Write a message below the board (and in the window, under its board)."""
        print(message)
        if self.graphics is not None and self._board is not None:
            self.graphics.draw(self._board, self.legend, message, self.pieces)

    def ask(self, prompt: str, read: Callable[[str], tuple[object, str]]) -> object:
        """Ask until ``read`` accepts the answer; ``read`` returns (value or None, reason)."""
        while True:
            value, reason = read(self._ask(prompt))
            if value is not None:
                return value
            print(reason)

    def ask_column(self, board, prompt: str) -> int:
        return self.ask(prompt, lambda answer: column_answer(answer, board))

    def ask_yes_no(self, prompt: str) -> bool:
        answers = {"y": True, "yes": True, "n": False, "no": False}
        return self.ask(prompt, lambda answer: (answers.get(answer.strip().lower()), "Please answer y or n."))

    def ask_colour(self, prompt: str):
        """The colour the person chooses, one of the pieces' two."""
        red, blue = self.pieces.red, self.pieces.blue
        answers = {"r": red, "red": red, "b": blue, "blue": blue}
        return self.ask(
            prompt, lambda answer: (answers.get(answer.strip().lower()), "Please answer r (red) or b (blue).")
        )

    def close(self) -> None:
        if self.graphics is not None:
            self.graphics.close()


def _terminal_shows_colour() -> bool:
    return sys.stdout.isatty() and "NO_COLOR" not in os.environ and os.environ.get("TERM") != "dumb"
