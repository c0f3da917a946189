"""value_type: what a square contains, empty or a checker of some colour.

A Pascal record becomes a frozen attrs class: ``Value(empty, color)``, read as
``value.empty`` and ``value.color``. The colour of an empty square means nothing
(erratum B09); ``Value(True)`` leaves it ``None``.
"""

from __future__ import annotations

import attrs

from spec import require

from .color import Color


@attrs.frozen
class Value:
    """The contents of a square: ``empty``, and when not empty the checker's ``color``."""

    empty: bool
    color: Color | None = None

    def __attrs_post_init__(self) -> None:
        require(self.empty or self.color is not None, "value_type.Value", "a value that is not empty needs a colour, red or blue")
