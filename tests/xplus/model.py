"""The X+Game suite's oracle: a board as a dict of tiles, with the rules of errata X05 and X06.

The model of a board is a dict from (row, col) to 'X' or 'O' (empty squares are
absent), with the rules written independently of any implementation: a shape is a
centre and four arms of one or more tiles.
"""

from __future__ import annotations

HUMAN, COMPUTER, EMPTY = "X", "O", " "
HUMAN_WINS, UNDECIDED, DRAW, COMPUTER_WINS = 0, 1, 2, 3
SIZES = range(3, 9)
X_ARMS = ((-1, -1), (-1, 1), (1, -1), (1, 1))
PLUS_ARMS = ((-1, 0), (1, 0), (0, -1), (0, 1))
SHAPES = {"X-shape": X_ARMS, "+shape": PLUS_ARMS}


# The model of the rules ---------------------------------------------------------------


class BoardModel:
    """An n x n board won with a shape of at least k tiles."""

    def __init__(self, n: int, k: int, tiles: dict | None = None):
        self.n, self.k = n, k
        self.tiles: dict[tuple[int, int], str] = dict(tiles or {})

    def play(self, row: int, col: int, symbol: str) -> None:
        if symbol == EMPTY:
            self.tiles.pop((row, col), None)
        else:
            self.tiles[(row, col)] = symbol

    def at(self, row: int, col: int) -> str:
        return self.tiles.get((row, col), EMPTY)

    def string(self) -> str:
        """The configuration: every square, row by row from the top left (erratum X04)."""
        return "".join(self.at(r, c) for r in range(self.n) for c in range(self.n))

    def longest_shape(self, symbol: str) -> int:
        """The length of the longest X-shape or +shape of ``symbol`` (0 if none)."""
        best = 0
        for (row, col), tile in self.tiles.items():
            if tile != symbol:
                continue
            for arms in SHAPES.values():
                runs = [self._run(row, col, dr, dc, symbol) for dr, dc in arms]
                if min(runs) >= 1:
                    best = max(best, 1 + sum(runs))
        return best

    def _run(self, row: int, col: int, dr: int, dc: int, symbol: str) -> int:
        steps = 0
        while self.tiles.get((row + (steps + 1) * dr, col + (steps + 1) * dc)) == symbol:
            steps += 1
        return steps

    def wins(self, symbol: str) -> bool:
        return self.longest_shape(symbol) >= max(self.k, 1)

    def full(self) -> bool:
        return len(self.tiles) == self.n * self.n

    def draw(self) -> bool:
        return self.full() and not self.wins(HUMAN) and not self.wins(COMPUTER)

    def score(self) -> int:
        if self.wins(COMPUTER):
            return COMPUTER_WINS
        if self.wins(HUMAN):
            return HUMAN_WINS
        return DRAW if self.full() else UNDECIDED

    def scores(self) -> set[int]:
        """evalBoard's accepted answers: the ruled score, and COMPUTER_WINS wherever 'O' has a shape
        of any length, as evalBoard's "i.e. there is an X-shape or a +shape formed by tiles of
        type 'O'" reads literally (erratum X11)."""
        return {self.score()} | ({COMPUTER_WINS} if self.longest_shape(COMPUTER) > 0 else set())

    def picture(self) -> str:
        rows = ["".join(self.at(r, c).replace(" ", ".") for c in range(self.n)) for r in range(self.n)]
        return "\n".join(rows) + f"\n(k = {self.k}; rows from the top, '.' empty)"
