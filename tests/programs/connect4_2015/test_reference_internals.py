"""The report's tests of private methods, run on the reference, which keeps them under their names.

isInGridRange, isSpotEmpty, pieceRotate, checkL, setMode, save and load are private in
the report's internal design, so a student's package need not have them: these tests
import the reference directly and are not part of grading (the rubric leaves them out).
The computer player's report-described behaviour and its perfect strength are checked
here too, on many positions.
"""

import contextlib
import os
import random
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference_games.connect4_2015.controller import Controller, Mode
from reference_games.connect4_2015.game_logic import GameLogic
from reference_games.connect4_2015.grid import Grid
from reference_games.connect4_2015.player import Player
from reference_games.connect4_2015.space import Space
from reference_games.connect4_2015.view import RecordingView
from tests.connect4_2015.model import BLUE, OTHER, RED, SQUARES, Model
from tests.connect4_2015.strategies import play_out, unfinished_games

pytestmark = pytest.mark.reference_only("the reference's own private methods")

SPACE = {RED: Space.Red, BLUE: Space.Blue}


def grid_of(model: Model) -> Grid:
    grid = Grid()
    for (x, y), colour in model.cells.items():
        grid.setSpace(x, y, SPACE[colour])
    return grid


@pytest.mark.parametrize(
    "square, expected",
    [((8, 9), False), ((3, 4), True), ((3, 9), False), ((8, 4), False)],
    ids=["isInGridRange_bb1", "isInGridRange_bb2", "isInGridRange_bb3", "isInGridRange_bb4"],
)
def test_isInGridRange_black_box(square, expected):
    assert Grid().isInGridRange(*square) is expected


@pytest.mark.parametrize(
    "square, expected",
    [((-1, 5), False), ((100, 5), False), ((5, -1), False), ((-5, 100), False), ((6, 5), True)],
    ids=[f"isInGridRange_wb{n}" for n in range(1, 6)],
)
def test_isInGridRange_white_box(square, expected):
    assert Grid().isInGridRange(*square) is expected


@pytest.mark.parametrize(
    "fill, square, expected",
    [
        (None, "each", True),
        (Space.Red, "each", False),
        (Space.Blue, "each", False),
        (None, (100, 100), False),
    ],
    ids=["isSpotEmpty_wb1", "isSpotEmpty_wb2", "isSpotEmpty_wb3", "isSpotEmpty_wb4"],
)
def test_isSpotEmpty_white_box(fill, square, expected):
    grid = Grid()
    if fill is not None:
        for x, y in SQUARES:
            grid.setSpace(x, y, fill)
    squares = SQUARES if square == "each" else [square]
    assert all(grid.isSpotEmpty(x, y) is expected for x, y in squares)


@pytest.mark.parametrize(
    "x, expected", [(7, 0), (-1, 6), (3, 3)], ids=["pieceRotate_bb1", "pieceRotate_bb2", "pieceRotate_bb3"]
)
def test_pieceRotate_black_box(x, expected):
    assert GameLogic().pieceRotate(Grid(), x) == expected


def l_grid(side: int) -> Grid:
    model = Model({(x, y): (BLUE if (x + y) % 2 == 0 else RED) for x in range(7) for y in range(3)})
    model.put(3, 1, RED)
    model.put(3, 2, RED)
    if side:
        model.put(3 + side, 3, RED)
        model.put(3 + 2 * side, 3, RED)
    return grid_of(model)


@pytest.mark.parametrize(
    "side, expected", [(1, True), (-1, True), (0, False)], ids=["checkL_bb1", "checkL_bb2", "checkL_bb3"]
)
def test_checkL_black_box(side, expected):
    assert GameLogic().checkL(l_grid(side), 3, 3, Space.Red) is expected


@pytest.mark.parametrize(
    "mode, expected",
    [(0, Mode.Free_Play), (1, Mode.Regular), (2, Mode.Regular)],
    ids=["setMode_bb1", "setMode_bb2", "setMode_bb2_computer"],
)
def test_setMode_black_box(mode, expected):
    assert Controller(RecordingView()).setMode(mode) is expected


def test_setMessage_bb1_hello_world():
    view = RecordingView()
    Controller(view)._view.setMessage("Hello World")
    assert view.message == "Hello World"


@contextlib.contextmanager
def scratch_folder():
    """Run in a fresh empty folder (the reference runs in-process here)."""
    before = Path.cwd()
    with tempfile.TemporaryDirectory(prefix="connect4_2015-") as folder:
        os.chdir(folder)
        try:
            yield Path(folder)
        finally:
            os.chdir(before)


