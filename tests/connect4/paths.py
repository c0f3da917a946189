"""Connect-4's paths: values reached by every documented path, and the frame rule for updates.

The machinery every specification shares (recipes, following them, the frame rule's
verdicts) is :mod:`speckit.testing.frames`; this module says which paths Connect-4's types
have and how a value's model is asked. The canonical builders of ``adapter.Build`` make each
value one way (an index of value n is n - 1 increments of a new index). A student's value can reach the same abstract
state by many other ways: a symbol emptied after having a colour, a location whose row
was set twice, a grid whose square was occupied and then overwritten, a clone of a
clone, an index read out of a location. Every property that holds of a value must hold
of every value with the same model, so the tests of equality and of the observers also
draw values from here.

A :class:`~speckit.testing.frames.Path` is a recipe, plain data that Hypothesis can shrink and print: a
constructor (or a get from another value, itself made by a path), then a random
sequence of the type's documented updates and clones, then the updates that bring it to
the model the test asked for. :func:`follow` runs a recipe on an implementation and
gives back the value, and also the values a clone left behind on the way (the source,
when the path goes on with the copy, or the copy, when it goes on with the source), each
with its model: values built before any later update, which the frame rule says must
keep their models.

The frame rule (:func:`check_frame`): after an update, its argument either still has
its old model or equals the result (erratum E01 allows both readings, nothing else),
the values passed to it keep their models, and so does every value built before that
is not part of the argument (erratum E25 lets a value share the components it was
given, so those are never updated again by a test).

Models are those of ``model``: an int for the numeric types, a colour name, None
or a colour for a symbol or a player, ``(row, column)`` for a location,
``((row, column), symbol)`` for a square and ``GridModel`` for a grid (marks and worth).
"""

from __future__ import annotations

import contextvars
import random

from hypothesis import strategies as st

from speckit.testing import expect, frames
from speckit.testing.frames import FrameCase, Made, Path

from .adapter import Answer, Build, Checks, Read, offers
from .model import BLUE, OTHER, RED, GridModel

KINDS = {
    "index": "index",
    "level": "level_number",
    "worth": "worth",
    "dimension": "dimension",
    "colour": "colour",
    "symbol": "symbol",
    "location": "location",
    "player": "player",
    "square": "square",
    "grid": "grid",
}
"""Each kind of value a path makes, and the module of its type."""

TYPE_NAMES = {
    "index": "IndexType",
    "level": "LevelNumberType",
    "worth": "WorthType",
    "dimension": "DimensionType",
    "colour": "ColourType",
    "symbol": "SymbolType",
    "location": "LocationType",
    "player": "PlayerType",
    "square": "SquareType",
    "grid": "GridType",
}


def shown(kind: str, model) -> str:
    """A model in words, as failure messages give it."""
    if kind in ("symbol", "player"):
        return (
            f"{'an empty symbol' if model is None else model}"
            if kind == "symbol"
            else f"the player of {shown('symbol', model)}"
        )
    if kind == "square":
        return f"the square at {model[0]} holding {shown('symbol', model[1])}"
    if kind == "location":
        return f"location {model}"
    return str(model)


def follow(impl, path: Path) -> Made:
    """Make the value of ``path`` with the implementation's documented operations."""
    module, operation, *arguments = path.start
    value = _start(impl, module, operation, [_argument(impl, a) for a in arguments])
    return frames.follow(
        path, value, getattr(impl, KINDS[path.kind]), lambda a: _argument(impl, a), lambda: _clones(impl, path.kind)
    )


_CLONES: dict = {}
"""Whether each implementation can clone each kind of value, once found."""


def _clones(impl, kind: str) -> bool:
    """Whether a path may clone a ``kind``: always, unless its clone is an extension the
    implementation left out (ColourType.clone, E05: its tests are skipped, not failed)."""
    key = (impl, kind)
    found = _CLONES.get(key)
    if found is None:
        qualname = f"{TYPE_NAMES[kind]}.clone"
        found = _CLONES[key] = not impl.spec.operation(qualname).extension or impl.has(qualname)
    return found


def _argument(impl, argument):
    return follow(impl, argument).value if isinstance(argument, Path) else argument


