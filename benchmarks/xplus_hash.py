"""Benchmarks of the X+Game reference: its hash's collisions, and the search with and without the dictionary.

(a) Collisions reported by the reference HashDictionary's put
    * on the instructor's TestDict workload: 10,000 keys, the decimal string of i
      repeated 32 times (i = 0..9999), into a table of 13,441 slots (target: at most
      1,000), and
    * on the configurations real games store (the dictionary of each computer move of
      games between the search and a random opponent), board sizes 3 to 6, in tables of
      the size createDictionary picks (target: within 5 % of a random hash),
    each against the average of a uniformly random hash on the same number of keys,
    n - m (1 - (1 - 1/m) ** n), and a ratio.
(b) The search with and without the dictionary: configurations examined and time per
    computer move, on 3 x 3 to 6 x 6 boards at several depths, and their ratios.

Run: python benchmarks/xplus_hash.py [--quick]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from reference_games.xplus.configurations import TABLE_SIZE, Configurations
from reference_games.xplus.data import Data
from reference_games.xplus.hash_dictionary import HashDictionary
from reference_games.xplus.play import COMPUTER, COMPUTER_WINS, HUMAN, HUMAN_WINS, Play


def random_average(n: int, m: int) -> float:
    """The expected number of puts that find their slot taken, for n keys hashed uniformly into m slots."""
    return n - m * (1 - (1 - 1 / m) ** n)


def collisions(keys: list[str], size: int) -> int:
    table = HashDictionary(size)
    return sum(table.put(Data(key, 0)) for key in keys)


class Recording(Configurations):
    """The reference's Configurations, remembering every dictionary the search fills."""

    stored: list[list[str]]

    def createDictionary(self):
        table = super().createDictionary()
        self.stored.append([])
        return table

    def addConfiguration(self, hashDictionary, score):
        super().addConfiguration(hashDictionary, score)
        self.stored[-1].append(self._configuration())


def game_configurations(size: int, length: int, levels: int, games: int, rng: random.Random) -> list[list[str]]:
    """The configurations stored by each computer move of ``games`` games against a random player."""
    stored: list[list[str]] = []
    for _ in range(games):
        board = Recording(size, length, levels)
        board.stored = stored
        search = Play(board, size, levels)
        while True:
            free = [(r, c) for r in range(size) for c in range(size) if board.squareIsEmpty(r, c)]
            board.savePlay(*rng.choice(free), HUMAN)
            if board.wins(HUMAN) or board.isDraw():
                break
            reply = search.computerPlay(COMPUTER, HUMAN_WINS, COMPUTER_WINS, 0)
            board.savePlay(reply.getRow(), reply.getCol(), COMPUTER)
            if board.wins(COMPUTER) or board.isDraw():
                break
    return [keys for keys in stored if keys]


def hash_figures(quick: bool) -> None:
    keys = [str(i) * 32 for i in range(10000)]
    got, expected = collisions(keys, 13441), random_average(len(keys), 13441)
    print("(a) collisions of the reference hash (Horner, base 193, reduced mod the table size at every step)")
    print(
        f"  TestDict workload, 10000 keys in 13441 slots: {got} collisions; "
        f"random hash {expected:.0f}; ratio {got / expected:.3f} (target: at most 1000)"
    )
    rng = random.Random(2210)
    settings = {3: (3, 9), 4: (4, 4), 5: (5, 3), 6: (5, 2)}
    for size, (length, levels) in settings.items():
        batches = game_configurations(size, length, levels, 20 if quick else 80, rng)
        keys = sorted({key for batch in batches for key in batch})
        got, expected = collisions(keys, TABLE_SIZE), random_average(len(keys), TABLE_SIZE)
        print(
            f"  configurations stored by {len(batches)} computer moves, {size} x {size} (k={length}, {levels} levels): "
            f"{len(keys)} distinct keys in {TABLE_SIZE} slots: {got} collisions; random hash {expected:.1f}; "
            f"ratio {got / expected:.3f} (target: within 5 %)"
        )


def search_figures(quick: bool) -> None:
    print("(b) the search with and without the dictionary (the first computer move after the human plays the centre)")
    cases = [(3, 3, 9), (4, 4, 3), (4, 4, 4), (5, 5, 3), (5, 5, 4), (6, 5, 3)]
    if not quick:
        cases += [(4, 4, 5), (6, 5, 4)]
    for size, length, levels in cases:
        figures = {}
        for use in (True, False):
            board = Configurations(size, length, levels)
            board.savePlay(size // 2, size // 2, HUMAN)
            search = Play(board, size, levels, use_dictionary=use)
            start = time.perf_counter()
            reply = search.computerPlay(COMPUTER, HUMAN_WINS, COMPUTER_WINS, 0)
            figures[use] = (search.examined, time.perf_counter() - start, reply.getScore())
        (with_n, with_t, s1), (without_n, without_t, s2) = figures[True], figures[False]
        print(
            f"  {size} x {size}, k={length}, {levels} levels: examined {with_n} with / {without_n} without "
            f"(ratio {with_n / without_n:.3f}); time {with_t * 1000:.1f} ms / {without_t * 1000:.1f} ms "
            f"(ratio {with_t / without_t:.3f}); scores {s1} / {s2}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer games and depths")
    args = parser.parse_args()
    hash_figures(args.quick)
    search_figures(args.quick)


if __name__ == "__main__":
    main()