def test_save_and_load_white_box_testing_123_and_keep_a_backup():
    with scratch_folder() as folder:
        controller = Controller(RecordingView())
        controller.save("first")
        controller.save("testing 123")
        assert (folder / "Saved_Game.txt").read_text().strip() == "testing 123"
        assert (folder / "Saved_Game.txt.bak").read_text().strip() == "first", "the previous save is kept"
        assert controller.load().strip() == "testing 123"


def test_the_first_move_of_the_computer_is_the_report_opening():
    assert Player(Space.Red, True, rng=random.Random(1)).aiTurn(Grid()) == [3, 0]
    seen = set()
    for seed in range(20):
        grid = Grid()
        grid.setSpace(3, 0, Space.Blue)
        seen.add(tuple(Player(Space.Red, True, rng=random.Random(seed)).aiTurn(grid)))
    assert seen == {(2, 0), (4, 0)}, "after the player takes (3, 0), left or right of it at random (A.I. step 2)"


def test_the_computer_answers_left_on_top_or_right_of_the_last_disc_wrapping_around():
    seen = set()
    for seed in range(40):
        player = Player(Space.Red, True, rng=random.Random(seed))
        grid = Grid()
        grid.setSpace(3, 0, Space.Blue)
        first = player.aiTurn(grid)
        grid.setSpace(*first, Space.Red)
        player.setTurn(1)
        grid.setSpace(0, 0, Space.Blue)  # the person answers in column 0
        seen.add(player.aiTurn(grid)[0])
    assert seen == {6, 0, 1}, "left of column 0 wraps to column 6 (A.I. steps 4 and 5)"


@settings(max_examples=300)
@given(game=unfinished_games, seed=st.integers(0, 1000))
def test_the_report_player_wins_in_one_and_blocks_on_many_positions(game, seed):
    model, _, to_move = game
    square = tuple(Player(SPACE[to_move], True, rng=random.Random(seed)).aiTurn(grid_of(model)))
    assert model.valid(*square)
    wins, losses = model.threats(to_move), model.threats(OTHER[to_move])
    if wins:
        assert square in wins, f"a win in one missed\n{model.picture()}"
    elif losses:
        assert square in losses, f"an immediate loss not blocked\n{model.picture()}"


def test_the_report_player_never_supports_a_four_when_another_column_will_do():
    """Red threatens (3, 2) over an empty (3, 1); the computer (blue), free to choose, never plays (3, 1)."""
    model = Model(
        {
            (0, 2): RED,
            (1, 2): RED,
            (2, 2): RED,
            (0, 0): BLUE,
            (1, 0): RED,
            (2, 0): BLUE,
            (0, 1): BLUE,
            (1, 1): BLUE,
            (2, 1): RED,
            (3, 0): BLUE,
            (6, 0): RED,
        }
    )
    assert model.threats(RED) == set() and model.valid(3, 1)
    for seed in range(30):
        player = Player(Space.Blue, True, rng=random.Random(seed))
        player.setTurn(3)
        assert player.aiTurn(grid_of(model)) != [3, 1]


@pytest.mark.slow
def test_the_perfect_player_wins_in_one_and_blocks_on_many_positions():
    rng = random.Random(2015)
    for _ in range(200):
        model, _, to_move = play_out(
            [rng.randrange(7) for _ in range(rng.randrange(4, 30))], rng.choice((RED, BLUE)), stop_before_full=True
        )
        if model.fours() or model.full():
            continue
        square = tuple(Player(SPACE[to_move], True, rng=rng, strength="perfect", budget=0.2).aiTurn(grid_of(model)))
        assert model.valid(*square)
        wins = model.threats(to_move)
        if wins:
            assert square in wins


def test_the_perfect_player_takes_a_win_and_blocks():
    win = Model({(0, 0): RED, (1, 0): RED, (2, 0): RED, (0, 1): BLUE, (1, 1): BLUE, (2, 1): BLUE})
    assert Player(Space.Red, True, strength="perfect", budget=0.2).aiTurn(grid_of(win)) == [3, 0]
    block = Model({(0, 0): RED, (1, 0): RED, (2, 0): RED, (0, 1): BLUE, (1, 1): BLUE, (6, 0): BLUE})
    assert Player(Space.Blue, True, strength="perfect", budget=0.2).aiTurn(grid_of(block)) == [3, 0]
