"""How fast, and how big, the reference game tree is: ``python benchmarks/game_tree.py``.

For every grid size and look-ahead the game offers (``adt.connect4.LOOK_AHEAD_LIMITS``),
from the empty grid (the largest tree of a game), it reports the nodes built, nodes
built per second, the computer's move time (buildGame, chooseBest and findBest, as
makeComputerMove does), whether that move is within 2 seconds, and the peak memory of
building the tree.

House rule: figures are also given as ratios against baselines measured in the same
run, so they mean the same on a fast machine and a slow one:

- "before" is the reference as it was before issue 15, kept runnable here: every child
  evaluated whole with evaluateGrid, gameOver asked of every grid, the cycle collector
  running during the build. "x before" is the move time over its time: the speed-up.
- "x flat" divides by the work no tree can avoid, done the documented way: a flat loop
  making as many grids as the tree has nodes, each a clone with one more mark and its
  worth from evaluateGrid (time), and a flat list holding that many grids (memory).

Each case runs in fresh interpreters: the move three times (the median wall-clock
and processor times are reported, the slowest wall-clock time too; 'within 2 s'
judges the processor time, which is what the move takes when the machine is not
shared with other work, as wall-clock time then is), the old
path once, and once more for memory with tracemalloc (which slows Python down, so it
never runs while timing). The load averages before and after the run are printed.

    python benchmarks/game_tree.py              # every setting the game offers
    python benchmarks/game_tree.py --deepest    # only the deepest look-ahead per size
    python benchmarks/game_tree.py --no-before  # without the old path (much faster)
    python benchmarks/game_tree.py --no-memory  # time only
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import statistics
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from adt.connect4 import LOOK_AHEAD_LIMITS

OFFERED = [(side, look) for side, deepest in LOOK_AHEAD_LIMITS.items() for look in range(1, deepest + 1)]
DEEPEST = list(LOOK_AHEAD_LIMITS.items())
MOST_SECONDS = 2.0
"""How long the computer's move may take at any setting the game offers (issue 15)."""
RUNS = 3


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


def _old_move(side: int, look_ahead: int) -> tuple[float, float]:
    """makeComputerMove's work from the empty grid the way the reference did it before issue 15.

    Returns the wall-clock and the processor seconds it took.
    """
    from adt import game_tree, grid, player, symbol
    from adt.colour import RED
    from adt.dimension import Dimension
    from adt.game_tree import Node

    def generate(node, first, second):
        g = node.grid
        if grid.gameOver(g):
            return
        mover = first if node.level % 2 == 0 else second
        plays_red = symbol.getColour(player.getSymbol(mover)).name == RED
        occupied = g.red | g.blue
        previous = None
        for square in range(g.side * g.side):
            bit = 1 << square
            if occupied & bit:
                continue
            child_grid = grid.clone(g)
            if plays_red:
                child_grid.red |= bit
            else:
                child_grid.blue |= bit
            grid.setWorth(child_grid, grid.evaluateGrid(child_grid, first))
            child = Node(child_grid, node.level + 1, node)
            if previous is None:
                node.child = child
            else:
                previous.sibling = child
            previous = child

    def grow(node, first, second, depth):
        if node.level >= depth:
            return
        generate(node, first, second)
        child = node.child
        while child is not None:
            grow(child, first, second, depth)
            child = child.sibling

    red, blue = _players()
    start, cpu = time.perf_counter(), time.process_time()
    tree = game_tree.setGrid(game_tree.newGameTreeType(), grid.newGridType(Dimension(side)))
    grow(tree.node, red, blue, look_ahead)
    game_tree.findBest(tree, game_tree.chooseBest(tree))
    return time.perf_counter() - start, time.process_time() - cpu


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
    """One computer move, timed: nodes, seconds building, choosing and finding, and the flat baseline."""
    _baseline_grids(side, side * side, keep=False)  # warm up: the grid's line masks are made once per size
    cpu = time.process_time()
    tree, _, build, choose = _computer_move(side, look_ahead)
    cpu = time.process_time() - cpu
    nodes = _count(tree.node)
    del tree
    gc.collect()
    start = time.perf_counter()
    _baseline_grids(side, nodes, keep=False)
    baseline = time.perf_counter() - start
    return {"nodes": nodes, "build": build, "choose": choose, "cpu": cpu, "baseline": baseline}


def _before_case(side: int, look_ahead: int) -> dict:
    """The move the way the reference made it before issue 15."""
    _baseline_grids(side, side * side, keep=False)
    wall, cpu = _old_move(side, look_ahead)
    return {"before": wall, "before_cpu": cpu}


