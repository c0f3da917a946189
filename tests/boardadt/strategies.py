"""Hypothesis strategies of the BoardADT suite, and the games it builds to order.

Games are generated so that Hypothesis shrinks them well: a game is drawn as a list
of choices, each picking one of the columns that are not full at that moment, and
play stops at the first win.
"""

from __future__ import annotations

import random
from itertools import combinations

from hypothesis import strategies as st

from .model import ALL_SQUARES, COLUMNS, LINES, LINES_THROUGH, ROWS, Model, makes_four


def play_out(choices: list[int], *, stop_at_win: bool = True) -> list[int]:
    """The game the choices make: each picks (modulo) one of the columns not yet full."""
    model = Model()
    for choice in choices:
        open_columns = model.open_columns()
        if not open_columns or (stop_at_win and model.won()):
            break
        model.play(open_columns[choice % len(open_columns)])
    return model.moves


# Strategies --------------------------------------------------------------------------------

choices = st.lists(st.integers(0, COLUMNS - 1), max_size=COLUMNS * ROWS)
games = choices.map(play_out)
"""Games from the empty board, any length, stopping at the first win."""

won_games = games.filter(lambda moves: Model(moves).won())
"""Games that end with a win (of either colour)."""

columns = st.integers(1, COLUMNS)
squares = st.sampled_from(ALL_SQUARES)
rngs = st.integers(0, 2**32 - 1).map(random.Random)
"""Random generators for the searches that build games, seeded by Hypothesis (so runs repeat)."""


@st.composite
def drawn_games(draw):
    """A game of 42 moves that fills the board with no four in a line anywhere."""
    rng = draw(rngs)
    return order_moves(rng.choice(drawn_boards()), rng)


# Constructing games ------------------------------------------------------------------------
#
# The tests need games that end in a given way: a win on a given line, a draw, a full
# board won by its last move. Random play rarely gives those, so they are built: a win
# by a small randomised search, a draw by finding full boards without a four and then
# an order of moves that builds them.


def completing(line, winner: str, rng: random.Random) -> list[int]:
    """A game in which ``winner`` makes its first four on ``line`` with the last move."""
    while True:  # a search that wanders too long is restarted with other random choices
        moves = _search_completing(line, winner, rng, Model(), budget=[300])
        if moves is not None:
            return moves


def _search_completing(line, winner: str, rng: random.Random, model: Model, budget: list[int]) -> list[int] | None:
    """Depth-first: the winner plays on ``line`` (or builds up the columns under it), the
    loser never on it and nobody makes four before the line is complete."""
    budget[0] -= 1
    if budget[0] < 0:
        return None
    targets = set(line)
    step = (line[1][0] - line[0][0], line[1][1] - line[0][1])
    ends = {(line[0][0] - step[0], line[0][1] - step[1]), (line[3][0] + step[0], line[3][1] + step[1])}
    mover = model.current
    options = []
    for column in model.open_columns():
        square = (column, model.height(column) + 1)
        on_line = square in targets
        if (on_line and mover != winner) or (square in ends and mover == winner):
            continue  # the loser must not block; the winner must not make a longer run
        under_line = any(c == column and r > square[1] for c, r in targets)
        options.append((not on_line, rng.random() + (0 if under_line else 0.6), column))
    for *_, column in sorted(options):
        model.play(column)
        if all(model.colour(c, r) == winner for c, r in line):
            return model.moves
        if not makes_four(model, column):
            found = _search_completing(line, winner, rng, model, budget)
            if found is not None:
                return found
        _undo(model, column, mover)
    return None


def _undo(model: Model, column: int, mover: str) -> None:
    model.columns[column - 1].pop()
    model.moves.pop()
    model.current = mover


def drawn_boards() -> list[tuple[str, ...]]:
    """Full boards with no four in a line, as seven bottom-up columns of "R" and "B".

    Each column holds three red and three blue checkers, so the board has 21 of each,
    as a full board reached by play does; only boards some order of play can build are
    kept. Found once, by searches over column patterns from a few fixed seeds, and
    varied by mirroring and by swapping the colours.
    """
    if not _DRAWN_BOARDS:
        patterns = [p for p in _column_patterns() if "RRRR" not in p and "BBBB" not in p]
        for seed in range(8):
            rng = random.Random(seed)
            for board in _boards_without_four(patterns, rng, [], wanted=3):
                for candidate in (board, tuple(reversed(board)), tuple(column.translate(_SWAP) for column in board)):
                    try:
                        order_moves(candidate, rng, tries=100)
                    except LookupError:
                        continue
                    _DRAWN_BOARDS.append(candidate)
    return _DRAWN_BOARDS


