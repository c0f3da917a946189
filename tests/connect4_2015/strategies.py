"""Hypothesis strategies of the 2015 Connect Four suite: grids and games as models (:mod:`.model`)."""

from __future__ import annotations

from hypothesis import strategies as st

from .model import BLUE, COLOURS, EMPTY, HEIGHT, OTHER, RED, SQUARES, WIDTH, Model


def play_out(
    choices: list[int], first: str, *, stop_at_win: bool = True, stop_before_full: bool = False
) -> tuple[Model, list[int], str]:
    """The game the choices make from the empty grid, ``first`` moving first: (model, columns, colour to move)."""
    model, moves, colour = Model(), [], first
    for choice in choices:
        open_columns = [x for x in range(WIDTH) if model.height(x) >= 0]
        if not open_columns or (stop_at_win and model.fours()):
            break
        if stop_before_full and len(open_columns) == 1 and model.height(open_columns[0]) == HEIGHT - 1:
            break
        x = open_columns[choice % len(open_columns)]
        model.put(x, model.height(x), colour)
        moves.append(x)
        colour = OTHER[colour]
    return model, moves, colour


# Strategies --------------------------------------------------------------------------------

colours = st.sampled_from(COLOURS)
spaces = st.sampled_from((RED, BLUE, EMPTY))
squares = st.sampled_from(SQUARES)
free_grids = st.dictionaries(squares, colours, max_size=WIDTH * HEIGHT).map(Model)
"""Any grid at all: free play and setSpace may make grids no game reaches."""
sparse_free_grids = st.dictionaries(squares, colours, max_size=12).map(Model)
choices = st.lists(st.integers(0, WIDTH - 1), max_size=WIDTH * HEIGHT)
games = st.builds(play_out, choices, colours)
"""(model, columns, colour to move) of games from the empty grid, stopping at the first win."""
unfinished_games = st.builds(lambda c, f: play_out(c, f, stop_before_full=True), choices, colours).filter(
    lambda game: not game[0].fours() and not game[0].full()
)
played_grids = games.map(lambda game: game[0])
grids = st.one_of(free_grids, played_grids)


def _beside(size: int) -> st.SearchStrategy[int]:
    """A coordinate on the grid half the time (the square is then off by one coordinate only), else any."""
    return st.one_of(st.integers(0, size - 1), st.integers(-100, 100))


off_grid = st.one_of(
    st.tuples(st.integers(-100, -1), _beside(HEIGHT)),
    st.tuples(st.integers(WIDTH, 100), _beside(HEIGHT)),
    st.tuples(_beside(WIDTH), st.integers(-100, -1)),
    st.tuples(_beside(WIDTH), st.integers(HEIGHT, 100)),
)
"""Squares off the grid, often beside it: off in one coordinate, on the grid in the other."""
