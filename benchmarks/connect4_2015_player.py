"""Benchmark the 2015 design's computer player against a random player and a perfect one.

Usage::

    python benchmarks/connect4_2015_player.py [--games N] [--perfect-games N] [--budget S] [--seed N]

The report's player (``Player(colour, True)``, strength ``"report"``) plays ``--games``
games against a player choosing uniformly among the open columns and ``--perfect-games``
games against the BoardADT solver (strength ``"perfect"``, ``--budget`` seconds a move),
alternating who moves first (the report's colours are random too). For each match it
prints the report player's wins, draws and losses, and the mean time per move of each
side in milliseconds. The random player's time per move is the baseline measured in the
same run: the report player's cost is also printed as a ratio against it.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from reference_games.connect4_2015.game_logic import GameLogic  # noqa: E402
from reference_games.connect4_2015.game_state import GameState  # noqa: E402
from reference_games.connect4_2015.grid import Grid  # noqa: E402
from reference_games.connect4_2015.player import Player  # noqa: E402
from reference_games.connect4_2015.space import Space  # noqa: E402


class RandomPlayer:
    """Any open column, uniformly."""

    def __init__(self, rng: random.Random) -> None:
        self.rng, self.logic = rng, GameLogic()

    def aiTurn(self, grid) -> list[int]:
        x = self.rng.choice([x for x in range(7) if self.logic.findY(grid, x) >= 0])
        return [x, self.logic.findY(grid, x)]


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


def match(games: int, opponent, seed: int, name: str) -> None:
    rng = random.Random(seed)
    wins = draws = losses = 0
    ours, theirs = [], []
    for game in range(games):
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
        ours += times[index]
        theirs += times[1 - index]
    mean_ours = 1000 * sum(ours) / len(ours)
    mean_theirs = 1000 * sum(theirs) / len(theirs)
    print(f"report player vs {name}: {games} games, W/D/L {wins}/{draws}/{losses} ({100 * wins / games:.1f}% won)")
    print(f"  time per move: report player {mean_ours:.3f} ms, {name} {mean_theirs:.3f} ms")
    return mean_ours, mean_theirs


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=1000, help="games against the random player (default 1000)")
    p.add_argument("--perfect-games", type=int, default=1000, help="games against the perfect player (default 1000)")
    p.add_argument("--budget", type=float, default=0.5, help="seconds per move of the perfect player (default 0.5)")
    p.add_argument("--seed", type=int, default=2015)
    args = p.parse_args(argv)
    ours, baseline = match(args.games, lambda rng, colour: RandomPlayer(rng), args.seed, "random")
    print(f"  ratio: a report move costs {ours / baseline:.1f} x a random move (baseline, same run)")
    if args.perfect_games:
        match(args.perfect_games, lambda rng, colour: Player(colour, True, rng=rng, strength="perfect", budget=args.budget),
              args.seed + 1, "perfect")
    return 0


if __name__ == "__main__":
    sys.exit(main())