_DRAWN_BOARDS: list[tuple[str, ...]] = []
_SWAP = str.maketrans("RB", "BR")


def _boards_without_four(
    patterns: list[str], rng: random.Random, chosen: list[str], wanted: int
) -> list[tuple[str, ...]]:
    """Up to ``wanted`` full boards extending the leftmost columns ``chosen``, with no four."""
    if len(chosen) == COLUMNS:
        return [tuple(chosen)]
    found: list[tuple[str, ...]] = []
    for pattern in rng.sample(patterns, len(patterns)):
        if _no_four([*chosen, pattern]):
            found += _boards_without_four(patterns, rng, [*chosen, pattern], wanted - len(found))
            if len(found) >= wanted:
                break
    return found


def _column_patterns() -> list[str]:
    """Every column of three red and three blue checkers, bottom up."""
    return ["".join("R" if i in reds else "B" for i in range(ROWS)) for reds in combinations(range(ROWS), 3)]


def _no_four(chosen: list[str]) -> bool:
    """Whether the columns chosen so far (the leftmost ones) hold no four in a line."""
    width = len(chosen)
    for line in LINES:
        if all(c <= width for c, _ in line):
            colours = {chosen[c - 1][r - 1] for c, r in line}
            if len(colours) == 1:
                return False
    return True


def order_moves(board: tuple[str, ...], rng: random.Random, last: int | None = None, tries: int = 1000) -> list[int]:
    """A legal order of moves (red first, alternating, bottom up) that builds ``board``.

    With ``last``, the top square of that column is filled by the last move. Random
    orders are tried until one works; LookupError after ``tries`` failures.
    """
    total = COLUMNS * ROWS
    for _ in range(tries):
        heights = [0] * COLUMNS
        moves: list[int] = []
        colour = "R"
        while len(moves) < total:
            ready = [
                c
                for c in range(COLUMNS)
                if heights[c] < ROWS
                and board[c][heights[c]] == colour
                and (c + 1 != last or heights[c] < ROWS - 1 or len(moves) == total - 1)
            ]
            if not ready:
                break
            column = rng.choice(ready)
            heights[column] += 1
            moves.append(column + 1)
            colour = "B" if colour == "R" else "R"
        if len(moves) == total:
            return moves
    raise LookupError(f"no order of moves builds {board}")


def drawn_game_filled_last_in(column: int, rng: random.Random) -> list[int]:
    """A drawn game (42 moves, no four) whose last move fills the top of ``column``."""
    boards = list(drawn_boards())
    rng.shuffle(boards)
    for board in boards:
        try:
            return order_moves(board, rng, last=column, tries=50)
        except LookupError:
            continue
    raise AssertionError(f"no drawn game ends in column {column}")  # pragma: no cover


def full_board_won_last(rng: random.Random) -> list[int]:
    """A game of 42 moves whose last move fills the board and makes its first four.

    A drawn board with a red and a blue checker swapped so that every four on it
    passes through a blue top square, which blue's last move fills.
    """
    candidates = [
        (board, top) for board in drawn_boards() for top in range(1, COLUMNS + 1) if board[top - 1][ROWS - 1] == "B"
    ]
    rng.shuffle(candidates)
    for board, top in candidates:
        last = (top, ROWS)
        reds = [
            s
            for s in ALL_SQUARES
            if board[s[0] - 1][s[1] - 1] == "R" and any(s in line for line in LINES_THROUGH[last])
        ]
        blues = [s for s in ALL_SQUARES if board[s[0] - 1][s[1] - 1] == "B" and s != last]
        for made_blue in reds:
            for made_red in blues:
                cells = [list(column) for column in board]
                cells[made_blue[0] - 1][made_blue[1] - 1] = "B"
                cells[made_red[0] - 1][made_red[1] - 1] = "R"
                swapped = tuple("".join(column) for column in cells)
                fours = [line for line in LINES if len({swapped[c - 1][r - 1] for c, r in line}) == 1]
                if fours and all(last in line for line in fours):
                    try:
                        return order_moves(swapped, rng, last=top, tries=50)
                    except LookupError:
                        continue
    raise AssertionError("no full board won by its last move was found")  # pragma: no cover
