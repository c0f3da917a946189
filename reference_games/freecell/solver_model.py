"""The solver's compact model of a Freecell position, and the moves from it.

A card is a small integer, ``rank * 4 + suit`` (suits 0 and 1 black, 2 and 3 red), so
that ``card >> 2`` is its rank and ``card & 3`` its suit. A state is a triple: the eight
cascades as tuples of cards (bottom card first), the cards in the free cells, and the
rank on top of each suit's foundation (0 for none). States are kept *canonical*: the
cascades and the free cells sorted, so that positions differing only in the order of
the cascades or of the cells are one state.

A move names cards, not places, so that it means the same in every ordering of a
state: ``(card, target)`` moves ``card`` (with the cards above it, when it lies in a
cascade) onto the target, which is :data:`HOME`, :data:`CELL`, :data:`EMPTY` (an empty
cascade) or the card it goes on.
"""

from __future__ import annotations

SUITS = ("SPADES", "CLUBS", "HEARTS", "DIAMONDS")
"""Suit numbers of the model: spades and clubs (0, 1) are black, hearts and diamonds (2, 3) red."""
CELLS = 4
KING = 13

HOME, CELL, EMPTY = -1, -2, -3
"""Targets of a move other than a card: the foundation, a free cell, an empty cascade."""

Cascade = tuple[int, ...]
State = tuple[tuple[Cascade, ...], tuple[int, ...], tuple[int, int, int, int]]
Move = tuple[int, int]


def code(suit: str, rank: int) -> int:
    """The model's number for a card given as (suit name, rank)."""
    return rank * 4 + SUITS.index(suit)


def card(number: int) -> tuple[str, int]:
    """The card (suit name, rank) with the model's number ``number``."""
    return SUITS[number & 3], number >> 2


def state(cascades, cells, home) -> State:
    """The canonical state with these cascades (lists or tuples of numbers), cells and foundation ranks."""
    return tuple(sorted(map(tuple, cascades))), tuple(sorted(cells)), tuple(home)


def won(position: State) -> bool:
    return position[2] == (KING, KING, KING, KING)


PARENTS = {rank * 4 + suit: tuple((rank + 1) * 4 + other for other in ((2, 3) if suit < 2 else (0, 1)))
           for rank in range(1, KING) for suit in range(4)}
"""The two cards each card may go on in a cascade (kings go on none)."""
PARENTS.update({KING * 4 + suit: () for suit in range(4)})


def builds_on(card: int, top: int) -> bool:
    """Whether ``card`` may go on ``top`` in a cascade: one rank lower, of the other colour."""
    return (card >> 2) + 1 == (top >> 2) and (card ^ top) & 2 != 0


def capacity(free_cells: int, empty_cascades: int) -> int:
    """How many cards in sequence single-card moves can carry with this room: (cells + 1) * 2^cascades."""
    return (free_cells + 1) << empty_cascades


def run_length(cascade: Cascade) -> int:
    """How many cards at the top of a non-empty cascade are in sequence (each builds on the one below)."""
    n = 1
    while n < len(cascade) and builds_on(cascade[-n], cascade[-n - 1]):
        n += 1
    return n


def safe_home(home) -> set[int]:
    """The cards that may go home now and can never be wanted in a cascade again: each one
    whose lower cards of the other colour are home (so nothing left could go on it)."""
    black, red = min(home[0], home[1]), min(home[2], home[3])
    safe = set()
    for suit in range(4):
        rank = home[suit] + 1
        if rank <= KING and (rank <= 2 or (red if suit < 2 else black) >= rank - 1):
            safe.add(rank * 4 + suit)
    return safe


def settle(cascades: list, cells: list, home: list) -> list[Move]:
    """Move every safe card home, in place; return those moves (as the game does automatically)."""
    moves = []
    safe = safe_home(home)
    while safe:
        for i, cascade in enumerate(cascades):
            if cascade and cascade[-1] in safe:
                moved = cascade[-1]
                cascades[i] = cascade[:-1]
                break
        else:
            moved = next((c for c in cells if c in safe), None)
            if moved is None:
                return moves
            cells.remove(moved)
        home[moved & 3] += 1
        moves.append((moved, HOME))
        safe = safe_home(home)
    return moves


def successors(position: State) -> list[tuple[tuple[Move, ...], State]]:
    """Every move from ``position``, each with the safe moves home that follow it, and the state reached.

    Besides single cards, a run in sequence moves at once when single-card moves through
    the free cells and empty cascades could carry it; onto an empty cascade, every part
    of a run that leaves something behind moves (so every single-card move is here too).
    """
    cascades, cells, home = position
    free = CELLS - len(cells)
    empty = cascades.count(())  # canonical: the empty cascades come first
    tops = {cascade[-1]: j for j, cascade in enumerate(cascades) if cascade}
    found = []

    def after(move: Move, source: int, n: int, target: int | None, cell_card: int = 0):
        new = list(cascades)
        new_cells = list(cells)
        new_home = list(home)
        if source >= 0:
            moving = new[source][-n:]
            new[source] = new[source][:-n]
        else:
            moving = (cell_card,)
            new_cells.remove(cell_card)
        if target is None:
            new_home[moving[0] & 3] += 1
        elif target == CELL:
            new_cells.append(moving[0])
        else:
            new[target] = new[target] + moving
        auto = settle(new, new_cells, new_home)
        found.append(((move, *auto), (tuple(sorted(new)), tuple(sorted(new_cells)), tuple(new_home))))

    for i in range(empty, len(cascades)):
        cascade = cascades[i]
        top = cascade[-1]
        if top >> 2 == home[top & 3] + 1:
            after((top, HOME), i, 1, None)
        run = run_length(cascade)
        room = capacity(free, empty)
        for n in range(1, min(run, room) + 1):
            moving = cascade[-n]
            for parent in PARENTS[moving]:
                j = tops.get(parent)
                if j is not None:
                    after((moving, parent), i, n, j)
        if empty:
            whole = run if run < len(cascade) else run - 1  # moving a whole cascade to an empty one changes nothing
            for n in range(1, min(whole, capacity(free, empty - 1)) + 1):
                after((cascade[-n], EMPTY), i, n, 0)
        if free:
            after((top, CELL), i, 1, CELL)
    for c in cells:
        if c >> 2 == home[c & 3] + 1:
            after((c, HOME), -1, 1, None, c)
        for parent in PARENTS[c]:
            j = tops.get(parent)
            if j is not None:
                after((c, parent), -1, 1, j, c)
        if empty:
            after((c, EMPTY), -1, 1, 0, c)
    return found
