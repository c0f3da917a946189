"""square_type: the record Square(column, row), column first (erratum B07)."""

from hypothesis import given

from speckit.testing import covers, expect, expect_equal

from .strategies import squares


@covers("square_type.Square")
@given(square=squares)
def test_a_square_holds_its_column_and_its_row(impl, square):
    column, row = square
    made = impl.square.Square(column, row)
    for field, wanted in (("column", column), ("row", row)):
        expect(hasattr(made, field), f"Square({column}, {row}) has a field {field}", expected=field, actual=sorted(a for a in dir(made) if not a.startswith("_")))
        expect_equal(getattr(made, field), wanted, f"Square({column}, {row}).{field} is {wanted}: the column comes first, then the row")


@covers("square_type.Square")
@given(first=squares, second=squares)
def test_squares_are_independent_records(impl, first, second):
    one = impl.square.Square(*first)
    other = impl.square.Square(*second)
    expect_equal((one.column, one.row), first, f"making Square{second} after Square{first} leaves the first record alone")
    expect_equal((other.column, other.row), second, f"Square{second} holds its own column and row")
