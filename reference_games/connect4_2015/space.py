"""Space: what a square of the grid holds, and the colour of a disc or a player."""

from enum import Enum


class Space(Enum):
    """Red, Blue or Empty (the report's Colour enumeration was merged into this one)."""

    Red = "Red"
    Blue = "Blue"
    Empty = "Empty"
