"""The solver's moves as the MIS's calls on a board with its cascades, cells and foundations in place.

The search names cards (:mod:`.solver_model`); a board names places. Replaying the moves
on the position tells which cascade, cell or foundation each one takes and gives, and a
run moved at once becomes the single-card moves that carry it through the free cells
and empty cascades.
"""

from __future__ import annotations

from .solver_model import CELL, EMPTY, HOME, Move, capacity

Call = tuple[str, int, int]
"""One MIS routine call, such as ``("moveColToWin", 2, 0)``."""


class Replay:
    """A position in board order (model card numbers, 0 for none), turning moves into calls."""

    def __init__(self, cascades: list[list[int]], cells: list[int], foundations: list[int]) -> None:
        self.cascades = cascades
        self.cells = cells
        self.suits = [card & 3 if card else None for card in foundations]
        """The suit each foundation holds, None for an empty one."""
        self.calls: list[Call] = []

    def play(self, move: Move) -> None:
        """Make ``move`` on the board, recording it as single-card calls."""
        card, target = move
        if card in self.cells:
            source, n = ("free", self.cells.index(card)), 1
        else:
            i = next(i for i, cascade in enumerate(self.cascades) if card in cascade)
            source, n = ("col", i), len(self.cascades[i]) - self.cascades[i].index(card)
        if target == HOME:
            suit = card & 3
            slot = self.suits.index(suit) if suit in self.suits else self.suits.index(None)
            self.suits[slot] = suit
            self._single(source, ("win", slot))
        elif target == CELL:
            self._single(source, ("free", self.cells.index(0)))
        else:
            if target == EMPTY:
                j = next(j for j, cascade in enumerate(self.cascades) if not cascade)
            else:
                j = next(j for j, cascade in enumerate(self.cascades) if cascade and cascade[-1] == target)
            if n == 1:
                self._single(source, ("col", j))
            else:
                room = [c for c, held in enumerate(self.cells) if not held]
                empties = [e for e, cascade in enumerate(self.cascades) if not cascade and e != j]
                self._run(n, source[1], j, room, empties)

    def _run(self, n: int, source: int, target: int, room: list[int], empties: list[int]) -> None:
        """Carry the top ``n`` cards of cascade ``source`` to ``target`` in order, one at a time,
        through the free cells ``room`` and the empty cascades ``empties`` (n <= capacity)."""
        if n <= len(room) + 1:
            parked = room[: n - 1]
            for cell in parked:
                self._single(("col", source), ("free", cell))
            self._single(("col", source), ("col", target))
            for cell in reversed(parked):
                self._single(("free", cell), ("col", target))
            return
        spare, rest = empties[0], empties[1:]
        half = min(capacity(len(room), len(rest)), n - 1)  # the top cards wait on the spare cascade
        self._run(half, source, spare, room, rest)
        self._run(n - half, source, target, room, rest)
        self._run(half, spare, target, room, rest)

    def _single(self, source: tuple[str, int], target: tuple[str, int]) -> None:
        (kind, a), (place, b) = source, target
        card = self.cascades[a].pop() if kind == "col" else self.cells[a]
        if kind == "free":
            self.cells[a] = 0
        if place == "col":
            self.cascades[b].append(card)
        elif place == "free":
            self.cells[b] = card
        routine = {"col": "Col", "free": "Free", "win": "Win"}
        self.calls.append((f"move{routine[kind]}To{routine[place]}", a, b))
