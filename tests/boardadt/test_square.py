"""square_type: the record Square(column, row), column first (erratum B07)."""

from hypothesis import given

from speckit.testing import covers, expect, expect_equal

from .model import COLUMNS, ROWS
from .strategies import squares


@covers("square_type.Square")
@given(square=squares)
def test_a_square_holds_its_column_and_its_row(impl, square):
    column, row = square
    made = impl.square.Square(column, row)
    for field, wanted in (("column", column), ("row", row)):
        expect(
            hasattr(made, field),
            f"Square({column}, {row}) has a field {field}",
            expected=field,
            actual=sorted(a for a in dir(made) if not a.startswith("_")),
        )
        expect_equal(
            getattr(made, field),
            wanted,
            f"Square({column}, {row}).{field} is {wanted}: the column comes first, then the row",
        )


@covers("square_type.Square")
@given(first=squares, second=squares)
def test_squares_are_independent_records(impl, first, second):
    one = impl.square.Square(*first)
    other = impl.square.Square(*second)
    expect_equal(
        (one.column, one.row), first, f"making Square{second} after Square{first} leaves the first record alone"
    )
    expect_equal((other.column, other.row), second, f"Square{second} holds its own column and row")


@covers("square_type.Square")
def test_a_square_ranges_over_the_declared_columns_and_rows(impl):
    """The unit's constants fix the range of a square's column and row (column_type, row_type)."""
    unit = impl.module("board_adt")
    for name, number, field in (("number_of_columns", COLUMNS, "column"), ("number_of_rows", ROWS, "row")):
        expect_equal(
            getattr(unit, name, None), number, f"the unit defines {name} = {number}, the largest {field} of a square"
        )
    for column in range(1, COLUMNS + 1):
        for row in range(1, ROWS + 1):
            made = impl.square.Square(column, row)
            expect_equal(
                (made.column, made.row),
                (column, row),
                f"Square({column}, {row}), a square of the {COLUMNS} x {ROWS} board, holds its column and row",
            )
