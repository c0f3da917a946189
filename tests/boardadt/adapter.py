"""The BoardADT suite's adapter: :class:`Build` makes the implementation's boards from games,
:class:`Read` reads their squares and colours back as models (:mod:`.model`), through the
traced, documented operations of ``impl`` only."""

from __future__ import annotations

from speckit.testing import MissingOperation, expect

from .model import ALL_SQUARES, BLUE, RED


class Build:
    """Makes the implementation's boards, squares and colours through its documented operations."""

    def __init__(self, impl) -> None:
        self.impl = impl

    def colours(self) -> dict:
        """The implementation's colour values, from its module color: {"red": red, "blue": blue}."""
        module = self.impl.module("color")
        found = {}
        for name in (RED, BLUE):
            if not hasattr(module, name):
                raise MissingOperation(f"module color has no constant {name} (color_type = (red, blue))")
            found[name] = getattr(module, name)
        return found

    def board(self, moves=()):
        """``Board()``, ``Initialize()``, then the moves with ``Make_Move``."""
        ops = self.impl.board_adt
        board = ops.Board()
        ops.Initialize(board)
        for column in moves:
            ops.Make_Move(board, column)
        return board

    def square(self, column: int, row: int):
        """``Square(column, row)``, made without tracing so failure traces stay short.

        Should the constructor fail, it is called again through the traced operation,
        which reports the failure in the specification's terms.
        """
        try:
            return self.impl.square.Square.function()(column, row)
        except Exception:  # noqa: BLE001 - reported by the traced call below
            return self.impl.square.Square(column, row)


class Read:
    """Reads models back from the implementation's boards and colours through its documented operations."""

    def __init__(self, impl) -> None:
        self.impl = impl
        self.build = Build(impl)

    def colour(self, value) -> str:
        """``"red"`` or ``"blue"`` for one of the implementation's colours, else its repr."""
        for name, colour in self.build.colours().items():
            if value == colour:
                return name
        return f"neither red nor blue: {value!r}"

    def value(self, board, column: int, row: int) -> str | None:
        """The model of a square's value: None when empty, else its colour's name."""
        value = self.impl.board_adt.Get_Value(board, self.build.square(column, row))
        claim = f"Get_Value(Square({column}, {row})) returns a value record with the field empty"
        expect(hasattr(value, "empty"), claim, expected="a record such as Value(False, red)", actual=value)
        expect(
            isinstance(value.empty, bool),
            f"the field empty of Get_Value(Square({column}, {row})) is a Python bool (erratum B10)",
            expected="True or False",
            actual=value.empty,
        )
        if value.empty:
            return None  # the colour of an empty square is never read (erratum B09)
        claim = f"Get_Value(Square({column}, {row})), a square that is not empty, returns a record with the field color"
        expect(hasattr(value, "color"), claim, expected="a record such as Value(False, red)", actual=value)
        return self.colour(value.color)

    def board(self, board) -> dict:
        """The whole board, read square by square: {(column, row): colour name or None}."""
        return {(c, r): self.value(board, c, r) for c, r in ALL_SQUARES}

    def current(self, board) -> str:
        return self.colour(self.impl.board_adt.Get_Current_Color(board))
