"""Shared models, Hypothesis strategies and helpers of the X+Game conformance suite.

The model of a board is a dict from (row, col) to 'X' or 'O' (empty squares are
absent), with the rules of errata X05 and X06 written independently of any
implementation: a shape is a centre and four arms of one or more tiles. Boards reach
the implementation only through savePlay, and are read back only through
squareIsEmpty, the board variable and the configuration string (observed through a
dictionary, erratum X04).
"""

from __future__ import annotations

from hypothesis import strategies as st

from reference_games.xplus.dictionary_exception import DictionaryException as KitDictionaryException
from speckit.testing import OperationFailed, expect, expect_equal

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


# Strategies ----------------------------------------------------------------------------

configs = st.one_of(st.text(max_size=40), st.text(alphabet="XO ", max_size=64))
"""Configuration strings: any text (empty and non-ASCII included), and board-like ones."""

scores = st.integers(-5, 100)


@st.composite
def boards(draw, sizes=SIZES, fill=None) -> BoardModel:
    """A board of a size in ``sizes`` with any tiles on it, and a k from 1 to past the longest possible shape."""
    n = draw(st.sampled_from(list(sizes)))
    k = draw(st.integers(1, 2 * n + 1))
    alphabet = st.sampled_from([HUMAN, COMPUTER]) if fill else st.sampled_from([HUMAN, COMPUTER, EMPTY, EMPTY])
    cells = draw(st.lists(alphabet, min_size=n * n, max_size=n * n))
    return BoardModel(n, k, {(i // n, i % n): s for i, s in enumerate(cells) if s != EMPTY})


@st.composite
def shaped_boards(draw, sizes=SIZES) -> BoardModel:
    """A board holding a shape with arms of independent lengths on a sparse background, k near its length."""
    n = draw(st.sampled_from(list(sizes)))
    row, col = draw(st.integers(1, n - 2)), draw(st.integers(1, n - 2))
    arms = draw(st.sampled_from(list(SHAPES.values())))
    symbol = draw(st.sampled_from([HUMAN, COMPUTER]))
    other = COMPUTER if symbol == HUMAN else HUMAN
    background = draw(st.lists(st.sampled_from([EMPTY, EMPTY, EMPTY, other, symbol]), min_size=n * n, max_size=n * n))
    tiles = {(i // n, i % n): s for i, s in enumerate(background) if s != EMPTY}
    tiles[(row, col)] = symbol
    length = 1
    for dr, dc in arms:
        reach = 0
        while 0 <= row + (reach + 1) * dr < n and 0 <= col + (reach + 1) * dc < n:
            reach += 1
        arm = draw(st.integers(1, reach))
        for step in range(1, arm + 1):
            tiles[(row + step * dr, col + step * dc)] = symbol
        if arm < reach and draw(st.booleans()):
            tiles.pop((row + (arm + 1) * dr, col + (arm + 1) * dc), None)  # a gap ends the arm
        length += arm
    k = draw(st.integers(max(1, length - 2), length + 2))
    return BoardModel(n, k, tiles)


@st.composite
def play_sequences(draw, n: int):
    """savePlay calls (row, col, symbol) on an n x n board, overwriting and emptying squares too."""
    square = st.tuples(st.integers(0, n - 1), st.integers(0, n - 1))
    plays = draw(st.lists(st.tuples(square, st.sampled_from([HUMAN, COMPUTER, EMPTY])), max_size=3 * n))
    return [(r, c, s) for (r, c), s in plays]


# Reaching the implementation -----------------------------------------------------------


def new_configurations(impl, model: BoardModel, max_levels: int = 2):
    """The implementation's Configurations holding the model's tiles, placed with savePlay."""
    configurations = impl.configurations.Configurations(model.n, model.k, max_levels)
    for (row, col), symbol in sorted(model.tiles.items()):
        impl.configurations.savePlay(configurations, row, col, symbol)
    return configurations


def read_squares(impl, configurations, n: int) -> list[list[bool]]:
    """squareIsEmpty of every square, asked in one batch."""
    ops = impl.configurations
    return impl.batch(lambda: [[ops.squareIsEmpty(configurations, r, c) for c in range(n)] for r in range(n)])


def expect_squares(impl, configurations, model: BoardModel, claim: str) -> None:
    """squareIsEmpty agrees with the model on every square."""
    seen = read_squares(impl, configurations, model.n)
    wrong = [(r, c) for r in range(model.n) for c in range(model.n) if seen[r][c] != ((r, c) not in model.tiles)]
    expect(not wrong, f"{claim}: squareIsEmpty is true exactly on the empty squares", expected=model.picture(), actual=f"wrong on squares {wrong}")


def configuration_of(impl, configurations, model: BoardModel) -> None:
    """Check that the configuration string is the model's, through addConfiguration and a fresh dictionary."""
    dictionary = impl.hash_dictionary.HashDictionary(97)
    impl.configurations.addConfiguration(configurations, dictionary, 2)
    expect_equal(impl.hash_dictionary.numRecords(dictionary), 1, "addConfiguration puts one record into the dictionary")
    expect_equal(
        impl.hash_dictionary.get(dictionary, model.string()), 2,
        f"the configuration of the board is the string {model.string()!r} (row by row from the top left, erratum X04):"
        " after addConfiguration(d, 2), get of that string is 2",
    )  # fmt: skip


def raises_dictionary_exception(call, *args) -> bool:
    """Whether the call raised DictionaryException (the kit's, re-exported, or a subclass of it:
    a Java subclass instance is a DictionaryException too); False if it returned."""
    try:
        call(*args)
    except OperationFailed as e:
        cause = e.raised  # the class raised (in the sandbox: the nearest one the test process has)
        if isinstance(cause, type) and issubclass(cause, KitDictionaryException):
            return True
        if " raised DictionaryException" not in str(e).split("\n", 1)[0]:
            raise
        expect(
            False,
            "the DictionaryException raised is the kit's, re-exported by the module dictionary_exception",
            expected=KitDictionaryException, actual="a DictionaryException class of the implementation's own",
        )  # fmt: skip
    return False
