"""The kit's two programs, play_two and connect, driven through their standard input.

Complete games are scripted: a win, a draw, answers that must be asked again, another
game with the colours swapped, and the ways out (end of input, Ctrl-C). These tests
check the kit's own programs on the reference board, so they are skipped when the
suite runs on another implementation (``--impl``).
"""

from __future__ import annotations

import os
import random
import re
import subprocess

import pytest

from tests.boardadt.strategies import Model, drawn_game_filled_last_in
from tests.support.programs import environment, first_line_then_close, run_module, spawn_module

PLAY_TWO = "reference_games.boardadt.play_two"
CONNECT = "reference_games.boardadt.connect"
BOARD_LINE = re.compile(r"^([1-6])  ((?:[.RB]  ){6}[.RB])$")

pytestmark = pytest.mark.reference_only("the kit's own programs on the reference board")


def run(program, answers, *extra) -> subprocess.CompletedProcess:
    """Run a program with the answers as its standard input, one per line."""
    done = run_module(program, *extra, answers=answers, env=environment(NO_COLOR="1"))
    assert "Traceback" not in done.stdout + done.stderr, done.stdout[-3000:] + done.stderr
    return done


def boards(output: str) -> list[dict]:
    """Every board the program printed, as {(column, row): "R", "B" or "."}."""
    found, current = [], {}
    for line in output.splitlines():
        match = BOARD_LINE.match(line)
        if match:
            row = int(match[1])
            for column, letter in enumerate(match[2].split("  "), start=1):
                current[(column, row)] = letter
            if row == 1:
                found.append(current)
                current = {}
    return found


def as_letters(model: Model) -> dict:
    return {(c, r): {"red": "R", "blue": "B", None: "."}[model.colour(c, r)] for c in range(1, 8) for r in range(1, 7)}


def test_play_two_announces_each_move_below_the_board_and_the_win():
    moves = [1, 2, 1, 2, 1, 2, 1]
    done = run(PLAY_TWO, [*moves, "n"])
    assert done.returncode == 0
    out = done.stdout
    shown = boards(out)
    assert len(shown) == len(moves) + 1, "the board is shown at the start and after every move"
    for i in range(len(moves) + 1):
        assert shown[i] == as_letters(Model(moves[:i])), f"the board after {i} moves"
    for i, column in enumerate(moves):
        colour = "Red" if i % 2 == 0 else "Blue"
        assert f"{colour} plays column {column}." in out
    last_board = out.rindex("   1  2  3  4  5  6  7")
    assert out.index("Red plays column 1.", last_board) < out.index("Red wins with four in a line!")
    assert out.rstrip().endswith("Goodbye.")


def test_play_two_announces_a_draw():
    moves = drawn_game_filled_last_in(4, random.Random(1))
    done = run(PLAY_TWO, [*moves, "n"])
    assert done.returncode == 0
    assert "the game is a draw" in done.stdout
    assert "wins with four in a line!" not in done.stdout
    assert boards(done.stdout)[-1] == as_letters(Model(moves))


def test_play_two_asks_again_with_the_reason_after_a_bad_answer():
    answers = ["x", "0", "8", "", "2.5", "4", *[1] * 6, "1", "3", "n"]
    done = run(PLAY_TWO, answers)
    out = done.stdout
    assert "'x' is not a whole number" in out
    assert "There is no column 0" in out
    assert "There is no column 8" in out
    assert "Please answer with a column number from 1 to 7." in out
    assert "'2.5' is not a whole number" in out
    assert "Column 1 is full: choose another column." in out
    # Only the valid answers were played: 4, six times 1, then 3.
    assert boards(out)[-1] == as_letters(Model([4, 1, 1, 1, 1, 1, 1, 3]))
    assert "End of input: goodbye." in out  # the answers ran out mid-game
    assert done.returncode == 0


def test_play_two_plays_again_with_red_first():
    game = [1, 2, 1, 2, 1, 2, 1]
    done = run(PLAY_TWO, [*game, "maybe", "y", *game, "n"])
    out = done.stdout
    assert "Please answer y or n." in out
    assert out.count("Red wins with four in a line!") == 2
    assert "New game: Red moves first again." in out
    second = out.index("New game")
    assert out.index("Red, your move", second) < out.index("Blue, your move", second)
    assert boards(out[second:])[0] == as_letters(Model()), "the board is re-initialised for the new game"
    assert done.returncode == 0


@pytest.mark.parametrize(
    "program, answers",
    [(PLAY_TWO, []), (PLAY_TWO, [4, 4, 3]), (PLAY_TWO, [1, 2, 1, 2, 1, 2, 1]), (CONNECT, []), (CONNECT, ["b"])],
    ids=["play_two-at-once", "play_two-mid-game", "play_two-at-play-again", "connect-at-colour", "connect-mid-game"],
)
def test_end_of_input_leaves_cleanly(program, answers):
    done = run(program, answers, *(["--level", "greedy"] if program == CONNECT else []))
    assert done.returncode == 0
    assert done.stdout.rstrip().endswith("End of input: goodbye.")
    assert done.stderr == ""


