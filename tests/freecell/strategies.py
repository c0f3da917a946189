"""Hypothesis strategies of the Freecell suite: cards and positions as models (:mod:`.model`)."""

from __future__ import annotations

from hypothesis import strategies as st

from .model import CASCADES, CELLS, FOUNDATIONS, PACK, SUITS, Position

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
    for suit, height, slot in zip(order, heights, slots, strict=True):
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
    cascades = [rest[bounds[i] : bounds[i + 1]] for i in range(CASCADES)]
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
