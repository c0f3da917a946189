"""Shared models, Hypothesis strategies and helpers of the Freecell conformance suite.

The model is the suite's own and shares nothing with any implementation. A card is a
pair ``(suit, rank)`` of a suit name (``"SPADES"``) and a rank number (1 for the ace
to 13 for the king); the placeholder ``CardT(NAS, NAR)`` is ``None``. A position is a
:class:`Position`: eight cascades (lists of cards, bottom first, placeholder left out),
four free cells and four foundations (a card or ``None``; a foundation holds its top
card). Its methods say which moves are legal and, for an illegal one, which exceptions
the errata accept.

:class:`Reach` makes and reads the implementation's cards, stacks and boards through
the traced operations of ``impl``: cards are compared through ``getSuit``/``getRank``
and the implementation's own enumeration members, never with ``==`` on cards.
"""

from __future__ import annotations

import re
from typing import Any, Callable

from hypothesis import strategies as st

from speckit.testing import ConformanceFailure, MissingOperation, OperationFailed, expect, explain

SUITS = ("SPADES", "CLUBS", "HEARTS", "DIAMONDS")
ALL_SUITS = ("NAS", *SUITS)
RANK_NAMES = ("NAR", "ACE", "TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE", "TEN", "JACK", "QUEEN", "KING")
COLOURS = ("NAC", "RED", "BLACK")
COLOUR_OF = {"NAS": "NAC", "SPADES": "BLACK", "CLUBS": "BLACK", "HEARTS": "RED", "DIAMONDS": "RED"}
PACK = tuple((suit, rank) for suit in SUITS for rank in range(1, 14))
CASCADES, CELLS, FOUNDATIONS = 8, 4, 4
SYMBOL = {"SPADES": "♠", "CLUBS": "♣", "HEARTS": "♥", "DIAMONDS": "♦"}

# Exception names the suite accepts for each MIS exception (errata F12, F13): a class is
# recognised by its name, and either name of a pair is accepted wherever one is.
INVALID_INDEX = ("InvalidIndex",)
STACK_EMPTY = ("StackEmpty", "IsEmpty")
OCCUPIED_CELL = ("OccupiedCell",)
UNOCCUPIED_CELL = ("UnoccupiedCell",)
NOT_ALTERNATING = ("NotAlternatingColour",)
NOT_DESCENDING = ("NotDecendingRank", "NotDecreasingRank")
NOT_SAME_SUIT = ("NotSameSuit",)
NOT_ASCENDING = ("NotAscendingRank",)


def shown(card) -> str:
    """A model card as people write it: ``7♥``; the placeholder as ``(placeholder)``."""
    if card is None:
        return "(placeholder)"
    suit, rank = card
    return f"{ {1: 'A', 11: 'J', 12: 'Q', 13: 'K'}.get(rank, str(rank)) }{SYMBOL.get(suit, suit)}".replace(" ", "")


def colour(card) -> str:
    return COLOUR_OF[card[0]]


# The model --------------------------------------------------------------------------------


