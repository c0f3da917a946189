"""How far a state looks from the win: the estimates that order the solver's search.

Each estimate weighs the same few counts of a state (:func:`counts`); they differ in
their weights, so that where one is misled (a deal whose cards it keeps shuffling
without progress) another usually is not. Lower is nearer the win.
"""

from __future__ import annotations

from collections.abc import Callable

from .solver_model import State

Estimate = Callable[[State], int]


def counts(position: State) -> tuple[int, int, int, int, int, int]:
    """The counts the estimates weigh, in this order:

    - ``away``: cards not yet home;
    - ``buried``: cards lying above the next card of some suit (each must move first);
    - ``held``: cards in free cells;
    - ``blocking``: cards lying above a lower card (each must move before that card goes home);
    - ``same_suit``: cards lying above a lower card of their own suit (each must move at least twice);
    - ``empty``: empty cascades (room to move runs).
    """
    cascades, cells, home = position
    buried = blocking = same_suit = 0
    for cascade in cascades:
        lowest = 99
        lowest_of = [99, 99, 99, 99]
        for depth, card in enumerate(cascade):
            rank, suit = card >> 2, card & 3
            if rank == home[suit] + 1:
                buried += len(cascade) - 1 - depth
            if rank > lowest:
                blocking += 1
            else:
                lowest = rank
            if rank > lowest_of[suit]:
                same_suit += 1
            else:
                lowest_of[suit] = rank
    return 52 - sum(home), buried, len(cells), blocking, same_suit, cascades.count(())


def weighted(*weights: int) -> Estimate:
    """The estimate that weighs :func:`counts` with ``weights``, in the same order."""

    def estimate(position: State) -> int:
        return sum(w * n for w, n in zip(weights, counts(position), strict=True))

    estimate.__qualname__ = f"weighted{weights}"
    return estimate


# A card home outweighs the rest in each, so the search stays greedy.
PLAIN = weighted(4, 1, 1, 2, 0, -1)
"""Progress home first, then cards to dig out, blocking cards (twice), cards held, less empty cascades."""
DIGGING = weighted(4, 3, 1, 2, 0, -2)
"""Puts more weight on uncovering each suit's next card and on keeping cascades empty."""
SAME_SUIT = weighted(4, 1, 1, 1, 1, -1)
"""Counts a card above a lower card of its own suit twice as blocking as one above another suit's."""
ROOMY = weighted(4, 2, 2, 2, 0, -2)
"""Puts more weight on free cells and empty cascades: room to move."""
