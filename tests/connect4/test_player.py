"""PlayerType: a participant in the game, known by the symbol it plays."""

import pytest
from hypothesis import assume, given

from speckit.testing import covers, expect, expect_equal

from . import paths
from .adapter import Build, Read, offers
from .strategies import symbols


def name(model) -> str:
    return "empty" if model is None else model


def symbol_of(impl, player):
    """The model of the player's symbol: None (empty) or its colour."""
    return Read(impl).symbol(impl.player.getSymbol(player))


@covers("PlayerType.newPlayerType", "PlayerType.getSymbol")
def test_new_player_has_an_empty_symbol(impl):
    if not offers(impl.player.newPlayerType, 0):
        pytest.skip("the package offers only newPlayerType(SymbolType), as declared (erratum E04)")
    expect(
        impl.symbol.isEmpty(impl.player.getSymbol(impl.player.newPlayerType())), "getSymbol(newPlayerType()) is empty"
    )


@covers("PlayerType.newPlayerType", "PlayerType.getSymbol")
@given(model=symbols)
def test_new_player_plays_the_given_symbol(impl, model):
    if not offers(impl.player.newPlayerType, 1):
        pytest.skip("the package offers only newPlayerType(), as described (erratum E04)")
    player = impl.player.newPlayerType(Build(impl).symbol(model))
    expect_equal(symbol_of(impl, player), model, f"getSymbol(newPlayerType({name(model)} symbol))")


@covers("PlayerType.setSymbol", "PlayerType.getSymbol")
@given(start=symbols, model=symbols)
def test_set_symbol_gives_the_player_the_symbol(impl, start, model):
    build = Build(impl)
    after = impl.player.setSymbol(build.player(start), build.symbol(model))
    expect_equal(symbol_of(impl, after), model, f"getSymbol(setSymbol(player of {name(start)}, {name(model)} symbol))")


@covers("PlayerType.equals")
@given(a=symbols, b=symbols)
def test_players_are_equal_when_their_symbols_are(impl, a, b):
    build = Build(impl).player
    expect_equal(impl.player.equals(build(a), build(b)), a == b, f"equals(player of {name(a)}, player of {name(b)})")


@covers("PlayerType.equals")
@given(a=symbols, b=symbols, c=symbols)
def test_equals_is_an_equivalence(impl, a, b, c):
    ops, build = impl.player, Build(impl).player
    x, y, z = build(a), build(b), build(c)
    expect(ops.equals(x, x), f"equals(player of {name(a)}, itself) is reflexive")
    expect_equal(ops.equals(x, y), ops.equals(y, x), f"equals(player of {name(a)}, player of {name(b)}) is symmetric")
    if ops.equals(x, y) and ops.equals(y, z):
        expect(ops.equals(x, z), f"equals is transitive: players of {name(a)} = {name(b)} = {name(c)}")


@covers("PlayerType.opponent", "PlayerType.equals")
@given(first=symbols, second=symbols)
def test_opponent_is_the_other_player(impl, first, second):
    ops, build = impl.player, Build(impl).player
    one, two = build(first), build(second)
    players = f"players of {name(first)} and {name(second)}"
    # The player asked about is a separate value equal to one of the two (E06: never equal to neither).
    expect_equal(
        symbol_of(impl, ops.opponent(build(first), one, two)), second, f"opponent(player of {name(first)}, {players})"
    )
    one, two = build(first), build(second)
    expect_equal(
        symbol_of(impl, ops.opponent(build(second), one, two)), first, f"opponent(player of {name(second)}, {players})"
    )


@covers("PlayerType.clone", "PlayerType.equals", "PlayerType.setSymbol")
@given(start=symbols, other=symbols)
def test_clone_is_equal_and_independent(impl, start, other):
    assume(other != start)
    ops, build = impl.player, Build(impl)
    source = build.player(start)
    copy = ops.clone(source)
    expect(ops.equals(copy, build.player(start)), f"clone(player of {name(start)}) equals a player of {name(start)}")
    expect_equal(
        symbol_of(impl, ops.setSymbol(copy, build.symbol(other))),
        other,
        f"a clone given {name(other)} plays {name(other)}",
    )
    expect_equal(
        symbol_of(impl, source), start, f"giving a clone {name(other)} leaves the source player of {name(start)}"
    )
    source = build.player(start)
    copy = ops.clone(source)
    ops.setSymbol(source, build.symbol(other))
    expect_equal(
        symbol_of(impl, copy), start, f"giving the source {name(other)} leaves its clone a player of {name(start)}"
    )


# Values from every path, and the frame rule (see ``paths``) ---------------------------------------


@covers(
    "PlayerType.equals", "PlayerType.getSymbol", "PlayerType.newPlayerType", "PlayerType.setSymbol", "PlayerType.clone"
)
@paths.few()
@given(first=paths.any_path("player"), second=paths.any_path("player"))
def test_players_made_by_any_path_are_equal_by_their_symbols(impl, first, second):
    paths.check_compared(impl, first, second)


@covers("PlayerType.setSymbol")
@paths.few()
@given(case=paths.frame_cases("PlayerType.setSymbol"))
def test_set_symbol_changes_its_argument_at_most(impl, case):
    paths.check_frame_case(impl, case)
