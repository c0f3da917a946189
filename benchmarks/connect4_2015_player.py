"""Benchmark the 2015 design's computer player against a random player and a perfect one.

Usage::

    python benchmarks/connect4_2015_player.py [--games N] [--perfect-games N] [--budget S] [--seed N] [--max-seconds S]

The report's player (``Player(colour, True)``, strength ``"report"``) plays ``--games``
games against a player choosing uniformly among the open columns and ``--perfect-games``
games against the BoardADT solver (strength ``"perfect"``, ``--budget`` seconds a move),
alternating who moves first (the report's colours are random too). For each match it
prints the report player's wins, draws and losses, and the mean time per move of each
side in milliseconds. The random player's time per move is the baseline measured in the
same run: the report player's cost is also printed as a ratio against it.

The perfect player answers each position once: the report player's random choices lead
its games through the same positions again and again, so the solver's column for a
position (and its transposition table) is kept for the whole match, which makes 1000
games affordable. Its time per move is printed both per position solved and per move
played. ``--max-seconds`` stops a match early (the counts then say how many games were
played).

Figures of one run (2026-11-25, ``nice -n 19`` on 2 cores while a CI run used them,
seed 2015, budget 0.5 s, no ``--max-seconds``)::

    report player vs random: 1000 games, W/D/L 968/9/23 (96.8% won), 7 s
      time per move: report player 0.613 ms, random 0.021 ms (9969 and 9494 moves)
      ratio: a report move costs 29.1 x a random move (baseline, same run)
    report player vs perfect: 1000 games, W/D/L 14/38/948 (1.4% won), 272 s
      time per move: report player 0.651 ms, perfect 21.827 ms (11630 and 12078 moves)
      perfect player: 4839 distinct positions solved (4595 proven within the budget), 54.4 ms per position solved

The perfect player's few losses and draws come from early positions it could not prove
within its half second (244 of them): there it plays the best guess of a short search.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from reference_games.boardadt import solver
from reference_games.connect4_2015.game_logic import GameLogic
from reference_games.connect4_2015.game_state import GameState
from reference_games.connect4_2015.grid import Grid
from reference_games.connect4_2015.player import Player
from reference_games.connect4_2015.space import Space


class RandomPlayer:
    """Any open column, uniformly."""

    def __init__(self, rng: random.Random) -> None:
        self.rng, self.logic = rng, GameLogic()

    def aiTurn(self, grid) -> list[int]:
        x = self.rng.choice([x for x in range(7) if self.logic.findY(grid, x) >= 0])
        return [x, self.logic.findY(grid, x)]


class PerfectMemory:
    """What the perfect player has answered so far in a match: a column per position, and the solver's table."""

    def __init__(self, budget: float) -> None:
        self.budget = budget
        self.columns: dict[tuple[int, int], int] = {}
        self.solver = solver.Solver(max_entries=1_000_000)
        self.solve_seconds = 0.0
        self.proven = 0


class PerfectPlayer:
    """The move ``Player(colour, True, strength="perfect")`` makes (the BoardADT solver), remembered per position."""

    def __init__(self, colour: Space, memory: PerfectMemory, rng: random.Random) -> None:
        self.colour, self.memory, self.rng, self.logic = colour, memory, rng, GameLogic()

    def aiTurn(self, grid) -> list[int]:
        current = mask = moves = 0
        for x in range(7):
            for y in range(6):
                space = grid.getSpaceType(x, y)
                if space != Space.Empty:
                    bit = 1 << (x * (solver.HEIGHT + 1) + y)
                    mask |= bit
                    moves += 1
                    if space == self.colour:
                        current |= bit
        column = self.memory.columns.get((current, mask))
        if column is None:
            start = time.perf_counter()
            choice = solver.choose(
                solver.Position(current, mask, moves),
                "perfect",
                self.memory.budget,
                self.rng,
                solver=self.memory.solver,
            )
            self.memory.solve_seconds += time.perf_counter() - start
            self.memory.proven += choice.proven
            column = self.memory.columns[(current, mask)] = choice.column
        return [column, self.logic.findY(grid, column)]


