"""The 2015 Connect Four's paths: grids and players reached by every documented path, and the frame rule.

The machinery every specification shares (recipes, following them, the frame rule's
verdicts) is :mod:`speckit.testing.frames`; this module says which paths the report's
types have and how a value's model is asked. A grid is made by ``Grid()`` and changed by
``setSpace`` (any square, any Space, with or without support, overwriting and clearing);
a player by ``Player(colour)`` or ``Player(colour, isAI)`` and changed by ``setTurn``,
``setAI``, ``waitForPieceDrop`` and ``waitForPieceGrab``. The report's updates are void and
change the value they are called on, so paths go on with the same value (``in_place``).
Neither type has a clone or a get that gives a grid or a player.

The frame rule (:func:`check_frame_case`): after an update its argument has the model the
specification gives it (setSpace: that square only; setTurn: the counter only, erratum
S14; setAI and the waits: the type or the state only), and every other grid and player
made before it keeps its model. Only what the report fixes is asked: a player's counter
only once setTurn has set it (S14), setAI(false) only on a human player (on a computer
player either reading passes, S14); grids and players are opaque, read through their
observers, Space members told apart with ``==``.

Models: a grid's is :class:`~.model.Model`; a player's is :class:`PlayerModel`.
"""

from __future__ import annotations

import random
from typing import Any

import attrs
from hypothesis import strategies as st

from speckit.testing import frames
from speckit.testing.frames import Made, Path, Verdict

from .adapter import Build, Read
from .model import BLUE, COLOURS, EMPTY, RED, SQUARES, Model, shown

GRAB, DROP = "WaitingForPieceClick", "WaitingForGridClick"
SPACES = (RED, BLUE, EMPTY)


class Recipe(Path):
    """A path that Hypothesis's failing examples print as the calls it makes, as its repr does."""

    def _repr_pretty_(self, printer, cycle: bool) -> None:
        printer.text(repr(self))


class Member(str):
    """A Space member as a step's argument: made by the implementation, printed as ``Space.Red``."""

    def __repr__(self) -> str:
        return f"Space.{self}"


@attrs.frozen
class PlayerModel:
    """A player: its colour, whether the computer plays it, its turn state, and its counter (None until set, S14)."""

    colour: str
    ai: bool = False
    state: str = GRAB
    turn: int | None = None

    def __str__(self) -> str:
        counter = "" if self.turn is None else f", turn counter {self.turn}"
        return f"a {self.colour} {'computer' if self.ai else 'human'} player, {self.state}{counter}"


def described(kind: str, model) -> str:
    """A model in words, as failure messages give it."""
    return f"the grid{shown(model)}" if kind == "grid" else str(model)


# Following a recipe ---------------------------------------------------------------------------


def follow(impl, path: Path) -> Made:
    """Make the value of ``path`` with the implementation's documented operations."""
    value = frames.start(path, impl, lambda a: _argument(impl, a))
    return frames.follow(
        path, value, getattr(impl, path.kind), lambda a: _argument(impl, a), lambda: False, in_place=True
    )


def make(impl, path: Path):
    """Just the value of ``path``."""
    return follow(impl, path).value


def _argument(impl, argument):
    if isinstance(argument, Path):
        return make(impl, argument)
    return Build(impl).space(str(argument)) if isinstance(argument, Member) else argument


# Whether a value has a model, asked through documented operations only -----------------------


def holding(impl, kind: str, value, model) -> Verdict:
    """Whether ``value`` (a grid or a player) has ``model``, read square by square or by every observer."""
    read = Read(impl)
    if kind == "grid":
        got = read.grid(value)
        return Verdict(got == model, described(kind, got))
    ops = impl.player
    red, blue, grid, ai, colour, turn = impl.batch(
        lambda: (
            ops.canClickRed(value),
            ops.canClickBlue(value),
            ops.canClickGrid(value),
            ops.isAI(value),
            ops.getColour(value),
            None if model.turn is None else ops.getTurn(value),
        )
    )
    expected = (
        model.state == GRAB and model.colour == RED,
        model.state == GRAB and model.colour == BLUE,
        model.state == DROP,
        model.ai,
        model.colour,
        model.turn,
    )
    seen = (red, blue, grid, ai, read.space(colour), turn)
    names = ("canClickRed", "canClickBlue", "canClickGrid", "isAI", "getColour", "getTurn")
    return Verdict(seen == expected, ", ".join(f"{n} {s}" for n, s in zip(names, seen, strict=True)))