class Position:
    """A Freecell position with the rules as the errata rule them."""

    def __init__(self, cascades, cells=(None,) * CELLS, foundations=(None,) * FOUNDATIONS) -> None:
        self.cascades: list[list] = [list(c) for c in cascades]
        self.cells: list = list(cells)
        self.foundations: list = list(foundations)

    def copy(self) -> "Position":
        return Position(self.cascades, self.cells, self.foundations)

    def as_tuple(self) -> tuple:
        return (tuple(map(tuple, self.cascades)), tuple(self.cells), tuple(self.foundations))

    def __eq__(self, other) -> bool:
        return isinstance(other, Position) and self.as_tuple() == other.as_tuple()

    def describe(self) -> str:
        lines = [f"cascade {i}: {' '.join(map(shown, c)) or '(empty)'}" for i, c in enumerate(self.cascades)]
        lines.append("free cells: " + " ".join(shown(c) for c in self.cells))
        lines.append("foundations: " + " ".join(shown(c) for c in self.foundations))
        return "\n".join(lines)

    def won(self) -> bool:
        tops = self.foundations
        return (
            not any(self.cascades)
            and all(c is None for c in self.cells)
            and all(t is not None and t[1] == 13 for t in tops)
            and len({t[0] for t in tops if t}) == FOUNDATIONS
        )

    # Why a move is refused: the exceptions whose conditions hold (erratum F25), or () when legal.

    @staticmethod
    def _builds(card, cascade) -> tuple:
        if not cascade:
            return ()  # erratum F20
        top = cascade[-1]
        faults = []
        if colour(card) == colour(top):
            faults += NOT_ALTERNATING
        if card[1] != top[1] - 1:
            faults += NOT_DESCENDING
        return tuple(faults)

    @staticmethod
    def _homes(card, top) -> tuple:
        if top is None:  # erratum F21: an ace starts a foundation; any other card breaks
            return () if card[1] == 1 else NOT_ASCENDING + NOT_SAME_SUIT  # both rules (F25)
        faults = []
        if card[0] != top[0]:
            faults += NOT_SAME_SUIT
        if card[1] != top[1] + 1:
            faults += NOT_ASCENDING
        return tuple(faults)

    def refusal(self, move: str, a: int, b: int) -> tuple:
        """The exception names accepted for ``move(a, b)``, or () when the move is legal."""
        sizes = {"Col": CASCADES, "Free": CELLS, "Win": FOUNDATIONS}
        source, target = MOVE_PARTS[move]
        if not (0 <= a < sizes[source] and 0 <= b < sizes[target]):
            return INVALID_INDEX
        # Erratum F25: any exception whose condition holds. A full target cell is refused
        # whatever the source holds, so it is accepted beside an empty source. An empty
        # source cell is unoccupied_cell in the table, occupied_cell in the semantics (F14).
        occupied = OCCUPIED_CELL if target == "Free" and self.cells[b] is not None else ()
        if source == "Col":
            if not self.cascades[a]:
                return STACK_EMPTY + occupied
            card = self.cascades[a][-1]
        else:
            card = self.cells[a]
            if card is None:
                return UNOCCUPIED_CELL + OCCUPIED_CELL  # erratum F14
        if target == "Col":
            return self._builds(card, self.cascades[b])
        if target == "Free":
            return occupied
        return self._homes(card, self.foundations[b])

    def refusal_as_written(self, move: str, a: int, b: int) -> tuple:
        """For a legal move onto an empty cascade, the exceptions the MIS's conditions raise
        for it taken literally (erratum F20: such a move may be made or refused); () for any
        other move. The placeholder on top has no colour and no rank one above the card's,
        and moveFreeToCol's semantics (and its table) refuse an empty target cascade."""
        source, target = MOVE_PARTS[move]
        if target != "Col" or self.refusal(move, a, b) or self.cascades[b]:
            return ()
        return NOT_ALTERNATING + NOT_DESCENDING + (STACK_EMPTY if source == "Free" else ())

    def play(self, move: str, a: int, b: int) -> None:
        """Make a legal move on the model."""
        source, target = MOVE_PARTS[move]
        card = self.cascades[a].pop() if source == "Col" else self.cells[a]
        if source == "Free":
            self.cells[a] = None
        if target == "Col":
            self.cascades[b].append(card)
        elif target == "Free":
            self.cells[b] = card
        else:
            self.foundations[b] = card

    def legal_moves(self) -> list[tuple[str, int, int]]:
        sizes = {"Col": CASCADES, "Free": CELLS, "Win": FOUNDATIONS}
        found = []
        for move, (source, target) in MOVE_PARTS.items():
            for a in range(sizes[source]):
                for b in range(sizes[target]):
                    if not self.refusal(move, a, b):
                        found.append((move, a, b))
        return found

    def legal_moves_without_empty_cascades(self) -> list[tuple[str, int, int]]:
        """The legal moves, leaving out those onto an empty cascade."""
        return [(m, a, b) for m, a, b in self.legal_moves() if not (MOVE_PARTS[m][1] == "Col" and not self.cascades[b])]

    def moves_of_the_formula(self) -> list[tuple[str, int, int]]:
        """The legal moves that the MIS's formula for isValidMoves counts, read word for word
        (erratum F26): none onto an empty cascade, and none onto an empty foundation (SameSuit
        of a card and the placeholder never holds)."""
        return [(m, a, b) for m, a, b in self.legal_moves_without_empty_cascades() if not (MOVE_PARTS[m][1] == "Win" and self.foundations[b] is None)]

    def is_valid_moves_answers(self) -> set[bool]:
        """The answers of isValidMoves that erratum F26 accepts: a legal move exists (the
        rules), or one the formula counts exists (the formula); also the reading between
        them that leaves out only the moves onto an empty cascade."""
        return {bool(self.legal_moves()), bool(self.legal_moves_without_empty_cascades()), bool(self.moves_of_the_formula())}


