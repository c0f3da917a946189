"""The turtle-graphics board: navy background, pink disks for red, pale blue for blue (erratum B16).

The board is drawn in a real Tk window on a virtual X server (Xvfb), the screen is
photographed with ImageMagick's ``import``, and the colour at the centre of every
square is compared with the model. Skipped, saying what is missing, where Xvfb,
ImageMagick or tkinter is not available, and when the suite runs with ``--impl`` (the
window is the kit's own program).
"""

from __future__ import annotations

import importlib.util
import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from speckit.testing import REPO_ROOT

from .strategies import COLUMNS, ROWS, Model, play_out

SNAPSHOT = Path(__file__).with_name("turtle_snapshot.py")

# The document's colours, as the usual colour names define them (RGB).
NAVY = (0, 0, 128)
PINK = (255, 192, 203)
PALE_BLUE = (173, 216, 230)
TOLERANCE = 12

pytestmark = pytest.mark.reference_only("the kit's own turtle board")


def missing() -> str:
    """Why the window cannot be drawn and photographed here, or "" when it can."""
    if importlib.util.find_spec("tkinter") is None:
        return f"this Python ({sys.executable}) has no tkinter"
    for program, package in (("Xvfb", "xvfb"), ("import", "imagemagick")):
        if shutil.which(program) is None:
            return f"{program} is not installed (apt-get install {package})"
    return ""


@pytest.fixture(scope="module")
def display(request):
    """A virtual X display (Xvfb) for the module's tests; its name, such as ":5"."""
    reason = missing()
    if reason:
        pytest.skip(f"cannot draw the turtle board: {reason}")
    read, write = os.pipe()
    server = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", "800x700x24", "-nolisten", "tcp"],
        pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    os.close(write)
    with os.fdopen(read) as pipe:
        number = pipe.readline().strip()
    if not number:
        server.kill()
        pytest.skip("Xvfb did not start")
    yield f":{number}"
    server.terminate()
    server.wait(timeout=10)


def photograph(display: str, moves: list[int], tmp_path: Path):
    """Draw the board after ``moves``; return the screenshot and where the turtle origin is."""
    shot = tmp_path / "board.ppm"
    done = subprocess.run(
        [sys.executable, str(SNAPSHOT), "".join(map(str, moves)), str(shot)],
        capture_output=True, text=True, timeout=60, cwd=REPO_ROOT,
        env=dict(os.environ, DISPLAY=display, PYTHONPATH=str(REPO_ROOT)),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    origin = json.loads(done.stdout.strip().splitlines()[-1])["origin"]
    return read_ppm(shot), origin


def read_ppm(path: Path):
    """A binary PPM (P6, 8 bits) as (width, height, bytes)."""
    data = path.read_bytes()
    fields, position = [], 0
    while len(fields) < 4:
        while data[position : position + 1].isspace():
            position += 1
        if data[position : position + 1] == b"#":
            position = data.index(b"\n", position) + 1
            continue
        end = position
        while not data[end : end + 1].isspace():
            end += 1
        fields.append(data[position:end])
        position = end
    assert fields[0] == b"P6" and fields[3] == b"255", fields
    return int(fields[1]), int(fields[2]), data[position + 1 :]


def pixel(image, origin, x: float, y: float) -> tuple[int, int, int]:
    """The colour on the screen at turtle coordinates (x, y)."""
    width, height, pixels = image
    px, py = round(origin[0] + x), round(origin[1] - y)
    assert 0 <= px < width and 0 <= py < height, f"({x}, {y}) is off the screen"
    offset = 3 * (py * width + px)
    return tuple(pixels[offset : offset + 3])


def near(colour, wanted) -> bool:
    return all(abs(a - b) <= TOLERANCE for a, b in zip(colour, wanted))


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
    done = subprocess.run(
        [sys.executable, "-m", "reference_games.boardadt.play_two", "--graphics", "turtle"],
        input="1\n2\n1\n2\n1\n2\n1\nn\n", capture_output=True, text=True, timeout=60, cwd=REPO_ROOT,
        env=dict(os.environ, DISPLAY=display, NO_COLOR="1"),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Red wins with four in a line!" in done.stdout
    assert "Traceback" not in done.stdout + done.stderr
