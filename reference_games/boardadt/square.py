"""square_type: the index of one square of the board, a column and a row.

A Pascal record becomes an attrs class: made with ``Square(column, row)`` and read as
``square.column`` and ``square.row``. Column first, then row (erratum B07). Its fields
may be written, as the record's may, and it hashes by its fields, so that a board of a
student's own may do either (a square used as a dictionary key must then not be
changed): when a student's board is graded beside this module (a hybrid,
``docs/grading.rst``), it must work whichever the board does.
"""

from __future__ import annotations

import attrs

from spec import require

number_of_columns = 7
"""The unit's constant: how many columns the board has (board_adt re-exports it)."""

number_of_rows = 6
"""The unit's constant: how many rows the board has (board_adt re-exports it)."""


@attrs.define(unsafe_hash=True)
class Square:
    """The square in ``column`` (1 at the left) and ``row`` (1 at the bottom)."""

    column: int
    row: int

    def __attrs_post_init__(self) -> None:
        require(
            1 <= self.column <= number_of_columns and 1 <= self.row <= number_of_rows,
            "square_type.Square",
            f"the column must be from 1 to {number_of_columns} and the row from 1 to {number_of_rows}"
            f" (they are {self.column!r} and {self.row!r})",
        )
