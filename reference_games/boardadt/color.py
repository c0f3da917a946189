"""color_type: the colour of a checker, and of the player who owns it.

The Pascal unit declares ``color_type = (red, blue)``, an enumeration with no
operations; here it is an :class:`enum.Enum` and its two members, exported as the
constants ``red`` and ``blue`` that the rest of the package uses.
"""

from __future__ import annotations

import enum


class Color(enum.Enum):
    """The two colours, in the order the enumeration declares them."""

    red = "red"
    blue = "blue"

    def __repr__(self) -> str:
        return f"Color.{self.name}"


red = Color.red
"""The first player's colour: red begins every game."""

blue = Color.blue
"""The second player's colour."""
