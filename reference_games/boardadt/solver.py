"""A strong Connect Four (7 x 6) solver in pure Python.

The design follows Pascal Pons' tutorial "Solving Connect 4: how to build a perfect
AI" (final version, without the opening book), with three additions (marked +):

* bitboards: a position is two integers, ``current`` (stones of the side to move)
  and ``mask`` (all stones), 7 bits per column (6 cells plus a sentinel bit);
* negamax with alpha-beta pruning, driven by null-window searches that narrow
  the score interval (:meth:`Solver.solve`); (+) the first searches find the
  value (is it a win? if not, a draw?), the next ones the exact score;
* a transposition table keeping an upper or a lower bound per position, (+) and
  the move that refuted the position, tried first when it is met again;
* (+) enhanced transposition cutoff: before searching its moves, a position
  looks its children up in the table; a child known to lose decides at once,
  a child known not to be good enough is skipped;
* only moves that do not hand the opponent an immediate win are explored, and
  a position whose opponent has two threats is recognised as lost at once;
* move ordering: the moves creating the most winning cells first, ties broken
  centre-first;
* a weak solve (win, draw or loss) before the strong one: the "perfect" level
  first proves which move keeps the position's value, then, with the time left,
  looks for the quickest win (:func:`choose`).

Scores are seen from the side to move: 0 is a draw, a win scores 22 minus the
number of stones the winner has played at the end of the game, a loss the
opposite.  So winning with your 4th stone scores 18 and a loss on the very last
cell scores -1.

Columns are 0-based (0 = leftmost) everywhere in this module except in
:meth:`Position.from_moves`, which reads the 1-based move strings of the
benchmark files, and :func:`choose_move_1based`.

CPython performance notes, for the curious reader.  The hot function is the
nested ``negamax`` built by :func:`_make_negamax`:

* positions are passed as plain ints (no objects are created per node);
* constants are bound as closure variables, never looked up as globals or
  attributes;
* the cells completing a four are computed for the four directions at once:
  one multiplication copies the stones into four 100-bit "lanes", each shifted
  by the step of its own direction (see :func:`winning_cells`);
* a child never recomputes its opponent's winning cells: its parent computed
  them to order its moves and passes them down.
"""

from __future__ import annotations

import random
import time
from typing import NamedTuple

__all__ = [
    "WIDTH",
    "HEIGHT",
    "MIN_SCORE",
    "MAX_SCORE",
    "Position",
    "Solver",
    "SearchTimeout",
    "winning_cells",
    "Choice",
    "choose",
    "choose_move",
    "choose_move_1based",
    "LEVELS",
]

WIDTH = 7
HEIGHT = 6
_H1 = HEIGHT + 1  # bits per column, including the sentinel bit on top
_SIZE = WIDTH * HEIGHT

