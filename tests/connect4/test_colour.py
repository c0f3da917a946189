"""ColourType: the colour of a mark, red or blue."""

import io

import pytest
from hypothesis import given

import adt.display as kit_display
from speckit.testing import covers, expect, expect_equal

from . import paths
from .adapter import Build, drawn
from .model import BLUE, OTHER, RED
from .strategies import boards, colours

MARKS = {RED: "R", BLUE: "B"}


@covers("ColourType.newColourType", "ColourType.showColour")
@given(board=boards())
def test_new_colour_is_red(impl, board):
    side, (row, column) = board
    build = Build(impl)
    out = io.StringIO()
    display = kit_display.newDisplayType(out)
    impl.colour.showColour(impl.colour.newColourType(), display, build.location(row, column))
    kit_display.showBoard(display, side)
    expect_equal(
        drawn(out.getvalue(), side),
        {(row, column): "R"},
        f"newColourType() is red: showColour draws R at ({row}, {column})",
    )


@covers("ColourType.newColourType", "ColourType.equals")
def test_new_colours_are_equal(impl):
    ops = impl.colour
    expect(
        ops.equals(ops.newColourType(), ops.newColourType()), "newColourType() equals another newColourType(): both red"
    )


@covers("ColourType.invert", "ColourType.equals")
@given(colour=colours)
def test_invert_switches_to_the_other_colour(impl, colour):
    ops, build = impl.colour, Build(impl).colour
    expect(ops.equals(ops.invert(build(colour)), build(OTHER[colour])), f"invert({colour}) gives {OTHER[colour]}")
    expect(not ops.equals(ops.invert(build(colour)), build(colour)), f"invert({colour}) is no longer {colour}")


@covers("ColourType.invert", "ColourType.equals")
@given(colour=colours)
def test_invert_twice_gives_the_colour_back(impl, colour):
    ops, build = impl.colour, Build(impl).colour
    expect(
        ops.equals(ops.invert(ops.invert(build(colour))), build(colour)), f"invert(invert({colour})) is {colour} again"
    )


@covers("ColourType.equals")
@given(a=colours, b=colours)
def test_equals_agrees_with_the_colours(impl, a, b):
    ops, build = impl.colour, Build(impl).colour
    expect_equal(ops.equals(build(a), build(b)), a == b, f"equals({a}, {b})")


@covers("ColourType.equals")
@given(a=colours, b=colours, c=colours)
def test_equals_is_an_equivalence(impl, a, b, c):
    ops, build = impl.colour, Build(impl).colour
    x, y, z = build(a), build(b), build(c)
    expect(ops.equals(x, x), f"equals({a}, itself) is reflexive")
    expect_equal(ops.equals(x, y), ops.equals(y, x), f"equals({a}, {b}) is symmetric")
    if ops.equals(x, y) and ops.equals(y, z):
        expect(ops.equals(x, z), f"equals is transitive: {a} = {b} = {c}")


@covers("ColourType.clone")
@given(colour=colours)
def test_clone_is_equal_and_independent(impl, colour):
    if not impl.has("ColourType.clone"):
        pytest.skip("ColourType.clone is an optional extension (E05)")
    ops, build = impl.colour, Build(impl).colour
    source = build(colour)
    copy = ops.clone(source)
    expect(ops.equals(copy, build(colour)), f"clone({colour}) equals {colour}")
    ops.invert(copy)
    expect(ops.equals(source, build(colour)), f"inverting a clone of {colour} leaves the source {colour}")
    source = build(colour)
    copy = ops.clone(source)
    ops.invert(source)
    expect(ops.equals(copy, build(colour)), f"inverting the source leaves its clone {colour}")


@covers("ColourType.showColour", "ColourType.equals")
@given(colour=colours, board=boards())
def test_show_colour_draws_its_mark_and_returns_the_colour(impl, colour, board):
    side, (row, column) = board
    ops, build = impl.colour, Build(impl)
    shown = build.colour(colour)
    out = io.StringIO()
    display = kit_display.newDisplayType(out)
    result = ops.showColour(shown, display, build.location(row, column))
    kit_display.showBoard(display, side)
    text = out.getvalue()
    claim = f"showColour({colour}, display, location ({row}, {column})) draws {MARKS[colour]} there and nothing else"
    expect_equal(drawn(text, side), {(row, column): MARKS[colour]}, claim)
    expect_equal(len(text.splitlines()), side + 1, f"{claim}: only the one {side} x {side} board is written")
    expect(ops.equals(result, build.colour(colour)), f"showColour({colour}, ...) returns {colour} (E10)")
    expect(ops.equals(shown, build.colour(colour)), f"showColour({colour}, ...) leaves the colour {colour}")


# Values from every path, and the frame rule (see ``paths``) ---------------------------------------


@covers("ColourType.equals", "ColourType.invert", "ColourType.clone", "ColourType.newColourType")
@paths.few()
@given(first=paths.any_path("colour"), second=paths.any_path("colour"))
def test_colours_made_by_any_path_are_equal_by_their_colour(impl, first, second):
    paths.check_compared(impl, first, second)


@covers("ColourType.invert")
@paths.few()
@given(case=paths.frame_cases("ColourType.invert"))
def test_invert_changes_its_argument_at_most(impl, case):
    paths.check_frame_case(impl, case)