def _start(impl, module: str, operation: str, arguments: list):
    """The value a path starts from. A constructor the package offers in its other form only
    (errata E03, E04) is reached through that form, with the same model."""
    constructor = getattr(getattr(impl, module), operation)
    if (module, operation) == ("player", "newPlayerType") and not offers(constructor, len(arguments)):
        return (
            impl.player.setSymbol(constructor(), *arguments) if arguments else constructor(impl.symbol.newSymbolType())
        )
    if (module, operation) == ("dimension", "newDimensionType") and not arguments and not offers(constructor, 0):
        return constructor(Build(impl).index(4))
    return constructor(*arguments)


def make(impl, path: Path):
    """Just the value of ``path``."""
    return follow(impl, path).value


# Whether a value has a model, asked through documented operations only -----------------------


EQUALS = {"index": "index", "level": "level_number", "worth": "worth", "dimension": "dimension", "colour": "colour"}
"""The kinds whose model is asked by their type's equals alone, and the module of each."""


class ModelChecks(Checks):
    """Whether values have models, written one after another and asked together (:class:`Checks`)."""

    def __init__(self, impl) -> None:
        super().__init__(Read(impl))

    def has_model(self, kind: str, value, model) -> Answer:
        """Whether ``value`` (of ``kind``) has ``model``, by its type's equals or its observers: the answer is the
        verdict."""
        impl, build = self.read.impl, self.read.build
        if kind in EQUALS:
            made = {
                "index": build.index,
                "level": build.level,
                "worth": build.worth,
                "dimension": build.dimension,
                "colour": build.colour,
            }[kind]
            return self.add(
                lambda _, same: same, queries=lambda: getattr(impl, EQUALS[kind]).equals(value, made(model))
            )
        if kind == "symbol":  # its observers, and equals against a canonical symbol of the model
            return self.add(
                lambda got, same: got[0] == model and same,
                symbols=[value],
                queries=lambda: impl.symbol.equals(value, build.symbol(model)),
            )
        if kind == "location":
            return self.add(
                lambda _, same: same[0] and same[1],
                queries=lambda: (
                    impl.index.equals(impl.location.getRow(value), build.index(model[0])),
                    impl.index.equals(impl.location.getColumn(value), build.index(model[1])),
                ),
            )
        if kind == "player":
            return self._player(value, model)
        if kind == "square":
            return self._square(value, model)
        if kind == "grid":
            return self.add(
                lambda _, same: same[0] and same[1],
                queries=lambda: (
                    impl.grid.equals(value, build.grid(model.side, model.squares)),
                    impl.worth.equals(impl.grid.getWorth(value), build.worth(model.worth)),
                ),
            )
        raise KeyError(kind)

    def _player(self, value, model) -> Answer:
        """A player has its model: its symbol's model, and equals against a canonical symbol and player."""
        impl, build = self.read.impl, self.read.build
        symbol = impl.player.getSymbol(value)

        def judge(got, same):
            symbol_same, player_same = same
            return got[0] == model and symbol_same and player_same

        return self.add(
            judge,
            symbols=[symbol],
            queries=lambda: (
                impl.symbol.equals(symbol, build.symbol(model)),
                impl.player.equals(value, build.player(model)),
            ),
        )

    def _square(self, value, model) -> Answer:
        """A square has its model: its location's row and column, and its symbol's model and equals."""
        impl, build = self.read.impl, self.read.build
        location, symbol = impl.square.getLocation(value), impl.square.getSymbol(value)

        def judge(got, same):
            same_row, same_column, symbol_same = same
            return same_row and same_column and got[0] == model[1] and symbol_same

        return self.add(
            judge,
            symbols=[symbol],
            queries=lambda: (
                impl.index.equals(impl.location.getRow(location), build.index(model[0][0])),
                impl.index.equals(impl.location.getColumn(location), build.index(model[0][1])),
                impl.symbol.equals(symbol, build.symbol(model[1])),
            ),
        )


def holds(impl, kind: str, value, model) -> bool:
    """Whether ``value`` (of ``kind``) has ``model``, by its type's equals or its observers."""
    with ModelChecks(impl) as check:
        verdict = check.has_model(kind, value, model)
    return verdict.value


def check_model(impl, kind: str, value, model, where: str) -> None:
    expect(holds(impl, kind, value, model), f"{where} is {shown(kind, model)}")


