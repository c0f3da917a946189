"""The supplied display reads a location through the calling package's documented operations (E41)."""

from __future__ import annotations

import io
import textwrap

import pytest

import spec
from spec import PreconditionError
from speckit.impl import load

MODULES = {
    "__init__.py": "",
    # An index unlike the reference's: a string of strokes, "|" for row or column 1.
    "index.py": """
        def newIndexType():
            return "|"

        def increment(index):
            return index + "|"

        def equals(first, second):
            return first == second
    """,
    "location.py": """
        def getRow(location):
            return location[0]

        def getColumn(location):
            return location[1]
    """,
    "display.py": "from adt.display import *  # noqa: F403 - re-exported\n"
    "from adt.display import showMarkAt  # noqa: F401 - re-exported\n",
    "colour.py": """
        from . import display

        def showColour(colour, board, location):
            display.showMarkAt(board, location, colour)
            return colour
    """,
}


@pytest.fixture
def strokes_package(tmp_path):
    root = tmp_path / "strokes"
    root.mkdir()
    for name, text in MODULES.items():
        (root / name).write_text(textwrap.dedent(text), encoding="utf-8")
    return load(root, spec.load("connect4"))


def test_show_mark_at_counts_each_index_with_the_callers_operations(strokes_package):
    from adt import display

    out = io.StringIO()
    board = display.newDisplayType(out)
    strokes_package.module("colour").showColour("R", board, ("|||", "||"))
    display.showBoard(board, 4)
    rows = out.getvalue().splitlines()
    assert rows[3].split()[1:] == [".", "R", ".", "."], out.getvalue()


def test_show_mark_at_refuses_an_index_that_counting_never_reaches(strokes_package):
    from adt import display

    board = display.newDisplayType(io.StringIO())
    with pytest.raises(PreconditionError, match="not reached"):
        strokes_package.module("colour").showColour("R", board, ("no strokes", "|"))
