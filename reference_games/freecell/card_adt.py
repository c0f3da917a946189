"""CardT: a playing card, and the enumerations SuitT, RankT and ColourT.

A card is a suit and a rank and never changes. The placeholder ``CardT(NAS, NAR)``
stands for "no card": it fills an empty free cell or foundation and sits at the bottom
of every cascade of the board. ``isValid`` tells a real card from it (erratum F01).
"""

from __future__ import annotations

from enum import Enum, IntEnum

import attrs

__all__ = ["CardT", "ColourT", "RankT", "SuitT"]


class SuitT(Enum):
    """A card's suit; NAS (not a suit) is the placeholder's."""

    NAS = 0
    SPADES = 1
    CLUBS = 2
    HEARTS = 3
    DIAMONDS = 4


class RankT(IntEnum):
    """A card's rank, numbered so that the MIS's rank arithmetic holds (erratum F03); NAR is the placeholder's."""

    NAR = 0
    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13


class ColourT(Enum):
    """A card's colour; NAC (no colour) is the placeholder's."""

    NAC = 0
    RED = 1
    BLACK = 2


_COLOUR = {
    SuitT.NAS: ColourT.NAC,
    SuitT.SPADES: ColourT.BLACK,
    SuitT.CLUBS: ColourT.BLACK,
    SuitT.HEARTS: ColourT.RED,
    SuitT.DIAMONDS: ColourT.RED,
}


@attrs.frozen(repr=False)
class CardT:
    """A card of the given suit and rank (``CardT(SuitT.HEARTS, RankT.SEVEN)``).

    Cards are immutable values, so the board shares them freely; two cards with the
    same suit and rank are equal.
    """

    _s: SuitT = attrs.field(alias="suit")
    _r: RankT = attrs.field(alias="rank")

    def __repr__(self) -> str:
        return f"CardT({self._s.name}, {self._r.name})"

    def getSuit(self) -> SuitT:
        """The card's suit."""
        return self._s

    def getRank(self) -> RankT:
        """The card's rank."""
        return self._r

    def isValid(self) -> bool:
        """Whether this is a real card: a real suit and a real rank, not the placeholder (erratum F01)."""
        return self._s is not SuitT.NAS and self._r is not RankT.NAR

    def getColour(self) -> ColourT:
        """The colour of the card's suit: spades and clubs are black, hearts and diamonds red (erratum F02)."""
        return _COLOUR[self._s]
