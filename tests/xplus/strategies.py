"""Hypothesis strategies of the X+Game suite: boards as models (:mod:`.model`), configurations and scores."""

from __future__ import annotations

from hypothesis import strategies as st

from .model import COMPUTER, EMPTY, HUMAN, SHAPES, SIZES, BoardModel

# Strategies ----------------------------------------------------------------------------

configs = st.one_of(st.text(max_size=40), st.text(alphabet="XO ", max_size=64))
"""Configuration strings: any text (empty and non-ASCII included), and board-like ones."""

scores = st.integers(-5, 100)


@st.composite
def boards(draw, sizes=SIZES, fill=None) -> BoardModel:
    """A board of a size in ``sizes`` with any tiles on it, and a k from 1 to past the longest possible shape."""
    n = draw(st.sampled_from(list(sizes)))
    k = draw(st.integers(1, 2 * n + 1))
    alphabet = st.sampled_from([HUMAN, COMPUTER]) if fill else st.sampled_from([HUMAN, COMPUTER, EMPTY, EMPTY])
    cells = draw(st.lists(alphabet, min_size=n * n, max_size=n * n))
    return BoardModel(n, k, {(i // n, i % n): s for i, s in enumerate(cells) if s != EMPTY})


@st.composite
def shaped_boards(draw, sizes=SIZES) -> BoardModel:
    """A board holding a shape with arms of independent lengths on a sparse background, k near its length."""
    n = draw(st.sampled_from(list(sizes)))
    row, col = draw(st.integers(1, n - 2)), draw(st.integers(1, n - 2))
    arms = draw(st.sampled_from(list(SHAPES.values())))
    symbol = draw(st.sampled_from([HUMAN, COMPUTER]))
    other = COMPUTER if symbol == HUMAN else HUMAN
    background = draw(st.lists(st.sampled_from([EMPTY, EMPTY, EMPTY, other, symbol]), min_size=n * n, max_size=n * n))
    tiles = {(i // n, i % n): s for i, s in enumerate(background) if s != EMPTY}
    tiles[(row, col)] = symbol
    length = 1
    for dr, dc in arms:
        reach = 0
        while 0 <= row + (reach + 1) * dr < n and 0 <= col + (reach + 1) * dc < n:
            reach += 1
        arm = draw(st.integers(1, reach))
        for step in range(1, arm + 1):
            tiles[(row + step * dr, col + step * dc)] = symbol
        if arm < reach and draw(st.booleans()):
            tiles.pop((row + (arm + 1) * dr, col + (arm + 1) * dc), None)  # a gap ends the arm
        length += arm
    k = draw(st.integers(max(1, length - 2), length + 2))
    return BoardModel(n, k, tiles)


@st.composite
def play_sequences(draw, n: int):
    """savePlay calls (row, col, symbol) on an n x n board, overwriting and emptying squares too."""
    square = st.tuples(st.integers(0, n - 1), st.integers(0, n - 1))
    plays = draw(st.lists(st.tuples(square, st.sampled_from([HUMAN, COMPUTER, EMPTY])), max_size=3 * n))
    return [(r, c, s) for (r, c), s in plays]
