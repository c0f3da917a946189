"""Shared model, Hypothesis strategies and helpers of the 2015 Connect Four suite.

The model of a grid is a dict ``{(x, y): "Red" | "Blue"}`` (a square missing from it is
Empty), with the rules written here independently of any implementation. The tests
compare what an implementation reports, through the traced operations of ``impl``,
with what the model says; colours are named ``"Red"``, ``"Blue"``, ``"Empty"`` in the
model and translated to the implementation's Space members with ==.

Grids are built by every documented path: ``Grid()`` then ``setSpace`` square by square,
in any order, possibly writing other discs first and clearing or overwriting them
(the ``noisy`` path), so an implementation whose setSpace misbehaves on a square already
set is caught.
"""

from __future__ import annotations

import random

from hypothesis import strategies as st

from speckit.testing import MissingOperation, expect

WIDTH, HEIGHT = 7, 6
RED, BLUE, EMPTY = "Red", "Blue", "Empty"
COLOURS = (RED, BLUE)
OTHER = {RED: BLUE, BLUE: RED, EMPTY: EMPTY}
SQUARES = tuple((x, y) for x in range(WIDTH) for y in range(HEIGHT))
DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))
RESULTS = {RED: "Red wins", BLUE: "Blue wins"}


def _lines():
    found = []
    for dx, dy in DIRECTIONS:
        for x, y in SQUARES:
            line = tuple((x + k * dx, y + k * dy) for k in range(4))
            if all(0 <= i < WIDTH and 0 <= j < HEIGHT for i, j in line):
                found.append(line)
    return found


LINES = _lines()
LINES_THROUGH = {square: [line for line in LINES if square in line] for square in SQUARES}


# The model -----------------------------------------------------------------------------------


class Model:
    """A grid as a dict of discs, with the rules of the report restated independently."""

    def __init__(self, cells: dict | None = None) -> None:
        self.cells: dict[tuple[int, int], str] = dict(cells or {})

    def __eq__(self, other) -> bool:
        return isinstance(other, Model) and self.cells == other.cells

    def copy(self) -> Model:
        return Model(self.cells)

    def get(self, x: int, y: int) -> str:
        return self.cells.get((x, y), EMPTY)

    def put(self, x: int, y: int, colour: str) -> None:
        if colour == EMPTY:
            self.cells.pop((x, y), None)
        else:
            self.cells[(x, y)] = colour

    def count(self, colour: str) -> int:
        return sum(1 for c in self.cells.values() if c == colour)

    def full(self) -> bool:
        return len(self.cells) == WIDTH * HEIGHT

    def supported(self, x: int, y: int) -> bool:
        return all((x, below) in self.cells for below in range(y))

    def valid(self, x: int, y: int) -> bool:
        return (x, y) in SQUARES and (x, y) not in self.cells and self.supported(x, y)

    def height(self, x: int) -> int:
        """The row a disc dropped into column x lands on (the model's columns have no gaps here)."""
        return next((y for y in range(HEIGHT) if self.valid(x, y)), -1)

    def completes(self, x: int, y: int, colour: str) -> bool:
        """Whether a disc of ``colour`` on the Empty square (x, y) makes a line of four through it."""
        return (x, y) not in self.cells and any(
            all(s == (x, y) or self.get(*s) == colour for s in line) for line in LINES_THROUGH[(x, y)]
        )

    def threats(self, colour: str) -> set[tuple[int, int]]:
        return {(x, y) for x, y in SQUARES if self.valid(x, y) and self.completes(x, y, colour)}

    def in_four(self, x: int, y: int) -> bool:
        colour = self.get(x, y)
        return colour != EMPTY and any(all(self.get(*s) == colour for s in line) for line in LINES_THROUGH[(x, y)])

    def fours(self) -> set[tuple[int, int]]:
        return {s for s in SQUARES if self.in_four(*s)}

    def unsupported(self) -> set[tuple[int, int]]:
        return {s for s in self.cells if not self.supported(*s)}

    def free_play_errors(self) -> tuple[set, set]:
        """endFreePlay's required squares and the squares it may add (errata S07, S08).

        With a line of four, its squares are required and the other errors may be added
        (the output the report recorded); without one, the unsupported discs and the
        squares completing four are required and the discs of those lines may be added.
        """
        threats = self.threats(RED) | self.threats(BLUE)
        optional = set()
        for x, y in threats:
            for colour in COLOURS:
                for line in LINES_THROUGH[(x, y)]:
                    if all(s == (x, y) or self.get(*s) == colour for s in line):
                        optional |= set(line) - {(x, y)}
        errors = self.unsupported() | threats
        fours = self.fours()
        if fours:
            return fours, (errors | optional) - fours
        return errors, optional

    def picture(self) -> str:
        """The grid as text, the top row first, for failure messages."""
        letter = {RED: "R", BLUE: "B", EMPTY: "."}
        rows = [f"{y} " + "".join(letter[self.get(x, y)] for x in range(WIDTH)) for y in reversed(range(HEIGHT))]
        return "\n".join(rows + ["  " + "".join(map(str, range(WIDTH)))])