def check_frame(
    impl, operation: str, argument: Made, before, result, after, given: list, others: list, made_by: str = ""
) -> None:
    """The frame rule of an update ``operation`` applied to ``argument`` (whose model was ``before``).

    ``result`` must have the model ``after``; the argument either ``before`` (a new value
    was made) or ``after`` (it was updated in place: E01); each of ``given`` (the other
    values passed to the update) and ``others`` (values built before: ``(kind, value,
    model, description)``) keeps its model. Every question is asked after the update, all
    together (:class:`ModelChecks`).
    """
    kind = operation_kind(operation)
    made = f" = {made_by}" if made_by else ""
    call = f"{operation.split('.')[1]}(x, ...) where x{made} is {shown(kind, before)}"
    with ModelChecks(impl) as check:
        answers = [
            check.has_model(kind, result, after),
            check.has_model(kind, argument.value, before),
            check.has_model(kind, argument.value, after),
        ]
        answers += [check.has_model(other_kind, value, model) for other_kind, value, model, _ in [*given, *others]]
    frames.expect_frame(
        call,
        shown(kind, before),
        shown(kind, after),
        [answer.value for answer in answers],
        [(shown(k, model), description) for k, _, model, description in given],
        [(shown(k, model), description) for k, _, model, description in others],
        ruling="E01: an update may make a new value or change its argument, nothing else",
    )


def operation_kind(operation: str) -> str:
    type_name = operation.split(".")[0]
    return next(kind for kind, name in TYPE_NAMES.items() if name == type_name)


# Recipes ------------------------------------------------------------------------------------
#
# Recipes are made in plain code from a random source seeded by one Hypothesis draw:
# drawing each choice from Hypothesis costs several times more than running the recipe,
# and the failing example prints the whole recipe as the calls it makes.

COLOURS = (RED, BLUE)
SYMBOL_CHOICES = (None, RED, BLUE)

BELOW = {
    "index": set(),
    "level": set(),
    "worth": set(),
    "dimension": {"index"},
    "location": {"index"},
    "colour": set(),
    "symbol": {"colour"},
    "player": {"symbol", "colour"},
    "square": {"location", "index", "symbol", "colour"},
    "grid": {"dimension", "index", "location", "colour", "symbol", "player", "square", "worth"},
}
"""The kinds each kind's values are made of or checked with: a recipe for a test of ``kind`` gets values
out of these only, so a broken type fails its own tests and those of the types above it, not those below."""

_TOP: contextvars.ContextVar[str] = contextvars.ContextVar("top", default="grid")


def _may_get_from(source: str) -> bool:
    top = _TOP.get()
    return source == top or source in BELOW[top]


def _small_location(rnd) -> tuple[int, int]:
    return rnd.randint(1, 6), rnd.randint(1, 6)


NUMERIC = {
    "index": ("index", "newIndexType", 1),
    "level": ("level_number", "newLevelNumberType", 0),
    "worth": ("worth", "newWorthType", None),
}


def numbers(rnd, kind: str, model: int, depth: int = 2) -> Path:
    """A path to an index, level number or worth holding ``model``: a constructor or a get, then
    increments, decrements and clones (no clone of a level number: erratum E02)."""
    module, new, lowest = NUMERIC[kind]
    start, start_model = (module, new), (lowest or 0)
    if depth > 0 and kind == "index" and _may_get_from("location") and rnd.randint(0, 3) == 0:
        row = rnd.random() < 0.5
        at = _small_location(rnd)
        start, start_model = (
            ("location", "getRow" if row else "getColumn", locations(rnd, at, depth - 1)),
            at[0 if row else 1],
        )
    elif depth > 0 and kind == "worth" and _may_get_from("grid") and rnd.randint(0, 5) == 0:
        grid_model = GridModel(4, (), rnd.randint(-3, 3))
        start, start_model = ("grid", "getWorth", grids(rnd, grid_model, depth - 1)), grid_model.worth

    def up(rnd, n):
        return ("increment",), n + 1

    def down(rnd, n):
        return ("decrement",), n - 1

    # LevelNumberType.clone may copy worths instead (erratum E02): no path clones a level number.
    clone = None if kind == "level" else frames.clone_step

    def choices(n):
        return [up, None if lowest is not None and n <= lowest else down, clone]

    steps, models = [], []
    n = frames.walk(rnd, steps, models, start_model, choices, 4 if depth else 1)
    # Then by way of a peak and a valley: a random walk of a few steps seldom goes down
    # twice and then up (it would catch a value whose increment depends on its past).
    waypoints = (
        (max(n, model) + rnd.randint(0, 2), rnd.randint(model - 3 if lowest is None else lowest, model))
        if depth
        else ()
    )
    for target in (*waypoints, model):
        while n != target:
            step, n = up(rnd, n) if n < target else down(rnd, n)
            steps.append(step)
            models.append(n)
    return Path(kind, start, start_model, tuple(steps), tuple(models))


