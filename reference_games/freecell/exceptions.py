"""The exceptions of the Freecell MIS, one class per exception name.

Each class is named by the CamelCase of the MIS's name (``invalid_index`` is
:class:`InvalidIndex`). ``NotDecreasingRank`` is a misspelling of
:class:`NotDecendingRank`, so it names the same class (erratum F13). ``IsEmpty`` and
``StackEmpty`` are the MIS's two names for "no card to take": this reference binds both
to one class, and two classes would do as well (erratum F12).
"""

__all__ = [
    "FreecellError",
    "InvalidIndex",
    "IsEmpty",
    "NotAlternatingColour",
    "NotAscendingRank",
    "NotDecendingRank",
    "NotDecreasingRank",
    "NotSameSuit",
    "OccupiedCell",
    "StackEmpty",
    "UnoccupiedCell",
]


class FreecellError(Exception):
    """The common base of the MIS's exceptions, so a program can catch any refused move."""


class InvalidIndex(FreecellError):
    """An index is outside its range: cascades 0 to 7, free cells and foundations 0 to 3."""


class StackEmpty(FreecellError):
    """There is no card to take: an empty stack or deck, or an empty cascade."""


IsEmpty = StackEmpty


class OccupiedCell(FreecellError):
    """A card is moved into a free cell that already holds one."""


class UnoccupiedCell(FreecellError):
    """A card is moved out of a free cell that holds none (erratum F14)."""


class NotAlternatingColour(FreecellError):
    """A card is moved onto a cascade whose top card has the same colour."""


class NotDecendingRank(FreecellError):
    """A card is moved onto a cascade whose top card is not one rank higher."""


NotDecreasingRank = NotDecendingRank


class NotSameSuit(FreecellError):
    """A card is moved onto a foundation of another suit."""


class NotAscendingRank(FreecellError):
    """A card is moved onto a foundation whose top card is not one rank lower (an empty one takes an ace)."""
