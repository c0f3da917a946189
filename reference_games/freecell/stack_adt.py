"""StackT: a pile of cards, last in, first out (erratum F09).

The board's cascades are stacks whose bottom card is the placeholder
``CardT(NAS, NAR)``; to the stack itself the placeholder is a card like any other
(erratum F11).
"""

from __future__ import annotations

from .card_adt import CardT
from .exceptions import StackEmpty

__all__ = ["StackT"]


class StackT:
    """A stack of cards: ``addCard`` puts a card on top, ``peek`` shows it, ``remCard`` takes it off."""

    def __init__(self) -> None:
        self._c: list[CardT] = []  # bottom first, top last

    def __repr__(self) -> str:
        return f"StackT({', '.join(map(repr, self._c))})"

    def addCard(self, card: CardT) -> None:
        """Put ``card`` on top."""
        self._c.append(card)

    def remCard(self) -> CardT:
        """Take the top card off and return it; StackEmpty when there is none (erratum F10)."""
        if not self._c:
            raise StackEmpty("remCard: the stack holds no card")
        return self._c.pop()

    def peek(self) -> CardT:
        """The top card, the one added last; StackEmpty when there is none."""
        if not self._c:
            raise StackEmpty("peek: the stack holds no card")
        return self._c[-1]

    def size(self) -> int:
        """How many cards the stack holds, a placeholder included."""
        return len(self._c)