def play(first, second) -> tuple[int, dict[int, list[float]]]:
    """One game from the empty grid: 0 if ``first`` wins, 1 if ``second`` does, -1 for a draw; and move times."""
    grid, logic = Grid(), GameLogic()
    players, colours = (first, second), (Space.Red, Space.Blue)
    times: dict[int, list[float]] = {0: [], 1: []}
    turn = 0
    while True:
        start = time.perf_counter()
        x, y = players[turn].aiTurn(grid)
        times[turn].append(time.perf_counter() - start)
        assert grid.isValidSpot(x, y), f"an illegal move {x, y}"
        grid.setSpace(x, y, colours[turn])
        if isinstance(players[turn], Player):
            players[turn].setTurn(players[turn].getTurn() + 1)
        state = logic.isWin(grid, x, y)
        if state is GameState.Win:
            return turn, times
        if state is GameState.Draw:
            return -1, times
        turn = 1 - turn


def match(games: int, opponent, seed: int, name: str, max_seconds: float | None = None) -> tuple[float, float]:
    """Play ``games`` games (fewer if ``max_seconds`` runs out); print the counts and times per move."""
    rng = random.Random(seed)
    wins = draws = losses = played = 0
    ours, theirs = [], []
    started = time.perf_counter()
    for game in range(games):
        if max_seconds is not None and time.perf_counter() - started > max_seconds:
            break
        report_first = game % 2 == 0
        colour = Space.Red if report_first else Space.Blue
        report = Player(colour, True, rng=random.Random(rng.random()))
        other = opponent(rng, Space.Blue if report_first else Space.Red)
        outcome, times = play(report, other) if report_first else play(other, report)
        index = 0 if report_first else 1
        if outcome == -1:
            draws += 1
        elif outcome == index:
            wins += 1
        else:
            losses += 1
        played += 1
        ours += times[index]
        theirs += times[1 - index]
    mean_ours = 1000 * sum(ours) / len(ours)
    mean_theirs = 1000 * sum(theirs) / len(theirs)
    cut = f" (stopped after {max_seconds:.0f} s of {games})" if played < games else ""
    print(
        f"report player vs {name}: {played} games{cut}, W/D/L {wins}/{draws}/{losses} ({100 * wins / played:.1f}% won),"
        f" {time.perf_counter() - started:.0f} s"
    )
    print(
        f"  time per move: report player {mean_ours:.3f} ms, "
        f"{name} {mean_theirs:.3f} ms ({len(ours)} and {len(theirs)} moves)"
    )
    return mean_ours, mean_theirs


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=1000, help="games against the random player (default 1000)")
    p.add_argument("--perfect-games", type=int, default=1000, help="games against the perfect player (default 1000)")
    p.add_argument(
        "--budget", type=float, default=0.5, help="seconds per position the perfect player may think (default 0.5)"
    )
    p.add_argument("--seed", type=int, default=2015)
    p.add_argument(
        "--max-seconds", type=float, default=None, help="stop each match after this many seconds (default: no limit)"
    )
    args = p.parse_args(argv)
    if args.games:
        ours, baseline = match(args.games, lambda rng, colour: RandomPlayer(rng), args.seed, "random", args.max_seconds)
        print(f"  ratio: a report move costs {ours / baseline:.1f} x a random move (baseline, same run)")
    if args.perfect_games:
        memory = PerfectMemory(args.budget)
        match(
            args.perfect_games,
            lambda rng, colour: PerfectPlayer(colour, memory, rng),
            args.seed + 1,
            "perfect",
            args.max_seconds,
        )
        solved = len(memory.columns)
        print(
            f"  perfect player: {solved} distinct positions solved ({memory.proven} proven within the budget),"
            f" {1000 * memory.solve_seconds / max(solved, 1):.1f} ms per position solved"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