# Recipes --------------------------------------------------------------------------------------
#
# Recipes are made in plain code from a random source seeded by one Hypothesis draw (drawing each
# choice costs more than the calls); each is printed as the calls it makes.


def _set_space(rnd: random.Random, model: Model) -> tuple[tuple, Model]:
    (x, y), colour = rnd.choice(SQUARES), rnd.choice(SPACES)
    return _put(model, x, y, colour)


def _put(model: Model, x: int, y: int, colour: str) -> tuple[tuple, Model]:
    after = model.copy()
    after.put(x, y, colour)
    return ("setSpace", x, y, Member(colour)), after


def grids(rnd: random.Random, model: Model | None = None) -> Path:
    """A path to a grid holding ``model`` (any grid when None): ``Grid()``, random setSpace calls
    (overwriting and clearing too), then the calls that bring it to ``model``, in a random order."""
    steps: list = []
    models: list = []
    current = frames.walk(rnd, steps, models, Model(), lambda m: [_set_space], 12)
    if model is not None:
        squares = list(SQUARES)
        rnd.shuffle(squares)
        for x, y in squares:
            if current.get(x, y) != model.get(x, y) or rnd.random() < 0.05:
                step, current = _put(current, x, y, model.get(x, y))
                steps.append(step)
                models.append(current)
    return Recipe("grid", ("grid", "Grid"), Model(), tuple(steps), tuple(models))


def _player_steps(model: PlayerModel) -> list:
    def turn(rnd, m):
        n = rnd.randint(0, 42)
        return ("setTurn", n), attrs.evolve(m, turn=n)

    def ai(rnd, m):
        return ("setAI", True), attrs.evolve(m, ai=True)

    def human(rnd, m):  # setAI(false) takes no action on a human player; on a computer one either (S14)
        return ("setAI", False), m

    def drop(rnd, m):
        return ("waitForPieceDrop",), attrs.evolve(m, state=DROP)

    def grab(rnd, m):
        return ("waitForPieceGrab",), attrs.evolve(m, state=GRAB)

    return [turn, ai, None if model.ai else human, drop, grab]


def players(rnd: random.Random, colour: str | None = None, computer: bool = False) -> Path:
    """A path to a player (of ``colour`` when given, the computer's when ``computer``): either constructor,
    then random updates."""
    colour = colour or rnd.choice(COLOURS)
    start_ai = rnd.random() < 0.5
    start: tuple = ("player", "Player", Member(colour))
    if start_ai or rnd.random() < 0.5:
        start += (start_ai,)
    steps: list = []
    models: list = []
    first = PlayerModel(colour, start_ai)
    current = frames.walk(rnd, steps, models, first, _player_steps, 6)
    if computer and not current.ai:
        steps.append(("setAI", True))
        models.append(attrs.evolve(current, ai=True))
    return Recipe("player", start, first, tuple(steps), tuple(models))


PATHS = {"grid": grids, "player": players}

grid_paths = frames.RANDOM.map(grids)
"""Any grid, by any path."""
player_paths = frames.RANDOM.map(players)
"""Any player, by any path."""


def reaching(models: st.SearchStrategy) -> st.SearchStrategy[Path]:
    """Paths to the grids ``models`` draws."""
    return st.builds(lambda rnd, model: grids(rnd, model), frames.RANDOM, models)


# The frame rule -------------------------------------------------------------------------------


def _set_space_update(rnd: random.Random) -> tuple[Path, tuple, Any]:
    argument = grids(rnd)
    step, after = _set_space(rnd, argument.model)
    return argument, step[1:], after


