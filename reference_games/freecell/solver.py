"""A Freecell solver: finds a sequence of the MIS's moves that wins a position, or says none exists.

It searches its own compact model of the position (cards as small integers, cascades as
tuples), not the ADTs, and answers in the MIS's terms: a list of ``(routine, a, b)``
calls such as ``("moveColToWin", 2, 0)``, which replayed on a :class:`BoardT` holding
the position end with ``hasWon()``.

The search is best first: positions are taken in the order of an estimate of the work
left (cards not home, cards buried above the next card each suit needs, cards in free
cells, cards lying above a lower card, less empty columns), and every move is followed by the moves home
that can never hurt (a card whose lower cards of the other colour are home), which the
game makes automatically too. A run of cards in sequence moves at once when the free
cells and empty columns could carry it card by card ((cells + 1) * 2^columns cards); the
answer spells such a move out as those single-card moves.
Positions are remembered up to the order of the cascades and of the free cells, so each
is expanded once; when the search runs out of positions the deal has no solution (with
single-card moves), and when it runs out of its budget it says so.
"""

from __future__ import annotations

import heapq
import time
from itertools import count

import attrs

SUITS = ("SPADES", "CLUBS", "HEARTS", "DIAMONDS")
"""Suit numbers of the model: spades and clubs (0, 1) are black, hearts and diamonds (2, 3) red."""
Card = tuple[str, int]
Call = tuple[str, int, int]


@attrs.frozen
class Position:
    """A position in the form the game and the tests use: cards as (suit name, rank)."""

    cascades: tuple[tuple[Card, ...], ...]
    cells: tuple[Card | None, ...] = (None,) * 4
    foundations: tuple[Card | None, ...] = (None,) * 4


@attrs.frozen
class Solution:
    """What a search found: the calls that win (None when there are none) and what it cost."""

    calls: list[Call] | None
    states: int
    seconds: float
    exhausted: bool
    """True when every reachable position was searched: ``calls`` None then means no solution exists."""

    @property
    def solved(self) -> bool:
        return self.calls is not None


def _code(card: Card) -> int:
    suit, rank = card
    return rank * 4 + SUITS.index(suit)


def _card(code: int) -> Card:
    return SUITS[code & 3], code >> 2


def solve(position: Position, *, max_states: int = 200_000, seconds: float | None = None) -> Solution:
    """Search for a win from ``position``; give up after ``max_states`` positions or ``seconds``."""
    started = time.perf_counter()
    cols = tuple(tuple(_code(c) for c in cascade) for cascade in position.cascades)
    cells = tuple(_code(c) if c else 0 for c in position.cells)
    home = [0, 0, 0, 0]
    for card in position.foundations:
        if card is not None:
            home[SUITS.index(card[0])] = card[1]
    start = (cols, cells, tuple(home))
    start, auto = _auto(start)
    seen = {_key(start)}
    tie = count()
    # A path is kept as a chain (moves, previous chain), so a push never copies it.
    frontier = [(_estimate(start), next(tie), start, (tuple(auto), None))]
    searched = 0
    while frontier:
        _, _, state, path = heapq.heappop(frontier)
        if not any(state[0]) and not any(state[1]):  # every card home
            return Solution(_calls(position, _unchain(path)), searched, time.perf_counter() - started, False)
        searched += 1
        if searched > max_states or (seconds is not None and searched % 1000 == 0 and time.perf_counter() - started > seconds):
            return Solution(None, searched, time.perf_counter() - started, False)
        for move, after in _successors(state):
            after, auto = _auto(after)
            key = _key(after)
            if key in seen:
                continue
            seen.add(key)
            heapq.heappush(frontier, (_estimate(after), next(tie), after, ((move, *auto), path)))
    return Solution(None, searched, time.perf_counter() - started, True)