MIN_SCORE = -(_SIZE // 2) + 3  # -18: lose against a win with the 4th stone
MAX_SCORE = (_SIZE + 1) // 2 - 3  # 18: win with the 4th stone

# Bit (col * 7 + row) is the cell of column `col`, row `row` (row 0 = bottom).
BOTTOM = tuple(1 << (c * _H1) for c in range(WIDTH))
TOP = tuple(1 << (c * _H1 + HEIGHT - 1) for c in range(WIDTH))
COLUMN = tuple(((1 << HEIGHT) - 1) << (c * _H1) for c in range(WIDTH))
BOTTOM_MASK = sum(BOTTOM)
BOARD_MASK = BOTTOM_MASK * ((1 << HEIGHT) - 1)

# Centre first: 3, 2, 4, 1, 5, 0, 6.
COLUMN_ORDER = tuple(WIDTH // 2 + (1 - 2 * (i % 2)) * (i + 1) // 2 for i in range(WIDTH))

# --- winning cells, four directions at once --------------------------------------
#
# A cell completes a four in the direction of step s if three of its neighbours
# along that line are stones: at -3s,-2s,-s or -2s,-s,+s or -s,+s,+2s or +s,+2s,+3s.
# With shifts, for one direction:
#     left  = (p << s) & (p << 2s)          # neighbours at -s and -2s
#     right = (p >> s) & (p >> 2s)          # neighbours at +s and +2s
#     cells = left & ((p << 3s) | (p >> s)) | right & ((p << s) | (p >> 3s))
# The steps are 1 (vertical), 7 (horizontal), 6 and 8 (diagonals).  Multiplying p
# by a constant with one bit per lane, at `lane * 100 + 24 + k * step`, yields the
# four shifts by k*step side by side; the bitwise formula then runs on all four
# lanes at once and the lanes are finally OR-ed together.  The offset 24 makes
# right shifts (k < 0) positive.  Bits the sentinel row lets through are
# harmless: every window crossing a column boundary contains a sentinel cell,
# which never holds a stone, and the result is masked with the board.
_LANE = 100
_BASE = 24
_STEPS = (1, _H1, _H1 - 1, _H1 + 1)


def _lanes(k: int) -> int:
    return sum(1 << (d * _LANE + _BASE + k * s) for d, s in enumerate(_STEPS))


_K1, _K2, _K3 = _lanes(1), _lanes(2), _lanes(3)
_KM1, _KM2, _KM3 = _lanes(-1), _lanes(-2), _lanes(-3)


def winning_cells(position: int, mask: int) -> int:
    """Empty cells where one more stone of ``position`` would complete a four."""
    a1 = position * _K1
    b1 = position * _KM1
    left = a1 & position * _K2
    right = b1 & position * _KM2
    r = left & (position * _K3 | b1) | right & (a1 | position * _KM3)
    r |= r >> 2 * _LANE
    r |= r >> _LANE
    return (r >> _BASE) & (BOARD_MASK ^ mask)


def _has_four(position: int) -> bool:
    """True if ``position`` contains four aligned stones."""
    for s in _STEPS:
        m = position & (position >> s)
        if m & (m >> 2 * s):
            return True
    return False


# --- position -------------------------------------------------------------------


class Position:
    """A Connect Four position as two bitboards (see the module docstring).

    ``current`` holds the stones of the side to move, ``mask`` all stones and
    ``moves`` the number of stones played.  :meth:`key` is unique per position.
    """

    __slots__ = ("current", "mask", "moves")

    def __init__(self, current: int = 0, mask: int = 0, moves: int = 0) -> None:
        self.current = current
        self.mask = mask
        self.moves = moves

    @classmethod
    def from_moves(cls, moves: str) -> Position:
        """Play a string of 1-based column digits from the empty board.

        Raises ValueError for a character that is not a column digit, a move in
        a full column, or a move played after the game was already won.
        """
        pos = cls()
        won = False
        for i, ch in enumerate(moves, start=1):
            if ch not in "1234567"[:WIDTH]:
                raise ValueError(f"move {i}: {ch!r} is not a column number 1-{WIDTH}")
            if won:
                raise ValueError(f"move {i}: the game was already won")
            col = int(ch) - 1
            if not pos.can_play(col):
                raise ValueError(f"move {i}: column {ch} is full")
            won = pos.is_winning_move(col)
            pos.play(col)
        return pos

    def copy(self) -> Position:
        return Position(self.current, self.mask, self.moves)

    def key(self) -> int:
        """A unique integer per position (fits in 49 bits)."""
        return self.current + self.mask

    def can_play(self, col: int) -> bool:
        """True if column ``col`` (0-based) is not full."""
        return not self.mask & TOP[col]

    def play(self, col: int) -> None:
        """Drop a stone of the side to move in column ``col`` (must be playable)."""
        self.play_move((self.mask + BOTTOM[col]) & COLUMN[col])

    def play_move(self, move: int) -> None:
        """Play the single-bit ``move`` (a cell from :meth:`possible`)."""
        self.current ^= self.mask
        self.mask |= move
        self.moves += 1

    def possible(self) -> int:
        """Bitboard of the playable cells, one per non-full column."""
        return (self.mask + BOTTOM_MASK) & BOARD_MASK

    def winning_position(self) -> int:
        """Empty cells where the side to move would complete a four."""
        return winning_cells(self.current, self.mask)

    def opponent_winning_position(self) -> int:
        """Empty cells where the opponent would complete a four."""
        return winning_cells(self.current ^ self.mask, self.mask)

    def can_win_next(self) -> bool:
        return bool(self.winning_position() & self.possible())

    def is_winning_move(self, col: int) -> bool:
        """True if playing column ``col`` wins at once."""
        return bool(self.winning_position() & self.possible() & COLUMN[col])

    def possible_non_losing_moves(self) -> int:
        """Playable cells after which the opponent cannot win at once.

        Assumes the side to move cannot win at once.  Empty if the opponent has
        two immediate threats.
        """
        possible = self.possible()
        opp_win = self.opponent_winning_position()
        forced = possible & opp_win
        if forced:
            if forced & (forced - 1):
                return 0
            possible = forced
        return possible & ~(opp_win >> 1)

    def move_score(self, move: int) -> int:
        """Number of winning cells the side to move would have after ``move``."""
        return winning_cells(self.current | move, self.mask).bit_count()

    def is_won(self) -> bool:
        """True if the player who moved last has four in a row."""
        return _has_four(self.current ^ self.mask)

    def is_full(self) -> bool:
        return self.moves == _SIZE

    def legal_columns(self) -> list[int]:
        """Non-full columns, left to right."""
        return [c for c in range(WIDTH) if not self.mask & TOP[c]]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return self.current == other.current and self.mask == other.mask

    def __hash__(self) -> int:
        return hash(self.key())

    def __repr__(self) -> str:
        return f"Position(current={self.current:#x}, mask={self.mask:#x}, moves={self.moves})"

    def __str__(self) -> str:
        """The grid, top row first; X is the first player, O the second."""
        first = self.current if self.moves % 2 == 0 else self.current ^ self.mask
        rows = []
        for row in reversed(range(HEIGHT)):
            line = []
            for col in range(WIDTH):
                bit = 1 << (col * _H1 + row)
                line.append("." if not self.mask & bit else "X" if first & bit else "O")
            rows.append(" ".join(line))
        rows.append(" ".join(str(c + 1) for c in range(WIDTH)))
        return "\n".join(rows)


# --- solver -------------------------------------------------------------------------


class SearchTimeout(Exception):
    """Raised inside a search when its deadline has passed."""


# Bounds indexed by the number of stones played (see negamax).
_LOSS = tuple(-((_SIZE - m) // 2) for m in range(_SIZE + 1))  # opponent wins next move
_LOW = tuple(-((_SIZE - 2 - m) // 2) for m in range(_SIZE + 1))  # opponent cannot win next
_HIGH = tuple((_SIZE - 1 - m) // 2 for m in range(_SIZE + 1))  # we cannot win next
# A table entry holds, in its low 7 bits, an upper bound + 32 or a lower bound + 96;
# above them (entry >> 7), the cell of the move that refuted the position, or 0.
_UPPER_TAG = 32
_LOWER_TAG = 96

# Searches check their deadline (and the table size) once every 1024 nodes.
_CHECK_EVERY = 0x3FF


def _make_negamax(table: dict[int, int], deadline: float | None, max_entries: int, clock=time.monotonic):
    """Build the recursive negamax over ``table``; return it and a node counter.

    ``negamax(cur, mask, opp_win, moves, alpha)`` is a null-window search (beta
    is alpha + 1, the only window :meth:`Solver.solve` uses): is the score of the
    position with stones ``cur`` for the side to move, all stones ``mask`` after
    ``moves`` moves, and ``opp_win`` the opponent's winning cells, above
    ``alpha``?  The side to move must not be able to win at once.  The result r
    satisfies: if r > alpha the score is >= r; if r <= alpha the score is <= r.

    The node counter counts negamax calls.  The table's refuting moves and the
    look-ups of children (enhanced transposition cutoff) save calls, so the
    counts are lower than those Pons published for the same positions.
    """
    nodes = 0
    table_get = table.get
    k1, k2, k3, km1, km2, km3 = _K1, _K2, _K3, _KM1, _KM2, _KM3
    lane, lane2, base = _LANE, 2 * _LANE, _BASE
    bottom_mask, board_mask = BOTTOM_MASK, BOARD_MASK
    # (column mask, rank): the higher rank wins ties, so the centre comes first.
    order_ranks = tuple((COLUMN[c], WIDTH - 1 - i) for i, c in enumerate(COLUMN_ORDER))
    loss, low, high = _LOSS, _LOW, _HIGH
    draw_moves = _SIZE - 2
    lower_tag, upper_tag = _LOWER_TAG, _UPPER_TAG
    check_every = _CHECK_EVERY

    def housekeeping() -> None:
        if deadline is not None and clock() > deadline:
            raise SearchTimeout
        if len(table) > max_entries:
            table.clear()

    def negamax(cur: int, mask: int, opp_win: int, moves: int, alpha: int) -> int:
        nonlocal nodes
        nodes += 1
        if not nodes & check_every:
            housekeeping()

        # Moves that do not let the opponent win at once.
        possible = (mask + bottom_mask) & board_mask
        forced = possible & opp_win
        if forced:
            if forced & (forced - 1):  # two threats: we lose next move
                return loss[moves]
            possible = forced
        possible &= ~(opp_win >> 1)  # never play below an opponent's winning cell
        if not possible:
            return loss[moves]
        if moves >= draw_moves:  # two cells left, nobody can win
            return 0

        # Score bounds: the opponent cannot win next move, we cannot win now.
        bound = low[moves]
        if bound > alpha:
            return bound
        bound = high[moves]
        if bound <= alpha:
            return bound

        key = cur + mask
        entry = table_get(key)
        first = 0
        if entry is not None:
            bound = entry & 127
            if bound >= 64:  # lower bound
                bound -= lower_tag
                if bound > alpha:
                    return bound
            else:  # upper bound
                bound -= upper_tag
                if bound <= alpha:
                    return bound
            first = entry >> 7

        opp = cur ^ mask
        moves += 1
        child_alpha = -alpha - 1
        empty = board_mask ^ mask
        if first:  # the move that refuted this position last time
            p = cur | first
            a1 = p * k1
            b1 = p * km1
            r = a1 & p * k2 & (p * k3 | b1) | b1 & p * km2 & (a1 | p * km3)
            r |= r >> lane2
            r |= r >> lane
            score = -negamax(opp, mask | first, (r >> base) & (empty ^ first), moves, child_alpha)
            if score > alpha:
                table[key] = score + lower_tag | first << 7
                return score
            possible ^= first
            if not possible:
                table[key] = alpha + upper_tag | first << 7
                return alpha

        # Order the moves by the number of winning cells they create.
        children = []
        child_key = opp + mask
        for col_mask, rank in order_ranks:
            move = possible & col_mask
            if move:
                entry = table_get(child_key + move)
                if entry is not None:
                    bound = entry & 127
                    if bound < 64:  # the child's upper bound: our lower bound
                        bound = upper_tag - bound
                        if bound > alpha:
                            table[key] = bound + lower_tag | move << 7
                            return bound
                    elif lower_tag - bound <= alpha:  # this move fails low: skip it
                        continue
                # win = winning_cells(cur | move, mask | move), inlined
                p = cur | move
                a1 = p * k1
                b1 = p * km1
                r = a1 & p * k2 & (p * k3 | b1) | b1 & p * km2 & (a1 | p * km3)
                r |= r >> lane2
                r |= r >> lane
                win = (r >> base) & (empty ^ move)
                children.append((win.bit_count() * 8 + rank, move, win))
        if len(children) > 1:
            children.sort(reverse=True)

        for _, move, win in children:
            score = -negamax(opp, mask | move, win, moves, child_alpha)
            if score > alpha:
                table[key] = score + lower_tag | move << 7
                return score
        table[key] = alpha + upper_tag | first << 7
        return alpha

    def explored() -> int:
        return nodes

    return negamax, explored


def _cdiv2(x: int) -> int:
    """x / 2 rounded towards zero, as C++ does (Pons' search schedule uses it)."""
    return -(-x // 2) if x < 0 else x // 2


class Solver:
    """Strong (exact score) or weak (win/draw/loss) Connect Four solver.

    ``nodes`` counts the positions explored (one per negamax call) since the
    last :meth:`reset`.  The transposition table is kept between calls; it is
    emptied by :meth:`reset` and whenever it grows beyond ``max_entries``.
    Deadlines are times of ``clock``: :func:`time.monotonic` unless a benchmark
    wants processor time.
    """

    def __init__(self, max_entries: int = 4_000_000, clock=time.monotonic) -> None:
        self.nodes = 0
        self.max_entries = max_entries
        self.clock = clock
        self._table: dict[int, int] = {}

    def reset(self) -> None:
        """Empty the transposition table and zero the node counter."""
        self.nodes = 0
        self._table.clear()

    def _search(self, deadline: float | None):
        return _make_negamax(self._table, deadline, self.max_entries, self.clock)

    def solve(self, position: Position, weak: bool = False, deadline: float | None = None) -> int:
        """Score of ``position`` for the side to move (see the module docstring).

        With ``weak=True`` only the sign is exact: 1 win, 0 draw, -1 loss.  A
        finished game scores as such (0 for a full board).  ``deadline``, a
        :func:`time.monotonic` time, makes the search raise
        :class:`SearchTimeout` when exceeded.
        """
        cur, mask, moves = position.current, position.mask, position.moves
        if _has_four(cur ^ mask):  # the previous player has won
            score = -((_SIZE + 2 - moves) // 2)
            return max(-1, score) if weak else score
        if moves == _SIZE:
            return 0
        if winning_cells(cur, mask) & (mask + BOTTOM_MASK) & BOARD_MASK:
            score = (_SIZE + 1 - moves) // 2
            return 1 if weak else score
        lo = -((_SIZE - moves) // 2)
        hi = (_SIZE + 1 - moves) // 2
        if weak:
            lo, hi = -1, 1
        negamax, explored = self._search(deadline)
        opp_win = winning_cells(cur ^ mask, mask)
        try:
            while lo < hi:  # narrow [lo, hi] with null-window searches
                if lo < 0 < hi:  # first the value: a win?
                    med = 0
                elif lo < 0 == hi:  # not a win: a draw?
                    med = -1
                else:  # then the exact score
                    med = lo + (hi - lo) // 2
                    if med <= 0 and _cdiv2(lo) < med:
                        med = _cdiv2(lo)
                    elif med >= 0 and _cdiv2(hi) > med:
                        med = _cdiv2(hi)
                r = negamax(cur, mask, opp_win, moves, med)
                if r <= med:
                    hi = r
                else:
                    lo = r
        finally:
            self.nodes += explored()
        return (lo > 0) - (lo < 0) if weak else lo

    def analyze(self, position: Position, weak: bool = False, deadline: float | None = None) -> list[int | None]:
        """Score of each column (index 0-6) if played now; None for a full column.

        Raises ValueError if the game is already over.
        """
        _check_playable(position)
        scores: list[int | None] = []
        for col in range(WIDTH):
            if not position.can_play(col):
                scores.append(None)
            elif position.is_winning_move(col):
                scores.append(1 if weak else (_SIZE + 1 - position.moves) // 2)
            else:
                child = position.copy()
                child.play(col)
                scores.append(-self.solve(child, weak, deadline))
        return scores

    def best_move(self, position: Position, deadline: float | None = None) -> tuple[int, int]:
        """An optimal column and the position's exact score.

        Among optimal moves the first in centre-first order is returned.  Raises
        ValueError if the game is already over, :class:`SearchTimeout` past
        ``deadline``.
        """
        _check_playable(position)
        cur, mask, moves = position.current, position.mask, position.moves
        possible = (mask + BOTTOM_MASK) & BOARD_MASK
        win_now = winning_cells(cur, mask) & possible
        if win_now:
            col = next(c for c in COLUMN_ORDER if win_now & COLUMN[c])
            return col, (_SIZE + 1 - moves) // 2
        score = self.solve(position, deadline=deadline)
        safe = position.possible_non_losing_moves()
        if not safe:  # every move loses at once; at least block one threat
            threats = possible & winning_cells(cur ^ mask, mask)
            col = next(c for c in COLUMN_ORDER if (threats or possible) & COLUMN[c])
            return col, score
        negamax, explored = self._search(deadline)
        try:
            for col in COLUMN_ORDER:
                move = safe & COLUMN[col]
                if not move:
                    continue
                # Does the child score at most -score (so this move reaches score)?
                child_cur = cur ^ mask
                child_mask = mask | move
                child_opp_win = winning_cells(cur | move, child_mask)
                r = negamax(child_cur, child_mask, child_opp_win, moves + 1, -score)
                if r <= -score:
                    return col, score
        finally:
            self.nodes += explored()
        raise AssertionError("no move reaches the solved score")  # pragma: no cover


    def keeping_move(self, position: Position, deadline: float | None = None) -> tuple[int, int]:
        """A column proven to keep the position's value, and that value: 1 win, 0 draw, -1 loss.

        A weak solve, much quicker than :meth:`best_move`: the column wins when the
        position is won and draws when it is drawn, but not necessarily the quickest.
        Among such columns the first in centre-first order is returned.  Raises
        ValueError if the game is already over, :class:`SearchTimeout` past
        ``deadline``.
        """
        _check_playable(position)
        cur, mask, moves = position.current, position.mask, position.moves
        possible = (mask + BOTTOM_MASK) & BOARD_MASK
        win_now = winning_cells(cur, mask) & possible
        if win_now:
            return next(c for c in COLUMN_ORDER if win_now & COLUMN[c]), 1
        safe = position.possible_non_losing_moves()
        if not safe:  # every move loses at once; at least block one threat
            threats = possible & winning_cells(cur ^ mask, mask)
            return next(c for c in COLUMN_ORDER if (threats or possible) & COLUMN[c]), -1
        value = self.solve(position, weak=True, deadline=deadline)
        if value < 0:  # every move loses: any safe one keeps the value
            return next(c for c in COLUMN_ORDER if safe & COLUMN[c]), value
        negamax, explored = self._search(deadline)
        try:
            for col in COLUMN_ORDER:
                move = safe & COLUMN[col]
                if not move:
                    continue
                # Is the child at most -value for the opponent (a loss when we win, a draw when we draw)?
                child_mask = mask | move
                r = negamax(cur ^ mask, child_mask, winning_cells(cur | move, child_mask), moves + 1, -value)
                if r <= -value:
                    return col, value
        finally:
            self.nodes += explored()
        raise AssertionError("no move keeps the solved value")  # pragma: no cover


def _check_playable(position: Position) -> None:
    if position.is_won():
        raise ValueError("the game is already won")
    if position.is_full():
        raise ValueError("the board is full")


# --- depth-limited search with a heuristic ------------------------------------------

_WIN = 1000  # decided results score _WIN + exact score (wins) or -_WIN + exact score
_DECIDED = _WIN // 2  # heuristic values stay far below this
_CENTRE_WEIGHTS = ((COLUMN[3], 3), (COLUMN[2] | COLUMN[4], 2), (COLUMN[1] | COLUMN[5], 1))


def _evaluate(cur: int, mask: int, own_win: int, opp_win: int) -> int:
    """Heuristic value for the side to move: threats, then central stones."""
    opp = cur ^ mask
    value = 4 * (own_win.bit_count() - opp_win.bit_count())
    for cells, weight in _CENTRE_WEIGHTS:
        value += weight * ((cur & cells).bit_count() - (opp & cells).bit_count())
    return value


def _ordered_moves(cur: int, mask: int, moves_bits: int) -> list[int]:
    """Single-bit moves of ``moves_bits``, most winning cells created first, then centre-first."""
    scored = []
    for rank, col in enumerate(COLUMN_ORDER):
        move = moves_bits & COLUMN[col]
        if move:
            scored.append((-winning_cells(cur | move, mask).bit_count(), rank, move))
    scored.sort()
    return [move for _, _, move in scored]


def _depth_search(
    position: Position, depth: int, deadline: float | None = None, first: int | None = None
) -> tuple[int, int]:
    """Best column and its value by alpha-beta to ``depth`` plies (>= 1).

    Values of decided lines are exact (see ``_WIN``); undecided leaves are
    scored by :func:`_evaluate`.  The side to move must not be able to win at
    once and must have a safe move.  ``first``, a column, is tried first (the
    best move of the previous iteration when deepening).
    """
    nodes = 0
    clock = time.monotonic

    def negamax(cur: int, mask: int, moves: int, depth: int, alpha: int, beta: int) -> int:
        nonlocal nodes
        nodes += 1
        if deadline is not None and not nodes & _CHECK_EVERY and clock() > deadline:
            raise SearchTimeout
        possible = (mask + BOTTOM_MASK) & BOARD_MASK
        own_win = winning_cells(cur, mask)
        if own_win & possible:
            return _WIN + (_SIZE + 1 - moves) // 2
        opp_win = winning_cells(cur ^ mask, mask)
        forced = possible & opp_win
        if forced:
            if forced & (forced - 1):
                return -_WIN + _LOSS[moves]
            possible = forced
        possible &= ~(opp_win >> 1)
        if not possible:
            return -_WIN + _LOSS[moves]
        if moves >= _SIZE - 2:
            return 0
        if depth == 0:
            return _evaluate(cur, mask, own_win, opp_win)
        best = -2 * _WIN
        for move in _ordered_moves(cur, mask, possible):
            score = -negamax(cur ^ mask, mask | move, moves + 1, depth - 1, -beta, -alpha)
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        return best

    cur, mask = position.current, position.mask
    order = _ordered_moves(cur, mask, position.possible_non_losing_moves())
    if first is not None:  # stable sort: the column `first` moves to the front
        order.sort(key=lambda move: 0 if move & COLUMN[first] else 1)
    alpha, best_move = -2 * _WIN, order[0]
    for move in order:
        score = -negamax(cur ^ mask, mask | move, position.moves + 1, depth - 1, -2 * _WIN, -alpha)
        if score > alpha:
            alpha, best_move = score, move
    return _column_of(best_move), alpha


def _column_of(move: int) -> int:
    return (move.bit_length() - 1) // _H1


# --- move choice ----------------------------------------------------------------------

LEVELS = ("random", "greedy", "depth:N", "perfect")

GUESS_DEPTH = 4
"""Plies of the heuristic search that gives "perfect" its best guess when the exact search cannot finish."""


class Choice(NamedTuple):
    """A column chosen for the side to move, and what is proven about it."""

    column: int
    """The column, 0-based."""
    proven: bool
    """Whether the column is proven to keep the position's value: to win a won position, draw a drawn one."""
    value: int | None = None
    """The position's value for the side to move when known: 1 win, 0 draw, -1 loss."""
    quickest: bool = False
    """Whether the column is also proven to win the quickest (or lose the slowest) way."""


def choose(
    position: Position,
    level: str = "perfect",
    budget_s: float = 1.0,
    rng: random.Random | None = None,
    *,
    solver: Solver | None = None,
) -> Choice:
    """Choose a column for the side to move; never a full column.

    Levels:

    * ``"random"``: any non-full column, drawn with ``rng``;
    * ``"greedy"``: win at once if possible, else block an immediate loss, else
      the most central non-full column;
    * ``"depth:N"``: alpha-beta to N plies (N >= 1) with a heuristic (threats,
      central stones) at the horizon, deepening one ply at a time: when N plies
      cannot be searched within ``budget_s`` seconds, the deepest search finished
      in time decides;
    * ``"perfect"``: the exact search gets the whole ``budget_s``: first a weak
      solve, which proves a column keeping the position's value (win, draw or
      loss), then, with the time left, a strong one for the quickest win or the
      slowest loss.  If even the weak solve cannot finish, the column is the best
      guess of a short heuristic search and the choice says it is not proven.

    Every level but ``"random"`` wins at once when it can and blocks a lone
    threat, proven moves.  Pass a ``solver`` to keep its transposition table
    from move to move.  Raises ValueError if the game is over, the level is
    unknown or the budget is not positive.
    """
    _check_playable(position)
    depth = _parse_level(level)
    if (level == "perfect" or depth is not None) and not budget_s > 0:
        raise ValueError(f"budget_s must be positive, not {budget_s!r}")
    if level == "random":
        return Choice((rng or random).choice(position.legal_columns()), proven=False)

    # The other levels all win at once when they can and block a lone threat.
    cur, mask = position.current, position.mask
    possible = position.possible()
    win_now = winning_cells(cur, mask) & possible
    threats = winning_cells(cur ^ mask, mask) & possible
    if level == "greedy" and not win_now:
        cells = threats or possible
        return Choice(next(c for c in COLUMN_ORDER if cells & COLUMN[c]), proven=False)
    if win_now:
        return Choice(next(c for c in COLUMN_ORDER if win_now & COLUMN[c]), True, 1, quickest=True)
    # Below, the moves not in safe lose at once: the worst any move can do.
    safe = position.possible_non_losing_moves()
    if not safe:  # lost whatever we do, next move: at least block a threat
        return Choice(next(c for c in COLUMN_ORDER if (threats or possible) & COLUMN[c]), True, -1, quickest=True)
    if not safe & (safe - 1):  # a single move does not lose at once
        return Choice(_column_of(safe), proven=True, quickest=True)
    deadline = time.monotonic() + budget_s
    if depth is not None:
        return Choice(_deepening(position, depth, deadline), proven=False)
    return _perfect(position, deadline, solver or Solver())


def _perfect(position: Position, deadline: float, solver: Solver) -> Choice:
    """The perfect level on a position with at least two safe moves (see :func:`choose`)."""
    try:
        column, value = solver.keeping_move(position, deadline)
    except SearchTimeout:
        return Choice(_depth_search(position, GUESS_DEPTH)[0], proven=False)
    if value == 0:  # a draw scores 0 whichever drawing move: it is already the best
        return Choice(column, True, value, quickest=True)
    try:
        return Choice(solver.best_move(position, deadline)[0], True, value, quickest=True)
    except SearchTimeout:
        return Choice(column, True, value)


def _deepening(position: Position, depth: int, deadline: float) -> int:
    """The column of the deepest search of at most ``depth`` plies finished by ``deadline``.

    The one-ply search always finishes, so there is a column.
    """
    best = None
    for plies in range(1, min(depth, _SIZE - position.moves) + 1):
        try:
            best, value = _depth_search(position, plies, deadline if best is not None else None, best)
        except SearchTimeout:
            break
        if abs(value) >= _DECIDED:  # decided within the horizon: deeper cannot change it
            break
    return best


def choose_move(
    position: Position,
    level: str = "perfect",
    budget_s: float = 1.0,
    rng: random.Random | None = None,
    *,
    solver: Solver | None = None,
) -> int:
    """The column (0-based) of :func:`choose`."""
    return choose(position, level, budget_s, rng, solver=solver).column


def _parse_level(level: str) -> int | None:
    """The N of ``"depth:N"``, None for the other levels; ValueError if unknown."""
    if level in ("random", "greedy", "perfect"):
        return None
    if isinstance(level, str) and level.startswith("depth:"):
        digits = level[len("depth:"):]
        if digits.isascii() and digits.isdigit() and int(digits) >= 1:
            return int(digits)
    raise ValueError(f"unknown level {level!r}; expected one of {', '.join(LEVELS)} (N >= 1)")


def choose_move_1based(
    position: Position, level: str = "perfect", budget_s: float = 1.0, rng: random.Random | None = None, **kwargs
) -> int:
    """:func:`choose_move` with a 1-based column, as in move strings."""
    return choose_move(position, level, budget_s, rng, **kwargs) + 1