def _player_update(operation: str):
    def update(rnd: random.Random) -> tuple[Path, tuple, Any]:
        argument = players(rnd)
        if operation == "setAI":
            maker = _player_steps(argument.model)[1 if argument.model.ai or rnd.random() < 0.5 else 2]
        else:
            maker = _player_steps(argument.model)[
                {"setTurn": 0, "waitForPieceDrop": 3, "waitForPieceGrab": 4}[operation]
            ]
        step, after = maker(rnd, argument.model)
        return argument, step[1:], after

    return update


UPDATES = {
    "Grid.setSpace": _set_space_update,
    **{f"Player.{name}": _player_update(name) for name in ("setTurn", "setAI", "waitForPieceDrop", "waitForPieceGrab")},
}
"""Each update: ``rnd`` gives its argument's path, its other arguments and its argument's model after it."""


@attrs.frozen
class FrameCase(frames.FrameCase):
    """A frame case that Hypothesis prints as the call it makes and the values made before it."""

    def _repr_pretty_(self, printer, cycle: bool) -> None:
        call = ", ".join(["x", *map(repr, self.arguments)])
        made = "; ".join(map(repr, self.others))
        printer.text(f"{self.operation.split('.')[1]}({call}) where x = {self.argument!r}; others: {made}")


def bystanders(rnd: random.Random, kind: str) -> tuple[Path, ...]:
    """One or two other values of ``kind``, and sometimes one of the other kind."""
    made = [PATHS[kind](rnd) for _ in range(rnd.randint(1, 2))]
    if rnd.random() < 0.3:
        made.append(PATHS["player" if kind == "grid" else "grid"](rnd))
    return tuple(made)


@st.composite
def frame_cases(draw, operation: str):
    """An update of ``operation`` on a value made by a random path, with other values made around it."""
    rnd = draw(frames.RANDOM)
    argument, arguments, after = UPDATES[operation](rnd)
    return FrameCase(operation, argument, arguments, after, bystanders(rnd, argument.kind))


def made_around(impl, argument: Path, others: tuple[Path, ...]) -> tuple[Made, list]:
    """Make the first of ``others``, then ``argument``, then the rest (values made before and while
    it was updated), giving the argument and the others as ``(kind, value, model, description)``."""
    made = [follow(impl, o) for o in others[:1]]
    value = follow(impl, argument)
    made += [follow(impl, o) for o in others[1:]]
    return value, [(o.kind, m.value, m.model, f"another {o.kind}, {o!r}") for o, m in zip(others, made, strict=True)]


def expect_kept(call: str, before: str, after: str, verdicts: list, given: list, others: list) -> None:
    """The frame rule's verdicts of a void update of the report: the first about its argument, then ``given``'s and
    ``others``' (each ``(kind, value, model, description)``)."""
    __tracebackhide__ = True
    frames.expect_frame(
        call,
        before,
        after,
        verdicts,
        [(described(k, model), description) for k, _, model, description in given],
        [(described(k, model), description) for k, _, model, description in others],
        ruling="the report's updates are void: they change the value they are called on, and nothing else",
        in_place=True,
    )


def check_frame_case(impl, case: FrameCase) -> None:
    """Run the update of ``case`` and check its frame rule, every question asked after the update."""
    kind = case.argument.kind
    argument, others = made_around(impl, case.argument, case.others)
    name = case.operation.split(".")[1]
    getattr(getattr(impl, kind), name)(argument.value, *(_argument(impl, a) for a in case.arguments))
    verdicts = [
        holding(impl, kind, argument.value, case.after),
        *(holding(impl, k, value, model) for k, value, model, _ in others),
    ]
    shown_arguments = ", ".join(["x", *map(repr, case.arguments)])
    expect_kept(
        f"{name}({shown_arguments}) where x = {case.argument!r} is {described(kind, argument.model)}",
        described(kind, argument.model),
        described(kind, case.after),
        verdicts,
        [],
        others,
    )
