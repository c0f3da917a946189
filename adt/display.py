"""DisplayType, supplied by the kit: where the game's output goes.

A display draws a square board one mark at a time: :func:`showMark` places a mark at
a row and column given as whole numbers, :func:`showMarkAt` at a LocationType value
(read through the documented operations of the package that calls it, erratum E41),
:func:`showBoard` writes the board with row and column labels and starts a fresh
one, :func:`showMessage` writes a line. It writes to the terminal unless given
another text stream (tests pass an :class:`io.StringIO`).
"""

from __future__ import annotations

import importlib
import sys
from typing import Any, TextIO

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
    require(
        row >= 1 and column >= 1, "DisplayType.showMark", f"row and column must be at least 1 (got {row}, {column})"
    )
    require(
        len(mark) == 1 and mark.isprintable(),
        "DisplayType.showMark",
        f"the mark must be one printable character (got {mark!r})",
    )
    display.marks[(row, column)] = mark
    return display


def showMarkAt(display: Display, location: Any, mark: str) -> Display:
    """Place a one-character mark on the square at a location of the calling package (erratum E41).

    The location is read only through the documented operations of the package whose
    module calls this one: ``location.getRow`` and ``location.getColumn`` give its
    indexes, and each index is counted up from ``index.newIndexType()`` (row or column 1)
    with ``index.increment`` until ``index.equals`` says it is reached. So a student's
    ``showColour`` draws its mark without knowing how an index is represented.
    """
    package = sys._getframe(1).f_globals.get("__package__")
    require(bool(package), "DisplayType.showMarkAt", "it must be called from a module of an implementation package")
    location_ops = importlib.import_module(".location", package)
    index_ops = importlib.import_module(".index", package)
    row = _count(index_ops, location_ops.getRow(location))
    column = _count(index_ops, location_ops.getColumn(location))
    return showMark(display, row, column, mark)


MAX_INDEX = 10_000
"""The largest index showMarkAt counts to; past it the location is not on any board drawn."""


def _count(index_ops: Any, index: Any) -> int:
    """The whole number of an index: how many steps from newIndexType() reach it, plus one."""
    current, number = index_ops.newIndexType(), 1
    while not index_ops.equals(current, index):
        require(
            number < MAX_INDEX,
            "DisplayType.showMarkAt",
            f"the index is not reached by {MAX_INDEX} increments from newIndexType()",
        )
        current, number = index_ops.increment(current), number + 1
    return number


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
