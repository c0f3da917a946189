"""The Freecell suite's adapter: :class:`Build` makes the implementation's cards, stacks and boards
from models (:mod:`.model`), :class:`Read` reads them back, through the traced operations of
``impl`` only: cards are compared through ``getSuit``/``getRank`` and the implementation's own
enumeration members, never with ``==`` on cards.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from speckit.testing import ConformanceFailure, MissingOperation, OperationFailed, expect, explain

from .model import ALL_SUITS, CASCADES, CELLS, COLOURS, FOUNDATIONS, RANK_NAMES, Position, differences


class Build:
    """Makes the implementation's cards, stacks and boards; holds its enumeration members by name."""

    def __init__(self, impl) -> None:
        self.impl = impl
        module = impl.module("card_adt")
        self.suits = _members(module, "SuitT", ALL_SUITS)
        self.ranks = _members(module, "RankT", RANK_NAMES)
        self.colours = _members(module, "ColourT", COLOURS)

    def card(self, card):
        """``CardT(suit, rank)`` for a model card; the placeholder for None."""
        if card is None:
            return self.impl.card_adt.CardT(self.suits["NAS"], self.ranks["NAR"])
        return self.impl.card_adt.CardT(self.suits[card[0]], self.ranks[RANK_NAMES[card[1]]])

    def stack(self, cards, *, placeholder: bool = True):
        """``StackT()`` and ``addCard`` of the placeholder (the board's invariant), then the cards, bottom first."""
        ops = self.impl.stack_adt
        stack = ops.StackT()
        for card in ([None] if placeholder else []) + list(cards):
            ops.addCard(stack, self.card(card))
        return stack

    def board(self, position: Position):
        """``BoardT()``, then the position set up with setStack, setFree and setWin."""
        board = self.impl.board_adt.BoardT()
        self.set_up(board, position)
        return board

    def set_up(self, board, position: Position) -> None:
        ops = self.impl.board_adt
        for i, cascade in enumerate(position.cascades):
            ops.setStack(board, i, self.stack(cascade))
        for i, card in enumerate(position.cells):
            ops.setFree(board, i, self.card(card))
        for i, card in enumerate(position.foundations):
            ops.setWin(board, i, self.card(card))


def _members(module, enum: str, names) -> dict:
    holder = getattr(module, enum, None)
    if holder is None:
        raise MissingOperation(f"module card_adt has no enumeration {enum} (members {', '.join(names)})")
    found = {}
    for name in names:
        member = getattr(holder, name, None)
        if member is None:
            raise MissingOperation(f"the enumeration card_adt.{enum} has no member {name}")
        found[name] = member
    return found


class Read:
    """Reads models back from the implementation's cards, stacks and boards.

    It compares with the enumeration members of ``build`` (a new :class:`Build` if none is given).
    """

    def __init__(self, impl, build: Build | None = None) -> None:
        self.impl = impl
        self.build = build or Build(impl)

    def member(self, value, members: dict, what: str) -> str:
        """The name of the enumeration member ``value`` is (compared with ``==``)."""
        name = getattr(value, "name", None)  # an Enum member's own name: one read, not five comparisons
        if type(name) is str and name in members:
            return name
        for name, member in members.items():
            if value == member:
                return name
        raise ConformanceFailure(
            explain(f"{what} is a member of its enumeration", expected=" or ".join(members), actual=value)
        )

    def card(self, value, where: str):
        """The model of an implementation's card: (suit, rank), or None for the placeholder."""
        return self.cards([value], where)[0]

    def cards(self, values: list, where: str) -> list:
        """The models of several cards, asked for together (one round trip in the sandbox)."""
        ops = self.impl.card_adt
        answers = self.impl.batch(lambda: [(ops.getSuit(v), ops.getRank(v)) for v in values])
        return [self._model_card(suit, rank, where) for suit, rank in answers]

    def _model_card(self, suit, rank, where: str):
        suit = self.member(suit, self.build.suits, f"getSuit() of {where}")
        rank = RANK_NAMES.index(self.member(rank, self.build.ranks, f"getRank() of {where}"))
        if suit == "NAS" and rank == 0:
            return None
        expect(
            suit != "NAS" and rank != 0,
            f"{where} is a real card or the placeholder CardT(NAS, NAR)",
            expected="a real card",
            actual=(suit, RANK_NAMES[rank]),
        )
        return (suit, rank)

    def stack(self, stack, where: str) -> list:
        """The cards of a stack, bottom first (placeholders as None), read by taking all but
        the bottom card off with peek and remCard, showing the bottom card with peek, and
        putting the others back with addCard (erratum F18). The bottom card is never
        removed: whether remCard takes the placeholder off a stack that holds only it is
        left open (erratum F11)."""
        ops = self.impl.stack_adt
        size = ops.size(stack)
        expect(
            isinstance(size, int) and 0 <= size <= 60,
            f"size() of {where} is a natural number",
            expected="0 to 53",
            actual=size,
        )
        if size == 0:
            return []
        taken = self.impl.batch(
            lambda: [(ops.peek(stack), ops.remCard(stack))[0] for _ in range(size - 1)] + [ops.peek(stack)]
        )
        self.impl.batch(lambda: [ops.addCard(stack, card) for card in reversed(taken[:-1])])
        return self.cards(list(reversed(taken)), f"a card of {where}")

    def cascade(self, board, i: int) -> list:
        """Cascade i's real cards, bottom first: a placeholder at the bottom is left out (erratum F15)."""
        cards = self.stack(self.impl.board_adt.getStack(board, i), f"getStack({i})")
        if cards and cards[0] is None:
            cards = cards[1:]
        return cards

    def board(self, board) -> Position:
        ops = self.impl.board_adt
        cascades = [self.cascade(board, i) for i in range(CASCADES)]
        cells = self.cards([ops.getFree(board, i) for i in range(CELLS)], "a free cell (getFree)")
        tops = self.cards([ops.getWin(board, i) for i in range(FOUNDATIONS)], "a foundation (getWin)")
        return Position(cascades, cells, tops)


_RAISED = re.compile(r"raised (\w+)")


def raised(impl, call: Callable[[], Any]) -> str | None:
    """Call; the name of the exception class the operation raised, or None if it returned.

    The call runs at once, also in the grading sandbox (which may otherwise send it
    later). A failure that is not an exception of the operation (a time-out, a missing
    operation) is not caught.
    """
    __tracebackhide__ = True
    try:
        impl.batch(call)
    except OperationFailed as e:
        match = _RAISED.search(str(e).split("\n", 1)[0])
        if match is None:
            raise
        return match[1]
    return None


def expect_position(read: Read, board, expected: Position, claim: str) -> None:
    __tracebackhide__ = True
    diffs = differences(read.board(board), expected)
    expect(not diffs, claim, expected=expected.describe(), actual=diffs)


def expect_raises(impl, call: Callable[[], Any], accepted: tuple, claim: str) -> None:
    """The call raises an exception whose class is named one of ``accepted``."""
    __tracebackhide__ = True
    name = raised(impl, call)
    expect(
        name in accepted,
        claim,
        expected=f"raises {' or '.join(accepted)}",
        actual="returned normally" if name is None else f"raised {name}",
    )
