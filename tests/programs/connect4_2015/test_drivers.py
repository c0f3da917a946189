"""The connect4-2015 program on the terminal, driven end to end through a pseudo-terminal (pexpect).

Scripted sessions: a two-player game to a win, a game against the computer saved, ended
and loaded back, free play with a broken board, wrong answers asked again, a corrupt save
file refused in one line, the way out with end of input, a student's package with
--impl, and --gui without a display. These test the kit's own program, so they are
skipped when the suite runs on another implementation (``--impl``).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pexpect
import pytest

from speckit.paths import REPO_ROOT
from tests.support.programs import environment, run_module, spawn_module

PROGRAM = "reference_games.connect4_2015.main"
RESULT = re.compile(r"Result: (Blue wins|Red wins|Game drawn|Game in progress)")

pytestmark = pytest.mark.reference_only("the kit's own program")


def start(folder, *args, data=None) -> pexpect.spawn:
    """The program in ``folder``, its user's data folder ``data`` (``folder`` itself unless given)."""
    child = spawn_module(PROGRAM, *args, cwd=folder, env=environment(NO_COLOR="1", XDG_DATA_HOME=str(data or folder)))
    child.expect("Choose 1-4")
    return child


def board_rows(child) -> dict:
    """The last board the program printed: {(x, y): "R", "B" or "."}."""
    text = child.logfile_read.getvalue()
    rows = re.findall(r"^([0-5]) \|((?:[.RB][ *]){7})\|", text, flags=re.M)
    cells = {}
    for y, row in rows[-6:]:
        for x in range(7):
            cells[(x, int(y))] = row[2 * x]
    return cells


def finish(child) -> None:
    child.sendline("q")
    child.expect("Goodbye")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_a_two_player_game_is_played_to_a_win_and_the_result_is_always_shown(tmp_path):
    child = start(tmp_path, "--seed", "1")
    child.sendline("1")
    child.expect(RESULT)
    assert child.match.group(1) == "Game in progress"
    for x in (0, 1, 0, 1, 0, 1):
        child.expect("move> ")
        child.sendline(str(x))
        child.expect(RESULT)
        assert child.match.group(1) == "Game in progress"
    child.expect("move> ")
    child.sendline("0")
    child.expect(RESULT)
    assert child.match.group(1) in ("Blue wins", "Red wins")
    child.expect("Press Enter")
    child.sendline("")
    child.expect("Choose 1-4")
    finish(child)


def test_wrong_answers_are_asked_again_with_the_reason(tmp_path):
    child = start(tmp_path)
    child.sendline("7")
    child.expect("is not one of the choices")
    child.sendline("1")
    child.expect("move> ")
    for answer, reason in (("9", "is not a column"), ("x", "is not a column")):
        child.sendline(answer)
        child.expect(reason)
    for _ in range(6):
        child.expect("move> ")
        child.sendline("5")
    child.expect("move> ")
    child.sendline("5")
    child.expect("Column 5 is full")
    child.sendline("end")
    child.expect("Choose 1-4")
    finish(child)


def test_a_game_against_the_computer_is_saved_ended_and_loaded_back(tmp_path):
    child = start(tmp_path, "--seed", "4")
    child.sendline("4")
    for x in (3, 2):
        child.expect("move> ")
        child.sendline(str(x))
    child.expect("move> ")
    before = board_rows(child)
    child.sendline("save")
    child.expect("Game saved")
    child.expect("move> ")
    child.sendline("end")
    child.expect("Choose 1-4")
    child.sendline("3")
    child.expect("Game loaded")
    child.expect("move> ")
    after = board_rows(child)
    assert after == before and sum(v != "." for v in after.values()) >= 4
    child.sendline("end")
    child.expect("Choose 1-4")
    finish(child)
    saved = save_file(tmp_path).read_text().splitlines()
    assert len(saved) == 9, "six rows, the turn, the mode and the computer's player"


def save_file(data) -> os.PathLike:
    """Where the program keeps its saved game, given the user's data folder."""
    return data / "connect4-2015" / "Saved_Game.txt"


def test_free_play_with_a_broken_board_marks_the_errors(tmp_path):
    child = start(tmp_path)
    child.sendline("2")
    child.expect("free play> ")
    child.sendline("red 0 2")
    child.expect("free play> ")
    child.sendline("blue 4 0")
    child.expect("free play> ")
    child.sendline("end")
    child.expect("Not a valid game: ")
    child.expect("free play> ")
    cells = re.findall(r"^2 \|(.*)\|", child.logfile_read.getvalue(), flags=re.M)[-1]
    assert cells.startswith("R*"), f"the unsupported red disc is marked: {cells!r}"
    child.sendline("blue 0 0")
    child.expect("free play> ")
    child.sendline("red 0 1")
    child.expect("free play> ")
    child.sendline("end")  # supported now, two discs of each colour: valid whoever moved first
    child.expect("The board is a valid game")
    child.expect("Choose 1-4")
    finish(child)


