"""The standard Freecell notation, and the names of cards as people write them.

Cascades are ``1`` to ``8``, free cells ``a`` to ``d`` and the foundations ``h``
(home): ``1a`` moves the top card of cascade 1 to free cell a, ``a3`` free cell a onto
cascade 3, ``3h`` cascade 3 home, ``ah`` free cell a home, ``15`` cascade 1 onto
cascade 5. Moves are translated to the MIS's routines, whose indices count from 0.
"""

from __future__ import annotations

import attrs

SYMBOLS = {"SPADES": "♠", "CLUBS": "♣", "HEARTS": "♥", "DIAMONDS": "♦"}
LETTERS = {"SPADES": "S", "CLUBS": "C", "HEARTS": "H", "DIAMONDS": "D"}
RANKS = {1: "A", 10: "T", 11: "J", 12: "Q", 13: "K"}
CELL_NAMES = "abcd"


def card_name(card: tuple[str, int] | None, *, ascii: bool = False) -> str:
    """``7♥`` (or ``7H``), ``10`` written ``T``; ``--`` for no card."""
    if card is None:
        return "--"
    suit, rank = card
    return f"{RANKS.get(rank, str(rank))}{(LETTERS if ascii else SYMBOLS)[suit]}"


@attrs.frozen
class Move:
    """A move in the notation: where from and to, as kinds ("col", "free", "home") and 0-based indices.

    A move home has no index until it is placed on a foundation (``to_index`` None).
    """

    source: str
    source_index: int
    target: str
    target_index: int | None

    @property
    def routine(self) -> str:
        """The MIS routine that makes this move: ``moveColToFree`` and so on."""
        part = {"col": "Col", "free": "Free", "home": "Win"}
        return f"move{part[self.source]}To{part[self.target]}"

    def __str__(self) -> str:
        return _place(self.source, self.source_index) + _place(self.target, self.target_index)


def _place(kind: str, index: int | None) -> str:
    if kind == "col":
        return str(index + 1)
    if kind == "free":
        return CELL_NAMES[index]
    return "h"


class NotationError(ValueError):
    """A move is not written in the notation; the message says what is expected."""


def parse(text: str) -> Move:
    """Read a move such as ``1a``, ``a3``, ``3h``, ``ah`` or ``15``."""
    word = text.strip().lower()
    if len(word) != 2:
        raise NotationError(f"{text.strip()!r} is not a move: write two places, such as 1a, a3, 3h, ah or 15")
    source, target = (_read_place(ch, text) for ch in word)
    if source[0] == "home":
        raise NotationError("a card cannot leave the foundations")
    if source[0] == "free" and target[0] == "free":
        raise NotationError("a card cannot move from one free cell to another")
    if source == target:
        raise NotationError(f"{text.strip()!r} moves a card to where it already is")
    return Move(source[0], source[1], target[0], target[1])


def _read_place(ch: str, text: str) -> tuple[str, int | None]:
    if ch in "12345678":
        return "col", int(ch) - 1
    if ch in CELL_NAMES:
        return "free", CELL_NAMES.index(ch)
    if ch == "h":
        return "home", None
    raise NotationError(f"{ch!r} in {text.strip()!r} is not a place: cascades are 1 to 8, free cells a to d, home is h")


def from_routine(routine: str, a: int, b: int) -> Move:
    """The notation of a call of an MIS move routine (``moveColToWin``, 2, 0 is ``3h``)."""
    kinds = {"Col": "col", "Free": "free", "Win": "home"}
    body = routine.removeprefix("move")
    source, _, target = body.partition("To")
    return Move(kinds[source], a, kinds[target], b)
