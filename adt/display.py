"""DisplayType, supplied by the kit: where the game's output goes.

A display draws a square board one mark at a time: :func:`showMark` places a mark,
:func:`showBoard` writes the board with row and column labels and starts a fresh
one, :func:`showMessage` writes a line. It writes to the terminal unless given
another text stream (tests pass an :class:`io.StringIO`).
"""

from __future__ import annotations

import sys
from typing import TextIO

import attrs

from spec import require

EMPTY_MARK = "."


@attrs.define
class Display:
    """An output destination and the marks of the board being drawn."""

    out: TextIO | None = None
    marks: dict[tuple[int, int], str] = attrs.field(factory=dict)

    @property
    def stream(self) -> TextIO:
        """The stream written to: the given one, or standard output as it is now."""
        return self.out if self.out is not None else sys.stdout


def newDisplayType(out: TextIO | None = None) -> Display:
    """Make a new display writing to the terminal, or to the given text stream."""
    return Display(out)


def showMark(display: Display, row: int, column: int, mark: str) -> Display:
    """Place a one-character mark on the square at (row, column) of the board being drawn."""
    require(row >= 1 and column >= 1, "DisplayType.showMark", f"row and column must be at least 1 (got {row}, {column})")
    require(len(mark) == 1 and mark.isprintable(), "DisplayType.showMark", f"the mark must be one printable character (got {mark!r})")
    display.marks[(row, column)] = mark
    return display


def showBoard(display: Display, side: int) -> Display:
    """Write the board being drawn as a side x side square with labels, then start a fresh board."""
    require(side >= 1, "DisplayType.showBoard", f"the side must be at least 1 (got {side})")
    outside = [square for square in display.marks if max(square) > side]
    require(not outside, "DisplayType.showBoard", f"marks lie outside a {side} x {side} board: {sorted(outside)}")
    display.stream.write(_render(display.marks, side))
    display.stream.flush()
    display.marks.clear()
    return display


def showMessage(display: Display, text: str) -> Display:
    """Write the text as a line of its own."""
    display.stream.write(f"{text}\n")
    display.stream.flush()
    return display


def _render(marks: dict[tuple[int, int], str], side: int) -> str:
    """The text of a board: column numbers across the top, row numbers down the left."""
    width = len(str(side))
    header = " " * width + " " + " ".join(f"{c:>{width}}" for c in range(1, side + 1))
    rows = [
        f"{r:>{width}} " + " ".join(f"{marks.get((r, c), EMPTY_MARK):>{width}}" for c in range(1, side + 1))
        for r in range(1, side + 1)
    ]
    return "\n".join([header, *rows]) + "\n"
