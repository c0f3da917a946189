"""The Connect-4 suite's adapter between models (:mod:`.model`) and an implementation's values.

:class:`Build` turns a model into the implementation's value using only its documented
constructors and updates (an index of value n is ``newIndexType()`` followed by
n - 1 increments), always using each update's result (erratum E01); :class:`Read`
reads models back through documented operations only.
"""

from __future__ import annotations

import inspect

import adt.display as kit_display
from speckit.testing import expect

from .model import BLUE, RED


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
        """For each ``(symbols, queries)``: the symbols' models (as :meth:`symbol` reads them) and what ``queries()``
        returns.

        ``queries`` (or None) makes calls and collects their results without looking at
        them, as in ``impl.batch``. Everything is asked together, in the sandbox in two
        round trips: every symbol's emptiness with every query, then the colours of the
        symbols with a mark (an empty symbol is never asked its colour, E09).
        """
        impl = self.impl
        empties, answers = impl.batch(
            lambda: (
                [[impl.symbol.isEmpty(s) for s in symbols] for symbols, _ in questions],
                [q() if q else None for _, q in questions],
            )
        )
        if not any(e is False for empty in empties for e in empty):
            return [([None] * len(empty), answer) for empty, answer in zip(empties, answers, strict=True)]
        red = self.red()
        reds = impl.batch(
            lambda: [
                [
                    None if e else impl.colour.equals(impl.symbol.getColour(s), red)
                    for s, e in zip(symbols, empty, strict=True)
                ]
                for (symbols, _), empty in zip(questions, empties, strict=True)
            ]
        )
        return [
            ([None if e else RED if r else BLUE for e, r in zip(empty, is_red, strict=True)], answer)
            for empty, is_red, answer in zip(empties, reds, answers, strict=True)
        ]


class Answer:
    """What one check gathered in :class:`Checks` returned, once its questions have been asked."""

    __slots__ = ("_value", "ready")

    def __init__(self) -> None:
        self._value = None
        self.ready = False

    @property
    def value(self):
        if not self.ready:
            raise RuntimeError("a check's answer was read before its Checks block ended")
        return self._value

    def give(self, value) -> None:
        self._value, self.ready = value, True


class Checks:
    """Checks written one after another and asked together: the batching of :meth:`Read.ask`, kept out of the tests.

    Each check gives the symbols it reads and the queries it makes (a function making calls
    and collecting their results without looking at them, as in ``impl.batch``), and a judge
    that is given the symbols' models and what the queries returned. Inside
    ``with Checks(read) as check:`` the checks are gathered (each makes the values it asks
    about: observers only, nothing is updated between its questions and the others'); leaving
    the block asks every question together, in the sandbox in two round trips, and judges the
    checks in the order given, so each failure message is its own. What a judge returns is
    the :class:`Answer` its check was given when gathered.
    """

    def __init__(self, read: Read) -> None:
        self.read = read
        self._checks: list = []

    def add(self, judge, *, symbols=(), queries=None) -> Answer:
        """Gather a check: ``judge(models of symbols, what queries() returned)``, its result the answer returned."""
        answer = Answer()
        self._checks.append((symbols, queries, judge, answer))
        return answer

    def fact(self, query, claim: str, *, holds: bool = True, **shown) -> None:
        """``expect(query(), claim)`` (``expect(not query(), claim)`` unless ``holds``), asked with the others."""

        def judge(_, answer):
            expect(answer if holds else not answer, claim, **{"actual": answer, **shown})

        self.add(judge, queries=query)

    def run(self) -> list:
        """Ask every gathered check's questions together and judge each in turn; what each judge returned."""
        checks, self._checks = self._checks, []
        replies = self.read.ask([(symbols, queries) for symbols, queries, _, _ in checks])
        for (_, _, judge, answer), (models, told) in zip(checks, replies, strict=True):
            answer.give(judge(models, told))
        return [answer.value for _, _, _, answer in checks]

    def __enter__(self) -> Checks:
        return self

    def __exit__(self, kind, value, traceback) -> None:
        if kind is None:
            self.run()
