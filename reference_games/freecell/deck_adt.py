"""DeckT: a deck of the 52 real cards, each at most once (erratum F04).

``draw`` shows the card that ``remCard`` removes next, the last of the deck's sequence
(errata F05, F07); ``shuffle`` puts the cards the deck holds in a random order
(erratum F08).
"""

from __future__ import annotations

import random

from .card_adt import CardT, RankT, SuitT
from .exceptions import StackEmpty

__all__ = ["DeckT"]


class DeckT:
    """A deck of cards, made full: every real suit with every real rank, in suit order."""

    def __init__(self) -> None:
        self._d: list[CardT] = [
            CardT(suit, rank) for suit in SuitT if suit is not SuitT.NAS for rank in RankT if rank is not RankT.NAR
        ]

    def __repr__(self) -> str:
        return f"DeckT({len(self._d)} cards)"

    def remCard(self) -> None:
        """Remove the card ``draw`` shows; StackEmpty when the deck is empty (erratum F06)."""
        if not self._d:
            raise StackEmpty("remCard: the deck is empty")
        self._d.pop()

    def draw(self) -> CardT:
        """The card ``remCard`` would remove next, left in the deck; StackEmpty when the deck is empty."""
        if not self._d:
            raise StackEmpty("draw: the deck is empty")
        return self._d[-1]

    def shuffle(self) -> None:
        """Put the deck's cards in a random order."""
        random.shuffle(self._d)

    def size(self) -> int:
        """How many cards are left in the deck."""
        return len(self._d)
