"""Boards reached by every documented path, and the frame rule of Make_Move and Initialize.

The other tests play one game on one fresh board. A student's board can reach the same
position by other ways: a board played, initialised again and played again; a board
made while another is being played; several boards whose moves interleave. A
:class:`History` is such a recipe, plain data: steps on a pool of boards, each step
``("new",)`` (``Board()`` then ``Initialize()``, erratum B05), ``("initialize", b)`` or
``("move", b, column)``, legal moves only and none after a win (errata B03, B11). It is
made from one seeded random source (a Hypothesis draw per choice costs more than the
calls), and printed as the calls it makes.

The frame rule: an update changes its own board and nothing else, so after any step
every other board still holds its own game (the verdicts are said by
:func:`speckit.testing.frames.expect_frame`, and the random source is
:mod:`speckit.testing.frames`'s, shared with every suite). A history is not a
:class:`~speckit.testing.frames.Path`: a path makes one value, and a history interleaves the
moves of several boards, which is how boards sharing what they should not are found.
"""

from __future__ import annotations

import random

import attrs
from hypothesis import strategies as st

from speckit.testing import expect, expect_equal, frames

from .adapter import Build, Read
from .model import COLUMNS, Model, differences, picture_of


@attrs.frozen(repr=False)
class History:
    """Steps on a pool of boards; ``games`` is each board's moves since it was last initialised."""

    steps: tuple
    games: tuple

    def __repr__(self) -> str:
        calls, made = [], 0
        for step in self.steps:
            if step[0] == "new":
                made += 1
                calls.append(f"b{made} = Board(); b{made}.Initialize()")
            elif step[0] == "initialize":
                calls.append(f"b{step[1] + 1}.Initialize()")
            else:
                calls.append(f"b{step[1] + 1}.Make_Move({step[2]})")
        return "; ".join(calls)

    def models(self) -> list[Model]:
        return [Model(moves) for moves in self.games]


def _open(model: Model) -> list[int]:
    return [] if model.won() or model.board_full() else model.open_columns()


def make_history(rnd: random.Random, boards: int = 3, steps: int = 45) -> History:
    """A random history over up to ``boards`` boards, ``steps`` steps long at most."""
    done: list[tuple] = [("new",)]
    games: list[list[int]] = [[]]
    for _ in range(rnd.randint(0, steps)):
        roll = rnd.random()
        if roll < 0.08 and len(games) < boards:
            done.append(("new",))
            games.append([])
        elif roll < 0.14:
            b = rnd.randrange(len(games))
            done.append(("initialize", b))
            games[b] = []
        else:
            b = rnd.randrange(len(games))
            free = _open(Model(games[b]))
            if not free:  # the game on it is over: start a new one, as the drivers do
                done.append(("initialize", b))
                games[b] = []
                continue
            column = rnd.choice(free)
            done.append(("move", b, column))
            games[b] = games[b] + [column]
    return History(tuple(done), tuple(tuple(g) for g in games))


histories = frames.RANDOM.map(make_history)


def follow(impl, history: History) -> list:
    """Run the history, asking Is_Win after every move as the drivers do; the boards, in the order they were made."""
    build, ops = Build(impl), impl.board_adt
    boards, games = [], []
    for number, step in enumerate(history.steps):
        if step[0] == "new":
            boards.append(build.board())
            games.append([])
        elif step[0] == "initialize":
            ops.Initialize(boards[step[1]])
            games[step[1]] = []
        else:
            ops.Make_Move(boards[step[1]], step[2])
            games[step[1]] = games[step[1]] + [step[2]]
            won, expected = ops.Is_Win(boards[step[1]]), Model(games[step[1]]).won()
            if won != expected:  # the message costs more than the check: made only when needed
                so_far = repr(attrs.evolve(history, steps=history.steps[: number + 1]))
                expect_equal(won, expected, f"Is_Win of b{step[1] + 1} after {so_far} (B02)")
    return boards