def test_a_corrupt_save_file_is_refused_in_one_line_and_the_game_goes_on(tmp_path):
    save_file(tmp_path).parent.mkdir()
    save_file(tmp_path).write_text("Red,Blue\nnonsense\n")
    child = start(tmp_path)
    child.sendline("3")
    child.expect(r"> \S*Saved_Game.txt is not a saved game: line \d+: [^\r\n]+\r?\n")
    child.sendline("1")
    child.expect("move> ")
    child.sendline("3")
    child.expect("move> ")
    child.sendline("load")
    child.expect("is not a saved game")
    child.expect("move> ")
    assert sum(v != "." for v in board_rows(child).values()) == 1, "the game in progress is kept"
    child.sendline("end")
    child.expect("Choose 1-4")
    finish(child)


def test_end_of_input_says_goodbye(tmp_path):
    done = run_module(PROGRAM, answers=[1, 3], cwd=tmp_path, timeout=60)
    assert done.returncode == 0 and "Goodbye." in done.stdout and "Traceback" not in done.stderr


def test_impl_plays_on_a_students_package(tmp_path):
    child = start(tmp_path, "--impl", str(REPO_ROOT / "tests" / "fixtures" / "alt_connect4_2015"))
    child.sendline("1")
    child.expect("move> ")
    child.sendline("3")
    child.expect(RESULT)
    child.expect("move> ")
    assert sum(v != "." for v in board_rows(child).values()) == 1
    child.sendline("end")
    child.expect("Choose 1-4")
    finish(child)


def test_a_missing_package_and_a_missing_display_get_one_line(tmp_path):
    env = environment()
    env.pop("DISPLAY", None)
    for extra, words in (
        (["--impl", str(tmp_path / "nowhere")], "cannot play on"),
        (["--gui"], "cannot open a window"),
    ):
        done = subprocess.run(
            [sys.executable, "-m", PROGRAM, *extra],
            capture_output=True,
            text=True,
            cwd=tmp_path,
            timeout=60,
            env=env,
            stdin=subprocess.DEVNULL,
        )
        assert done.returncode != 0 and words in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr


def test_a_game_saved_in_one_folder_is_loaded_in_another_and_the_menu_says_where(tmp_path):
    data, first, second = (tmp_path / name for name in ("data", "one", "two"))
    for folder in (data, first, second):
        folder.mkdir()
    child = start(first, data=data)
    assert str(save_file(data)) in child.logfile_read.getvalue().replace("\r\n", "")
    child.sendline("1")
    child.expect("move> ")
    child.sendline("3")
    child.expect("move> ")
    child.sendline("save")
    child.expect(f"Game saved to {save_file(data)}")
    child.sendline("q")  # q leaves a game for the menu, as end does
    child.expect("Choose 1-4")
    finish(child)
    child = start(second, data=data)
    child.sendline("3")
    child.expect("Game loaded")
    child.expect("move> ")
    assert sum(v != "." for v in board_rows(child).values()) == 1
    child.sendline("end")
    child.expect("Choose 1-4")
    finish(child)


@pytest.mark.parametrize(
    "content, reason",
    [
        (b"hello\n", "line 1: a board line has 7 squares separated by commas, this one has 1"),
        (b"\xff\xfe\x00garbage", "it is not text (UTF-8)"),
    ],
)
def test_a_file_that_is_no_saved_game_is_named_with_what_is_wrong(tmp_path, content, reason):
    save_file(tmp_path).parent.mkdir()
    save_file(tmp_path).write_bytes(content)
    child = start(tmp_path)
    child.sendline("3")
    child.expect(f"is not a saved game: {re.escape(reason)}")
    finish(child)


def test_the_terminal_never_asks_for_a_click(tmp_path):
    child = start(tmp_path)
    for line, prompt in (
        ("1", "move> "),
        ("3", "move> "),
        ("end", "Choose 1-4"),
        ("2", "free play> "),
        ("red 0 0", "free play> "),
    ):
        child.sendline(line)
        child.expect(prompt)
    child.sendeof()
    child.expect("Goodbye")
    child.expect(pexpect.EOF)
    assert "click" not in child.logfile_read.getvalue().lower()


def test_ctrl_c_leaves_with_status_130_and_a_closed_pipe_without_a_traceback(tmp_path):
    child = start(tmp_path)
    child.sendintr()
    child.expect("Interrupted")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    env = environment(XDG_DATA_HOME=str(tmp_path))
    done = subprocess.run(
        ["bash", "-c", f"yes 1 | {sys.executable} -m reference_games.connect4_2015.main | head -n 3"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
        env=env,
    )
    assert "Traceback" not in done.stderr and len(done.stdout.splitlines()) == 3
