"""value_type: what a square contains, empty or a checker of some colour.

A Pascal record becomes an attrs class: ``Value(empty, color)``, read as
``value.empty`` and ``value.color``. Its fields may be written, as the record's may, and
it hashes by its fields, so that a board of a student's own may keep one record per
square and change it in place, or keep records in a set: when a student's board is
graded beside this module (a hybrid, ``docs/grading.rst``), it must work whichever the
board does. The colour of an empty square means nothing (erratum B09); ``Value(True)``
leaves it ``None``.
"""

from __future__ import annotations

import attrs

from spec import require

from .color import Color


@attrs.define(unsafe_hash=True)
class Value:
    """The contents of a square: ``empty``, and when not empty the checker's ``color``."""

    empty: bool
    color: Color | None = None

    def __attrs_post_init__(self) -> None:
        require(self.empty or self.color is not None, "value_type.Value", "a value that is not empty needs a colour, red or blue")
