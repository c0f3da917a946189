"""SymbolType: the mark on a square, either empty or a mark of one colour."""

import io

from hypothesis import given
from hypothesis import strategies as st

import adt.display as kit_display
from speckit.testing import covers, expect, expect_equal

from . import paths
from .adapter import Build, Read, drawn
from .model import BLUE, RED
from .strategies import boards, colours, symbols

MARKS = {RED: "R", BLUE: "B"}


def name(model) -> str:
    return "empty" if model is None else model


@covers("SymbolType.newSymbolType", "SymbolType.isEmpty")
def test_new_symbol_is_empty(impl):
    expect(impl.symbol.isEmpty(impl.symbol.newSymbolType()), "newSymbolType() is empty")


@covers("SymbolType.newSymbolType", "SymbolType.isEmpty", "SymbolType.getColour")
@given(colour=colours)
def test_new_symbol_of_a_colour_is_a_mark_of_it(impl, colour):
    ops, build = impl.symbol, Build(impl)
    symbol = ops.newSymbolType(build.colour(colour))
    expect(not ops.isEmpty(symbol), f"newSymbolType({colour}) is not empty")
    expect(
        impl.colour.equals(ops.getColour(symbol), build.colour(colour)),
        f"getColour(newSymbolType({colour})) is {colour}",
    )


@covers("SymbolType.setColour", "SymbolType.isEmpty", "SymbolType.getColour")
@given(start=colours, colour=colours)
def test_set_colour_recolours_a_mark(impl, start, colour):
    ops, build = impl.symbol, Build(impl)
    after = ops.setColour(build.symbol(start), build.colour(colour))
    claim = f"setColour({name(start)} symbol, {colour})"
    expect(not ops.isEmpty(after), f"{claim} is not empty")
    expect(impl.colour.equals(ops.getColour(after), build.colour(colour)), f"{claim} has colour {colour}")


@covers("SymbolType.setColour", "SymbolType.isEmpty", "SymbolType.getColour")
@given(colour=colours, emptied=st.sampled_from([None, RED, BLUE]))
def test_set_colour_on_an_empty_symbol_leaves_it_empty_or_makes_a_mark_of_that_colour(impl, colour, emptied):
    """Both readings of erratum E08: the flag untouched (the description sets only the colour),
    or a mark of the colour (as clone's calls suggest); never a mark of another colour."""
    ops, build = impl.symbol, Build(impl)
    start = build.symbol(None) if emptied is None else ops.makeEmpty(build.symbol(emptied))
    after = ops.setColour(start, build.colour(colour))
    what = "newSymbolType()" if emptied is None else f"makeEmpty({emptied} symbol)"
    expect(
        Read(impl).symbol(after) in (None, colour),
        f"setColour({what}, {colour}) is empty, or a mark of {colour} (E08: both readings)",
        expected=f"empty or {colour}",
        actual=Read(impl).symbol(after),
    )


@covers("SymbolType.makeEmpty", "SymbolType.isEmpty")
@given(start=symbols)
def test_make_empty_removes_the_mark(impl, start):
    ops = impl.symbol
    expect(ops.isEmpty(ops.makeEmpty(Build(impl).symbol(start))), f"makeEmpty({name(start)} symbol) is empty")


@covers("SymbolType.equals")
@given(a=symbols, b=symbols)
def test_equals_when_both_empty_or_both_the_same_colour(impl, a, b):
    build = Build(impl).symbol
    expect_equal(impl.symbol.equals(build(a), build(b)), a == b, f"equals({name(a)} symbol, {name(b)} symbol)")


@covers("SymbolType.equals")
@given(a=symbols, b=symbols, c=symbols)
def test_equals_is_an_equivalence(impl, a, b, c):
    ops, build = impl.symbol, Build(impl).symbol
    x, y, z = build(a), build(b), build(c)
    expect(ops.equals(x, x), f"equals({name(a)} symbol, itself) is reflexive")
    expect_equal(ops.equals(x, y), ops.equals(y, x), f"equals({name(a)} symbol, {name(b)} symbol) is symmetric")
    if ops.equals(x, y) and ops.equals(y, z):
        expect(ops.equals(x, z), f"equals is transitive: {name(a)} = {name(b)} = {name(c)}")


