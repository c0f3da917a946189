"""Shared Hypothesis strategies and builders for the Connect-4 conformance suite.

Models are plain Python values the tests reason about:

* an index, worth, level number or dimension is an ``int``;
* a colour is ``"red"`` or ``"blue"``; a symbol is ``None`` (empty) or a colour;
* a location is a ``(row, column)`` pair; a grid is ``(side, {location: colour})``.

Builders turn a model into the implementation's value using only its documented
constructors and updates (an index of value n is ``newIndexType()`` followed by
n - 1 increments), always using each update's result (erratum E01).
"""

from __future__ import annotations

import functools
import inspect

from hypothesis import strategies as st

import adt.display as kit_display

RED, BLUE = "red", "blue"
OTHER = {RED: BLUE, BLUE: RED}


def offers(operation, count: int) -> bool:
    """Whether the package's operation takes ``count`` arguments: an overloaded constructor may
    come in one of its documented forms only (errata E03, E04). True when its signature cannot be read."""
    try:
        signature = inspect.signature(operation.function())
    except Exception:  # noqa: BLE001 - a missing or unreadable operation: its calls will say what is wrong
        return True
    try:
        signature.bind(*[None] * count)
    except TypeError:
        return False
    return True

# Models -----------------------------------------------------------------------------

index_numbers = st.integers(min_value=1, max_value=60)
level_numbers = st.integers(min_value=0, max_value=60)
worth_numbers = st.integers(min_value=-60, max_value=60)
dimension_numbers = st.integers(min_value=4, max_value=60)
colours = st.sampled_from([RED, BLUE])
symbols = st.one_of(st.none(), colours)
grid_sides = st.integers(min_value=4, max_value=8)


def locations(side: int = 60) -> st.SearchStrategy[tuple[int, int]]:
    """Locations with row and column from 1 to ``side``."""
    return st.tuples(st.integers(1, side), st.integers(1, side))


@st.composite
def grids(draw, sides=grid_sides, fill=st.floats(0.0, 1.0)):
    """A grid model: a side and marks on any squares, in any colours (no gravity: E18)."""
    side = draw(sides)
    squares = [(r, c) for r in range(1, side + 1) for c in range(1, side + 1)]
    density = draw(fill)
    marks = {}
    for square in squares:
        if draw(st.floats(0.0, 1.0)) < density:
            marks[square] = draw(colours)
    return side, marks


@st.composite
def played_grids(draw, sides=grid_sides, moves=None):
    """A grid model reached by play: red first, colours alternating, stopping at a win or at random."""
    side = draw(sides)
    free = [(r, c) for r in range(1, side + 1) for c in range(1, side + 1)]
    order = draw(st.permutations(free))
    count = draw(st.integers(0, len(free))) if moves is None else min(moves, len(free))
    marks: dict[tuple[int, int], str] = {}
    colour = RED
    for square in order[:count]:
        marks[square] = colour
        if winner(side, marks) is not None:
            break
        colour = OTHER[colour]
    return side, marks


@st.composite
def boards(draw):
    """A board side (4 to 8) and a square on it."""
    side = draw(grid_sides)
    return side, (draw(st.integers(1, side)), draw(st.integers(1, side)))


def drawn(text: str, side: int) -> dict:
    """The marks of the one board in ``text`` (kit display format), by (row, column); '.' left out."""
    marks = {}
    for line in text.splitlines()[1 : side + 1]:
        cells = line.split()
        marks |= {(int(cells[0]), c): m for c, m in enumerate(cells[1:], start=1) if m != kit_display.EMPTY_MARK}
    return marks


def shown_boards(lines: list[str], side: int) -> list[tuple[int, int, dict]]:
    """Each side x side board (kit display format) in ``lines``: its first line, the line
    after it, and its marks ('R', 'B' or '.') by (row, column)."""
    header = [str(c) for c in range(1, side + 1)]
    found, start = [], 0
    while start <= len(lines) - side - 1:
        if lines[start].split() == header:
            marks = {}
            for r, line in enumerate(lines[start + 1 : start + side + 1], start=1):
                cells = line.split()
                if len(cells) != side + 1 or cells[0] != str(r):
                    break
                marks |= {(r, c): mark for c, mark in enumerate(cells[1:], start=1)}
            else:
                found.append((start, start + side + 1, marks))
                start += side + 1
                continue
        start += 1
    return found


# The oracle --------------------------------------------------------------------------

DIRECTIONS = {"row": (0, 1), "column": (1, 0), "diagonal": (1, 1), "antidiagonal": (1, -1)}