def check_board(impl, board, model: Model, where: str) -> None:
    """Every square, the current colour and (unless asked not to) each column's Is_Full agree with the model."""
    read = Read(impl)
    diffs = differences(read.board(board), picture_of(model))
    expect(not diffs, f"{where} holds its own game, {model.moves}", expected="the model's board", actual=diffs)
    expect_equal(read.current(board), model.current, f"Get_Current_Color of {where}")


def check_observers(impl, board, model: Model, where: str) -> None:
    """Every observer of the board agrees with its model: squares, colour, Is_Full, Is_Win, Is_Draw."""
    check_board(impl, board, model, where)
    for column in range(1, COLUMNS + 1):
        expect_equal(impl.board_adt.Is_Full(board, column), model.full(column), f"Is_Full({column}) of {where}")
    expect_equal(impl.board_adt.Is_Win(board), model.won(), f"Is_Win of {where}: {model.just_moved} just moved (B02)")
    if not (model.won() and model.board_full()):  # a full board with a line may be a draw or not (B04)
        expect_equal(
            impl.board_adt.Is_Draw(board),
            model.board_full(),
            f"Is_Draw of {where}: the board is {'' if model.board_full() else 'not '}full",
        )


def holds(impl, board, model: Model) -> bool:
    """Whether ``board`` holds the game ``model``: every square (Get_Value) and the current colour."""
    read = Read(impl)
    return read.board(board) == picture_of(model) and read.current(board) == model.current


def shown(model: Model) -> str:
    """A board's game in words, as failure messages give it."""
    return f"the game {model.moves} (columns, red first)" if model.moves else "an empty board, red to move"


RULINGS = {
    "initialize": "Initialize makes the entire board empty and red the current colour",
    "move": "Make_Move drops a checker of the current colour into the column and switches the colour",
}
"""What each update does to its board, in the document's words: the frame rule's ruling."""


def check_frame(impl, history: History, step: tuple) -> None:
    """Run ``history``, then ``step`` on one of its boards: that board takes the step, every other keeps its game
    (:func:`speckit.testing.frames.expect_frame`, the update changing its board in place)."""
    __tracebackhide__ = True
    boards = follow(impl, history)
    models = history.models()
    target = step[1]
    before = models[target]
    if step[0] == "initialize":
        impl.board_adt.Initialize(boards[target])
        models[target] = Model()
        call = f"b{target + 1}.Initialize()"
    else:
        impl.board_adt.Make_Move(boards[target], step[2])
        models[target] = Model(models[target].moves + [step[2]])
        call = f"b{target + 1}.Make_Move({step[2]})"
    others = [number for number in range(len(boards)) if number != target]
    frames.expect_frame(
        f"{call} where x = b{target + 1} after {history!r} holds {shown(before)}",
        shown(before),
        shown(models[target]),
        [holds(impl, boards[target], models[target]), *(holds(impl, boards[n], models[n]) for n in others)],
        [],
        [(shown(models[n]), f"b{n + 1}, another board") for n in others],
        ruling=RULINGS[step[0]],
        in_place=True,
    )


@st.composite
def frame_cases(draw, operation: str):
    """A history of at least two boards and one more step of ``operation`` on one of them."""
    seed = draw(st.integers(0, 2**32 - 1))
    rnd = random.Random(seed)
    history = make_history(rnd)
    while len(history.games) < 2:
        history = make_history(rnd)
    if operation == "Initialize":
        return history, ("initialize", rnd.randrange(len(history.games)))
    playable = [b for b, moves in enumerate(history.games) if _open(Model(moves))]
    if not playable:
        history = attrs.evolve(history, steps=history.steps + (("initialize", 0),), games=((),) + history.games[1:])
        playable = [0]
    b = rnd.choice(playable)
    return history, ("move", b, rnd.choice(_open(Model(history.games[b]))))
