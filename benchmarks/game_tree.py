"""How fast, and how big, the reference game tree is: ``python benchmarks/game_tree.py``.

For each grid size and look-ahead, from the empty grid, it reports the nodes built,
nodes built per second, the computer's move time (buildGame, chooseBest and findBest,
as makeComputerMove does) and the peak memory of building the tree.

House rule: figures are also given as ratios against a baseline measured in the same
run, so they mean the same on a fast machine and a slow one. The baseline is the work
no tree can avoid: a flat loop making as many grids as the tree has nodes, each a
clone with one more mark and its worth from evaluateGrid (time), and a flat list
holding that many grids (memory). The ratios are the tree's overhead.

Each case runs in a fresh interpreter, once for time and once more for memory with
tracemalloc (which slows Python down, so it never runs while timing).

    python benchmarks/game_tree.py             # the standard cases
    python benchmarks/game_tree.py --limits    # also the deepest look-ahead the game offers per size
    python benchmarks/game_tree.py --no-memory # time only (faster)
"""

from __future__ import annotations

import argparse
import gc
import json
import platform
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

STANDARD = [(4, 1), (4, 2), (4, 3), (4, 4), (4, 5), (6, 1), (6, 2), (6, 3), (8, 1), (8, 2), (8, 3)]
LIMITS = [(5, 4), (7, 3), (9, 2)]
TARGETS = {(4, 4): (1.0, 150.0), (4, 5): (15.0, None)}
"""(seconds, megabytes) a computer move may take at most, for (side, look-ahead)."""


# One case, in its own interpreter ---------------------------------------------------


def _players():
    from adt import colour, player, symbol

    red = player.newPlayerType(symbol.newSymbolType(colour.newColourType()))
    blue = player.newPlayerType(symbol.newSymbolType(colour.invert(colour.newColourType())))
    return red, blue


def _count(node) -> int:
    count, stack = 0, [node]
    while stack:
        node = stack.pop()
        count += 1
        child = node.child
        while child is not None:
            stack.append(child)
            child = child.sibling
    return count


def _computer_move(side: int, look_ahead: int):
    """makeComputerMove's work from the empty grid: (tree, best child, seconds to build, to choose and find)."""
    from adt import game_tree, grid
    from adt.dimension import Dimension
    from adt.level_number import LevelNumber

    red, blue = _players()
    empty = grid.newGridType(Dimension(side))
    start = time.perf_counter()
    tree = game_tree.buildGame(game_tree.newGameTreeType(), empty, red, blue, LevelNumber(look_ahead))
    built = time.perf_counter()
    best = game_tree.findBest(tree, game_tree.chooseBest(tree))
    found = time.perf_counter()
    return tree, best, built - start, found - built


def _baseline_grids(side: int, count: int, keep: bool):
    """The unavoidable work: ``count`` grids, each a clone with one more mark and its worth evaluated."""
    from adt import grid

    red, _ = _players()
    base = grid.newGridType(grid.dimension_adt.Dimension(side))
    squares = side * side
    kept = [] if keep else None
    for n in range(count):
        copy = grid.clone(base)
        copy.red |= 1 << (n % squares)  # the same bit-setting the tree uses instead of occupySquare
        grid.setWorth(copy, grid.evaluateGrid(copy, red))
        if keep:
            kept.append(copy)
    return kept


def _time_case(side: int, look_ahead: int) -> dict:
    """The best of several runs for small cases (at least 0.5 s of work in all), one run for large ones."""
    _baseline_grids(side, side * side, keep=False)  # warm up: the grid's line masks are made once per size
    runs, spent = [], 0.0
    while not runs or (spent < 0.5 and len(runs) < 50):
        tree, _, build, choose = _computer_move(side, look_ahead)
        nodes = _count(tree.node)
        del tree
        gc.collect()
        start = time.perf_counter()
        _baseline_grids(side, nodes, keep=False)
        baseline = time.perf_counter() - start
        runs.append((build, choose, baseline))
        spent += build + choose + baseline
    build, choose = min(runs, key=lambda run: run[0] + run[1])[:2]
    return {"nodes": nodes, "build": build, "choose": choose, "baseline": min(run[2] for run in runs), "runs": len(runs)}


