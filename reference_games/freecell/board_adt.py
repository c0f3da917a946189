"""BoardT: the state of a game of Freecell.

Eight cascades (indices 0 to 7), four free cells and four foundations (0 to 3). Each
cascade is a :class:`StackT` with the placeholder ``CardT(NAS, NAR)`` at its bottom;
an empty free cell or foundation holds the placeholder too, and a foundation holds
only its top card. A move takes one card and changes the board in place; a refused
move raises one of the MIS's exceptions and changes nothing (errata F18, F25).

The helpers below are the MIS's local functions, repaired by the errata: a card goes
onto a cascade whose top card is of the other colour and one rank higher, or onto an
empty cascade (errata F19, F20); onto a foundation of its suit whose top card is one
rank lower, an ace onto an empty foundation (erratum F21).
"""

from __future__ import annotations

from .card_adt import CardT, ColourT, RankT, SuitT
from .deck_adt import DeckT
from .exceptions import (
    InvalidIndex,
    NotAlternatingColour,
    NotAscendingRank,
    NotDecendingRank,
    NotSameSuit,
    OccupiedCell,
    StackEmpty,
    UnoccupiedCell,
)
from .stack_adt import StackT

__all__ = ["BoardT", "CASCADES", "CELLS", "FOUNDATIONS", "PLACEHOLDER"]

CASCADES, CELLS, FOUNDATIONS = 8, 4, 4
PLACEHOLDER = CardT(SuitT.NAS, RankT.NAR)
"""The card that stands for no card (``isValid()`` is false)."""


class BoardT:
    """A Freecell board, dealt from a shuffled deck when made."""

    def __init__(self) -> None:
        self._dek = DeckT()
        self._dek.shuffle()
        self._col = [_empty_cascade() for _ in range(CASCADES)]
        dealt = 0
        while self._dek.size() > 0:  # round the cascades: 7, 7, 7, 7, 6, 6, 6, 6 (erratum F15)
            self._col[dealt % CASCADES].addCard(self._dek.draw())
            self._dek.remCard()
            dealt += 1
        self._fre = [PLACEHOLDER] * CELLS
        self._fou = [PLACEHOLDER] * FOUNDATIONS

    def __repr__(self) -> str:
        return f"BoardT(col={self._col}, fre={self._fre}, fou={self._fou})"

    # -- looking at the board ------------------------------------------------------------

    def hasWon(self) -> bool:
        """Whether every cascade and free cell is empty and the foundations hold four kings of four suits."""
        return (
            all(_stack_empty(s) for s in self._col)
            and all(not c.isValid() for c in self._fre)
            and _foundation_complete(self._fou)
        )

    def getStack(self, i: int) -> StackT:
        """Cascade ``i`` (0 to 7), the board's own stack."""
        _check(_in_range(i, CASCADES), f"getStack: cascade {i!r} is not from 0 to 7")
        return self._col[i]

    def getFree(self, i: int) -> CardT:
        """The card in free cell ``i`` (0 to 3); the placeholder when it is empty."""
        _check(_in_range(i, CELLS), f"getFree: free cell {i!r} is not from 0 to 3")
        return self._fre[i]

    def getWin(self, i: int) -> CardT:
        """The top card of foundation ``i`` (0 to 3); the placeholder when it is empty."""
        _check(_in_range(i, FOUNDATIONS), f"getWin: foundation {i!r} is not from 0 to 3")
        return self._fou[i]

    # -- setting up a position -------------------------------------------------------------

    def setStack(self, i: int, stack: StackT) -> None:
        """Make ``stack`` cascade ``i`` (0 to 7); it should have the placeholder at its bottom (erratum F27)."""
        _check(_in_range(i, CASCADES), f"setStack: cascade {i!r} is not from 0 to 7")
        self._col[i] = stack

    def setFree(self, i: int, card: CardT) -> None:
        """Put ``card`` in free cell ``i`` (0 to 3) (erratum F17)."""
        _check(_in_range(i, CELLS), f"setFree: free cell {i!r} is not from 0 to 3")
        self._fre[i] = card

    def setWin(self, i: int, card: CardT) -> None:
        """Make ``card`` the top of foundation ``i`` (0 to 3) (erratum F17)."""
        _check(_in_range(i, FOUNDATIONS), f"setWin: foundation {i!r} is not from 0 to 3")
        self._fou[i] = card

    # -- the moves -------------------------------------------------------------------------

    def moveColToCol(self, a: int, b: int) -> None:
        """Move the top card of cascade ``a`` onto cascade ``b``."""
        _check(_valid_index(CASCADES, CASCADES, a, b), f"moveColToCol: cascades {a!r} and {b!r} must be from 0 to 7")
        source = self._col[a]
        _require_card(source, a)
        card = source.peek()
        _check_builds_on(card, self._col[b])
        source.remCard()
        self._col[b].addCard(card)

    def moveColToFree(self, a: int, b: int) -> None:
        """Move the top card of cascade ``a`` into free cell ``b``."""
        _check(_valid_index(CASCADES, CELLS, a, b), f"moveColToFree: cascade {a!r} must be from 0 to 7 and free cell {b!r} from 0 to 3")
        source = self._col[a]
        _require_card(source, a)
        if self._fre[b].isValid():
            raise OccupiedCell(f"free cell {b} already holds {self._fre[b]!r}")
        self._fre[b] = source.peek()
        source.remCard()

    def moveFreeToCol(self, a: int, b: int) -> None:
        """Move the card of free cell ``a`` onto cascade ``b``."""
        _check(_valid_index(CELLS, CASCADES, a, b), f"moveFreeToCol: free cell {a!r} must be from 0 to 3 and cascade {b!r} from 0 to 7")
        card = self._occupied_cell(a)
        _check_builds_on(card, self._col[b])
        self._fre[a] = PLACEHOLDER
        self._col[b].addCard(card)

    def moveColToWin(self, a: int, b: int) -> None:
        """Move the top card of cascade ``a`` onto foundation ``b``."""
        _check(_valid_index(CASCADES, FOUNDATIONS, a, b), f"moveColToWin: cascade {a!r} must be from 0 to 7 and foundation {b!r} from 0 to 3")
        source = self._col[a]
        _require_card(source, a)
        card = source.peek()
        _check_goes_home(card, self._fou[b])
        source.remCard()
        self._fou[b] = card

    def moveFreeToWin(self, a: int, b: int) -> None:
        """Move the card of free cell ``a`` onto foundation ``b`` (erratum F22)."""
        _check(_valid_index(CELLS, FOUNDATIONS, a, b), f"moveFreeToWin: free cell {a!r} and foundation {b!r} must be from 0 to 3")
        card = self._occupied_cell(a)
        _check_goes_home(card, self._fou[b])
        self._fre[a] = PLACEHOLDER
        self._fou[b] = card

    def isValidMoves(self) -> bool:
        """Whether at least one of the five moves is legal somewhere on the board (erratum F26)."""
        tops = [s.peek() for s in self._col if not _stack_empty(s)]
        cells = [c for c in self._fre if c.isValid()]
        if any(_goes_home(card, top) for card in tops + cells for top in self._fou):
            return True
        if tops and any(not c.isValid() for c in self._fre):
            return True  # a card can go to a free cell
        if len(tops) < CASCADES and (tops or cells):
            return True  # a card can go to an empty cascade
        return any(_builds_on(card, top) for card in tops + cells for top in tops)

    def _occupied_cell(self, a: int) -> CardT:
        card = self._fre[a]
        if not card.isValid():
            raise UnoccupiedCell(f"free cell {a} holds no card")
        return card


