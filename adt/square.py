"""SquareType: one square of a grid, a location and the symbol on it."""

from __future__ import annotations

import attrs

from . import location as location_adt
from . import symbol as symbol_adt
from .display import Display
from .location import Location
from .symbol import Symbol


@attrs.define
class Square:
    """A square value: where it is and what is on it."""

    location: Location
    symbol: Symbol = attrs.field(factory=symbol_adt.newSymbolType)


def newSquareType(location: Location, symbol: Symbol | None = None) -> Square:
    """Make a new square at the location, holding the symbol or an empty one."""
    return Square(location, symbol_adt.newSymbolType() if symbol is None else symbol)


def setLocation(square: Square, location: Location) -> Square:
    """Move the square to the location and return it."""
    square.location = location
    return square


def getLocation(square: Square) -> Location:
    """Return the square's location."""
    return square.location


def setSymbol(square: Square, symbol: Symbol) -> Square:
    """Put the symbol on the square and return it."""
    square.symbol = symbol
    return square


def getSymbol(square: Square) -> Symbol:
    """Return the square's symbol."""
    return square.symbol


def isEmpty(square: Square) -> bool:
    """Whether the square's symbol is empty."""
    return symbol_adt.isEmpty(getSymbol(square))


def clone(square: Square) -> Square:
    """Return an independent copy of the square, with copies of its location and symbol."""
    return newSquareType(location_adt.clone(getLocation(square)), symbol_adt.clone(getSymbol(square)))


def showSquare(square: Square, display: Display) -> Square:
    """Draw the square's symbol on the display at the square's location; return the square."""
    symbol_adt.showSymbol(getSymbol(square), display, getLocation(square))
    return square
