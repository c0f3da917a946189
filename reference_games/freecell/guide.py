"""One solution followed move by move: hints that stay on one path, and a solution the game accepts as typed.

The solver answers with the MIS's calls, moves home included. The game the player types
into may make some of those moves by itself (the automatic moves home), sometimes
earlier than the solution does. A :class:`Plan` replays a solution through the game as
the player would play it, keeping only the moves the player has to type, each with the
position it is typed in. A hint taken from a plan is the next move of that same plan, so
that following hints from a solvable position always wins; a player who leaves the plan
gets a new one from where they are.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import attrs

from . import solver
from .notation import Move, from_routine

if TYPE_CHECKING:
    from .game import Game

Key = tuple
"""A position as the plan compares it: the foundations by suit, not by slot."""


def key(position: solver.Position) -> Key:
    """``position`` up to the order of the foundations (which slot a suit took is not a choice a player makes)."""
    return position.cascades, position.cells, tuple(sorted(c for c in position.foundations if c))


@attrs.frozen
class Plan:
    """The moves a player types to win, each with the position (its :func:`key`) it is typed in."""

    steps: tuple[tuple[Key, Move], ...]
    searched: int
    """Positions the solver expanded to find the solution."""

    @property
    def moves(self) -> list[Move]:
        return [move for _, move in self.steps]

    def next_move(self, position: solver.Position) -> Move | None:
        """The plan's move from ``position``, or None when the position is not on the plan."""
        here = key(position)
        return next((move for at, move in self.steps if at == here), None)  # each position once: see plan()


@attrs.frozen
class NoPlan:
    """Why there is no plan: proven unsolvable (``proven``), or not found within the search's budget."""

    proven: bool
    searched: int


def plan(position: solver.Position, new_game: Callable[[solver.Position], Game], *, max_states: int) -> Plan | NoPlan:
    """A plan to win from ``position`` in games made by ``new_game`` (which fixes whether moves home are automatic)."""
    found = solver.solve(position, max_states=max_states)
    if found.calls is None:
        return NoPlan(found.exhausted, found.states)
    game = new_game(position)
    if game.auto:
        game.auto_moves()  # as a game does before its first move
    solution = position
    steps = []
    for call in found.calls:
        move = from_routine(*call)
        card = _card_at(solution, move)
        solution = _play(solution, move)
        if _is_home(game.position, card):
            continue  # the game moved it home by itself, maybe earlier than the solution does
        here = key(game.position)
        seen = next((i for i, (at, _) in enumerate(steps) if at == here), None)
        if seen is not None:
            del steps[seen:]  # the solution came back to a position it had passed: leave the detour out
        steps.append((here, move))
        try:
            game.move(move)
        except Exception:  # noqa: BLE001 - the solution and the game part ways: a new plan is made from there
            return Plan(tuple(steps[:-1]), found.states)
    return Plan(tuple(steps), found.states)


def _card_at(position: solver.Position, move: Move) -> solver.Card:
    return position.cascades[move.source_index][-1] if move.source == "col" else position.cells[move.source_index]


def _is_home(position: solver.Position, card: solver.Card) -> bool:
    return any(top and top[0] == card[0] and top[1] >= card[1] for top in position.foundations)


def _play(position: solver.Position, move: Move) -> solver.Position:
    """``position`` after the single-card ``move``, made without checking it (the solver's moves are legal)."""
    cascades, cells, foundations = list(position.cascades), list(position.cells), list(position.foundations)
    card = _card_at(position, move)
    if move.source == "col":
        cascades[move.source_index] = cascades[move.source_index][:-1]
    else:
        cells[move.source_index] = None
    if move.target == "col":
        cascades[move.target_index] = (*cascades[move.target_index], card)
    elif move.target == "free":
        cells[move.target_index] = card
    else:
        foundations[move.target_index] = card
    return solver.Position(tuple(cascades), tuple(cells), tuple(foundations))