def indexes(rnd, model: int, depth: int = 2) -> Path:
    return numbers(rnd, "index", model, depth)


def levels(rnd, model: int, depth: int = 2) -> Path:
    return numbers(rnd, "level", model, depth)


def worths(rnd, model: int, depth: int = 2) -> Path:
    return numbers(rnd, "worth", model, depth)


def dimensions(rnd, model: int, depth: int = 2) -> Path:
    """A path to a dimension of ``model``: either constructor, or a grid's getDimension; then clones."""
    options = (
        ["index"]
        + (["new"] if model == 4 else [])
        + (["grid"] if depth > 0 and model <= 6 and _may_get_from("grid") else [])
    )
    how = rnd.choice(options)
    if how == "new":
        start = ("dimension", "newDimensionType")
    elif how == "index":
        start = ("dimension", "newDimensionType", indexes(rnd, model, max(depth - 1, 0)))
    else:
        start = ("grid", "getDimension", grids(rnd, GridModel(model, ()), depth - 1))
    steps = tuple(frames.clone_step(rnd, model)[0] for _ in range(rnd.randint(0, 2)))
    return Path("dimension", start, model, steps, (model,) * len(steps))


def colours(rnd, model: str, depth: int = 2) -> Path:
    """A path to the colour ``model``: new (red) or a symbol's getColour, then inverts and clones."""
    start, start_model = ("colour", "newColourType"), RED
    if depth > 0 and _may_get_from("symbol") and rnd.randint(0, 3) == 0:
        start_model = rnd.choice(COLOURS)
        start = ("symbol", "getColour", symbols(rnd, start_model, depth - 1))

    def invert(rnd, c):
        return ("invert",), OTHER[c]

    steps, models = [], []
    name = frames.walk(rnd, steps, models, start_model, lambda c: [invert, frames.clone_step], 3 if depth else 1)
    if name != model:
        steps.append(("invert",))
        models.append(model)
    return Path("colour", start, start_model, tuple(steps), tuple(models))


def symbols(rnd, model, depth: int = 2) -> Path:
    """A path to a symbol of ``model`` (None or a colour): its constructors, a get, setColour, makeEmpty, clones."""
    how = rnd.choice(
        ["empty", "colour"] + [source for source in ("square", "player") if depth > 0 and _may_get_from(source)]
    )
    sub = max(depth - 1, 0)
    if how == "empty":
        start, start_model = ("symbol", "newSymbolType"), None
    elif how == "colour":
        start_model = rnd.choice(COLOURS)
        start = ("symbol", "newSymbolType", colours(rnd, start_model, sub))
    elif how == "square":
        start_model = rnd.choice(SYMBOL_CHOICES)
        start = ("square", "getSymbol", squares(rnd, (_small_location(rnd), start_model), sub))
    else:
        start_model = rnd.choice(SYMBOL_CHOICES)
        start = ("player", "getSymbol", players(rnd, start_model, sub))

    def empty(rnd, s):
        return ("makeEmpty",), None

    def colour(rnd, s):
        new = rnd.choice(COLOURS)
        return ("setColour", colours(rnd, new, sub)), new

    # setColour recolours a mark; on an empty symbol readings differ (erratum E08), so no path takes it there.
    steps, models = [], []
    current = frames.walk(
        rnd,
        steps,
        models,
        start_model,
        lambda s: [empty, colour if s is not None else None, frames.clone_step],
        3 if depth else 1,
    )
    if current != model and model is not None and current is None:
        return Path("symbol", ("symbol", "newSymbolType", colours(rnd, model, sub)), model, (), ())
    if current != model:
        steps.append(("makeEmpty",) if model is None else ("setColour", colours(rnd, model, sub)))
        models.append(model)
    return Path("symbol", start, start_model, tuple(steps), tuple(models))


