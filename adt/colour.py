"""ColourType: the colour of a mark, red or blue."""

from __future__ import annotations

import attrs

from . import display as display_adt
from .display import Display
from .location import Location

RED = "red"
BLUE = "blue"
MARKS = {RED: "R", BLUE: "B"}


@attrs.define
class Colour:
    """A colour value: ``name`` is ``"red"`` or ``"blue"``."""

    name: str = RED


def newColourType() -> Colour:
    """Make a new colour: red."""
    return Colour()


def invert(colour: Colour) -> Colour:
    """Switch the colour to the other one and return it."""
    colour.name = BLUE if colour.name == RED else RED
    return colour


def equals(first: Colour, second: Colour) -> bool:
    """Whether the two colours are the same."""
    return first.name == second.name


def showColour(colour: Colour, display: Display, location: Location) -> Colour:
    """Draw this colour's mark (R or B) on the display at the location; return the colour."""
    display_adt.showMarkAt(display, location, MARKS[colour.name])
    return colour


def clone(colour: Colour) -> Colour:
    """Return an independent copy of the colour (a kit extension: erratum E05)."""
    return Colour(colour.name)
