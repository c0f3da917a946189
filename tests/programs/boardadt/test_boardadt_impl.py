"""``boardadt-play-two --impl PATH`` and ``boardadt-connect --impl PATH``: the BoardADT programs on a student's package.

The alternative implementation (colours as strings, Square a named tuple) plays both
programs, the supplied Player choosing the computer's moves on its board; a package
with a fault, a skeleton and a missing folder are refused in one message.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.support.programs import environment, run_module

ROOT = Path(__file__).resolve().parents[3]
FINISHED = ROOT / "tests" / "fixtures" / "alt_boardadt"


@pytest.fixture(scope="module")
def cache(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("cache")


def program(cache: Path, name: str, *options: str, answers=()) -> subprocess.CompletedProcess:
    env = environment(XDG_CACHE_HOME=str(cache), NO_COLOR="1")
    return run_module(f"reference_games.boardadt.{name}", *options, answers=answers, env=env, timeout=600)


def test_two_people_play_a_game_to_a_win_on_the_students_package(cache):
    done = program(cache, "play_two", "--impl", str(FINISHED), answers=[1, 2, 1, 2, 1, 2, 1, "n"])
    assert done.returncode == 0, done.stderr
    assert "Red wins with four in a line!" in done.stdout and "Traceback" not in done.stderr


def test_the_supplied_player_plays_on_the_students_board(cache):
    done = program(cache, "connect", "--impl", str(FINISHED), "--level", "greedy", answers=["r", 4])
    assert done.returncode == 0, done.stderr
    assert "The computer (Blue) plays column" in done.stdout and "Traceback" not in done.stderr


def test_a_board_with_a_fault_is_refused_naming_the_failing_operation(cache, tmp_path):
    broken = tmp_path / "broken"
    shutil.copytree(FINISHED, broken)
    board = broken / "board_adt.py"
    text = board.read_text()
    assert "def Is_Full" in text
    board.write_text(
        text.replace(
            "def Is_Full(self, column",
            "def Is_Full(self, column, _=None):\n        return False\n\n    def _old_is_full(self, column",
        )
    )
    done = program(cache, "play_two", "--impl", str(broken))
    assert done.returncode == 1 and done.stdout == "" and "Traceback" not in done.stderr
    assert f"boardadt-play-two: cannot play on {broken}: board_type.Is_Full failed" in done.stderr
    assert f"speckit check --spec boardadt {broken}" in done.stderr


def test_a_skeleton_and_a_missing_folder_are_refused_at_once(cache, tmp_path):
    from speckit.cli import main as speckit

    assert speckit(["skeleton", "--spec", "boardadt", str(tmp_path / "mine")]) == 0
    done = program(cache, "connect", "--impl", str(tmp_path / "mine"))
    assert done.returncode == 1 and "is not implemented yet" in done.stderr and "checking" not in done.stderr
    done = program(cache, "play_two", "--impl", str(tmp_path / "nowhere"))
    assert (
        done.returncode == 1
        and done.stderr == f"boardadt-play-two: cannot play on {tmp_path / 'nowhere'}: no such folder\n"
    )