def locations(rnd, model: tuple, depth: int = 2) -> Path:
    """A path to a location of ``model``: new or a square's getLocation, then setRow, setColumn, clones."""
    sub = max(depth - 1, 0)
    start, start_model = ("location", "newLocationType"), (1, 1)
    if depth > 0 and _may_get_from("square") and rnd.randint(0, 3) == 0:
        start_model = _small_location(rnd)
        start = ("square", "getLocation", squares(rnd, (start_model, rnd.choice(SYMBOL_CHOICES)), sub))

    def row(rnd, at):
        n = rnd.randint(1, 6)
        return ("setRow", indexes(rnd, n, sub)), (n, at[1])

    def column(rnd, at):
        n = rnd.randint(1, 6)
        return ("setColumn", indexes(rnd, n, sub)), (at[0], n)

    steps, models = [], []
    at = frames.walk(rnd, steps, models, start_model, lambda at: [row, column, frames.clone_step], 3 if depth else 0)
    fixes = [("setRow", 0), ("setColumn", 1)]
    if rnd.random() < 0.5:
        fixes.reverse()
    for operation, axis in fixes:
        if at[axis] != model[axis] or rnd.randint(0, 4) == 0:
            at = (model[0], at[1]) if axis == 0 else (at[0], model[1])
            steps.append((operation, indexes(rnd, model[axis], sub)))
            models.append(at)
    return Path("location", start, start_model, tuple(steps), tuple(models))


def players(rnd, model, depth: int = 2) -> Path:
    """A path to a player of ``model`` (its symbol's model): either constructor, then setSymbol and clones."""
    sub = max(depth - 1, 0)
    if rnd.random() < 0.5:
        start, start_model = ("player", "newPlayerType"), None
    else:
        start_model = rnd.choice(SYMBOL_CHOICES)
        start = ("player", "newPlayerType", symbols(rnd, start_model, sub))

    def set_symbol(rnd, s):
        new = rnd.choice(SYMBOL_CHOICES)
        return ("setSymbol", symbols(rnd, new, sub)), new

    steps, models = [], []
    current = frames.walk(rnd, steps, models, start_model, lambda s: [set_symbol, frames.clone_step], 2 if depth else 0)
    if current != model:
        steps.append(("setSymbol", symbols(rnd, model, sub)))
        models.append(model)
    return Path("player", start, start_model, tuple(steps), tuple(models))


def squares(rnd, model: tuple, depth: int = 2) -> Path:
    """A path to a square of ``model`` ((location, symbol)): either constructor, then setLocation, setSymbol, clones."""
    sub = max(depth - 1, 0)
    at = _small_location(rnd)
    if rnd.random() < 0.5:
        start, start_model = ("square", "newSquareType", locations(rnd, at, sub)), (at, None)
    else:
        symbol = rnd.choice(SYMBOL_CHOICES)
        start, start_model = (
            ("square", "newSquareType", locations(rnd, at, sub), symbols(rnd, symbol, sub)),
            (at, symbol),
        )

    def move(rnd, m):
        to = _small_location(rnd)
        return ("setLocation", locations(rnd, to, sub)), (to, m[1])

    def mark(rnd, m):
        new = rnd.choice(SYMBOL_CHOICES)
        return ("setSymbol", symbols(rnd, new, sub)), (m[0], new)

    steps, models = [], []
    current = frames.walk(rnd, steps, models, start_model, lambda m: [move, mark, frames.clone_step], 2 if depth else 0)
    if current[0] != model[0]:
        current = (model[0], current[1])
        steps.append(("setLocation", locations(rnd, model[0], sub)))
        models.append(current)
    if current[1] != model[1]:
        steps.append(("setSymbol", symbols(rnd, model[1], sub)))
        models.append(model)
    return Path("square", start, start_model, tuple(steps), tuple(models))


def grids(rnd, model: GridModel, depth: int = 2) -> Path:
    """A path to a grid of ``model``: any constructor, then occupySquare, setSquare (overwriting too), setWorth, clones.

    setDimension is used only on a new, empty grid, where every reading of erratum E23 agrees.
    """
    sub = max(depth - 1, 0)
    side = model.side
    start, start_model, resized = _grid_start(rnd, side, depth, sub)
    steps, models = [], []
    current = start_model
    if resized:
        current = GridModel.of(side, {})
        steps.append(("setDimension", dimensions(rnd, side, sub)))
        models.append(current)
    current = frames.walk(rnd, steps, models, current, _grid_updates(side, sub), 3 if depth else 0)
    _grid_reach(rnd, steps, models, current, model, sub)
    return Path("grid", start, start_model, tuple(steps), tuple(models))


