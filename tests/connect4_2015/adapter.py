"""The 2015 Connect Four suite's adapter: :class:`Build` makes the implementation's grids and
enumeration members from models (:mod:`.model`), :class:`Read` reads them back, through the
traced, documented operations of ``impl`` only.

Grids are built one way here; :mod:`.paths` builds them by every documented path.
"""

from __future__ import annotations

import random

from speckit.testing import MissingOperation, expect

from .model import BLUE, EMPTY, RED, SQUARES, Model


class Build:
    """Makes the implementation's grids, game logics and enumeration members."""

    def __init__(self, impl) -> None:
        self.impl = impl

    def space(self, name: str):
        """The implementation's Space member called ``name``."""
        enum = self._enum("space", "Space")
        if not hasattr(enum, name):
            raise MissingOperation(f"Space has no member {name} (Space{{Red, Blue, Empty}})")
        return getattr(enum, name)

    def state(self, name: str):
        """The implementation's GameState member called ``name``."""
        enum = self._enum("game_state", "GameState")
        if not hasattr(enum, name):
            raise MissingOperation(f"GameState has no member {name} (GameState{{Win, Ongoing, Draw}})")
        return getattr(enum, name)

    def _enum(self, module: str, name: str):
        found = getattr(self.impl.module(module), name, None)
        if found is None:
            raise MissingOperation(f"module {module} has no enumeration {name}")
        return found

    def grid(self, model: Model):
        """The implementation's Grid holding ``model``'s discs: ``Grid()``, then setSpace on each disc in a
        shuffled order (:mod:`.paths` makes grids by every other path)."""
        ops = self.impl.grid
        grid = ops.Grid()
        cells = list(model.cells.items())
        random.Random(0).shuffle(cells)
        for (x, y), colour in cells:
            ops.setSpace(grid, x, y, self.space(colour))
        return grid

    def logic(self):
        return self.impl.game_logic.GameLogic()


class Read:
    """Reads models back from the implementation's grids, members and results."""

    def __init__(self, impl) -> None:
        self.impl = impl
        self.build = Build(impl)

    def space(self, value) -> str:
        """``"Red"``, ``"Blue"`` or ``"Empty"`` for one of the implementation's Space members."""
        for name in (RED, BLUE, EMPTY):
            if value == self.build.space(name):
                return name
        return f"not a Space member: {value!r}"

    def state(self, value) -> str:
        """``"Win"``, ``"Ongoing"`` or ``"Draw"`` for one of the implementation's GameState members."""
        for name in ("Win", "Ongoing", "Draw"):
            if value == self.build.state(name):
                return name
        return f"not a GameState member: {value!r}"

    def grid(self, grid) -> Model:
        """The grid as the implementation reports it, square by square."""
        ops = self.impl.grid
        got = self.impl.batch(lambda: [ops.getSpaceType(grid, x, y) for x, y in SQUARES])
        model = Model()
        for (x, y), value in zip(SQUARES, got, strict=True):
            name = self.space(value)
            expect(
                name in (RED, BLUE, EMPTY),
                f"getSpaceType({x}, {y}) returns a Space member",
                expected="Space.Red, Space.Blue or Space.Empty",
                actual=value,
            )
            model.put(x, y, name)
        return model

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
        expect(
            items is not None and all(_is_pair(p) for p in items),
            f"{claim}: the result is a list of pairs [x, y]",
            expected="[[x, y], ...]",
            actual=value,
        )
        return {(int(p[0]), int(p[1])) for p in items}


def _is_pair(value) -> bool:
    try:
        items = list(value)
    except TypeError:
        return False
    return len(items) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in items)
