"""SymbolType: the mark on a square, either empty or a mark of one colour."""

from __future__ import annotations

import attrs

from . import colour as colour_adt
from .colour import Colour
from .display import Display
from .location import Location


@attrs.define
class Symbol:
    """A symbol value: ``colour`` is the mark's colour, or None when the symbol is empty."""

    colour: Colour | None = None


def newSymbolType(colour: Colour | None = None) -> Symbol:
    """Make a new symbol: empty, or a mark of the given colour."""
    return Symbol(colour)


def setColour(symbol: Symbol, colour: Colour) -> Symbol:
    """Make the symbol a mark of the given colour and return it (erratum E08)."""
    symbol.colour = colour
    return symbol


def getColour(symbol: Symbol) -> Colour | None:
    """Return the colour of the symbol's mark (None for an empty symbol: erratum E09)."""
    return symbol.colour


def makeEmpty(symbol: Symbol) -> Symbol:
    """Remove the symbol's mark, if any, and return it."""
    symbol.colour = None
    return symbol


def isEmpty(symbol: Symbol) -> bool:
    """Whether the symbol carries no mark."""
    return symbol.colour is None


def equals(first: Symbol, second: Symbol) -> bool:
    """Whether both symbols are empty, or both are marks of the same colour."""
    if isEmpty(first) or isEmpty(second):
        return isEmpty(first) and isEmpty(second)
    return colour_adt.equals(getColour(first), getColour(second))


def clone(symbol: Symbol) -> Symbol:
    """Return an independent copy of the symbol."""
    copy = newSymbolType()
    if isEmpty(symbol):
        return makeEmpty(copy)
    return setColour(copy, colour_adt.clone(getColour(symbol)))


def showSymbol(symbol: Symbol, display: Display, location: Location) -> Symbol:
    """Draw the symbol's mark on the display at the location (nothing if empty); return it."""
    if not isEmpty(symbol):
        colour_adt.showColour(getColour(symbol), display, location)
    return symbol
