"""color_type: red and blue, two distinct values of module color."""

from speckit.testing import covers, expect

from .adapter import Build
from .model import BLUE, RED


@covers("board_type.Get_Current_Color")
def test_red_and_blue_are_two_distinct_values_and_red_begins(impl):
    build = Build(impl)
    colours = build.colours()
    red, blue = colours[RED], colours[BLUE]
    expect(red == red and blue == blue, "red == red and blue == blue", expected=True, actual=(red == red, blue == blue))
    expect(
        red != blue and not red == blue,  # noqa: SIM201 - both operators are under test
        "red and blue are two distinct values that == tells apart",
        expected=f"{red!r} != {blue!r}",
        actual=red == blue,
    )
    current = impl.board_adt.Get_Current_Color(build.board())
    expect(
        current == red,
        "Get_Current_Color after Initialize is the constant red of module color",
        expected=red,
        actual=current,
    )
