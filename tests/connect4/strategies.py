"""Hypothesis strategies of the Connect-4 suite: models (:mod:`.model`) to build values from."""

from __future__ import annotations

from hypothesis import strategies as st

from .model import BLUE, OTHER, RED, winner

# Models -----------------------------------------------------------------------------

index_numbers = st.integers(min_value=1, max_value=60)
level_numbers = st.integers(min_value=0, max_value=60)
worth_numbers = st.integers(min_value=-60, max_value=60)
dimension_numbers = st.integers(min_value=4, max_value=60)
colours = st.sampled_from([RED, BLUE])
symbols = st.one_of(st.none(), colours)
grid_sides = st.integers(min_value=4, max_value=8)


def locations(side: int = 60) -> st.SearchStrategy[tuple[int, int]]:
    """Locations with row and column from 1 to ``side``."""
    return st.tuples(st.integers(1, side), st.integers(1, side))


@st.composite
def grids(draw, sides=grid_sides, fill=st.floats(0.0, 1.0)):
    """A grid model: a side and marks on any squares, in any colours (no gravity: E18)."""
    side = draw(sides)
    squares = [(r, c) for r in range(1, side + 1) for c in range(1, side + 1)]
    density = draw(fill)
    marks = {}
    for square in squares:
        if draw(st.floats(0.0, 1.0)) < density:
            marks[square] = draw(colours)
    return side, marks


@st.composite
def played_grids(draw, sides=grid_sides, moves=None):
    """A grid model reached by play: red first, colours alternating, stopping at a win or at random."""
    side = draw(sides)
    free = [(r, c) for r in range(1, side + 1) for c in range(1, side + 1)]
    order = draw(st.permutations(free))
    count = draw(st.integers(0, len(free))) if moves is None else min(moves, len(free))
    marks: dict[tuple[int, int], str] = {}
    colour = RED
    for square in order[:count]:
        marks[square] = colour
        if winner(side, marks) is not None:
            break
        colour = OTHER[colour]
    return side, marks


@st.composite
def boards(draw):
    """A board side (4 to 8) and a square on it."""
    side = draw(grid_sides)
    return side, (draw(st.integers(1, side)), draw(st.integers(1, side)))