def _grid_start(rnd, side: int, depth: int, sub: int) -> tuple[tuple, GridModel, bool]:
    """A grid path's constructor call, its model, and whether it made a grid of another side (for setDimension)."""
    how = rnd.choice(["dimension", "resized"] + (["default"] if side == 4 else []) + (["placed"] if depth > 0 else []))
    marks: dict = {}
    if how == "default":
        start = ("grid", "newGridType")
    elif how == "dimension":
        start = ("grid", "newGridType", dimensions(rnd, side, sub))
    elif how == "resized":
        start = ("grid", "newGridType", dimensions(rnd, rnd.randint(4, 6), sub))
    else:
        at, colour = (rnd.randint(1, side), rnd.randint(1, side)), rnd.choice(COLOURS)
        start = ("grid", "newGridType", dimensions(rnd, side, sub), locations(rnd, at, sub), symbols(rnd, colour, sub))
        marks = {at: colour}
    return start, GridModel.of(start[2].model if how == "resized" else side, marks), how == "resized"


def _grid_updates(side: int, sub: int):
    """The random updates a grid path of that side may take from a model (for :func:`speckit.testing.frames.walk`)."""
    every = [(r, c) for r in range(1, side + 1) for c in range(1, side + 1)]

    def occupy(rnd, m):
        at = rnd.choice([s for s in every if s not in m.squares])
        colour = rnd.choice(COLOURS)
        return ("occupySquare", locations(rnd, at, sub), symbols(rnd, colour, sub)), GridModel.of(
            side, m.squares | {at: colour}, m.worth
        )

    def overwrite(rnd, m):
        at, symbol = rnd.choice(every), rnd.choice(SYMBOL_CHOICES)
        squares_after = {k: v for k, v in m.squares.items() if k != at} | ({} if symbol is None else {at: symbol})
        return ("setSquare", squares(rnd, (at, symbol), sub)), GridModel.of(side, squares_after, m.worth)

    def worth(rnd, m):
        n = rnd.randint(-3, 3)
        return ("setWorth", worths(rnd, n, sub)), GridModel.of(side, m.squares, n)

    def choices(m):
        return [occupy if len(m.marks) < len(every) else None, overwrite, worth, frames.clone_step]

    return choices


def _grid_reach(rnd, steps: list, models: list, current: GridModel, model: GridModel, sub: int) -> None:
    """Add to a grid path (``steps`` and their ``models``) the updates bringing it from ``current`` to ``model``."""
    side, target, marks = model.side, model.squares, current.squares
    for at in [(r, c) for r in range(1, side + 1) for c in range(1, side + 1)]:
        want, have = target.get(at), marks.get(at)
        if want == have:
            continue
        if have is None and rnd.randint(0, 2):
            steps.append(("occupySquare", locations(rnd, at, sub), symbols(rnd, want, sub)))
        else:
            steps.append(("setSquare", squares(rnd, (at, want), sub)))
        marks = {k: v for k, v in marks.items() if k != at} | ({} if want is None else {at: want})
        models.append(GridModel.of(side, marks, current.worth))
    if current.worth != model.worth:
        steps.append(("setWorth", worths(rnd, model.worth, sub)))
        models.append(GridModel.of(side, marks, model.worth))


PATHS = {
    "index": indexes,
    "level": levels,
    "worth": worths,
    "dimension": dimensions,
    "colour": colours,
    "symbol": symbols,
    "location": locations,
    "player": players,
    "square": squares,
    "grid": grids,
}

RANDOM = frames.RANDOM


def recipe(kind: str, rnd: random.Random, model, depth: int = 2, top: str | None = None) -> Path:
    """A path to a value of ``kind`` with ``model``, getting values only out of kinds ``top`` is made of."""
    token = _TOP.set(top or kind)
    try:
        return PATHS[kind](rnd, model, depth)
    finally:
        _TOP.reset(token)


def paths(kind: str, model, depth: int = 2):
    """Any path to a value of ``kind`` with ``model``."""
    return RANDOM.map(lambda rnd: recipe(kind, rnd, model, depth))


def any_path(kind: str, depth: int = 2):
    """A path to a value of ``kind`` with any (small) model."""
    return models(kind).flatmap(lambda model: paths(kind, model, depth))


# The frame rule, one case per update ------------------------------------------------------

