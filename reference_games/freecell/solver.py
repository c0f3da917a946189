"""A Freecell solver: finds a sequence of the MIS's moves that wins a position, or says none exists.

It searches its own compact model of the position (:mod:`.solver_model`: cards as small
integers, cascades as tuples), not the ADTs, and answers in the MIS's terms: a list of
``(routine, a, b)`` calls such as ``("moveColToWin", 2, 0)``, which replayed on a
:class:`BoardT` holding the position end with ``hasWon()`` (:mod:`.solver_calls`).

The search is best first: it takes positions in the order of an estimate of the work
left (:mod:`.solver_estimate`), and follows every move with the moves home that can
never hurt, as the game does. A run of cards in sequence moves at once when the free
cells and empty cascades could carry it card by card. Positions are remembered up to the
order of the cascades and of the free cells, so each is expanded once.

Greedy searches are fast on most deals and lost on a few, and which few depends on the
estimate. So the solver tries several estimates in turn, each with a small budget
(:data:`STAGES`), and searches with the last one until it wins or has expanded every
reachable position: then the deal has no solution. Each stage is a complete search, so
any of them running out of positions proves that.
"""

from __future__ import annotations

import heapq
import time
from itertools import count

import attrs

from . import solver_estimate as estimates
from . import solver_model as model
from .solver_calls import Call, Replay

Card = tuple[str, int]

STAGES: tuple[tuple[estimates.Estimate, int | None], ...] = (
    (estimates.PLAIN, 20_000),
    (estimates.DIGGING, 20_000),
    (estimates.SAME_SUIT, 20_000),
    (estimates.ROOMY, None),
)
"""The estimates the solver tries in turn, each with the positions it may expand (None: no limit)."""


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
    """Positions expanded, over every stage."""
    seconds: float
    """Processor time spent."""
    exhausted: bool
    """True when every reachable position was searched: ``calls`` None then means no solution exists."""

    @property
    def solved(self) -> bool:
        return self.calls is not None


class _OutOfTime(Exception):
    pass


def solve(position: Position, *, max_states: int = 200_000, seconds: float | None = None) -> Solution:
    """Search for a win from ``position``; give up after ``max_states`` positions or ``seconds`` of processor time."""
    started = time.process_time()
    cascades = [[model.code(*c) for c in cascade] for cascade in position.cascades]
    cells = [model.code(*c) for c in position.cells if c]
    home = [0, 0, 0, 0]
    for top in position.foundations:
        if top is not None:
            home[model.SUITS.index(top[0])] = top[1]
    auto = model.settle(cascades, cells, home)
    start = model.state(cascades, cells, home)
    deadline = None if seconds is None else started + seconds
    searched = 0
    for estimate, budget in STAGES:
        limit = max_states - searched if budget is None else min(budget, max_states - searched)
        try:
            path, expanded, exhausted = _search(start, estimate, limit, deadline)
        except _OutOfTime as out:
            return Solution(None, searched + out.args[0], time.process_time() - started, False)
        searched += expanded
        if path is not None or exhausted or searched >= max_states:
            break
    if path is None:
        return Solution(None, searched, time.process_time() - started, exhausted)
    return Solution(_calls(position, auto + path), searched, time.process_time() - started, False)


def _search(start: model.State, estimate: estimates.Estimate, limit: int, deadline: float | None):
    """Best-first search from ``start`` expanding at most ``limit`` positions: (the moves that
    win or None, positions expanded, whether every reachable position was expanded)."""
    came_from: dict[model.State, tuple[model.State, tuple[model.Move, ...]] | None] = {start: None}
    tie = count()
    frontier = [(estimate(start), 0, start)]
    expanded = 0
    if model.won(start):
        return [], expanded, False
    while frontier:
        if expanded == limit:
            return None, expanded, False
        if deadline is not None and expanded % 1000 == 0 and time.process_time() > deadline:
            raise _OutOfTime(expanded)
        state = heapq.heappop(frontier)[2]
        expanded += 1
        for moves, after in model.successors(state):
            if after not in came_from:
                came_from[after] = (state, moves)
                if model.won(after):
                    return _path(came_from, after), expanded, False
                heapq.heappush(frontier, (estimate(after), next(tie), after))
    return None, expanded, True


def _path(came_from, state) -> list[model.Move]:
    """The moves from the start to ``state``, first move first."""
    steps = []
    while came_from[state] is not None:
        state, moves = came_from[state]
        steps.append(moves)
    return [move for moves in reversed(steps) for move in moves]


def _calls(position: Position, moves: list[model.Move]) -> list[Call]:
    def number(card: Card | None) -> int:
        return model.code(*card) if card else 0

    replay = Replay([list(map(number, cascade)) for cascade in position.cascades],
                    list(map(number, position.cells)), list(map(number, position.foundations)))
    for move in moves:
        replay.play(move)
    return replay.calls
