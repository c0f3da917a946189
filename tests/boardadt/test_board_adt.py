"""board_type: the Connect Four board of the unit BoardADT, checked against a list-of-columns model.

Every test makes its boards with ``Board()`` followed by ``Initialize()`` (erratum B05),
plays legal moves only (erratum B03), stops its games at the first win (errata B02,
B11) and reads the board only through the documented operations.
"""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from speckit.testing import covers, expect, expect_equal

from . import paths
from .adapter import Build, Read
from .model import (
    ALL_SQUARES,
    BLUE,
    COLUMNS,
    DIRECTIONS,
    LINES_BY_DIRECTION,
    RED,
    ROWS,
    Model,
    differences,
    picture_of,
)
from .strategies import columns, completing, drawn_game_filled_last_in, full_board_won_last, games, rngs


def after(moves) -> str:
    return f"after the moves {list(moves)} (columns, red first)" if moves else "on a new board after Initialize"


@covers(
    "board_type.Board",
    "board_type.Initialize",
    "board_type.Get_Value",
    "board_type.Get_Current_Color",
    "board_type.Is_Full",
    "board_type.Is_Win",
    "board_type.Is_Draw",
)
def test_initialize_makes_the_whole_board_empty_with_red_to_move(impl):
    build, read = Build(impl), Read(impl)
    board = build.board()
    diffs = differences(read.board(board), picture_of(Model()))
    expect(
        not diffs,
        "Initialize makes the entire board empty: Get_Value says every square is empty",
        expected="all 42 squares empty",
        actual=diffs,
    )
    expect_equal(read.current(board), RED, "Initialize makes red the current colour, since red begins the game")
    for column in range(1, COLUMNS + 1):
        expect_equal(
            impl.board_adt.Is_Full(board, column), False, f"no column of an empty board is full: Is_Full({column})"
        )
    expect_equal(impl.board_adt.Is_Win(board), False, "nobody has won on an empty board: Is_Win (erratum B02)")
    expect_equal(impl.board_adt.Is_Draw(board), False, "an empty board is not full, so Is_Draw is false")


def test_the_unit_declares_seven_columns_and_six_rows(impl):
    declared = {c.name: c.value for c in impl.spec.type("board_type").constants}
    assert declared == {"number_of_columns": COLUMNS, "number_of_rows": ROWS}, (
        "the suite's board size is the specification's"
    )
    module = impl.module("board_adt")
    for name, number in declared.items():
        expect_equal(getattr(module, name, None), number, f"module board_adt defines the constant {name} = {number}")


@covers("board_type.Initialize", "board_type.Make_Move", "board_type.Get_Value", "board_type.Get_Current_Color")
@given(moves=games, again=games)
def test_initialize_on_a_played_board_starts_a_new_game(impl, moves, again):
    build, read = Build(impl), Read(impl)
    board = build.board(moves)
    impl.board_adt.Initialize(board)
    diffs = differences(read.board(board), picture_of(Model()))
    expect(
        not diffs,
        f"Initialize {after(moves)} empties the entire board again",
        expected="all 42 squares empty",
        actual=diffs,
    )
    expect_equal(read.current(board), RED, f"Initialize {after(moves)} makes red the current colour again")
    for column in again:
        impl.board_adt.Make_Move(board, column)
    diffs = differences(read.board(board), picture_of(Model(again)))
    expect(
        not diffs,
        f"the new game on the re-initialised board, {after(again)}, is played from scratch",
        expected="the model's board",
        actual=diffs,
    )


@covers("board_type.Board", "board_type.Make_Move", "board_type.Get_Value", "board_type.Get_Current_Color")
@given(first=games, second=games)
def test_two_boards_never_share_their_squares(impl, first, second):
    build, read = Build(impl), Read(impl)
    one, other = build.board(), build.board()
    for column in first:
        impl.board_adt.Make_Move(one, column)
    for column in second:
        impl.board_adt.Make_Move(other, column)
    for board, moves, name in ((one, first, "first"), (other, second, "second")):
        diffs = differences(read.board(board), picture_of(Model(moves)))
        expect(
            not diffs,
            f"two boards are independent: the {name} board holds only its own game, {after(moves)}",
            expected="its own moves only",
            actual=diffs,
        )
        expect_equal(
            read.current(board),
            Model(moves).current,
            f"the {name} board's current colour depends on its own moves only, {after(moves)}",
        )


@covers("board_type.Make_Move", "board_type.Get_Value", "square_type.Square")
@given(moves=games)
def test_make_move_drops_the_checker_on_the_lowest_empty_square_and_changes_nothing_else(impl, moves):
    build, read = Build(impl), Read(impl)
    board = build.board()
    model = Model()
    for column in moves:
        before = list(model.moves)
        colour = model.current
        row = model.play(column)[1]
        impl.board_adt.Make_Move(board, column)
        expect_equal(
            read.value(board, column, row),
            colour,
            f"Make_Move({column}) {after(before)} puts a {colour} checker on row {row} of column {column}, its "
            "lowest empty square",
        )
        diffs = differences(read.board(board), picture_of(model))
        expect(
            not diffs,
            f"Make_Move({column}) {after(before)} changes no other square",
            expected="one new checker",
            actual=diffs,
        )