@covers("SymbolType.clone", "SymbolType.setColour", "SymbolType.makeEmpty", "SymbolType.equals")
@given(start=symbols, colour=colours, empty=st.booleans())
def test_clone_is_equal_and_independent(impl, start, colour, empty):
    ops, build, read = impl.symbol, Build(impl), Read(impl)
    # The update always changes a mark: it is emptied or recoloured. An empty symbol has no update
    # every reading agrees changes it (E08), so its clone is only compared.
    changed = None if start is None or empty or colour == start else colour

    def update(symbol):
        return ops.makeEmpty(symbol) if changed is None else ops.setColour(symbol, build.colour(changed))

    source = build.symbol(start)
    copy = ops.clone(source)
    expect(ops.equals(copy, build.symbol(start)), f"clone({name(start)} symbol) equals a {name(start)} symbol")
    if start is None:
        return
    expect_equal(read.symbol(update(copy)), changed, f"a clone of a {name(start)} symbol, updated, is {name(changed)}")
    expect_equal(
        read.symbol(source), start, f"updating a clone of a {name(start)} symbol leaves the source {name(start)}"
    )
    source = build.symbol(start)
    copy = ops.clone(source)
    update(source)
    expect_equal(read.symbol(copy), start, f"updating the source to {name(changed)} leaves its clone {name(start)}")


@covers("SymbolType.showSymbol", "SymbolType.equals")
@given(model=symbols, board=boards())
def test_show_symbol_draws_its_mark_and_returns_the_symbol(impl, model, board):
    side, (row, column) = board
    ops, build = impl.symbol, Build(impl)
    shown = build.symbol(model)
    out = io.StringIO()
    display = kit_display.newDisplayType(out)
    result = ops.showSymbol(shown, display, build.location(row, column))
    kit_display.showBoard(display, side)
    text = out.getvalue()
    expected = {} if model is None else {(row, column): MARKS[model]}
    what = "nothing" if model is None else f"{MARKS[model]} at ({row}, {column})"
    claim = f"showSymbol({name(model)} symbol, display, location ({row}, {column})) draws {what}"
    expect_equal(drawn(text, side), expected, claim)
    expect_equal(len(text.splitlines()), side + 1, f"{claim}: only the one {side} x {side} board is written")
    expect(
        result is None or ops.equals(result, build.symbol(model)),
        f"showSymbol returns the {name(model)} symbol it shows, as declared, or nothing, as described (E10)",
    )
    expect_equal(Read(impl).symbol(shown), model, f"showSymbol leaves the {name(model)} symbol unchanged")


# Values from every path, and the frame rule (see ``paths``) ---------------------------------------


@covers(
    "SymbolType.equals",
    "SymbolType.isEmpty",
    "SymbolType.getColour",
    "SymbolType.newSymbolType",
    "SymbolType.setColour",
    "SymbolType.makeEmpty",
    "SymbolType.clone",
)
@paths.few()
@given(first=paths.any_path("symbol"), second=paths.any_path("symbol"))
def test_symbols_made_by_any_path_are_equal_by_their_marks(impl, first, second):
    paths.check_compared(impl, first, second)


@covers("SymbolType.setColour")
@paths.few()
@given(case=paths.frame_cases("SymbolType.setColour"))
def test_set_colour_changes_its_argument_at_most(impl, case):
    paths.check_frame_case(impl, case)


@covers("SymbolType.makeEmpty")
@paths.few()
@given(case=paths.frame_cases("SymbolType.makeEmpty"))
def test_make_empty_changes_its_argument_at_most(impl, case):
    paths.check_frame_case(impl, case)