SYMBOL_MODELS = st.sampled_from(SYMBOL_CHOICES)
SMALL_LOCATIONS = st.tuples(st.integers(1, 6), st.integers(1, 6))
MODELS = {
    "index": st.integers(1, 6),
    "level": st.integers(0, 6),
    "worth": st.integers(-4, 4),
    "dimension": st.integers(4, 6),
    "colour": st.sampled_from(COLOURS),
    "symbol": SYMBOL_MODELS,
    "location": SMALL_LOCATIONS,
    "player": SYMBOL_MODELS,
    "square": st.tuples(SMALL_LOCATIONS, SYMBOL_MODELS),
}


@st.composite
def grid_models(draw, sides=st.integers(4, 5), most: int = 6):
    """A small grid model: a few marks anywhere, any worth."""
    side = draw(sides)
    every = [(r, c) for r in range(1, side + 1) for c in range(1, side + 1)]
    at = draw(st.lists(st.sampled_from(every), max_size=most, unique=True))
    return GridModel.of(side, {square: draw(st.sampled_from(COLOURS)) for square in at}, draw(st.integers(-3, 3)))


def models(kind: str):
    """Models of ``kind`` small enough that two drawn independently are often equal."""
    return grid_models() if kind == "grid" else MODELS[kind]


def _given(kind: str, new_model, model_of=lambda new, old: new):
    """An update taking one value of ``kind`` (a model from ``new_model(rnd)``); its result's model is ``model_of(new,
    old)``."""

    def update(rnd, old):
        new = new_model(rnd)
        return (PATHS[kind](rnd, new, 1),), model_of(new, old)

    return update


def _fixed(after):
    """An update taking no other value; its result's model is ``after(old)``."""
    return lambda rnd, old: ((), after(old))


def _occupy(rnd, old: GridModel):
    at = rnd.choice(
        [(r, c) for r in range(1, old.side + 1) for c in range(1, old.side + 1) if (r, c) not in old.squares]
    )
    colour = rnd.choice(COLOURS)
    return (locations(rnd, at, 1), symbols(rnd, colour, 1)), GridModel.of(
        old.side, old.squares | {at: colour}, old.worth
    )


def _set_square(rnd, old: GridModel):
    at, symbol = (rnd.randint(1, old.side), rnd.randint(1, old.side)), rnd.choice(SYMBOL_CHOICES)
    after = {k: v for k, v in old.squares.items() if k != at} | ({} if symbol is None else {at: symbol})
    return (squares(rnd, (at, symbol), 1),), GridModel.of(old.side, after, old.worth)


def _set_dimension(rnd, old: GridModel):
    side = rnd.randint(4, 6)
    return (dimensions(rnd, side, 1),), GridModel(side, (), old.worth)


def _any_index(rnd):
    return rnd.randint(1, 6)


def _any_symbol(rnd):
    return rnd.choice(SYMBOL_CHOICES)


UPDATES = {
    "IndexType.increment": (st.integers(1, 6), _fixed(lambda n: n + 1)),
    "IndexType.decrement": (st.integers(2, 6), _fixed(lambda n: n - 1)),
    "LevelNumberType.increment": (st.integers(0, 6), _fixed(lambda n: n + 1)),
    "LevelNumberType.decrement": (st.integers(1, 6), _fixed(lambda n: n - 1)),
    "WorthType.increment": (st.integers(-4, 4), _fixed(lambda n: n + 1)),
    "WorthType.decrement": (st.integers(-4, 4), _fixed(lambda n: n - 1)),
    "ColourType.invert": (MODELS["colour"], _fixed(lambda c: OTHER[c])),
    # On a mark only, where every reading of erratum E08 agrees.
    "SymbolType.setColour": (st.sampled_from(COLOURS), _given("colour", lambda rnd: rnd.choice(COLOURS))),
    "SymbolType.makeEmpty": (SYMBOL_MODELS, _fixed(lambda s: None)),
    "LocationType.setRow": (SMALL_LOCATIONS, _given("index", _any_index, lambda new, old: (new, old[1]))),
    "LocationType.setColumn": (SMALL_LOCATIONS, _given("index", _any_index, lambda new, old: (old[0], new))),
    "PlayerType.setSymbol": (SYMBOL_MODELS, _given("symbol", _any_symbol)),
    "SquareType.setLocation": (MODELS["square"], _given("location", _small_location, lambda new, old: (new, old[1]))),
    "SquareType.setSymbol": (MODELS["square"], _given("symbol", _any_symbol, lambda new, old: (old[0], new))),
    "GridType.occupySquare": (grid_models(), _occupy),
    "GridType.setSquare": (grid_models(), _set_square),
    "GridType.setWorth": (
        grid_models(),
        _given("worth", lambda rnd: rnd.randint(-3, 3), lambda new, old: GridModel(old.side, old.marks, new)),
    ),
    # On an empty grid only, where every reading of erratum E23 agrees.
    "GridType.setDimension": (grid_models(most=0), _set_dimension),
}
"""Each update operation: models of its argument, and how to make its other arguments and its result's model."""