def _memory_case(side: int, look_ahead: int) -> dict:
    from adt import game_tree  # noqa: F401  (imported before measuring)

    gc.collect()
    tracemalloc.start()
    tree, best, _, _ = _computer_move(side, look_ahead)
    tree_peak = tracemalloc.get_traced_memory()[1]
    nodes = _count(tree.node)
    del tree, best
    gc.collect()
    tracemalloc.reset_peak()
    floor = tracemalloc.get_traced_memory()[0]
    grids = _baseline_grids(side, nodes, keep=True)
    baseline_peak = tracemalloc.get_traced_memory()[1] - floor
    del grids
    tracemalloc.stop()
    return {"tree_peak": tree_peak, "baseline_peak": baseline_peak}


# The report ------------------------------------------------------------------------


def _run(kind: str, side: int, look_ahead: int) -> dict:
    output = subprocess.run(
        [sys.executable, __file__, f"--{kind}-case", str(side), str(look_ahead)],
        check=True,
        capture_output=True,
        text=True,
        cwd=ROOT,
    ).stdout
    return json.loads(output)


def _report(cases, memory: bool) -> None:
    print(f"Game-tree benchmark: Python {platform.python_version()} on {platform.machine()} ({platform.system()})")
    print("Baseline: the same number of grids cloned, marked and evaluated in a flat loop (time),")
    print("and held in a flat list (memory); 'x base' is the tree's figure over the baseline's.")
    print()
    header = f"{'grid':>5} {'look':>4} {'nodes':>9} {'nodes/s':>9} {'move s':>8} {'x base':>7} {'peak MB':>8} {'x base':>7}  target"
    print(header)
    print("-" * len(header))
    misses = 0
    for side, look_ahead in cases:
        timing = _run("time", side, look_ahead)
        move = timing["build"] + timing["choose"]
        rate = timing["nodes"] / timing["build"] if timing["build"] else float("inf")
        time_ratio = move / timing["baseline"] if timing["baseline"] else float("nan")
        if memory:
            space = _run("memory", side, look_ahead)
            peak = space["tree_peak"] / 2**20
            space_ratio = space["tree_peak"] / space["baseline_peak"] if space["baseline_peak"] else float("nan")
            memory_text = f"{peak:8.1f} {space_ratio:7.2f}"
        else:
            peak, memory_text = None, f"{'-':>8} {'-':>7}"
        target_text = ""
        if (side, look_ahead) in TARGETS:
            most_seconds, most_mb = TARGETS[side, look_ahead]
            met = move <= most_seconds and (most_mb is None or peak is None or peak <= most_mb)
            misses += not met
            limits = f"<= {most_seconds:g} s" + (f", <= {most_mb:g} MB" if most_mb else "")
            target_text = f"{limits}: {'met' if met else 'MISSED'}"
        print(
            f"{side}x{side:<3} {look_ahead:>4} {timing['nodes']:>9,} {rate:>9,.0f} {move:>8.3f} {time_ratio:>7.2f} "
            f"{memory_text}  {target_text}"
        )
    print()
    print("All targets met." if not misses else f"{misses} target(s) missed.")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Benchmark the reference game tree (adt.game_tree).")
    parser.add_argument("--limits", action="store_true", help="also run the deepest look-ahead the game offers on 5x5, 7x7, 9x9")
    parser.add_argument("--no-memory", action="store_true", help="skip the memory runs")
    parser.add_argument("--time-case", nargs=2, type=int, metavar=("SIDE", "LOOK"), help=argparse.SUPPRESS)
    parser.add_argument("--memory-case", nargs=2, type=int, metavar=("SIDE", "LOOK"), help=argparse.SUPPRESS)
    options = parser.parse_args(argv)
    if options.time_case:
        print(json.dumps(_time_case(*options.time_case)))
    elif options.memory_case:
        print(json.dumps(_memory_case(*options.memory_case)))
    else:
        _report(STANDARD + (LIMITS if options.limits else []), memory=not options.no_memory)
    return 0


if __name__ == "__main__":
    sys.exit(main())
