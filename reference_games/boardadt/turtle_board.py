"""The board in a turtle-graphics window, as the assignment asks: coloured disks on navy.

The document's graphics unit used a navy blue background, pink for the Red checker and
pale blue for the Blue one (erratum B16); empty squares are drawn as holes a shade
darker than the background. The window shows a legend above the board, the column
numbers under it and the latest message below them. It only draws: the questions are
still asked on the terminal, which shows the text board too.

The window needs a display. :func:`open_turtle_board` raises
:class:`GraphicsUnavailable`, with a one-line reason, when there is none (no
``$DISPLAY``, no tkinter, or a display that cannot be opened).
"""

from __future__ import annotations

import contextlib
import os
import sys

from .pieces import Pieces, number_of_columns, number_of_rows, reference

NAVY = "#000080"
HOLE = "#00004c"
PINK = "#ffc0cb"
PALE_BLUE = "#add8e6"
TEXT = "#ffffff"
DISK_COLOURS = {"R": PINK, "B": PALE_BLUE}
"""The checkers' colours, by their letter on the text board."""

CELL = 64
"""Pixels from one square's centre to the next."""

DISK = 52
"""Diameter of a disk, in pixels."""

WIDTH = number_of_columns * CELL + 80
HEIGHT = number_of_rows * CELL + 170
_BOARD_MIDDLE_Y = 10  # the board sits a little above the window's middle, leaving room below
_FONT = ("Helvetica", 14, "normal")


class GraphicsUnavailable(Exception):
    """The turtle window cannot be opened; the message is one line saying why."""


def centre(column: int, row: int) -> tuple[float, float]:
    """Turtle coordinates of the centre of the square in ``column`` and ``row``."""
    x = (column - (number_of_columns + 1) / 2) * CELL
    y = (row - (number_of_rows + 1) / 2) * CELL + _BOARD_MIDDLE_Y
    return x, y


def open_turtle_board(title: str) -> TurtleBoard:
    """A new window showing the board; :class:`GraphicsUnavailable` when there is no display."""
    if sys.platform.startswith("linux") and not os.environ.get("DISPLAY"):
        raise GraphicsUnavailable(
            "no display to draw on ($DISPLAY is not set); leave out --graphics turtle to play on the text board"
        )
    try:
        import tkinter
        import turtle
    except ImportError as e:
        raise GraphicsUnavailable(f"this Python has no tkinter, which turtle graphics need ({e})") from None
    try:
        screen = turtle.Screen()
    except tkinter.TclError as e:
        raise GraphicsUnavailable(f"cannot open the display {os.environ.get('DISPLAY', '')!r}: {e}") from None
    return TurtleBoard(screen, title)


class TurtleBoard:
    """A turtle-graphics window showing a board; redrawn whole by :meth:`draw`."""

    def __init__(self, screen, title: str) -> None:
        import tkinter
        import turtle

        self._closed_window_errors = (turtle.Terminator, tkinter.TclError)
        self.screen = screen
        screen.setup(WIDTH, HEIGHT, startx=0, starty=0)
        screen.title(title)
        screen.bgcolor(NAVY)
        screen.tracer(0)  # draw everything, then show it at once with update()
        self.pen = turtle.Turtle(visible=False)
        self.pen.penup()
        self.open = True

    @property
    def canvas(self):
        """The Tk canvas the board is drawn on."""
        return self.screen.getcanvas()

    def draw(self, board, legend: str = "", message: str = "", pieces: Pieces | None = None) -> None:
        """Draw the board's disks (read with the pieces' Square), the column numbers, the legend and the message."""
        if not self.open:
            return
        try:
            self._draw(board, legend, message, pieces or reference())
        except self._closed_window_errors:  # the window was closed: play on, text only
            self.open = False

    def _draw(self, board, legend: str, message: str, pieces: Pieces) -> None:
        pen = self.pen
        pen.clear()
        for column in range(1, number_of_columns + 1):
            for row in range(1, number_of_rows + 1):
                value = board.Get_Value(pieces.Square(column, row))
                pen.goto(*centre(column, row))
                pen.dot(DISK, HOLE if value.empty else DISK_COLOURS[pieces.letter(value.color)])
        pen.color(TEXT)
        for column in range(1, number_of_columns + 1):
            x, y = centre(column, 1)
            pen.goto(x, y - CELL / 2 - 26)
            pen.write(str(column), align="center", font=_FONT)
        top = centre(1, number_of_rows)[1] + CELL / 2 + 12
        bottom = centre(1, 1)[1] - CELL / 2 - 60
        for text, y in ((legend, top), (message, bottom)):
            if text:
                pen.goto(0, y)
                pen.write(text, align="center", font=_FONT)
        self.screen.update()

    def close(self) -> None:
        """Close the window (nothing happens if it is already closed)."""
        if self.open:
            self.open = False
            with contextlib.suppress(self._closed_window_errors):
                self.screen.bye()
