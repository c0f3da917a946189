"""The Freecell suite's oracle: cards and positions, with the rules as the errata rule them.

The model is the suite's own and shares nothing with any implementation. A card is a
pair ``(suit, rank)`` of a suit name (``"SPADES"``) and a rank number (1 for the ace
to 13 for the king); the placeholder ``CardT(NAS, NAR)`` is ``None``. A position is a
:class:`Position`: eight cascades (lists of cards, bottom first, placeholder left out),
four free cells and four foundations (a card or ``None``; a foundation holds its top
card). Its methods say which moves are legal and, for an illegal one, which exceptions
the errata accept.
"""

from __future__ import annotations

SUITS = ("SPADES", "CLUBS", "HEARTS", "DIAMONDS")
ALL_SUITS = ("NAS", *SUITS)
RANK_NAMES = (
    "NAR",
    "ACE",
    "TWO",
    "THREE",
    "FOUR",
    "FIVE",
    "SIX",
    "SEVEN",
    "EIGHT",
    "NINE",
    "TEN",
    "JACK",
    "QUEEN",
    "KING",
)
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

    def copy(self) -> Position:
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
        return [
            (m, a, b)
            for m, a, b in self.legal_moves_without_empty_cascades()
            if not (MOVE_PARTS[m][1] == "Win" and self.foundations[b] is None)
        ]

    def is_valid_moves_answers(self) -> set[bool]:
        """The answers of isValidMoves that erratum F26 accepts: a legal move exists (the
        rules), or one the formula counts exists (the formula); also the reading between
        them that leaves out only the moves onto an empty cascade."""
        return {
            bool(self.legal_moves()),
            bool(self.legal_moves_without_empty_cascades()),
            bool(self.moves_of_the_formula()),
        }


MOVE_PARTS = {
    "moveColToCol": ("Col", "Col"),
    "moveColToFree": ("Col", "Free"),
    "moveFreeToCol": ("Free", "Col"),
    "moveColToWin": ("Col", "Win"),
    "moveFreeToWin": ("Free", "Win"),
}
MOVES = tuple(MOVE_PARTS)


def differences(actual: Position, expected: Position) -> list[str]:
    """Where two positions differ, in words."""
    out = []
    for i, (a, e) in enumerate(zip(actual.cascades, expected.cascades, strict=True)):
        if a != e:
            out.append(
                f"cascade {i}: {' '.join(map(shown, a)) or '(empty)'} (expected {' '.join(map(shown, e)) or '(empty)'})"
            )
    for name, xs, ys in (
        ("free cell", actual.cells, expected.cells),
        ("foundation", actual.foundations, expected.foundations),
    ):
        for i, (a, e) in enumerate(zip(xs, ys, strict=True)):
            if a != e:
                out.append(f"{name} {i}: {shown(a)} (expected {shown(e)})")
    return out
