"""The 2015 Connect Four suite's oracle: a grid as a dict of discs, with the rules of the report.

The model of a grid is a dict ``{(x, y): "Red" | "Blue"}`` (a square missing from it is
Empty), with the rules written here independently of any implementation; colours are
named ``"Red"``, ``"Blue"``, ``"Empty"``.
"""

from __future__ import annotations

from speckit.testing import lines

WIDTH, HEIGHT = 7, 6
RED, BLUE, EMPTY = "Red", "Blue", "Empty"
COLOURS = (RED, BLUE)
OTHER = {RED: BLUE, BLUE: RED, EMPTY: EMPTY}
SQUARES = tuple((x, y) for x in range(WIDTH) for y in range(HEIGHT))
DIRECTIONS = {"horizontal": (1, 0), "vertical": (0, 1), "rising": (1, 1), "falling": (1, -1)}
RESULTS = {RED: "Red wins", BLUE: "Blue wins"}


LINES = lines.lines(range(WIDTH), range(HEIGHT), DIRECTIONS)
LINES_THROUGH = lines.through(LINES)


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


def no_four_full_grid() -> Model:
    """A full grid, 21 discs of each colour, without a line of four."""
    return Model({(x, y): RED if (x // 2 + y) % 2 == 0 else BLUE for x, y in SQUARES})


def all_of(colour: str) -> Model:
    return Model({s: colour for s in SQUARES})


def grid_of(*squares_: tuple[int, int], colour: str = RED) -> Model:
    return Model({s: colour for s in squares_})


def shown(model: Model) -> str:
    return "\n" + model.picture()


def squares_text(found) -> str:
    return str(sorted(found))
