"""The BoardADT suite's oracle: a Connect Four board as a list of columns, with the rules of the game.

The model of a board is a list of columns: ``columns[c - 1]`` lists the colours of
the checkers in column ``c`` from the bottom up, each ``"red"`` or ``"blue"``. A game
is the list of the columns played from the empty board, red first, the colours
alternating.
"""

from __future__ import annotations

from speckit.testing import lines

RED, BLUE = "red", "blue"
OTHER = {RED: BLUE, BLUE: RED}
COLUMNS, ROWS = 7, 6
ALL_SQUARES = tuple((c, r) for c in range(1, COLUMNS + 1) for r in range(1, ROWS + 1))
DIRECTIONS = {"horizontal": (1, 0), "vertical": (0, 1), "rising diagonal": (1, 1), "falling diagonal": (1, -1)}


# The model ------------------------------------------------------------------------------


def lines_in(directions=tuple(DIRECTIONS)) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Every line of four squares (as (column, row) pairs) in the given directions."""
    return lines.lines(range(1, COLUMNS + 1), range(1, ROWS + 1), {name: DIRECTIONS[name] for name in directions})


LINES = lines_in()
LINES_BY_DIRECTION = {name: lines_in((name,)) for name in DIRECTIONS}
LINES_THROUGH = lines.through(LINES)


class Model:
    """A Connect Four board as a list of columns, with the rules of the game."""

    def __init__(self, moves: list[int] | tuple[int, ...] = ()) -> None:
        self.columns: list[list[str]] = [[] for _ in range(COLUMNS)]
        self.current = RED
        self.moves: list[int] = []
        for column in moves:
            self.play(column)

    def play(self, column: int) -> tuple[int, int]:
        """Drop a checker of the current colour into ``column``; return its square."""
        assert not self.full(column), f"the model cannot play in full column {column}"
        self.columns[column - 1].append(self.current)
        self.current = OTHER[self.current]
        self.moves.append(column)
        return column, len(self.columns[column - 1])

    def colour(self, column: int, row: int) -> str | None:
        """The colour on a square, or None when it is empty."""
        cells = self.columns[column - 1]
        return cells[row - 1] if row <= len(cells) else None

    def height(self, column: int) -> int:
        return len(self.columns[column - 1])

    def full(self, column: int) -> bool:
        return self.height(column) == ROWS

    def open_columns(self) -> list[int]:
        return [c for c in range(1, COLUMNS + 1) if not self.full(c)]

    def board_full(self) -> bool:
        return not self.open_columns()

    @property
    def just_moved(self) -> str:
        return OTHER[self.current]

    def has_line(self, colour: str) -> bool:
        return colour in lines.filled(LINES, lambda square: self.colour(*square))

    def won(self) -> bool:
        """Whether the player who just moved has four in a line."""
        return bool(self.moves) and self.has_line(self.just_moved)

    def winning_columns(self, colour: str) -> set[int]:
        """The columns where a checker of ``colour`` dropped now would make four in a line."""
        found = set()
        for column in self.open_columns():
            square = (column, self.height(column) + 1)
            for line in LINES_THROUGH[square]:
                if all(self.colour(c, r) == colour for c, r in line if (c, r) != square):
                    found.add(column)
                    break
        return found

    def picture(self) -> str:
        """The board as the figure draws it, rows 6 to 1, for failure messages."""
        rows = []
        for row in range(ROWS, 0, -1):
            rows.append(
                f"{row} "
                + "".join({RED: "R", BLUE: "B", None: "."}[self.colour(c, row)] for c in range(1, COLUMNS + 1))
            )
        rows.append("  " + "".join(str(c) for c in range(1, COLUMNS + 1)))
        return "\n".join(rows)


def makes_four(model: Model, column: int) -> bool:
    """Whether the checker last played, in ``column``, made four in a line."""
    square = (column, model.height(column))
    colour = model.colour(*square)
    return any(all(model.colour(c, r) == colour for c, r in line) for line in LINES_THROUGH[square])


def picture_of(model: Model) -> dict:
    """The model as {(column, row): colour or None}, the form :meth:`Read.board` returns."""
    return {(c, r): model.colour(c, r) for c, r in ALL_SQUARES}


def differences(actual: dict, expected: dict) -> list[str]:
    """Squares where two pictures differ, described for a failure message."""
    out = []
    for square in ALL_SQUARES:
        if actual[square] != expected[square]:
            c, r = square
            out.append(f"column {c}, row {r}: {actual[square] or 'empty'} (expected {expected[square] or 'empty'})")
    return out