@st.composite
def frame_cases(draw, operation: str):
    """An update of ``operation`` on a value made by a random path, with other values made before it."""
    argument_models, update = UPDATES[operation]
    kind = operation_kind(operation)
    before = draw(argument_models)
    bystanders = draw(st.lists(models(kind), min_size=1, max_size=2))
    rnd = draw(RANDOM)
    token = _TOP.set(kind)
    try:
        argument = PATHS[kind](rnd, before, 2)
        arguments, after = update(rnd, before)
        others = tuple(PATHS[kind](rnd, model, 1) for model in bystanders)
    finally:
        _TOP.reset(token)
    return FrameCase(operation, argument, arguments, after, others)


def check_frame_case(impl, case: FrameCase) -> None:
    """Run the update of ``case`` and check its frame rule."""
    kind = operation_kind(case.operation)
    others = [
        (o.kind, made.value, made.model, f"another value, {o!r}") for o in case.others for made in [follow(impl, o)]
    ]
    argument = follow(impl, case.argument)
    others += argument.left
    given = [(p.kind, follow(impl, p), p) for p in case.arguments]
    update = getattr(getattr(impl, KINDS[kind]), case.operation.split(".")[1])
    result = update(argument.value, *(made.value for _, made, _ in given))
    check_frame(
        impl,
        case.operation,
        argument,
        argument.model,
        result,
        case.after,
        [(k, made.value, made.model, repr(p)) for k, made, p in given],
        others,
        repr(case.argument),
    )


# Values from every path, compared and observed ------------------------------------------------

ORDERED = ("index", "level", "worth", "dimension")


def check_compared(impl, first: Path, second: Path) -> None:
    """Two values made by any paths: each has its model, and equals (lessThan, greaterThan) follow the models.

    Every value a clone left behind on the way still has its model too.
    """
    kind = first.kind
    ops = getattr(impl, KINDS[kind])
    x, y = follow(impl, first), follow(impl, second)
    # Every model, and then the comparisons, asked together after both values are made.
    claims = []
    for made, path in ((x, first), (y, second)):
        claims.append((made.value, kind, made.model, repr(path)))
        claims += [
            (value, k, model, f"{description}, left behind while making {path!r}")
            for k, value, model, description in made.left
        ]
    compared = kind not in ("location", "square")  # no equals to compare with: the observers are all there is
    ordered = kind in ORDERED

    with ModelChecks(impl) as check:
        answers = [check.has_model(k, value, model) for value, k, model, _ in claims]
        if compared:
            comparisons = check.add(
                lambda _, told: told,
                queries=lambda: (
                    ops.equals(x.value, y.value),
                    ops.lessThan(x.value, y.value) if ordered else None,
                    ops.greaterThan(x.value, y.value) if ordered else None,
                ),
            )
    verdicts = [answer.value for answer in answers]
    for (_, k, model, where), verdict in zip(claims, verdicts, strict=True):
        expect(verdict, f"{where} is {shown(k, model)}", actual=verdict)
    if not compared:
        return
    same, less, greater = comparisons.value
    a, b = x.model, y.model
    pair = f"{first!r} ({shown(kind, a)}) and {second!r} ({shown(kind, b)})"
    if kind == "grid":
        same_squares = (a.side, a.marks) == (b.side, b.marks)
        expect(
            same == same_squares,
            f"equals of {pair}: {'the same' if same_squares else 'different'} squares and dimension (worths "
            "aside, E22)",
            expected=same_squares,
            actual=not same_squares,
        )
        return
    expect(same == (a == b), f"equals of {pair}", expected=a == b, actual=a != b)
    if ordered:
        expect(less == (a < b), f"lessThan of {pair}", expected=a < b, actual=not a < b)
        expect(greater == (a > b), f"greaterThan of {pair}", expected=a > b, actual=not a > b)


few = frames.few