def _unchain(path) -> list:
    """The moves of a chain of (moves, previous chain), first move first."""
    parts = []
    while path is not None:
        parts.append(path[0])
        path = path[1]
    return [move for moves in reversed(parts) for move in moves]


def _key(state) -> tuple:
    cols, cells, home = state
    return tuple(sorted(cols)), tuple(sorted(cells)), home


def _red(code: int) -> bool:
    return (code & 3) >= 2


def _builds(card: int, top: int) -> bool:
    return (card >> 2) + 1 == (top >> 2) and _red(card) != _red(top)


def _successors(state):
    """Every move from the state, as ((kind, source, target, ...), new state).

    A column-to-column move carries a run of ``n`` cards in sequence (alternating colours,
    ranks one apart) when the free cells and empty columns could carry it card by card.
    """
    cols, cells, home = state
    empty_cell = cells.index(0) if 0 in cells else -1
    empties = [i for i, c in enumerate(cols) if not c]
    empty_col = empties[0] if empties else -1
    free = cells.count(0)
    moves = []
    # Home first: they are the moves most often right.
    for i, col in enumerate(cols):
        if col and (col[-1] >> 2) == home[col[-1] & 3] + 1:
            moves.append((("col", i, "home"), _take_col(state, i, home_card=col[-1])))
    for i, card in enumerate(cells):
        if card and (card >> 2) == home[card & 3] + 1:
            moves.append((("free", i, "home"), _take_cell(state, i, home_card=card)))
    for i, col in enumerate(cols):
        if not col:
            continue
        card = col[-1]
        run = _run_length(col)
        for j, other in enumerate(cols):
            if j == i or not other:
                continue
            # The card that goes on ``other`` lies ``n`` cards down the run, if anywhere.
            n = (other[-1] >> 2) - (card >> 2)
            if 1 <= n <= run and _red(col[-n]) != _red(other[-1]) and n <= capacity(free, len(empties)):
                moves.append((("col", i, j, n), _move_col(state, i, j, n)))
        if empty_col >= 0:
            # Onto an empty column: every part of the run that leaves something behind.
            for n in range(1, min(run if run < len(col) else run - 1, capacity(free, len(empties) - 1)) + 1):
                moves.append((("col", i, empty_col, n), _move_col(state, i, empty_col, n)))
        if empty_cell >= 0:
            new_cells = cells[:empty_cell] + (card,) + cells[empty_cell + 1:]
            moves.append((("col", i, "free", empty_cell), (_without_top(cols, i), new_cells, home)))
    for i, card in enumerate(cells):
        if not card:
            continue
        for j, other in enumerate(cols):
            if (other and _builds(card, other[-1])) or j == empty_col:
                new_cols = cols[:j] + (other + (card,),) + cols[j + 1:]
                moves.append((("free", i, j), (new_cols, cells[:i] + (0,) + cells[i + 1:], home)))
    return moves


def capacity(free_cells: int, empty_columns: int) -> int:
    """How many cards in sequence single-card moves can carry with this room: (cells + 1) * 2^columns."""
    return (free_cells + 1) << empty_columns


def _run_length(col) -> int:
    """How many cards at the top of a non-empty column are in sequence."""
    n = 1
    while n < len(col) and _builds(col[-n], col[-n - 1]):
        n += 1
    return n


def _without_top(cols, i):
    return cols[:i] + (cols[i][:-1],) + cols[i + 1:]


def _take_col(state, i, home_card):
    cols, cells, home = state
    new_home = list(home)
    new_home[home_card & 3] += 1
    return _without_top(cols, i), cells, tuple(new_home)


def _take_cell(state, i, home_card):
    cols, cells, home = state
    new_home = list(home)
    new_home[home_card & 3] += 1
    return cols, cells[:i] + (0,) + cells[i + 1:], tuple(new_home)


def _move_col(state, i, j, n=1):
    cols, cells, home = state
    new = list(cols)
    new[i] = cols[i][:-n]
    new[j] = cols[j] + cols[i][-n:]
    return tuple(new), cells, home


