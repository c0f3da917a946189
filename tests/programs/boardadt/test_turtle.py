"""The turtle-graphics board: navy background, pink disks for red, pale blue for blue (erratum B16).

The board is drawn in a real Tk window on a virtual X server (Xvfb), the screen is
photographed with ImageMagick's ``import``, and the colour at the centre of every
square is compared with the model. Skipped, saying what is missing, where Xvfb,
ImageMagick or tkinter is not available, and when the suite runs with ``--impl`` (the
window is the kit's own program).
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from tests.boardadt.strategies import COLUMNS, ROWS, Model, play_out
from tests.support import xvfb
from tests.support.programs import run_module

SNAPSHOT = Path(__file__).with_name("turtle_snapshot.py")

# The document's colours, as the usual colour names define them (RGB).
NAVY = (0, 0, 128)
PINK = (255, 192, 203)
PALE_BLUE = (173, 216, 230)
TOLERANCE = 12

pytestmark = pytest.mark.reference_only("the kit's own turtle board")


@pytest.fixture(scope="module")
def display():
    """A virtual X display (Xvfb) for the module's tests; its name, such as ":5"."""
    yield from xvfb.display("800x700", "cannot draw the turtle board")


def photograph(display: str, moves: list[int], tmp_path: Path):
    """Draw the board after ``moves``; return the screenshot and where the turtle origin is."""
    shot = tmp_path / "board.ppm"
    origin = xvfb.photograph(display, SNAPSHOT, "".join(map(str, moves)), str(shot))["origin"]
    return xvfb.read_ppm(shot), origin


def pixel(image, origin, x: float, y: float) -> tuple[int, int, int]:
    """The colour on the screen at turtle coordinates (x, y)."""
    return xvfb.pixel(image, round(origin[0] + x), round(origin[1] - y))


def near(colour, wanted) -> bool:
    return xvfb.near(colour, wanted, TOLERANCE)


def is_hole(colour) -> bool:
    """An empty square: a shade of navy darker than the background."""
    r, g, b = colour
    return r <= TOLERANCE and g <= TOLERANCE and 0 < b < NAVY[2] - TOLERANCE


GAMES = {
    "vertical win": [1, 2, 1, 2, 1, 2, 1],
    "random game": play_out([random.Random(3).randrange(7) for _ in range(30)]),
    "full column": [4, 4, 4, 4, 4, 4, 3],
}


@pytest.mark.parametrize("moves", GAMES.values(), ids=GAMES.keys())
def test_the_turtle_board_shows_pink_and_pale_blue_disks_on_navy(display, tmp_path, moves):
    from reference_games.boardadt.turtle_board import CELL, centre

    image, origin = photograph(display, moves, tmp_path)
    model = Model(moves)
    for column in range(1, COLUMNS + 1):
        for row in range(1, ROWS + 1):
            x, y = centre(column, row)
            seen = pixel(image, origin, x, y)
            colour = model.colour(column, row)
            where = f"the disk of column {column}, row {row} after {moves}"
            if colour == "red":
                assert near(seen, PINK), f"{where} is red's, so pink {PINK}; the screen shows {seen}"
            elif colour == "blue":
                assert near(seen, PALE_BLUE), f"{where} is blue's, so pale blue {PALE_BLUE}; the screen shows {seen}"
            else:
                assert is_hole(seen), f"{where} is empty, so a hole darker than navy; the screen shows {seen}"
            between = pixel(image, origin, x + CELL / 2, y + CELL / 2)
            assert near(between, NAVY), f"the background between disks is navy {NAVY}; the screen shows {between}"


def test_play_two_runs_a_whole_game_in_the_turtle_window(display):
    done = run_module(
        "reference_games.boardadt.play_two",
        "--graphics",
        "turtle",
        answers=[1, 2, 1, 2, 1, 2, 1, "n"],
        env=dict(os.environ, DISPLAY=display, NO_COLOR="1"),
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "Red wins with four in a line!" in done.stdout
    assert "Traceback" not in done.stdout + done.stderr
