"""The connect4-2015 window, clicked through under a virtual X server and photographed.

Each scenario runs window_snapshot.py in a child process on Xvfb: it presses the start
screen's buttons and clicks pieces and squares through Tk's event system, then the
screen is photographed with ImageMagick's ``import`` and the colour at every square is
compared with the game's own saved-game text. Skipped, saying what is missing, where
Xvfb, ImageMagick or tkinter is not available, and when the suite runs with ``--impl``
(the window is the kit's own program).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reference_games.connect4_2015 import window as w
from tests.connect4_2015.controller_kit import parse
from tests.connect4_2015.strategies import BLUE, RED, SQUARES
from tests.support import xvfb

SNAPSHOT = Path(__file__).with_name("window_snapshot.py")
TOLERANCE = 16

pytestmark = pytest.mark.reference_only("the kit's own window")


def rgb(hex_colour: str) -> tuple[int, int, int]:
    return tuple(int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))


DISC = {RED: rgb(w.COLOURS["Red"]), BLUE: rgb(w.COLOURS["Blue"])}
HOLE, HIGHLIGHT = rgb(w.HOLE), rgb(w.HIGHLIGHT)


@pytest.fixture(scope="module")
def display():
    """A virtual X display (Xvfb) for the module's tests; its name, such as ":5"."""
    yield from xvfb.display("800x800", "cannot open the window")


def click_through(display: str, actions: list, folder: Path):
    shot = folder / "window.ppm"
    state = xvfb.photograph(display, SNAPSHOT, json.dumps(actions), str(shot), str(folder))
    return xvfb.read_ppm(shot), state


def pixel(image, origin, px: int, py: int):
    return xvfb.pixel(image, origin[0] + px, origin[1] + py)


def near(colour, wanted) -> bool:
    return xvfb.near(colour, wanted, TOLERANCE)


def check_squares(image, state, highlighted=frozenset()):
    """Every square shows the disc the game holds (or a hole), and the highlights."""
    saved = parse(state["text"])
    assert not isinstance(saved, str), saved
    for x, y in SQUARES:
        cx, cy = w.centre(x, y)
        seen = pixel(image, state["origin"], cx, cy)
        colour = saved.model.get(x, y)
        wanted = DISC.get(colour, HOLE)
        assert near(seen, wanted), f"square ({x}, {y}) should show {colour}: {seen} on the screen, {wanted} expected"
        ring = pixel(image, state["origin"], cx + w.RADIUS + 3, cy)
        assert near(ring, HIGHLIGHT) == ((x, y) in highlighted), (
            f"square ({x}, {y}) highlighted: {(x, y) in highlighted}; the ring is {ring}"
        )
    return saved


def test_a_two_player_game_is_won_and_the_winning_four_shows(display, tmp_path):
    moves = [["move", x] for x in (0, 1, 0, 1, 0, 1, 0)]
    image, state = click_through(display, [["button", "2 Player"], *moves], tmp_path)
    saved = parse(state["text"])
    winner = saved.model.get(0, 0)
    assert state["result"] == f"{winner} wins"
    check_squares(image, state, {(0, 0), (0, 1), (0, 2), (0, 3)})
    for name, (px, py) in w.PIECES.items():
        assert near(pixel(image, state["origin"], px, py), DISC[name]), f"the {name} piece shows above the board"


def test_a_game_against_the_computer_answers_each_click(display, tmp_path):
    image, state = click_through(display, [["button", "1 Player"], ["move", 3], ["move", 3], ["move", 2]], tmp_path)
    saved = check_squares(image, state)
    assert saved.computer in (RED, BLUE)
    person = BLUE if saved.computer == RED else RED
    assert saved.model.count(person) == 3, state["text"]
    assert saved.model.count(saved.computer) in (3, 4), "the computer answered every move"
    assert state["result"] == "Game in progress"


def test_free_play_with_a_broken_board_highlights_the_errors(display, tmp_path):
    actions = [
        ["button", "Free Play"],
        ["piece", "Red"],
        ["square", 0, 2],
        ["piece", "Blue"],
        ["square", 4, 0],
        ["button", "End"],
    ]
    image, state = click_through(display, actions, tmp_path)
    assert state["board_shown"], "a broken board stays on the screen"
    check_squares(image, state, {(0, 2)})
    assert "unsupported" in state["message"]


def test_a_click_anywhere_in_a_column_drops_the_disc_to_its_lowest_empty_square(display, tmp_path):
    image, state = click_through(
        display, [["button", "2 Player"], ["column", 2], ["column", 2], ["column", 5]], tmp_path
    )
    saved = check_squares(image, state)
    assert {s for s in SQUARES if saved.model.get(*s) != "Empty"} == {(2, 0), (2, 1), (5, 0)}


def test_save_then_load_brings_the_game_back(display, tmp_path):
    actions = [
        ["button", "2 Player"],
        ["move", 3],
        ["move", 4],
        ["move", 3],
        ["button", "Save"],
        ["button", "End"],
        ["button", "Load Game"],
    ]
    image, state = click_through(display, actions, tmp_path)
    assert state["board_shown"]
    saved = check_squares(image, state)
    assert (tmp_path / "Saved_Game.txt").read_text().strip() == state["text"].strip()
    assert sum(1 for s in SQUARES if saved.model.get(*s) != "Empty") == 3
