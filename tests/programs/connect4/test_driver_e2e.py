"""The text driver end to end: ``python -m adt`` in a real terminal, driven with pexpect.

The same scripted games as test_driver.py (the computer's play is deterministic), typed
at the prompts of a pseudo-terminal, with the keyboard's end of input and Ctrl-C.
"""

from __future__ import annotations

import re

import pytest

from tests.support.programs import first_line_then_close, spawn_module

pexpect = pytest.importorskip("pexpect")

MOVE = "Your move"
PERSON_WINS = ["1 1", "1 2", "4 4", "4 1", "4 3", "4 2"]
DRAW = ["1 1", "1 2", "1 3", "2 1", "3 4", "2 3", "2 2", "4 2"]


@pytest.fixture
def spawn():
    """Start ``python -m adt`` with the given options; every child is closed afterwards."""
    children = []

    def start(*options: str):
        child = spawn_module("adt", *options, dimensions=(40, 120))
        children.append(child)
        return child

    yield start
    for child in children:
        child.close(force=True)


def answer(child, prompt: str, reply: str) -> None:
    child.expect_exact(prompt)
    child.sendline(reply)


def finish(child) -> str:
    """Wait for the program to end; return everything it wrote."""
    child.expect(pexpect.EOF)
    child.close()
    transcript = child.logfile_read.getvalue()
    assert "Traceback" not in transcript, transcript
    return transcript


def test_a_complete_game_the_person_wins(spawn):
    child = spawn("--size", "4", "--first", "you", "--lookahead", "1")
    for move in PERSON_WINS:
        answer(child, MOVE, move)
    child.expect_exact("You win!")
    answer(child, "Play again? (y/n)", "n")
    child.expect_exact("Goodbye.")
    transcript = finish(child)
    assert child.exitstatus == 0
    assert transcript.count("The computer plays row") == len(PERSON_WINS) - 1


def test_a_complete_game_drawn(spawn):
    child = spawn("--size", "4", "--first", "you", "--lookahead", "2")
    for move in DRAW:
        answer(child, MOVE, move)
    child.expect_exact("It's a draw.")
    answer(child, "Play again? (y/n)", "no")
    finish(child)
    assert child.exitstatus == 0


def test_bad_answers_are_refused_then_good_ones_accepted(spawn):
    child = spawn()
    answer(child, "(4 to 9)?", "abc")
    answer(child, "'abc' is not a whole number.", "3")
    answer(child, "3 is not between 4 and 9.", "")
    answer(child, "Please type an answer.", "4")
    answer(child, "move first? (y/n)", "maybe")
    answer(child, "'maybe' is not an answer", "y")
    answer(child, "(1 to 4; more is slower)?", "9")
    answer(child, "9 is not between 1 and 4.", "1")
    answer(child, MOVE, "x")
    answer(child, "'x' is not a square", "5 5")
    answer(child, "5 5 is off the board", PERSON_WINS[0])
    answer(child, MOVE, PERSON_WINS[0])
    answer(child, "Row 1, column 1 is taken: choose an empty square.", PERSON_WINS[1])
    for move in PERSON_WINS[2:]:
        answer(child, MOVE, move)
    child.expect_exact("You win!")
    answer(child, "Play again? (y/n)", "n")
    finish(child)
    assert child.exitstatus == 0


def test_end_of_input_mid_game_says_goodbye_without_a_traceback(spawn):
    child = spawn("--size", "4", "--first", "you", "--lookahead", "2")
    answer(child, MOVE, "1 1")
    child.expect_exact(MOVE)
    child.sendeof()
    child.expect_exact("Goodbye.")
    finish(child)
    assert child.exitstatus == 0


def test_end_of_input_at_the_first_question(spawn):
    child = spawn()
    child.expect_exact("(4 to 9)?")
    child.sendeof()
    child.expect_exact("Goodbye.")
    finish(child)
    assert child.exitstatus == 0


def test_ctrl_c_says_goodbye_with_status_130(spawn):
    child = spawn("--size", "5", "--first", "computer", "--lookahead", "2")
    child.expect_exact(MOVE)
    child.sendintr()
    child.expect_exact("Goodbye.")
    finish(child)
    assert child.exitstatus == 130


def test_a_bad_option_is_a_one_line_error(spawn):
    child = spawn("--size", "12")
    transcript = finish(child)
    assert child.exitstatus == 2
    assert re.search(r"connect4: error: argument --size: 12 is not between 4 and 9", transcript)


def test_a_reader_that_goes_away_ends_the_driver_quietly():
    done = first_line_then_close("adt", "--seed", "1", answers=[4, *["1 1"] * 30])
    assert done.stdout.startswith("Connect-4")
    assert "Traceback" not in done.stderr and "BrokenPipeError" not in done.stderr, done.stderr
