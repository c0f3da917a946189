"""Player.Computer_Move: the kit's player on the implementation's board (errata B12 to B14).

The player is supplied by the kit, as the course supplied Player.TPU; these tests check
its documented postcondition and its promises with the package's own board, so a
board that reports itself wrongly through Get_Value or Get_Current_Color fails them.
A player of the package's own is held to the documented postcondition only: the
document promises no more than a non-full column (erratum B14).
"""

import inspect

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from speckit.testing import covers, expect, expect_equal

from . import paths
from .adapter import Build, Read
from .model import COLUMNS, OTHER, Model, differences
from .strategies import drawn_games, games, won_games


def after(moves) -> str:
    return f"after the moves {list(moves)}" if moves else "on a new board"


def _takes_level(impl) -> bool:
    """Whether the package's Computer_Move takes the kit's ``level``: the kit's player does, a
    player of the package's own (B14) is only held to the documented Computer_Move(board)."""
    try:
        parameters = inspect.signature(impl.player.Computer_Move.function()).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(p.name == "level" or p.kind is p.VAR_KEYWORD for p in parameters)


def kits_promises(impl) -> None:
    """Skip a test of what the kit's player promises beyond the document when the package
    supplies a player of its own (erratum B14): the document promises only a non-full column."""
    if not _takes_level(impl):
        pytest.skip("the package supplies a player of its own, held only to the documented postcondition (erratum B14)")


def computer_move(impl, board, moves, **level) -> int:
    """Computer_Move's column on ``board``, checked to be a column number.

    ``level="greedy"`` serves the tests of what every level promises (a column that is
    not full, the board left as it was): every level reads the board the same way, once,
    and the default "perfect" level would spend up to its whole budget on each example.
    The tests of the moves erratum B14 promises call the default, as the course does; so
    does every test of a player of the package's own that takes no ``level``.
    """
    column = impl.player.Computer_Move(board, **(level if _takes_level(impl) else {}))
    expect(
        isinstance(column, int) and not isinstance(column, bool) and 1 <= column <= COLUMNS,
        f"Computer_Move {after(moves)} returns a column number, an int from 1 to {COLUMNS}",
        expected="1..7",
        actual=column,
    )
    return column


@covers("Player.Computer_Move")
@given(moves=games.filter(lambda moves: len(moves) < 42))
def test_computer_move_returns_a_column_that_is_not_full(impl, moves):
    build = Build(impl)
    board = build.board(moves)
    model = Model(moves)
    column = computer_move(impl, board, moves, level="greedy")
    won = " (the game is already won, which the precondition allows: erratum B12)" if model.won() else ""
    expect(
        not model.full(column),
        f"Computer_Move {after(moves)} outputs a non-full column{won}\n{model.picture()}",
        expected=model.open_columns(),
        actual=column,
    )


@covers("Player.Computer_Move", "board_type.Get_Value")
@settings(max_examples=15)
@given(moves=drawn_games(), stop=st.integers(30, 41))
def test_computer_move_finds_the_last_open_columns_of_a_nearly_full_board(impl, moves, stop):
    build = Build(impl)
    board = build.board(moves[:stop])
    model = Model(moves[:stop])
    column = computer_move(impl, board, moves[:stop])
    expect(
        not model.full(column),
        f"Computer_Move {after(moves[:stop])} outputs one of the open columns\n{model.picture()}",
        expected=model.open_columns(),
        actual=column,
    )


@covers("Player.Computer_Move")
@given(moves=games.filter(lambda moves: len(moves) < 42))
def test_computer_move_leaves_the_board_as_it_was(impl, moves):
    build, read = Build(impl), Read(impl)
    board = build.board(moves)
    before, colour = read.board(board), read.current(board)
    computer_move(impl, board, moves, level="greedy")
    diffs = differences(read.board(board), before)
    expect(
        not diffs,
        f"Computer_Move {after(moves)} does not change the board (a value parameter: erratum B13)",
        expected="no change",
        actual=diffs,
    )
    expect_equal(read.current(board), colour, f"Computer_Move {after(moves)} leaves the current colour {colour}")