def lines_of(side: int, kinds=("row", "column", "diagonal", "antidiagonal")) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Every four-square line of a side x side grid, as tuples of (row, column)."""
    return _lines(side, tuple(kinds))


@functools.cache
def _lines(side: int, kinds: tuple[str, ...]) -> tuple[tuple[tuple[int, int], ...], ...]:
    found = []
    for kind in kinds:
        dr, dc = DIRECTIONS[kind]
        for r in range(1, side + 1):
            for c in range(1, side + 1):
                line = tuple((r + k * dr, c + k * dc) for k in range(4))
                if all(1 <= rr <= side and 1 <= cc <= side for rr, cc in line):
                    found.append(line)
    return tuple(found)


def winners(side: int, marks: dict, kinds=("row", "column", "diagonal", "antidiagonal")) -> set[str]:
    """The colours that fill some four-square line of the given kinds."""
    found = set()
    colour_at = marks.get
    for first, second, third, fourth in lines_of(side, kinds):
        colour = colour_at(first)
        if colour is not None and colour_at(second) == colour_at(third) == colour_at(fourth) == colour:
            found.add(colour)
    return found


def winner(side: int, marks: dict):
    """One winning colour, or None."""
    return next(iter(sorted(winners(side, marks))), None)


# Builders ----------------------------------------------------------------------------


class Build:
    """Makes the implementation's values from models, through documented operations only."""

    def __init__(self, impl):
        self.impl = impl

    def index(self, n: int):
        ops = self.impl.index
        value = ops.newIndexType()
        for _ in range(n - 1):
            value = ops.increment(value)
        return value

    def level(self, n: int):
        ops = self.impl.level_number
        value = ops.newLevelNumberType()
        for _ in range(n):
            value = ops.increment(value)
        return value

    def worth(self, n: int):
        ops = self.impl.worth
        value = ops.newWorthType()
        step = ops.increment if n > 0 else ops.decrement
        for _ in range(abs(n)):
            value = step(value)
        return value

    def dimension(self, n: int):
        return self.impl.dimension.newDimensionType(self.index(n))

    def colour(self, name: str):
        value = self.impl.colour.newColourType()
        return value if name == RED else self.impl.colour.invert(value)

    def symbol(self, model):
        ops = self.impl.symbol
        return ops.newSymbolType() if model is None else ops.newSymbolType(self.colour(model))

    def location(self, row: int, column: int):
        ops = self.impl.location
        value = ops.newLocationType()
        value = ops.setRow(value, self.index(row))
        return ops.setColumn(value, self.index(column))

    def player(self, model):
        ops = self.impl.player
        if offers(ops.newPlayerType, 1):
            return ops.newPlayerType(self.symbol(model))
        return ops.setSymbol(ops.newPlayerType(), self.symbol(model))  # only newPlayerType(), as described (E04)

    def square(self, location: tuple[int, int], symbol=None):
        return self.impl.square.newSquareType(self.location(*location), self.symbol(symbol))

    def grid(self, side: int, marks: dict | None = None):
        ops = self.impl.grid
        value = ops.newGridType(self.dimension(side))
        for (row, column), colour in sorted((marks or {}).items()):
            value = ops.occupySquare(value, self.location(row, column), self.symbol(colour))
        return value


# Readers: what a value's model is, found through documented operations ------------------


class Read:
    """Reads models back from the implementation's values, through documented operations only.

    One reader serves one example: the red colour it compares with is made once, on its
    first use, and only ever given to ColourType.equals.
    """

    def __init__(self, impl):
        self.impl = impl
        self.build = Build(impl)
        self._red = None

    def red(self):
        """A red colour, made once and only ever compared with."""
        if self._red is None:
            self._red = self.build.colour(RED)
        return self._red

    def symbol(self, value):
        """None for an empty symbol, else its colour's name."""
        ops = self.impl.symbol
        if ops.isEmpty(value):
            return None
        return RED if self.impl.colour.equals(ops.getColour(value), self.red()) else BLUE

    def colour(self, value):
        return RED if self.impl.colour.equals(value, self.red()) else BLUE

    def ask(self, questions: list) -> list:
        """For each ``(symbols, queries)``: the symbols' models (as :meth:`symbol` reads them) and what ``queries()`` returns.

        ``queries`` (or None) makes calls and collects their results without looking at
        them, as in ``impl.batch``. Everything is asked together, in the sandbox in two
        round trips: every symbol's emptiness with every query, then the colours of the
        symbols with a mark (an empty symbol is never asked its colour, E09).
        """
        impl = self.impl
        empties, answers = impl.batch(
            lambda: ([[impl.symbol.isEmpty(s) for s in symbols] for symbols, _ in questions], [q() if q else None for _, q in questions])
        )
        if not any(e is False for empty in empties for e in empty):
            return [([None] * len(empty), answer) for empty, answer in zip(empties, answers)]
        red = self.red()
        reds = impl.batch(
            lambda: [
                [None if e else impl.colour.equals(impl.symbol.getColour(s), red) for s, e in zip(symbols, empty)]
                for (symbols, _), empty in zip(questions, empties)
            ]
        )
        return [([None if e else RED if r else BLUE for e, r in zip(empty, is_red)], answer) for empty, is_red, answer in zip(empties, reds, answers)]

    def together(self, *checks) -> list:
        """Run checks written as generators, their questions asked together (:meth:`ask`); what each returns.

        Each check makes the values it asks about (observers only: nothing is updated
        between its questions and the others'), yields once ``(symbols, queries)``, is
        sent back ``(models of the symbols, what queries() returned)`` and then judges
        them, in the order given, so each failure message is its own (``expect``), or
        returns a verdict.
        """
        checks = [check for check in checks if check is not None]
        replies = self.ask([next(check) for check in checks])
        verdicts = []
        for check, reply in zip(checks, replies):
            try:
                check.send(reply)
            except StopIteration as done:
                verdicts.append(done.value)
                continue
            raise RuntimeError("a check given to together() yields once")
        return verdicts