# The MIS's local functions, as private helpers --------------------------------------------


def _empty_cascade() -> StackT:
    stack = StackT()
    stack.addCard(PLACEHOLDER)
    return stack


def _check(holds: bool, message: str) -> None:
    if not holds:
        raise InvalidIndex(message)


def _in_range(i: object, n: int) -> bool:
    return isinstance(i, int) and 0 <= i < n


def _valid_index(n1: int, n2: int, a: object, b: object) -> bool:
    """ValidIndex: ``a`` is from 0 to n1 - 1 and ``b`` from 0 to n2 - 1."""
    return _in_range(a, n1) and _in_range(b, n2)


def _stack_empty(stack: StackT) -> bool:
    """StackEmpty: no card, or only the placeholder (erratum F11)."""
    return stack.size() == 0 or (stack.size() == 1 and not stack.peek().isValid())


def _require_card(stack: StackT, index: int) -> None:
    if _stack_empty(stack):
        raise StackEmpty(f"cascade {index} is empty")


def _alternating_colour(c1: CardT, c2: CardT) -> bool:
    """AlternatingColour: one card red, the other black."""
    return {c1.getColour(), c2.getColour()} == {ColourT.RED, ColourT.BLACK}


def _increasing_rank(c1: CardT, c2: CardT) -> bool:
    """IncreasingRank: ``c2``'s rank is one more than ``c1``'s."""
    return c1.getRank() == c2.getRank() - 1


def _decreasing_rank(c1: CardT, c2: CardT) -> bool:
    """DecreasingRank: ``c1``'s rank is one less than ``c2``'s, so ``c1`` may go onto ``c2`` (erratum F19)."""
    return c1.getRank() == c2.getRank() - 1


def _same_suit(c1: CardT, c2: CardT) -> bool:
    """SameSuit."""
    return c1.getSuit() == c2.getSuit()


def _builds_on(card: CardT, top: CardT) -> bool:
    return _alternating_colour(card, top) and _decreasing_rank(card, top)


def _check_builds_on(card: CardT, cascade: StackT) -> None:
    """Refuse ``card`` on ``cascade`` unless the cascade is empty (erratum F20) or its top card takes it."""
    if _stack_empty(cascade):
        return
    top = cascade.peek()
    if not _alternating_colour(card, top):
        raise NotAlternatingColour(f"{card!r} cannot go on {top!r}: not alternating colour")
    if not _decreasing_rank(card, top):
        raise NotDecendingRank(f"{card!r} cannot go on {top!r}: not descending rank")


def _goes_home(card: CardT, top: CardT) -> bool:
    if not top.isValid():
        return card.getRank() == RankT.ACE
    return _same_suit(card, top) and _increasing_rank(top, card)


def _check_goes_home(card: CardT, top: CardT) -> None:
    """Refuse ``card`` on a foundation with ``top`` unless it is the next card of its suit (an ace on an empty one, erratum F21)."""
    if not top.isValid():
        if card.getRank() != RankT.ACE:
            raise NotAscendingRank(f"{card!r} cannot start a foundation: only an ace can")
        return
    if not _same_suit(card, top):
        raise NotSameSuit(f"{card!r} cannot go on {top!r}: not the same suit")
    if not _increasing_rank(top, card):
        raise NotAscendingRank(f"{card!r} cannot go on {top!r}: not ascending rank")


def _foundation_complete(foundations: list[CardT]) -> bool:
    """FoundationComplete: four kings, each of a different real suit."""
    suits = {c.getSuit() for c in foundations}
    return all(c.getRank() == RankT.KING for c in foundations) and SuitT.NAS not in suits and len(suits) == len(foundations)
