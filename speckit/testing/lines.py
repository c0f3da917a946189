"""Lines of squares on a rectangular board, and the marks that fill one: an oracle for suites.

A board's squares are pairs ``(a, b)``, ``a`` in ``first`` and ``b`` in ``second`` (each a
range, so a suite keeps its own coordinates: rows and columns, columns and rows, from 0
or 1). A line is ``length`` squares in a row in one of the ``directions`` (steps
``(da, db)``, by name), ordered from its first square.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable, Iterable, Mapping

Square = tuple[int, int]
Line = tuple[Square, ...]


def lines(first: range, second: range, directions: Mapping[str, tuple[int, int]], length: int = 4) -> tuple[Line, ...]:
    """Every line of ``length`` squares on the board, direction by direction in the order
    given, then by its first square (``first`` outer, ``second`` inner)."""
    return _lines(first, second, tuple(directions.values()), length)


@functools.cache
def _lines(first: range, second: range, steps: tuple[tuple[int, int], ...], length: int) -> tuple[Line, ...]:
    found = []
    for da, db in steps:
        for a in first:
            for b in second:
                line = tuple((a + k * da, b + k * db) for k in range(length))
                if all(x in first and y in second for x, y in line):
                    found.append(line)
    return tuple(found)


def through(all_lines: Iterable[Line]) -> dict[Square, list[Line]]:
    """The lines through each square that some line holds."""
    found: dict[Square, list[Line]] = {}
    for line in all_lines:
        for square in line:
            found.setdefault(square, []).append(line)
    return found


def filled(all_lines: Iterable[Line], mark_at: Callable[[Square], Hashable]) -> set[Hashable]:
    """The marks that fill some line: ``mark_at(square)`` is a square's mark, None when empty."""
    found: set[Hashable] = set()
    for line in all_lines:
        mark = mark_at(line[0])
        if mark is None or mark in found:
            continue
        for square in line[1:]:
            if mark_at(square) != mark:
                break
        else:
            found.add(mark)
    return found
