"""board_type: the unit BoardADT's Connect Four board, 7 columns by 6 rows, with gravity.

``Board`` is the Pascal object ``board_type``: make one with ``Board()``, call
``Initialize()``, then play with ``Make_Move(column)`` and look with ``Get_Value``,
``Get_Current_Color``, ``Is_Full``, ``Is_Win`` and ``Is_Draw``. The method names are
the interface's, exactly. Columns are numbered from 1 at the left, rows from 1 at the
bottom.

The unit's constants ``number_of_columns`` (7) and ``number_of_rows`` (6) are defined
in :mod:`.square`, whose records are checked against them, and exported from here as
the contract asks; so are the unit's other declarations, for convenience: ``Square``,
``Value``, ``red`` and ``blue``.
"""

from __future__ import annotations

from spec import require

from .color import Color, blue, red
from .square import Square, number_of_columns, number_of_rows
from .value import Value

__all__ = ["Board", "Color", "Square", "Value", "blue", "number_of_columns", "number_of_rows", "red"]

_OTHER = {red: blue, blue: red}

# The four directions of a line, as (column step, row step): horizontal, vertical,
# and the two diagonals (rising and falling to the right).
_DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))


class Board:
    """A Connect Four board: what is on each square, and whose turn it is.

    The private ``_value[column - 1][row - 1]`` mirrors the unit's
    ``array[column_type, row_type] of value_type``, column first. Each square has a
    record of its own, which ``Get_Value`` hands out without copying: erratum B06 says
    a caller must not change it.
    """

    def __init__(self) -> None:
        self.Initialize()

    def __repr__(self) -> str:
        rows = ["".join(_letter(self._value[c][r]) for c in range(number_of_columns)) for r in reversed(range(number_of_rows))]
        return f"Board({'/'.join(rows)}, current={self._current_color.name})"

    def Initialize(self) -> None:
        """Make the entire board empty and make red the current colour (red begins)."""
        self._value = [[Value(empty=True) for _ in range(number_of_rows)] for _ in range(number_of_columns)]
        self._current_color = red

    def Make_Move(self, column: int) -> None:
        """Drop a checker of the current colour into ``column``, then switch the colour.

        The checker lands on the lowest empty square of the column (gravity).
        """
        require(_is_column(column), "board_type.Make_Move", f"the column must be from 1 to {number_of_columns} (it is {column!r})")
        require(not self.Is_Full(column), "board_type.Make_Move", f"column {column} is full")
        squares = self._value[column - 1]
        lowest_empty = next(row for row, value in enumerate(squares) if value.empty)
        squares[lowest_empty] = Value(empty=False, color=self._current_color)
        self._current_color = _OTHER[self._current_color]

    def Get_Value(self, square: Square) -> Value:
        """What ``square`` contains (Pascal's var parameter ``Val``, returned)."""
        require(
            _is_column(square.column) and 1 <= square.row <= number_of_rows,
            "board_type.Get_Value",
            f"the square must be on the board (it is column {square.column!r}, row {square.row!r})",
        )
        return self._value[square.column - 1][square.row - 1]

    def Get_Current_Color(self) -> Color:
        """Whose turn it is; nothing changes (erratum B01)."""
        return self._current_color

    def Is_Full(self, column: int) -> bool:
        """Whether no checker fits in ``column`` any more."""
        require(_is_column(column), "board_type.Is_Full", f"the column must be from 1 to {number_of_columns} (it is {column!r})")
        return not self._value[column - 1][number_of_rows - 1].empty

    def Is_Win(self) -> bool:
        """Whether the player who just moved (not the current colour) has 4 in a line."""
        just_moved = _OTHER[self._current_color]
        return any(
            self._line_of(just_moved, column, row, step)
            for column in range(1, number_of_columns + 1)
            for row in range(1, number_of_rows + 1)
            for step in _DIRECTIONS
        )

    def Is_Draw(self) -> bool:
        """Whether the board is completely full (the driver asks Is_Win first: erratum B04)."""
        return all(self.Is_Full(column) for column in range(1, number_of_columns + 1))

    def _line_of(self, color: Color, column: int, row: int, step: tuple[int, int]) -> bool:
        """Whether the four squares from (column, row) along ``step`` all hold ``color``."""
        for k in range(4):
            c, r = column + k * step[0], row + k * step[1]
            if not (_is_column(c) and 1 <= r <= number_of_rows):
                return False
            value = self._value[c - 1][r - 1]
            if value.empty or value.color is not color:
                return False
        return True


def _is_column(column: object) -> bool:
    return isinstance(column, int) and 1 <= column <= number_of_columns


def _letter(value: Value) -> str:
    return "." if value.empty else value.color.name[0].upper()