def play_out(choices: list[int], first: str, *, stop_at_win: bool = True, stop_before_full: bool = False) -> tuple[Model, list[int], str]:
    """The game the choices make from the empty grid, ``first`` moving first: (model, columns, colour to move)."""
    model, moves, colour = Model(), [], first
    for choice in choices:
        open_columns = [x for x in range(WIDTH) if model.height(x) >= 0]
        if not open_columns or (stop_at_win and model.fours()):
            break
        if stop_before_full and len(open_columns) == 1 and model.height(open_columns[0]) == HEIGHT - 1:
            break
        x = open_columns[choice % len(open_columns)]
        model.put(x, model.height(x), colour)
        moves.append(x)
        colour = OTHER[colour]
    return model, moves, colour


# Strategies --------------------------------------------------------------------------------

colours = st.sampled_from(COLOURS)
spaces = st.sampled_from((RED, BLUE, EMPTY))
squares = st.sampled_from(SQUARES)
free_grids = st.dictionaries(squares, colours, max_size=WIDTH * HEIGHT).map(Model)
"""Any grid at all: free play and setSpace may make grids no game reaches."""
sparse_free_grids = st.dictionaries(squares, colours, max_size=12).map(Model)
choices = st.lists(st.integers(0, WIDTH - 1), max_size=WIDTH * HEIGHT)
games = st.builds(play_out, choices, colours)
"""(model, columns, colour to move) of games from the empty grid, stopping at the first win."""
unfinished_games = st.builds(lambda c, f: play_out(c, f, stop_before_full=True), choices, colours).filter(
    lambda game: not game[0].fours() and not game[0].full()
)
played_grids = games.map(lambda game: game[0])
grids = st.one_of(free_grids, played_grids)
paths = st.sampled_from(("direct", "noisy"))
seeds = st.integers(0, 2**32 - 1)


def _beside(size: int) -> st.SearchStrategy[int]:
    """A coordinate on the grid half the time (the square is then off by one coordinate only), else any."""
    return st.one_of(st.integers(0, size - 1), st.integers(-100, 100))


off_grid = st.one_of(
    st.tuples(st.integers(-100, -1), _beside(HEIGHT)),
    st.tuples(st.integers(WIDTH, 100), _beside(HEIGHT)),
    st.tuples(_beside(WIDTH), st.integers(-100, -1)),
    st.tuples(_beside(WIDTH), st.integers(HEIGHT, 100)),
)
"""Squares off the grid, often beside it: off in one coordinate, on the grid in the other."""


