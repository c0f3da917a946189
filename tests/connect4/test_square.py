"""SquareType: one square of a grid, a location and the symbol on it."""

import io

from hypothesis import assume, given

import adt.display as kit_display
from speckit.testing import covers, expect, expect_equal

from . import paths
from .adapter import Build, Read, drawn
from .model import BLUE, RED
from .strategies import boards, locations, symbols

MARKS = {RED: "R", BLUE: "B"}


def name(model) -> str:
    return "empty" if model is None else model


def check_square(impl, square, location: tuple[int, int], model, claim: str) -> None:
    """The square is at ``location`` and holds the symbol ``model``, and isEmpty agrees."""
    build, ops = Build(impl), impl.square
    at = ops.getLocation(square)
    expect(
        impl.index.equals(impl.location.getRow(at), build.index(location[0])),
        f"{claim}: its location's row is {location[0]}",
    )
    expect(
        impl.index.equals(impl.location.getColumn(at), build.index(location[1])),
        f"{claim}: its location's column is {location[1]}",
    )
    expect_equal(Read(impl).symbol(ops.getSymbol(square)), model, f"{claim}: its symbol")
    expect_equal(ops.isEmpty(square), model is None, f"{claim}: isEmpty")


@covers("SquareType.newSquareType", "SquareType.getLocation", "SquareType.getSymbol", "SquareType.isEmpty")
@given(at=locations())
def test_new_square_is_at_the_location_and_empty(impl, at):
    square = impl.square.newSquareType(Build(impl).location(*at))
    check_square(impl, square, at, None, f"newSquareType(location {at})")


@covers("SquareType.newSquareType", "SquareType.getLocation", "SquareType.getSymbol", "SquareType.isEmpty")
@given(at=locations(), model=symbols)
def test_new_square_holds_the_given_symbol(impl, at, model):
    build = Build(impl)
    square = impl.square.newSquareType(build.location(*at), build.symbol(model))
    check_square(impl, square, at, model, f"newSquareType(location {at}, {name(model)} symbol)")


@covers("SquareType.setLocation", "SquareType.getLocation", "SquareType.getSymbol", "SquareType.isEmpty")
@given(at=locations(), model=symbols, to=locations())
def test_set_location_moves_the_square_only(impl, at, model, to):
    build = Build(impl)
    after = impl.square.setLocation(build.square(at, model), build.location(*to))
    check_square(impl, after, to, model, f"setLocation(square at {at} with {name(model)} symbol, location {to})")


@covers("SquareType.setSymbol", "SquareType.getLocation", "SquareType.getSymbol", "SquareType.isEmpty")
@given(at=locations(), model=symbols, new=symbols)
def test_set_symbol_changes_the_symbol_only(impl, at, model, new):
    build = Build(impl)
    after = impl.square.setSymbol(build.square(at, model), build.symbol(new))
    check_square(impl, after, at, new, f"setSymbol(square at {at} with {name(model)} symbol, {name(new)} symbol)")


@covers("SquareType.clone", "SquareType.setLocation", "SquareType.setSymbol")
@given(at=locations(), model=symbols, to=locations(), new=symbols)
def test_clone_is_equal_and_independent(impl, at, model, to, new):
    assume(to != at and new != model)
    ops, build = impl.square, Build(impl)
    source = build.square(at, model)
    copy = ops.clone(source)
    check_square(impl, copy, at, model, f"clone(square at {at} with {name(model)} symbol)")
    changed = ops.setSymbol(ops.setLocation(copy, build.location(*to)), build.symbol(new))
    check_square(impl, changed, to, new, f"a clone moved to {to} and given {name(new)} symbol")
    check_square(impl, source, at, model, "updating a clone leaves the source")
    source = build.square(at, model)
    copy = ops.clone(source)
    ops.setSymbol(ops.setLocation(source, build.location(*to)), build.symbol(new))
    check_square(impl, copy, at, model, f"moving the source to {to} and giving it {name(new)} symbol leaves its clone")


@covers("SquareType.showSquare")
@given(model=symbols, board=boards())
def test_show_square_draws_its_symbol_at_its_location(impl, model, board):
    side, at = board
    build = Build(impl)
    shown = build.square(at, model)
    out = io.StringIO()
    display = kit_display.newDisplayType(out)
    result = impl.square.showSquare(shown, display)
    kit_display.showBoard(display, side)
    text = out.getvalue()
    expected = {} if model is None else {at: MARKS[model]}
    what = "nothing" if model is None else f"{MARKS[model]} at {at}"
    claim = f"showSquare(square at {at} with {name(model)} symbol, display) draws {what}"
    expect_equal(drawn(text, side), expected, claim)
    expect_equal(len(text.splitlines()), side + 1, f"{claim}: only the one {side} x {side} board is written")
    if result is not None:  # nothing, as described, or the square, as declared (E10)
        check_square(
            impl,
            result,
            at,
            model,
            "showSquare returns the square it shows, as declared, or nothing, as described (E10)",
        )
    check_square(impl, shown, at, model, "showSquare leaves the square unchanged")


# Values from every path, and the frame rule (see ``paths``) ---------------------------------------


@covers(
    "SquareType.getLocation",
    "SquareType.getSymbol",
    "SquareType.isEmpty",
    "SquareType.newSquareType",
    "SquareType.setLocation",
    "SquareType.setSymbol",
    "SquareType.clone",
)
@paths.few()
@given(first=paths.any_path("square"), second=paths.any_path("square"))
def test_squares_made_by_any_path_show_their_location_and_symbol(impl, first, second):
    paths.check_compared(impl, first, second)


@covers("SquareType.setLocation")
@paths.few()
@given(case=paths.frame_cases("SquareType.setLocation"))
def test_set_location_changes_its_argument_at_most(impl, case):
    paths.check_frame_case(impl, case)


@covers("SquareType.setSymbol")
@paths.few()
@given(case=paths.frame_cases("SquareType.setSymbol"))
def test_set_symbol_changes_its_argument_at_most(impl, case):
    paths.check_frame_case(impl, case)
