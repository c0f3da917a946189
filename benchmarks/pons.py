"""Benchmark the Connect Four solver on Pascal Pons' test sets.

Usage::

    python benchmarks/pons.py [SET ...] [--limit N] [--begin-limit N] [--weak] [--dir DIR]
                              [--clock cpu|wall] [--budget S] [--random N] [--perfect N]
                              [--baseline-limit N] [--before REV]

SET is a set name such as ``L2_R1`` (or ``Test_L2_R1``); the default is all six:
the end set L3_R1, the middle sets L2_R1 and L2_R2, the begin sets L1_R1, L1_R2 and
L1_R3.  The set files (``MOVES SCORE`` per line) are looked up in ``--dir``, by
default ``../shared/benchmarks/pons`` next to the repository.  The transposition
table is emptied before each position, as in Pons' benchmark, and only the solving
is timed: by default in CPU time of this process, which a busy machine disturbs far
less than wall-clock time (``--clock wall``).  The run ends with the ratio of
wall-clock to CPU time, a measure of how busy the machine was.

Each position gets ``--budget`` seconds (1 by default) of the chosen clock: a
position not solved by then counts as not solved within the budget (the begin sets
hold positions that take minutes).  For each set it prints how many positions were
solved within the budget and correctly, the slowest and the mean time, the mean
number of positions explored beside the mean Pons published for his C++ solver
(comparable when every position was solved), and positions explored per second.
The set ``random`` holds ``--random`` positions (1000 by default) of 16 to 38 plies
taken from random games with a fixed seed; it has no published scores.

Then the level "perfect" of the player (budget 1 s, wall-clock time, as a person
waits) is compared with the way it played before issue 15 (kept runnable here as
the baseline): the share of moves proven to keep the position's value, and the
slowest move, on the first ``--perfect`` random positions that need a search.
Baselines are measured in the same run on the first ``--baseline-limit``
positions of L3_R1, L2_R1 and L2_R2, and our solver's figures on those same
positions are printed as ratios against them:

* ``plain``: a deliberately plain solver (negamax with alpha-beta, centre-first
  order and a dict transposition table; no null-window search, no pruning of
  losing moves); too slow for L2_R2, skipped there;
* ``port``: a straightforward object-and-method port of Pons' algorithm;
* ``before``: our solver as it was before issue 15's speed work (Pons' algorithm,
  tuned for CPython), read from git at ``--before REV`` (default ``7b0aa50``);
  it must explore exactly as many positions as ``port``: Pons' node counts.
  Skipped, with a word, where git or that revision is not at hand.

Ours explores other numbers of positions than Pons published: fewer where the
search is long, as it keeps in its table the move that refuted each position and
tries it first and looks children up in the table before searching them; more on
some easy positions, where its schedule of null-window searches (the value first,
then the exact score) takes more searches than Pons' (see the solver's docstring).

Figures of a full run
---------------------

A run on 26 November 2026 (Python 3.11.7, 2 cores shared with three other
engineers' test runs: wall-clock time was 1.58x CPU time, so every CPU time below
is inflated by the contention), ``python benchmarks/pons.py L3_R1 L2_R1 L2_R2
--perfect 200``::

    set       solved in time correct   slowest  mean time  mean positions   published  x pub
    L3_R1       1000/1000 100%    1000   4.98 ms   173.4 us            40.2        51.3   0.78
    L2_R1       1000/1000 100%    1000 165.19 ms    2.89 ms           659.7       449.6   1.47
    L2_R2        970/1000 97%     970 995.58 ms  115.50 ms        21,735.6    39,907.0      -
    random       998/1000 100%     998 857.84 ms   24.85 ms         4,228.1           -      -

(L2_R2's mean of positions is over the 970 solved in time; over its 50 first
positions, all solved, ours explores 0.69x as many as Pons' solver.)  Ratios on the
first 50 positions of each set, measured in the same run::

    L3_R1 vs before: time 1.26x, slowest 1.45x, positions explored 0.69x, positions/s 0.87x
    L2_R1 vs before: time 0.97x, slowest 1.00x, positions explored 1.13x, positions/s 1.09x
    L2_R2 vs before: time 1.38x, slowest 1.70x, positions explored 0.69x, positions/s 0.96x
    L2_R2 vs port  : time 4.60x, slowest 5.60x, positions explored 0.69x, positions/s 3.19x

On the 25 slowest L2_R2 positions of the previous solver (1.3 to 4.7 s and up to a
million positions each on the same busy machine) ours explores 0.44 to 1.06 times
as many positions, 0.66 in total.  The perfect level, on the 49 of the first 200
random positions that need a search: before 48/49 moves proven, after 49/49.

The begin sets, first 200 positions each (``python benchmarks/pons.py L1_R1 L1_R2
L1_R3 --begin-limit 200 --random 0 --perfect 0 --baseline-limit 0``, same machine,
wall-clock 1.87x CPU time); means are over the positions solved in time only, so
not comparable with Pons' means over whole sets::

    set       solved in time correct   slowest  mean time  mean positions   published
    L1_R1        195/200  98%     195 999.81 ms   57.96 ms         9,290.8     3,298.0
    L1_R2         68/200  34%      68 976.39 ms  460.58 ms        87,767.0 1,200,785.0
    L1_R3          0/200   0%       0         -          -               - 65,900,000.0

The target of issue 15 (every position of L3_R1, L2_R1, L2_R2 and of the random
set within 1 s) is not met on this machine while it is busy: 30 L2_R2 positions
and 2 random ones took longer.

The same command on 27 November 2026, on a quiet machine (wall-clock time 1.00x CPU
time), with the same solver::

    set       solved in time correct   slowest  mean time  mean positions   published  x pub
    L3_R1       1000/1000 100%    1000   3.53 ms   125.9 us            40.2        51.3   0.78
    L2_R1       1000/1000 100%    1000 140.40 ms    2.05 ms           659.7       449.6   1.47
    L2_R2        986/1000 99%     986 989.04 ms   94.12 ms        24,804.4    39,907.0      -
    random       997/1000 100%     997 759.37 ms   21.26 ms         4,076.1           -      -

    L2_R2 vs before: time 1.52x, slowest 1.60x, positions explored 0.69x, positions/s 1.06x
    L2_R2 vs port  : time 3.91x, slowest 4.03x, positions explored 0.69x, positions/s 2.71x

Without a budget the slowest L2_R2 position (``555317266147361``, score -1) took 2.16 s
of CPU time and 325,805 positions; 12 took more than 1 s, all with 200,000 to 530,000
positions. Even the weak solve (win, draw or loss: what the perfect level proves first)
of the hardest one, a draw, explores 532,014 positions (2.1 s). At about 270,000
positions a second, CPython's cost per position, the target needs about half as many
positions on those dozen.

Tried on the 12 slowest L2_R2 positions and 100 others, and not kept (27 November
2026; positions explored against the solver above): a table entry keeping both bounds
(exactly the same counts: the schedule of null-window searches never needs the bound
it would keep); the history heuristic, by itself or to break ties (1.3 to 3 times as
many); ordering threats on the rows of the side to move's parity first (1 to 3 % more);
cutting a search where the side that must win has no free line of four left (3.6 %
fewer) or, Allis' claimeven, where the second player can answer every move in its
column and the first has no line on its rows (3 % fewer), neither quicker in time; a
cache of each side's winning cells by its stones (the same counts, 6 to 9 % quicker:
short of the target by far, for a second table to bound and explain to students).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from reference_games.boardadt import solver as solver_module
from reference_games.boardadt.solver import (
    BOARD_MASK,
    BOTTOM,
    BOTTOM_MASK,
    COLUMN,
    COLUMN_ORDER,
    TOP,
    WIDTH,
    Position,
    SearchTimeout,
    Solver,
)

DEFAULT_SETS = ("L3_R1", "L2_R1", "L2_R2", "L1_R1", "L1_R2", "L1_R3")
PUBLISHED = {
    "L3_R1": 51.3,
    "L2_R1": 449.6,
    "L2_R2": 39_907,
    "L1_R1": 3_298,
    "L1_R2": 1_200_785,
    "L1_R3": 65_900_000,
}
"""Mean positions explored by Pons' final solver (without opening book), as he published them."""
RANDOM_SEED = 15
BASELINE_SETS = ("L3_R1", "L2_R1", "L2_R2")
PLAIN_SETS = ("L3_R1", "L2_R1")  # the plain solver takes minutes on L2_R2
DEFAULT_DIR = REPO.parent / "shared" / "benchmarks" / "pons"
BEFORE_REV = "7b0aa50"
"""The last commit whose solver explored exactly Pons' positions (before issue 15's speed work)."""
SIZE = 42