@covers("board_type.Get_Value", "square_type.Square", "value_type.Value")
@given(moves=games)
def test_get_value_agrees_with_the_model_on_every_square(impl, moves):
    build, read = Build(impl), Read(impl)
    board = build.board(moves)
    model = Model(moves)
    for column, row in ALL_SQUARES:
        expect_equal(
            read.value(board, column, row),
            model.colour(column, row),
            f"Get_Value(Square({column}, {row})) {after(moves)}: column {column}, row {row} (column first, row 1 at the"
            f" bottom: erratum B07) holds {model.colour(column, row) or 'nothing'}\n{model.picture()}",
        )


@covers("board_type.Get_Current_Color", "board_type.Make_Move")
@given(moves=games)
def test_colours_alternate_from_red(impl, moves):
    build, read = Build(impl), Read(impl)
    board = build.board()
    model = Model()
    for column in moves:
        expect_equal(
            read.current(board), model.current, f"Get_Current_Color {after(model.moves)}: {model.current} is to move"
        )
        impl.board_adt.Make_Move(board, column)
        model.play(column)
    expect_equal(read.current(board), model.current, f"Get_Current_Color {after(moves)}: {model.current} is to move")


@covers("board_type.Get_Current_Color")
@given(moves=games, asks=st.integers(2, 4))
def test_get_current_color_changes_nothing(impl, moves, asks):
    build, read = Build(impl), Read(impl)
    board = build.board(moves)
    model = Model(moves)
    answers = [read.current(board) for _ in range(asks)]
    expect_equal(
        answers,
        [model.current] * asks,
        f"Get_Current_Color asked {asks} times {after(moves)} gives the same answer each time (erratum B01)",
    )
    diffs = differences(read.board(board), picture_of(model))
    expect(
        not diffs,
        f"asking Get_Current_Color {after(moves)} leaves every square as it was",
        expected="no change",
        actual=diffs,
    )
    if not model.won() and model.open_columns():
        column = model.open_columns()[0]
        impl.board_adt.Make_Move(board, column)
        expect_equal(
            read.current(board),
            model.just_moved,
            f"after asking, Make_Move({column}) still switches to {model.just_moved}",
        )


@covers("board_type.Is_Full", "board_type.Make_Move")
@given(moves=games)
def test_is_full_agrees_with_the_model(impl, moves):
    build = Build(impl)
    board = build.board()
    model = Model()
    for column in moves:
        model.play(column)
        impl.board_adt.Make_Move(board, column)
        expect_equal(
            impl.board_adt.Is_Full(board, column),
            model.full(column),
            f"Is_Full({column}) {after(model.moves)}: column {column} holds {model.height(column)} of {ROWS} checkers",
        )
    for column in range(1, COLUMNS + 1):
        expect_equal(impl.board_adt.Is_Full(board, column), model.full(column), f"Is_Full({column}) {after(moves)}")


@covers("board_type.Is_Full", "board_type.Make_Move")
@given(column=columns, other=st.integers(0, COLUMNS - 2))
def test_a_column_is_full_after_exactly_six_checkers(impl, column, other):
    build = Build(impl)
    board = build.board()
    elsewhere = [c for c in range(1, COLUMNS + 1) if c != column][other]
    moves = []
    for height in range(1, ROWS + 1):
        # Alternate the colours in the column (red, blue, ...) so nobody makes four.
        expect_equal(
            impl.board_adt.Is_Full(board, column),
            False,
            f"Is_Full({column}) {after(moves)}: {height - 1} checkers are not a full column",
        )
        impl.board_adt.Make_Move(board, column)
        moves.append(column)
        expect_equal(
            impl.board_adt.Is_Full(board, elsewhere),
            False,
            f"Is_Full({elsewhere}) {after(moves)}: that column is empty",
        )
    expect_equal(
        impl.board_adt.Is_Full(board, column), True, f"Is_Full({column}) {after(moves)}: six checkers fill a column"
    )


def check_game_won_on(impl, line, winner, moves, direction):
    """Play ``moves``, asking Is_Win after each: false until the last move completes ``line``."""
    board = Build(impl).board()
    for i, column in enumerate(moves):
        last = i == len(moves) - 1
        impl.board_adt.Make_Move(board, column)
        expect_equal(
            impl.board_adt.Is_Win(board),
            last,
            f"Is_Win {after(moves[: i + 1])}: "
            + (
                f"{winner} has just completed the {direction} line {list(line)}"
                if last
                else "nobody has four in a line yet"
            ),
        )


@pytest.mark.parametrize("direction", list(DIRECTIONS))
@covers("board_type.Is_Win", "board_type.Make_Move")
def test_is_win_on_every_line_of_the_board(impl, direction):
    for line in LINES_BY_DIRECTION[direction]:
        for winner in (RED, BLUE):
            moves = completing(line, winner, random.Random(f"{line}{winner}"))
            check_game_won_on(impl, line, winner, moves, direction)