MOVE_PARTS = {
    "moveColToCol": ("Col", "Col"),
    "moveColToFree": ("Col", "Free"),
    "moveFreeToCol": ("Free", "Col"),
    "moveColToWin": ("Col", "Win"),
    "moveFreeToWin": ("Free", "Win"),
}
MOVES = tuple(MOVE_PARTS)


# Strategies -------------------------------------------------------------------------------

real_cards = st.sampled_from(PACK)
suit_names = st.sampled_from(SUITS)
ranks = st.integers(1, 13)


@st.composite
def positions(draw, *, max_home: int = 13) -> Position:
    """A position holding each of the 52 cards once: some suits partly home, a few cards in
    free cells, the rest spread over the cascades (some of which may be empty)."""
    order = draw(st.permutations(SUITS))
    heights = [draw(st.integers(0, max_home)) for _ in SUITS]
    slots = draw(st.permutations(range(FOUNDATIONS)))
    foundations = [None] * FOUNDATIONS
    rest = []
    for suit, height, slot in zip(order, heights, slots):
        if height:
            foundations[slot] = (suit, height)
        rest += [(suit, rank) for rank in range(height + 1, 14)]
    rest = draw(st.permutations(rest))
    cells = [None] * CELLS
    in_cells = draw(st.integers(0, min(CELLS, len(rest))))
    for slot in draw(st.permutations(range(CELLS)))[:in_cells]:
        cells[slot] = rest.pop()
    cuts = sorted(draw(st.lists(st.integers(0, len(rest)), min_size=CASCADES - 1, max_size=CASCADES - 1)))
    bounds = [0, *cuts, len(rest)]
    cascades = [rest[bounds[i]:bounds[i + 1]] for i in range(CASCADES)]
    return Position(cascades, cells, foundations)


def dealt(permutation) -> Position:
    """The standard deal of the 52 cards in this order: card k goes to cascade k mod 8."""
    cascades = [[] for _ in range(CASCADES)]
    for k, card in enumerate(permutation):
        cascades[k % CASCADES].append(card)
    return Position(cascades)


deals = st.permutations(PACK).map(dealt)
"""Freshly dealt positions, in the standard layout (erratum F15)."""

won = Position([[] for _ in range(CASCADES)], foundations=[(s, 13) for s in SUITS])


# Reaching the implementation -----------------------------------------------------------------


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


