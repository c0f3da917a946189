"""What a game is played with: the reference's board, colours and squares, or a student's.

Both programs, their console and their turtle window reach a package only through
:class:`Pieces`, which holds the contract's names: the class ``Board``, the colours
``red`` and ``blue`` (told apart with ``==`` only, as the contract allows) and the record
class ``Square``. :func:`reference` gives the reference's; :func:`of_package` a student's
package given with ``--impl PATH``, once it passes the conformance check. The reference
is reached by name only, so that the student bundle ships both programs without it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

number_of_columns = 7
"""The contract's number_of_columns: the board is 7 columns wide..."""
number_of_rows = 6
"""...and 6 rows high, in every package."""


@attrs.frozen
class Pieces:
    """A package's Board class, its two colours and its Square record class."""

    Board: Callable[[], Any]
    red: Any
    blue: Any
    Square: Callable[[int, int], Any]

    def name(self, colour: Any) -> str:
        """``"Red"`` or ``"Blue"``."""
        return "Red" if colour == self.red else "Blue"

    def letter(self, colour: Any) -> str:
        """The checker's letter on the text board: ``R`` or ``B``."""
        return "R" if colour == self.red else "B"

    def other(self, colour: Any) -> Any:
        """The opponent's colour."""
        return self.blue if colour == self.red else self.red


def reference(program: str = "boardadt") -> Pieces:
    """The reference implementation's pieces (where the kit has no reference, a student
    bundle's, SystemExit saying that ``program`` needs ``--impl PATH``)."""
    from speckit.playable import reference_module

    def module(name: str):
        return reference_module("boardadt", name, program=program)

    color = module("color")
    return Pieces(module("board_adt").Board, color.red, color.blue, module("square").Square)


def of_package(path: str, program: str) -> Pieces:
    """The pieces of the package at ``path``; SystemExit naming the first failing operation if it does not conform."""
    from speckit.playable import load_for_play

    implementation = load_for_play(path, "boardadt", program=program, types=["board_type"])
    color = implementation.module("color")
    board, square = implementation.module("board_adt"), implementation.module("square")
    return Pieces(board.Board, color.red, color.blue, square.Square)


def chosen(path: str | None, program: str) -> Pieces:
    """The pieces of ``--impl PATH``, or the reference's when no path is given."""
    return reference(program) if path is None else of_package(path, program)
