"""PlayerType: a participant in the game, known by the symbol it plays."""

from __future__ import annotations

import attrs

from spec import require

from . import symbol as symbol_adt
from .symbol import Symbol


@attrs.define
class Player:
    """A player value: the symbol it plays."""

    symbol: Symbol = attrs.field(factory=symbol_adt.newSymbolType)


def newPlayerType(symbol: Symbol | None = None) -> Player:
    """Make a new player with the given symbol, or an empty one (erratum E04)."""
    return Player() if symbol is None else Player(symbol)


def setSymbol(player: Player, symbol: Symbol) -> Player:
    """Give the player the symbol and return the player."""
    player.symbol = symbol
    return player


def getSymbol(player: Player) -> Symbol:
    """Return the player's symbol."""
    return player.symbol


def equals(first: Player, second: Player) -> bool:
    """Whether the two players' symbols are equal."""
    return symbol_adt.equals(getSymbol(first), getSymbol(second))


def opponent(player: Player, first: Player, second: Player) -> Player:
    """Return the other of the two players: second if player is first, first if it is second (erratum E06)."""
    if equals(player, first):
        return second
    require(equals(player, second), "PlayerType.opponent", "the player must equal the first or the second player")
    return first


def clone(player: Player) -> Player:
    """Return an independent copy of the player, with a copy of its symbol."""
    return setSymbol(newPlayerType(), symbol_adt.clone(getSymbol(player)))