def test_connect_shows_a_legend_and_swaps_colours_for_the_next_game():
    # Greedy play is deterministic: as Red, playing 1, 1, 1, 7, 7, ... loses to four in column 4.
    answers = ["green", "r", 1, 1, 1, 7, 7, 7, "y", 1, "n"]
    done = run(CONNECT, answers, "--level", "greedy")
    out = done.stdout
    assert "Please answer r (red) or b (blue)." in out
    first, second = out.split("New game:", 1)
    assert "Legend: you are Red (R), the computer is Blue (B)." in first
    assert "The computer wins." in first
    assert "you are Blue now" in second
    assert "Legend: you are Blue (B), the computer is Red (R)." in second
    assert second.index("The computer (Red) plays column") < second.index("Blue (you), your move")
    assert out.rstrip().endswith("End of input: goodbye.") or out.rstrip().endswith("Goodbye.")


def test_connect_announces_the_human_win():
    # As Red against the random player with a fixed seed, column 4 four times wins
    # unless the computer blocks; the seed below lets it through.
    for seed in range(50):
        done = run(CONNECT, ["r", 4, 4, 4, 4, "n"], "--level", "random", "--seed", str(seed))
        if "You win!" in done.stdout:
            assert "You (Red) play column 4." in done.stdout
            assert done.returncode == 0
            return
    pytest.fail("no seed from 0 to 49 let the random player lose to four in column 4")


def test_connect_says_when_perfect_could_not_finish_and_plays_its_guess():
    # As Blue the person lets the computer open: no exact search finishes on a nearly empty board in 0.05 s.
    done = run(CONNECT, ["b"], "--level", "perfect", "--budget", "0.05")
    out = done.stdout
    assert "The computer could not finish its search within 0.05 s and plays its best guess." in out
    assert out.index("could not finish") < out.index("The computer (Red) plays column")
    assert done.returncode == 0


def test_connect_plays_at_the_default_level_of_computer_move():
    from reference_games.boardadt import player

    done = run(CONNECT, [])
    assert f"(level {player.DEFAULT_LEVEL})" in done.stdout
    assert player.DEFAULT_LEVEL == "perfect"


@pytest.mark.parametrize("seconds", ["inf", "-inf", "nan", "61", "1e9", "0", "-1", "soon"])
def test_connect_refuses_a_budget_that_is_not_a_time_to_wait_in_one_line(seconds):
    # Before: --budget inf was accepted and the first move never came.
    done = run(CONNECT, [], f"--budget={seconds}")
    assert done.returncode == 2 and done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert lines[-1].endswith(f"argument --budget: '{seconds}' is not a number of seconds above 0 and at most 60"), (
        done.stderr
    )


def test_connect_refuses_a_bad_level_in_one_line():
    done = run(CONNECT, [], "--level", "clever")
    assert done.returncode == 2
    assert "'clever' is not a level" in done.stderr


def test_turtle_graphics_without_a_display_is_a_one_line_error():
    no_display = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    done = run_module(PLAY_TWO, "--graphics", "turtle", env=no_display, timeout=60)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "--graphics turtle" in lines[0] and "DISPLAY" in lines[0], done.stderr


def test_ctrl_c_leaves_cleanly():
    pexpect = pytest.importorskip("pexpect")
    child = spawn_module(PLAY_TWO, env=environment(NO_COLOR="1"))
    child.expect_exact("Red, your move (column 1-7): ")
    child.sendline("4")
    child.expect_exact("Blue, your move (column 1-7): ")
    child.sendintr()
    child.expect_exact("Interrupted: goodbye.")
    child.expect(pexpect.EOF)
    child.close()
    assert "Traceback" not in child.before
    assert child.exitstatus == 130


@pytest.mark.parametrize(
    "program, options, answers",
    [(PLAY_TWO, [], [4] * 40), (CONNECT, ["--level", "random"], ["r", *[4] * 40])],
    ids=["play_two", "connect"],
)
def test_a_reader_that_goes_away_ends_the_program_quietly(program, options, answers):
    done = first_line_then_close(program, *options, answers=answers, env=environment(NO_COLOR="1"))
    assert done.stdout.startswith("Connect Four")
    assert "Traceback" not in done.stderr and "BrokenPipeError" not in done.stderr, done.stderr


@pytest.mark.parametrize("program, prog", [(PLAY_TWO, "boardadt-play-two"), (CONNECT, "boardadt-connect")])
def test_usage_names_the_console_script(program, prog):
    done = run_module(program, "--help", timeout=60)
    assert done.stdout.startswith(f"usage: {prog} ")