@covers("Player.Computer_Move", "board_type.Get_Value", "board_type.Get_Current_Color")
@given(moves=won_games)
def test_computer_move_takes_an_immediate_win(impl, moves):
    kits_promises(impl)
    before = moves[:-1]
    build = Build(impl)
    board = build.board(before)
    model = Model(before)
    winning = model.winning_columns(model.current)
    column = computer_move(impl, board, before)
    expect(
        column in winning,
        f"Computer_Move {after(before)}: {model.current} wins at once in column(s) {sorted(winning)}, and the kit's "
        "player"
        f" takes an immediate win (erratum B14)\n{model.picture()}",
        expected=sorted(winning),
        actual=column,
    )


@covers("Player.Computer_Move", "board_type.Make_Move", "board_type.Get_Value", "board_type.Get_Current_Color")
@given(moves=won_games, data=st.data())
def test_computer_move_reads_a_board_asked_before_afresh(impl, moves, data):
    """One board asked at an earlier point of its game, then played on: the player answers for
    the board as it is now (a board reached by another path than a new one)."""
    kits_promises(impl)
    before = moves[:-1]
    earlier = data.draw(st.integers(0, len(before) - 1), label="moves played when first asked")
    build = Build(impl)
    board = build.board(before[:earlier])
    computer_move(impl, board, before[:earlier], level="greedy")
    for column in before[earlier:]:
        impl.board_adt.Make_Move(board, column)
    model = Model(before)
    winning = model.winning_columns(model.current)
    column = computer_move(impl, board, before, level="greedy")
    expect(
        column in winning,
        f"Computer_Move asked {after(before[:earlier])}, then again on the same board {after(before)}: "
        f"{model.current} wins"
        f" at once in column(s) {sorted(winning)}, and the kit's player takes an immediate win at every level but"
        f" random (erratum B14)\n{model.picture()}",
        expected=sorted(winning),
        actual=column,
    )


@covers("Player.Computer_Move", "board_type.Get_Value", "board_type.Get_Current_Color")
@given(moves=won_games.filter(lambda moves: len(moves) >= 2))
def test_computer_move_blocks_a_lone_immediate_threat(impl, moves):
    kits_promises(impl)
    before = moves[:-2]
    model = Model(before)
    threats = model.winning_columns(OTHER[model.current])
    assume(not model.winning_columns(model.current) and len(threats) == 1)
    build = Build(impl)
    board = build.board(before)
    column = computer_move(impl, board, before)
    expect_equal(
        column,
        min(threats),
        f"Computer_Move {after(before)}: {model.current} cannot win at once and {OTHER[model.current]} threatens to "
        "win in"
        f" column {min(threats)} only, so the kit's player blocks it (erratum B14)\n{model.picture()}",
    )


@covers("Player.Computer_Move")
@settings(max_examples=10)
@given(history=paths.histories)
def test_computer_move_changes_no_board_reached_by_any_path(impl, history):
    """Boards played, initialised again and interleaved (``paths``): Computer_Move on each open one outputs a
    non-full column and leaves every board with its own game (a value parameter: erratum B13)."""
    boards, models = paths.follow(impl, history), history.models()
    for number, (board, model) in enumerate(zip(boards, models, strict=True)):
        if model.board_full():
            continue
        where = f"b{number + 1} after {history!r}"
        column = computer_move(impl, board, model.moves, level="greedy")
        expect(not model.full(column), f"Computer_Move({where}) outputs a non-full column", actual=column)
        for other, (kept, its) in enumerate(zip(boards, models, strict=True)):
            expect(
                paths.holds(impl, kept, its),
                f"after Computer_Move({where}), b{other + 1} is still {paths.shown(its)} (a value parameter: B13)",
                actual=False,
            )