def _safe_home(card: int, home) -> bool:
    """Whether moving ``card`` home can never hurt: the cards that could go on it are home or need not."""
    rank = card >> 2
    if rank != home[card & 3] + 1:
        return False
    if rank <= 2:
        return True
    others = (2, 3) if not _red(card) else (0, 1)
    return all(home[s] >= rank - 1 for s in others)


def _auto(state):
    """The state after every safe move home, and those moves."""
    moves = []
    changed = True
    while changed:
        changed = False
        cols, cells, home = state
        for i, col in enumerate(cols):
            if col and _safe_home(col[-1], home):
                moves.append(("col", i, "home"))
                state = _take_col(state, i, col[-1])
                changed = True
                break
        else:
            for i, card in enumerate(cells):
                if card and _safe_home(card, home):
                    moves.append(("free", i, "home"))
                    state = _take_cell(state, i, card)
                    changed = True
                    break
    return state, moves


def _estimate(state) -> int:
    """The work left: cards not home, cards above each suit's next card, cards in free cells,
    and cards lying above a lower card (each must move before that card can go home), less the
    empty columns (room to move runs); a card home outweighs the rest, so the search stays greedy."""
    cols, cells, home = state
    buried = blocking = 0
    for col in cols:
        lowest = 99
        for depth, card in enumerate(col):
            rank = card >> 2
            if rank == home[card & 3] + 1:
                buried += len(col) - 1 - depth
            if rank > lowest:
                blocking += 1
            elif rank < lowest:
                lowest = rank
    held = sum(1 for c in cells if c)
    empty = sum(1 for c in cols if not c)
    return 4 * (52 - sum(home)) + buried + held + 2 * blocking - empty


def _calls(position: Position, path) -> list[Call]:
    """The search's moves as MIS calls, with the foundation each card goes to; a run moved
    at once becomes its single-card moves through the free cells and empty columns."""
    slots: list[str | None] = [card[0] if card else None for card in position.foundations]
    cols = [list(c) for c in position.cascades]
    cells = list(position.cells)
    calls: list[Call] = []

    def play(step) -> None:
        source, index = step[0], step[1]
        card = cols[index].pop() if source == "col" else cells[index]
        if source == "free":
            cells[index] = None
        if step[2] == "home":
            slot = slots.index(card[0]) if card[0] in slots else slots.index(None)
            slots[slot] = card[0]
            calls.append((f"move{'Col' if source == 'col' else 'Free'}ToWin", index, slot))
        elif step[2] == "free":
            cells[step[3]] = card
            calls.append(("moveColToFree", index, step[3]))
        else:
            cols[step[2]].append(card)
            calls.append((f"move{'Col' if source == 'col' else 'Free'}ToCol", index, step[2]))

    for step in path:
        if step[0] == "col" and isinstance(step[2], int):
            _, source, target, n = step
            room = [i for i, card in enumerate(cells) if card is None]
            empties = [i for i, col in enumerate(cols) if not col and i != target]
            for single in _single_moves(n, source, target, room, empties):
                play(single)
        else:
            play(step)
    return calls


def _single_moves(n: int, source: int, target: int, room: list[int], empties: list[int]) -> list:
    """Single-card moves carrying the top ``n`` cards of ``source`` to ``target`` in order,
    with the free cells ``room`` and the empty columns ``empties`` (n <= capacity)."""
    if n <= len(room) + 1:
        parked = room[: n - 1]
        return ([("col", source, "free", cell) for cell in parked] + [("col", source, target)]
                + [("free", cell, target) for cell in reversed(parked)])
    spare, rest = empties[0], empties[1:]
    half = min(capacity(len(room), len(rest)), n - 1)  # the top cards wait on the spare column
    return (_single_moves(half, source, spare, room, rest) + _single_moves(n - half, source, target, room, rest)
            + _single_moves(half, spare, target, room, rest))