class Reach:
    """The implementation's cards, stacks and boards, made and read through its documented operations."""

    def __init__(self, impl) -> None:
        self.impl = impl
        self.card = impl.card_adt
        self.deck = impl.deck_adt
        self.stack = impl.stack_adt
        self.board = impl.board_adt
        module = impl.module("card_adt")
        self.suits = self._members(module, "SuitT", ALL_SUITS)
        self.ranks = self._members(module, "RankT", RANK_NAMES)
        self.colours = self._members(module, "ColourT", COLOURS)

    @staticmethod
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

    # cards

    def make_card(self, card):
        """``CardT(suit, rank)`` for a model card; the placeholder for None."""
        if card is None:
            return self.card.CardT(self.suits["NAS"], self.ranks["NAR"])
        return self.card.CardT(self.suits[card[0]], self.ranks[RANK_NAMES[card[1]]])

    def name_of(self, value, members: dict, what: str) -> str:
        """The name of the enumeration member ``value`` is (compared with ``==``)."""
        name = getattr(value, "name", None)  # an Enum member's own name: one read, not five comparisons
        if type(name) is str and name in members:
            return name
        for name, member in members.items():
            if value == member:
                return name
        raise ConformanceFailure(explain(f"{what} is a member of its enumeration", expected=" or ".join(members), actual=value))

    def read_card(self, value, where: str):
        """The model of an implementation's card: (suit, rank), or None for the placeholder."""
        return self.read_cards([value], where)[0]

    def read_cards(self, values: list, where: str) -> list:
        """The models of several cards, asked for together (one round trip in the sandbox)."""
        answers = self.impl.batch(lambda: [(self.card.getSuit(v), self.card.getRank(v)) for v in values])
        return [self._model_card(suit, rank, where) for suit, rank in answers]

    def _model_card(self, suit, rank, where: str):
        suit = self.name_of(suit, self.suits, f"getSuit() of {where}")
        rank = RANK_NAMES.index(self.name_of(rank, self.ranks, f"getRank() of {where}"))
        if suit == "NAS" and rank == 0:
            return None
        expect(suit != "NAS" and rank != 0, f"{where} is a real card or the placeholder CardT(NAS, NAR)", expected="a real card", actual=(suit, RANK_NAMES[rank]))
        return (suit, rank)

    # stacks

    def make_stack(self, cards, *, placeholder: bool = True):
        """``StackT()`` and ``addCard`` of the placeholder (the board's invariant), then the cards, bottom first."""
        stack = self.stack.StackT()
        for card in ([None] if placeholder else []) + list(cards):
            self.stack.addCard(stack, self.make_card(card))
        return stack

    def read_stack(self, stack, where: str) -> list:
        """The cards of a stack, bottom first (placeholders as None), read by taking all but
        the bottom card off with peek and remCard, showing the bottom card with peek, and
        putting the others back with addCard (erratum F18). The bottom card is never
        removed: whether remCard takes the placeholder off a stack that holds only it is
        left open (erratum F11)."""
        size = self.stack.size(stack)
        expect(isinstance(size, int) and 0 <= size <= 60, f"size() of {where} is a natural number", expected="0 to 53", actual=size)
        if size == 0:
            return []
        taken = self.impl.batch(lambda: [(self.stack.peek(stack), self.stack.remCard(stack))[0] for _ in range(size - 1)] + [self.stack.peek(stack)])
        self.impl.batch(lambda: [self.stack.addCard(stack, card) for card in reversed(taken[:-1])])
        return self.read_cards(list(reversed(taken)), f"a card of {where}")

    def read_cascade(self, board, i: int) -> list:
        """Cascade i's real cards, bottom first: a placeholder at the bottom is left out (erratum F15)."""
        cards = self.read_stack(self.board.getStack(board, i), f"getStack({i})")
        if cards and cards[0] is None:
            cards = cards[1:]
        return cards

    # boards

    def make_board(self, position: Position):
        """``BoardT()``, then the position set up with setStack, setFree and setWin."""
        board = self.board.BoardT()
        self.set_up(board, position)
        return board

    def set_up(self, board, position: Position) -> None:
        for i, cascade in enumerate(position.cascades):
            self.board.setStack(board, i, self.make_stack(cascade))
        for i, card in enumerate(position.cells):
            self.board.setFree(board, i, self.make_card(card))
        for i, card in enumerate(position.foundations):
            self.board.setWin(board, i, self.make_card(card))

    def read_board(self, board) -> Position:
        cascades = [self.read_cascade(board, i) for i in range(CASCADES)]
        cells = self.read_cards([self.board.getFree(board, i) for i in range(CELLS)], "a free cell (getFree)")
        tops = self.read_cards([self.board.getWin(board, i) for i in range(FOUNDATIONS)], "a foundation (getWin)")
        return Position(cascades, cells, tops)


def differences(actual: Position, expected: Position) -> list[str]:
    """Where two positions differ, in words."""
    out = []
    for i, (a, e) in enumerate(zip(actual.cascades, expected.cascades)):
        if a != e:
            out.append(f"cascade {i}: {' '.join(map(shown, a)) or '(empty)'} (expected {' '.join(map(shown, e)) or '(empty)'})")
    for name, xs, ys in (("free cell", actual.cells, expected.cells), ("foundation", actual.foundations, expected.foundations)):
        for i, (a, e) in enumerate(zip(xs, ys)):
            if a != e:
                out.append(f"{name} {i}: {shown(a)} (expected {shown(e)})")
    return out


def expect_position(reach: Reach, board, expected: Position, claim: str) -> None:
    __tracebackhide__ = True
    diffs = differences(reach.read_board(board), expected)
    expect(not diffs, claim, expected=expected.describe(), actual=diffs)


def expect_raises(impl, call: Callable[[], Any], accepted: tuple, claim: str) -> None:
    """The call raises an exception whose class is named one of ``accepted``."""
    __tracebackhide__ = True
    name = raised(impl, call)
    expect(name in accepted, claim, expected=f"raises {' or '.join(accepted)}", actual="returned normally" if name is None else f"raised {name}")