class BenchmarkError(Exception):
    """A problem with the benchmark files, reported without a traceback."""


class PlainSolver:
    """The baseline: a deliberately plain, straightforward solver.

    Negamax with alpha-beta on bitboards, columns tried centre-first, a dict
    transposition table of upper bounds, a single full-window search.
    """

    def __init__(self) -> None:
        self.nodes = 0
        self.table: dict[int, int] = {}

    def reset(self) -> None:
        self.nodes = 0
        self.table.clear()

    def solve(self, position: Position, weak: bool = False) -> int:
        if weak:
            return self.negamax(position.current, position.mask, position.moves, -1, 1)
        return self.negamax(position.current, position.mask, position.moves, -SIZE // 2, SIZE // 2)

    @staticmethod
    def wins(stones: int) -> bool:
        for step in (1, 7, 6, 8):
            pairs = stones & (stones >> step)
            if pairs & (pairs >> 2 * step):
                return True
        return False

    def negamax(self, current: int, mask: int, moves: int, alpha: int, beta: int) -> int:
        self.nodes += 1
        if moves == SIZE:
            return 0
        for col in range(WIDTH):
            if not mask & TOP[col]:
                move = (mask + BOTTOM[col]) & COLUMN[col]
                if self.wins(current | move):
                    return (SIZE + 1 - moves) // 2
        upper = self.table.get(current + mask, (SIZE - 1 - moves) // 2)
        if beta > upper:
            beta = upper
            if alpha >= beta:
                return beta
        for col in COLUMN_ORDER:
            if not mask & TOP[col]:
                move = (mask + BOTTOM[col]) & COLUMN[col]
                score = -self.negamax(current ^ mask, mask | move, moves + 1, -beta, -alpha)
                if score >= beta:
                    return score
                if score > alpha:
                    alpha = score
        self.table[current + mask] = alpha
        return alpha


class PortPosition:
    """Pons' Position class, ported line by line (objects, methods, plain shifts)."""

    def __init__(self, current: int = 0, mask: int = 0, moves: int = 0) -> None:
        self.current, self.mask, self.moves = current, mask, moves

    def copy(self) -> PortPosition:
        return PortPosition(self.current, self.mask, self.moves)

    def play(self, move: int) -> None:
        self.current ^= self.mask
        self.mask |= move
        self.moves += 1

    def key(self) -> int:
        return self.current + self.mask

    def possible(self) -> int:
        return (self.mask + BOTTOM_MASK) & BOARD_MASK

    def can_win_next(self) -> bool:
        return bool(self.winning_position() & self.possible())

    def winning_position(self) -> int:
        return self.compute_winning_position(self.current, self.mask)

    def opponent_winning_position(self) -> int:
        return self.compute_winning_position(self.current ^ self.mask, self.mask)

    def possible_non_losing_moves(self) -> int:
        possible_mask = self.possible()
        opponent_win = self.opponent_winning_position()
        forced_moves = possible_mask & opponent_win
        if forced_moves:
            if forced_moves & (forced_moves - 1):
                return 0
            possible_mask = forced_moves
        return possible_mask & ~(opponent_win >> 1)

    def move_score(self, move: int) -> int:
        return self.compute_winning_position(self.current | move, self.mask).bit_count()

    @staticmethod
    def compute_winning_position(position: int, mask: int) -> int:
        r = (position << 1) & (position << 2) & (position << 3)
        for s in (7, 6, 8):
            p = (position << s) & (position << 2 * s)
            r |= p & (position << 3 * s)
            r |= p & (position >> s)
            p = (position >> s) & (position >> 2 * s)
            r |= p & (position << s)
            r |= p & (position >> 3 * s)
        return r & (BOARD_MASK ^ mask)


class MoveSorter:
    """Pons' insertion-sorted move list."""

    def __init__(self) -> None:
        self.entries: list[tuple[int, int]] = []

    def add(self, move: int, score: int) -> None:
        pos = len(self.entries)
        while pos and self.entries[pos - 1][1] > score:
            pos -= 1
        self.entries.insert(pos, (move, score))

    def get_next(self) -> int:
        return self.entries.pop()[0] if self.entries else 0


class PortSolver:
    """A straightforward port of Pons' final solver (lower-bound table, no book)."""

    MIN_SCORE, MAX_SCORE = -SIZE // 2 + 3, (SIZE + 1) // 2 - 3

    def __init__(self) -> None:
        self.nodes = 0
        self.table: dict[int, int] = {}

    def reset(self) -> None:
        self.nodes = 0
        self.table.clear()

    def negamax(self, P: PortPosition, alpha: int, beta: int) -> int:
        self.nodes += 1
        possible = P.possible_non_losing_moves()
        if possible == 0:
            return -((SIZE - P.moves) // 2)
        if P.moves >= SIZE - 2:
            return 0
        low = -((SIZE - 2 - P.moves) // 2)
        if alpha < low:
            alpha = low
            if alpha >= beta:
                return alpha
        high = (SIZE - 1 - P.moves) // 2
        if beta > high:
            beta = high
            if alpha >= beta:
                return beta
        key = P.key()
        val = self.table.get(key, 0)
        if val:
            if val > self.MAX_SCORE - self.MIN_SCORE + 1:
                low = val + 2 * self.MIN_SCORE - self.MAX_SCORE - 2
                if alpha < low:
                    alpha = low
                    if alpha >= beta:
                        return alpha
            else:
                high = val + self.MIN_SCORE - 1
                if beta > high:
                    beta = high
                    if alpha >= beta:
                        return beta
        moves = MoveSorter()
        for i in reversed(range(WIDTH)):
            move = possible & COLUMN[COLUMN_ORDER[i]]
            if move:
                moves.add(move, P.move_score(move))
        while next_move := moves.get_next():
            P2 = P.copy()
            P2.play(next_move)
            score = -self.negamax(P2, -beta, -alpha)
            if score >= beta:
                self.table[key] = score + self.MAX_SCORE - 2 * self.MIN_SCORE + 2
                return score
            if score > alpha:
                alpha = score
        self.table[key] = alpha - self.MIN_SCORE + 1
        return alpha

    def solve(self, position: Position, weak: bool = False) -> int:
        P = PortPosition(position.current, position.mask, position.moves)
        if P.can_win_next():
            return 1 if weak else (SIZE + 1 - P.moves) // 2
        low, high = -((SIZE - P.moves) // 2), (SIZE + 1 - P.moves) // 2
        if weak:
            low, high = -1, 1
        while low < high:
            med = low + (high - low) // 2
            if med <= 0 and int(low / 2) < med:
                med = int(low / 2)
            elif med >= 0 and int(high / 2) > med:
                med = int(high / 2)
            r = self.negamax(P, med, med + 1)
            if r <= med:
                high = r
            else:
                low = r
        return (low > 0) - (low < 0) if weak else low


def load_before(rev: str):
    """Our solver module as it was at git revision ``rev``, or None (with a reason printed) if unavailable."""
    import importlib.util
    import subprocess
    import tempfile

    try:
        source = subprocess.run(
            ["git", "-C", str(REPO), "show", f"{rev}:reference_games/boardadt/solver.py"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        print(f"(no 'before' baseline: cannot read the solver at {rev} from git: {e})")
        return None
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(source)
    spec = importlib.util.spec_from_file_location("solver_before", f.name)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    Path(f.name).unlink()
    return module


def set_path(directory: Path, name: str) -> Path:
    stem = name if name.startswith("Test_") else f"Test_{name}"
    return directory / stem


def load_set(path: Path, limit: int | None) -> list[tuple[str, Position, int]]:
    """The (moves, position, expected score) of each line of a set file."""
    if not path.is_file():
        raise BenchmarkError(f"benchmark set file not found: {path}")
    cases = []
    with path.open() as f:
        for number, line in enumerate(f, start=1):
            if not line.strip():
                continue
            if limit is not None and len(cases) >= limit:
                break
            try:
                moves, score = line.split()
                cases.append((moves, Position.from_moves(moves), int(score)))
            except ValueError as e:
                raise BenchmarkError(f"{path}:{number}: bad line {line.strip()!r} ({e})") from None
    if not cases:
        raise BenchmarkError(f"benchmark set file is empty: {path}")
    return cases


def expected(score: int, weak: bool) -> int:
    return (score > 0) - (score < 0) if weak else score


CLOCKS = {"cpu": time.process_time, "wall": time.perf_counter}
elapsed = {"cpu": 0.0, "wall": 0.0}  # totals over the run, to report how busy the machine was


def run(solver, cases, weak: bool, clock: str, budget: float | None = None) -> dict:
    """Solve each case from an empty table; return totals and per-case figures.

    With a ``budget`` (seconds of the clock) the solver gives up on a position past it;
    the figures of the positions solved are kept, and ``unsolved`` counts the others.
    A case whose score is None (no published score) counts as correct when solved.
    """
    correct = unsolved = 0
    nodes_each: list[int] = []
    times_each: list[float] = []
    for _moves, position, score in cases:
        solver.reset()
        wall, cpu = time.perf_counter(), time.process_time()
        try:
            if budget is None:
                result = solver.solve(position, weak=weak)
            else:
                result = solver.solve(position, weak=weak, deadline=CLOCKS[clock]() + budget)
        except SearchTimeout:
            result = None
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        elapsed["wall"] += wall
        elapsed["cpu"] += cpu
        if result is None:
            unsolved += 1
            continue
        times_each.append(cpu if clock == "cpu" else wall)
        nodes_each.append(solver.nodes)
        correct += score is None or result == expected(score, weak)
    return {"correct": correct, "unsolved": unsolved, "nodes": nodes_each, "times": times_each}


def random_cases(count: int, seed: int = RANDOM_SEED) -> list[tuple[str, Position, None]]:
    """``count`` positions of 16 to 38 plies from random games (uniform moves), none finished."""
    rng = random.Random(seed)
    cases = []
    while len(cases) < count:
        plies, moves = rng.randint(16, 38), ""
        position = Position()
        for _ in range(plies):
            column = rng.choice(position.legal_columns())
            if position.is_winning_move(column):
                break
            position.play(column)
            moves += str(column + 1)
        else:
            cases.append((moves, position, None))
    return cases


def perfect_before(position: Position, budget_s: float) -> tuple[int, bool]:
    """The level "perfect" as it played before issue 15, on today's solver: (column, proven).

    The strong search got half the budget; if it could not finish, a heuristic search
    deepened until the budget was spent and its move was played without a word.
    """
    start = time.monotonic()
    try:
        return solver_module.Solver().best_move(position, deadline=start + budget_s / 2)[0], True
    except SearchTimeout:
        pass
    deadline, best = start + budget_s, None
    for plies in range(1, SIZE - position.moves + 1):
        try:
            best, value = solver_module._depth_search(position, plies, deadline if best is not None else None, best)
        except SearchTimeout:
            break
        if abs(value) >= solver_module._DECIDED:
            break
    return best, False


def perfect_after(position: Position, budget_s: float) -> tuple[int, bool]:
    """The level "perfect" now: (column, proven)."""
    choice = solver_module.choose(position, "perfect", budget_s, solver=Solver())
    return choice.column, choice.proven


def needs_search(position: Position) -> bool:
    """Whether the player must search: no win at once and at least two moves that do not lose at once."""
    safe = position.possible_non_losing_moves()
    return not position.can_win_next() and bool(safe & (safe - 1))


def compare_perfect(cases, budget_s: float) -> None:
    """Print the perfect level before and after issue 15 on the positions that need a search."""
    positions = [position for _moves, position, _score in cases if needs_search(position)]
    print()
    print(
        f'The level "perfect" ({budget_s:g} s a move, wall-clock) '
        f"on {len(positions)} random positions that need a search:"
    )
    header = f"{'version':<8} {'proven':>13} {'slowest move':>13} {'mean move':>10}"
    print(header)
    print("-" * len(header))
    for label, play in (("before", perfect_before), ("after", perfect_after)):
        proven, times = 0, []
        for position in positions:
            start = time.perf_counter()
            column, ok = play(position, budget_s)
            times.append(time.perf_counter() - start)
            assert position.can_play(column)
            proven += ok
        share = f"{proven}/{len(positions)}"
        print(
            f"{label:<8} {share:>8} {proven / len(positions):4.0%} "
            f"{format_time(max(times)):>13} {format_time(sum(times) / len(times)):>10}"
        )
    print("'before' counts a move proven when its strong search finished in half the budget; 'after' when")
    print("the weak solve proved the move keeps the value (then the strong one looks for the quickest win).")


def summary(nodes: list[int], times: list[float]) -> tuple[float, float, float]:
    """Mean positions explored, mean seconds per position, positions per second."""
    n, total_nodes, total_time = len(nodes), sum(nodes), sum(times)
    return total_nodes / n, total_time / n, total_nodes / total_time if total_time else float("inf")


def format_time(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} us"
    if seconds < 1:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds:.2f} s"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sets", nargs="*", metavar="SET", help=f"set names (default: {' '.join(DEFAULT_SETS)})")
    parser.add_argument("--limit", type=int, help="only the first N positions of each set")
    parser.add_argument(
        "--begin-limit",
        type=int,
        metavar="N",
        help="only the first N positions of the begin sets L1_R* (default: all; they take up to the budget each)",
    )
    parser.add_argument("--weak", action="store_true", help="weak solve: win/draw/loss only")
    parser.add_argument(
        "--clock",
        choices=sorted(CLOCKS),
        default="cpu",
        help="time in CPU time of this process (default) or wall-clock time",
    )
    parser.add_argument(
        "--dir", type=Path, default=DEFAULT_DIR, help=f"folder of the set files (default: {DEFAULT_DIR})"
    )
    parser.add_argument(
        "--baseline-limit",
        type=int,
        default=50,
        metavar="N",
        help="positions per set for the baseline (default 50; 0 skips it)",
    )
    parser.add_argument(
        "--before",
        default=BEFORE_REV,
        metavar="REV",
        help=f"git revision of the 'before' baseline solver (default {BEFORE_REV})",
    )
    parser.add_argument(
        "--budget", type=float, default=1.0, metavar="S", help="seconds of the clock each position may take (default 1)"
    )
    parser.add_argument(
        "--random",
        type=int,
        default=1000,
        metavar="N",
        help="random positions of 16 to 38 plies (default 1000; 0 skips them)",
    )
    parser.add_argument(
        "--perfect",
        type=int,
        default=1000,
        metavar="N",
        help="random positions for the perfect level, before and after (default 1000; 0 skips it)",
    )
    args = parser.parse_args(argv)
    if args.limit is not None and args.limit < 1 or args.begin_limit is not None and args.begin_limit < 1:
        parser.error("--limit and --begin-limit must be positive")
    if args.baseline_limit < 0 or args.random < 0 or args.perfect < 0:
        parser.error("--baseline-limit, --random and --perfect must be >= 0")
    if not args.budget > 0:
        parser.error("--budget must be positive")

    names = args.sets or list(DEFAULT_SETS)
    try:
        sets = {}
        for name in names:
            short = name.removeprefix("Test_")
            limit = args.limit
            if short.startswith("L1_") and args.begin_limit is not None:
                limit = min(limit or args.begin_limit, args.begin_limit)
            sets[short] = load_set(set_path(args.dir, name), limit)
        baseline_sets = {}
        if args.baseline_limit:
            for name in BASELINE_SETS:
                cases = sets.get(name) or load_set(set_path(args.dir, name), None)
                baseline_sets[name] = cases[: args.baseline_limit]
    except BenchmarkError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2

    randoms = random_cases(max(args.random, args.perfect))
    if args.random:
        sets["random"] = randoms[: args.random]

    mode = "weak" if args.weak else "strong"
    print(
        f"Connect Four solver benchmark ({mode} solve, {args.clock} time, "
        f"Python {sys.version.split()[0]}), sets from {args.dir}"
    )
    print(f"Each position may take {args.budget:g} s; 'slowest' and 'mean' are over the positions solved in time.")
    header = (
        f"{'set':<8} {'solved in time':>15} {'correct':>7} {'slowest':>9} {'mean time':>10} "
        f"{'mean positions':>15} {'published':>11} {'x pub':>6} {'positions/s':>12}"
    )
    print(header)
    print("-" * len(header))
    ok = True
    clock = {"cpu": time.process_time, "wall": time.monotonic}[args.clock]
    for name, cases in sets.items():
        result = run(Solver(clock=clock), cases, args.weak, args.clock, args.budget)
        solved = len(cases) - result["unsolved"]
        ok &= result["correct"] == solved
        if solved:
            mean_nodes, mean_time, rate = summary(result["nodes"], result["times"])
            slowest = format_time(max(result["times"]))
        else:
            mean_nodes, mean_time, rate, slowest = float("nan"), float("nan"), float("nan"), "-"
        published = PUBLISHED.get(name)
        comparable = published and not result["unsolved"] and not args.weak and len(cases) == 1000
        print(
            f"{name:<8} {solved:>7}/{len(cases):<4} {solved / len(cases):3.0%} {result['correct']:>7} {slowest:>9} "
            f"{format_time(mean_time) if solved else '-':>10} {mean_nodes:>15,.1f} "
            f"{f'{published:,.1f}' if published else '-':>11} "
            f"{f'{mean_nodes / published:6.2f}' if comparable else '-':>6} {rate:>12,.0f}",
            flush=True,
        )
    print("'x pub' is our mean over Pons' published mean, shown when every position of the whole set was solved.")
    print("Ours explores other numbers of positions than Pons' solver (see this script's docstring).")

    if baseline_sets:
        before = load_before(args.before)
        print()
        print(f"Baselines on the first {args.baseline_limit} positions of {', '.join(baseline_sets)}:")
        print("  plain  = plain negamax + alpha-beta (centre-first order, dict table); not on L2_R2")
        print("  port   = straightforward port of Pons' algorithm (objects, methods)")
        print(
            f"  before = our solver at {args.before}, before issue 15's speed work (Pons' algorithm, Pons' node counts)"
        )
        header = (
            f"{'set':<8} {'solver':<7} {'correct':>9} {'mean positions':>15} "
            f"{'mean time':>11} {'slowest':>9} {'positions/s':>12}"
        )
        print(header)
        print("-" * len(header))
        ratios = []
        for name, cases in baseline_sets.items():
            rows, per_case = {}, {}
            solvers = [("plain", PlainSolver())] if name in PLAIN_SETS else []
            solvers.append(("port", PortSolver()))
            if before is not None:
                solvers.append(("before", before.Solver()))
            solvers.append(("ours", Solver()))
            for label, solver in solvers:
                result = run(solver, cases, args.weak, args.clock)
                ok &= result["correct"] == len(cases)
                rows[label] = summary(result["nodes"], result["times"]) + (max(result["times"]),)
                per_case[label] = result["nodes"]
                mean_nodes, mean_time, rate, slowest = rows[label]
                print(
                    f"{name:<8} {label:<7} {result['correct']:>4}/{len(cases):<4} {mean_nodes:>15,.1f} "
                    f"{format_time(mean_time):>11} {format_time(slowest):>9} {rate:>12,.0f}",
                    flush=True,
                )
            ratios.append((name, rows))
            if "before" in per_case and per_case["port"] != per_case["before"]:
                print(f"WARNING: {name}: the port and 'before' explored different numbers of positions")
        print()
        print("Ours as ratios against the baselines on the same positions (time: how many times faster):")
        for name, rows in ratios:
            ours = rows["ours"]
            for label in ("plain", "port", "before"):
                if label not in rows:
                    continue
                base = rows[label]
                print(
                    f"  {name} vs {label:<6}: time {base[1] / ours[1]:6.2f}x, slowest {base[3] / ours[3]:6.2f}x, "
                    f"positions explored {ours[0] / base[0]:5.2f}x, positions/s {ours[2] / base[2]:5.2f}x"
                )
    if args.perfect:
        compare_perfect(randoms[: args.perfect], 1.0)
    if elapsed["cpu"]:
        print(
            f"\nWall-clock time was {elapsed['wall'] / elapsed['cpu']:.2f}x CPU time "
            f"(1.00 = the machine was otherwise idle)."
        )
    if not ok:
        print("\nSOME SCORES ARE WRONG", file=sys.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
