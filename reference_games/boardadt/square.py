"""square_type: the index of one square of the board, a column and a row.

A Pascal record becomes a frozen attrs class: made with ``Square(column, row)`` and
read as ``square.column`` and ``square.row``. Column first, then row (erratum B07).
"""

from __future__ import annotations

import attrs

from spec import require

number_of_columns = 7
"""The unit's constant: how many columns the board has (board_adt re-exports it)."""

number_of_rows = 6
"""The unit's constant: how many rows the board has (board_adt re-exports it)."""


@attrs.frozen
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