@pytest.mark.parametrize("direction", list(DIRECTIONS))
@covers("board_type.Is_Win", "board_type.Make_Move")
@settings(max_examples=10)
@given(data=st.data())
def test_is_win_whatever_the_order_of_the_moves(impl, direction, data):
    line = data.draw(st.sampled_from(LINES_BY_DIRECTION[direction]), label="line")
    winner = data.draw(st.sampled_from([RED, BLUE]), label="winner")
    moves = completing(line, winner, data.draw(rngs, label="order"))
    check_game_won_on(impl, line, winner, moves, direction)


@covers("board_type.Is_Win", "board_type.Make_Move")
@given(moves=games)
def test_is_win_agrees_with_the_model_move_by_move(impl, moves):
    build = Build(impl)
    board = build.board()
    model = Model()
    for column in moves:
        model.play(column)
        impl.board_adt.Make_Move(board, column)
        expect_equal(
            impl.board_adt.Is_Win(board),
            model.won(),
            f"Is_Win {after(model.moves)}: {model.just_moved} just moved"
            + (" and has four in a line" if model.won() else ", nobody has four in a line")
            + f"\n{model.picture()}",
        )


@pytest.mark.parametrize("last", range(1, COLUMNS + 1))
@covers("board_type.Is_Draw", "board_type.Is_Win", "board_type.Is_Full")
@settings(max_examples=3)
@given(rng=rngs)
def test_a_full_board_without_a_line_is_a_draw(impl, last, rng):
    moves = drawn_game_filled_last_in(last, rng)
    build = Build(impl)
    board = build.board()
    for i, column in enumerate(moves):
        impl.board_adt.Make_Move(board, column)
        full = i == len(moves) - 1
        expect_equal(impl.board_adt.Is_Win(board), False, f"Is_Win {after(moves[: i + 1])}: nobody has four in a line")
        expect_equal(
            impl.board_adt.Is_Draw(board),
            full,
            f"Is_Draw {after(moves[: i + 1])}: "
            + ("the board is completely full" if full else f"{41 - i} squares are empty"),
        )
    for column in range(1, COLUMNS + 1):
        expect_equal(impl.board_adt.Is_Full(board, column), True, f"Is_Full({column}) on a full board {after(moves)}")


@covers("board_type.Is_Draw")
@given(moves=games)
def test_is_draw_is_false_while_any_square_is_empty(impl, moves):
    build = Build(impl)
    board = build.board(moves)
    expect_equal(
        impl.board_adt.Is_Draw(board), False, f"Is_Draw {after(moves)}: {42 - len(moves)} squares are still empty"
    )


@covers("board_type.Is_Win", "board_type.Is_Draw")
@settings(max_examples=5)
@given(rng=rngs)
def test_a_last_move_that_fills_the_board_and_completes_a_line_is_a_win(impl, rng):
    moves = full_board_won_last(rng)
    build = Build(impl)
    board = build.board(moves[:-1])
    expect_equal(impl.board_adt.Is_Win(board), False, f"Is_Win {after(moves[:-1])}: nobody has four in a line yet")
    expect_equal(impl.board_adt.Is_Draw(board), False, f"Is_Draw {after(moves[:-1])}: one square is still empty")
    impl.board_adt.Make_Move(board, moves[-1])
    expect_equal(
        impl.board_adt.Is_Win(board),
        True,
        f"Is_Win {after(moves)}: blue's last move fills the board and completes a line",
    )
    # Is_Draw may answer either way here (erratum B04); it must still answer a Boolean.
    impl.board_adt.Is_Draw(board)


# Boards from every path, and the frame rule (see ``paths``) ----------------------------------------


@covers(
    "board_type.Board",
    "board_type.Initialize",
    "board_type.Make_Move",
    "board_type.Get_Value",
    "board_type.Get_Current_Color",
    "board_type.Is_Full",
    "board_type.Is_Win",
    "board_type.Is_Draw",
)
@settings(max_examples=20)
@given(history=paths.histories)
def test_every_observer_sees_only_the_game_of_a_board_reached_by_any_path(impl, history):
    boards = paths.follow(impl, history)
    # Equal lengths, but strict=False: a change to this test's code changes its examples (see CONTRIBUTING).
    for number, (board, model) in enumerate(zip(boards, history.models(), strict=False)):
        paths.check_observers(impl, board, model, f"b{number + 1} after {history!r}")


@covers("board_type.Make_Move")
@settings(max_examples=10)
@given(case=paths.frame_cases("Make_Move"))
def test_make_move_changes_its_own_board_only(impl, case):
    paths.check_frame(impl, *case)


@covers("board_type.Initialize")
@settings(max_examples=10)
@given(case=paths.frame_cases("Initialize"))
def test_initialize_changes_its_own_board_only(impl, case):
    paths.check_frame(impl, *case)