def _memory_case(side: int, look_ahead: int) -> dict:
    from adt import game_tree  # noqa: F401 - imported before measuring, so its own memory is not counted

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


def _report(cases, memory: bool, before: bool) -> int:
    print(
        f"Game-tree benchmark: Python {platform.python_version()} on {platform.machine()} ({platform.system()}), "
        f"{os.cpu_count()} CPUs, load average {_load()} at the start"
    )
    print("'move s' is the median of the computer's first move over fresh runs ('max s' the slowest,")
    print("'cpu s' the median processor time of the move, which a busy machine does not inflate: on an")
    print("idle machine the move takes that long, so 'within 2 s' judges it);")
    print("'before s' is the move the way the reference made it before issue 15, timed in the same run,")
    print("and 'x before' the processor time now over its processor time then (the speed-up is its")
    print("inverse); 'x flat' divides 'move s' by a flat loop cloning, marking and evaluating as many grids (time)")
    print("and a flat list holding them (memory).")
    print()
    header = (
        f"{'grid':>5} {'look':>4} {'nodes':>9} {'nodes/s':>9} {'move s':>7} "
        f"{'max s':>6} {'cpu s':>6} {'within 2 s':>10} "
        f"{'before s':>8} {'x before':>8} {'x flat':>6} {'peak MB':>7} {'x flat':>6}"
    )
    print(header)
    print("-" * len(header))
    misses = 0
    for side, look_ahead in cases:
        timings = [_run("time", side, look_ahead) for _ in range(RUNS)]
        moves = [t["build"] + t["choose"] for t in timings]
        move = statistics.median(moves)
        cpu = statistics.median(t["cpu"] for t in timings)
        nodes = timings[0]["nodes"]
        rate = nodes / statistics.median(t["build"] for t in timings)
        flat = move / statistics.median(t["baseline"] for t in timings)
        within = cpu <= MOST_SECONDS  # what the move takes on this machine when it is not shared
        misses += not within
        if before:
            old = _run("before", side, look_ahead)
            before_text = f"{old['before']:8.3f} {cpu / old['before_cpu']:8.3f}"
        else:
            before_text = f"{'-':>8} {'-':>8}"
        if memory:
            space = _run("memory", side, look_ahead)
            memory_text = f"{space['tree_peak'] / 2**20:7.1f} {space['tree_peak'] / space['baseline_peak']:6.2f}"
        else:
            memory_text = f"{'-':>7} {'-':>6}"
        print(
            f"{side}x{side:<3} {look_ahead:>4} {nodes:>9,} {rate:>9,.0f} {move:>7.3f} {max(moves):>6.3f} {cpu:>6.3f} "
            f"{'yes' if within else 'NO':>10} {before_text} {flat:>6.2f} {memory_text}",
            flush=True,
        )
    print()
    print(f"Load average {_load()} at the end.")
    print(f"Every move within {MOST_SECONDS:g} s." if not misses else f"{misses} setting(s) over {MOST_SECONDS:g} s.")
    return 1 if misses else 0


def _load() -> str:
    return " / ".join(f"{load:.2f}" for load in os.getloadavg()) + " (1 / 5 / 15 min)"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Benchmark the reference game tree (adt.game_tree).")
    parser.add_argument("--deepest", action="store_true", help="only the deepest look-ahead offered on each size")
    parser.add_argument("--no-before", action="store_true", help="skip the old path (the speed-up column)")
    parser.add_argument("--no-memory", action="store_true", help="skip the memory runs")
    parser.add_argument("--time-case", nargs=2, type=int, metavar=("SIDE", "LOOK"), help=argparse.SUPPRESS)
    parser.add_argument("--before-case", nargs=2, type=int, metavar=("SIDE", "LOOK"), help=argparse.SUPPRESS)
    parser.add_argument("--memory-case", nargs=2, type=int, metavar=("SIDE", "LOOK"), help=argparse.SUPPRESS)
    options = parser.parse_args(argv)
    if options.time_case:
        print(json.dumps(_time_case(*options.time_case)))
    elif options.before_case:
        print(json.dumps(_before_case(*options.before_case)))
    elif options.memory_case:
        print(json.dumps(_memory_case(*options.memory_case)))
    else:
        cases = DEEPEST if options.deepest else OFFERED
        return _report(cases, memory=not options.no_memory, before=not options.no_before)
    return 0


if __name__ == "__main__":
    sys.exit(main())