def no_four_full_grid() -> Model:
    """A full grid, 21 discs of each colour, without a line of four."""
    return Model({(x, y): RED if (x // 2 + y) % 2 == 0 else BLUE for x, y in SQUARES})


def all_of(colour: str) -> Model:
    return Model({s: colour for s in SQUARES})


def grid_of(*squares_: tuple[int, int], colour: str = RED) -> Model:
    return Model({s: colour for s in squares_})


# Reaching the implementation -------------------------------------------------------------


class Kit:
    """Makes and reads the implementation's grids and values through its documented operations."""

    def __init__(self, impl) -> None:
        self.impl = impl
        self.grid_ops = impl.grid
        self.logic_ops = impl.game_logic
        self._space = None

    # Enumerations
    def space(self, name: str):
        """The implementation's Space member called ``name``."""
        enum = self._enum("space", "Space")
        if not hasattr(enum, name):
            raise MissingOperation(f"Space has no member {name} (Space{{Red, Blue, Empty}})")
        return getattr(enum, name)

    def state(self, name: str):
        enum = self._enum("game_state", "GameState")
        if not hasattr(enum, name):
            raise MissingOperation(f"GameState has no member {name} (GameState{{Win, Ongoing, Draw}})")
        return getattr(enum, name)

    def _enum(self, module: str, name: str):
        found = getattr(self.impl.module(module), name, None)
        if found is None:
            raise MissingOperation(f"module {module} has no enumeration {name}")
        return found

    def name_of(self, value) -> str:
        """``"Red"``, ``"Blue"`` or ``"Empty"`` for one of the implementation's Space members."""
        for name in (RED, BLUE, EMPTY):
            if value == self.space(name):
                return name
        return f"not a Space member: {value!r}"

    def state_name(self, value) -> str:
        for name in ("Win", "Ongoing", "Draw"):
            if value == self.state(name):
                return name
        return f"not a GameState member: {value!r}"

    # Grids
    def new_grid(self, model: Model, path: str = "direct", rng: random.Random | None = None):
        """The implementation's Grid holding ``model``'s discs, built by ``path``."""
        grid = self.grid_ops.Grid()
        rng = rng or random.Random(0)
        cells = list(model.cells.items())
        rng.shuffle(cells)
        if path == "noisy":
            for x, y in rng.sample(SQUARES, 8):
                self.grid_ops.setSpace(grid, x, y, self.space(rng.choice(COLOURS)))
            for x, y in SQUARES:
                if (x, y) not in model.cells and rng.random() < 0.3:
                    self.grid_ops.setSpace(grid, x, y, self.space(EMPTY))
        for (x, y), colour in cells:
            if path == "noisy" and rng.random() < 0.3:
                self.grid_ops.setSpace(grid, x, y, self.space(OTHER[colour]))
            self.grid_ops.setSpace(grid, x, y, self.space(colour))
        if path == "noisy":
            for x, y in SQUARES:
                if (x, y) not in model.cells:
                    self.grid_ops.setSpace(grid, x, y, self.space(EMPTY))
        return grid

    def read(self, grid) -> Model:
        """The grid as the implementation reports it, square by square."""
        got = self.impl.batch(lambda: [self.grid_ops.getSpaceType(grid, x, y) for x, y in SQUARES])
        model = Model()
        for (x, y), value in zip(SQUARES, got):
            name = self.name_of(value)
            expect(name in (RED, BLUE, EMPTY), f"getSpaceType({x}, {y}) returns a Space member", expected="Space.Red, Space.Blue or Space.Empty", actual=value)
            model.put(x, y, name)
        return model

    def logic(self):
        return self.logic_ops.GameLogic()

    # Results
    def pair(self, value, claim: str) -> tuple[int, int]:
        """A pair [x, y] as a tuple of ints (erratum S11), failing in the spec's terms otherwise."""
        ok = _is_pair(value)
        expect(ok, f"{claim}: the result is a pair [x, y] of two ints", expected="[x, y]", actual=value)
        return int(value[0]), int(value[1])

    def pairs(self, value, claim: str) -> set[tuple[int, int]]:
        """A list of pairs as a set of tuples (order and repetition are free, erratum S11)."""
        try:
            items = list(value)
        except TypeError:
            items = None
        expect(items is not None and all(_is_pair(p) for p in items), f"{claim}: the result is a list of pairs [x, y]", expected="[[x, y], ...]", actual=value)
        return {(int(p[0]), int(p[1])) for p in items}


def _is_pair(value) -> bool:
    try:
        items = list(value)
    except TypeError:
        return False
    return len(items) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in items)


def shown(model: Model) -> str:
    return "\n" + model.picture()


def squares_text(found) -> str:
    return str(sorted(found))
