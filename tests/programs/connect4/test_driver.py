"""Scripted games of the reference Connect-4 (adt.connect4) and its text driver (adt.driver).

Games talk through the kit's Input and Display with scripted answers and a captured
transcript. The computer's play is deterministic, so each script below (found by
playing against it) always leads to the same end.
"""

from __future__ import annotations

import io
import random

import pytest

from adt import connect4, driver
from adt import display as display_adt
from adt import game_tree as game_tree_adt
from adt import grid as grid_adt
from adt import input as input_adt
from adt import symbol as symbol_adt
from adt.colour import BLUE, RED, Colour
from adt.dimension import Dimension
from adt.index import Index
from adt.input import EndOfInput
from adt.level_number import LevelNumber
from adt.location import Location

PERSON_WINS = ["4", "y", "1", "1 1", "1 2", "4 4", "4 1", "4 3", "4 2"]
COMPUTER_WINS = ["4", "y", "2", "1 1", "1 2", "1 3", "2 1", "2 2"]
DRAW = ["4", "y", "2", "1 1", "1 2", "1 3", "2 1", "3 4", "2 3", "2 2", "4 2"]
COMPUTER_FIRST_AND_WINS = ["4", "n", "1", "1 2", "1 3", "1 4"]
COMPUTER_FIRST_DRAW = ["4", "n", "1", "1 2", "1 3", "4 4", "1 4", "2 3", "3 1", "3 4", "4 3"]


# Helpers ----------------------------------------------------------------------------


def new_game(answers, out=None):
    """A game made by newConnect4Type from the scripted answers (any unread ones stay queued)."""
    out = io.StringIO() if out is None else out
    return connect4.newConnect4Type(input_adt.newInputType(answers, out), display_adt.newDisplayType(out))


def play(answers):
    """Play a whole game from the answers: (the finished game, the transcript)."""
    out = io.StringIO()
    game = connect4.play(new_game(answers, out))
    return game, out.getvalue()


def session(answers, *argv):
    """Run the driver with the answers and options: (exit status, transcript)."""
    out = io.StringIO()
    status = driver.main(
        list(argv), input=input_adt.newInputType(answers, out), display=display_adt.newDisplayType(out)
    )
    return status, out.getvalue()


def current_grid(game):
    return game_tree_adt.getGrid(connect4.getGameTree(game))


def marks(grid):
    """{(row, column): 'red' or 'blue'} for every occupied square."""
    side = grid_adt.getDimension(grid).number
    found = {}
    for row in range(1, side + 1):
        for column in range(1, side + 1):
            symbol = grid_adt.getSymbol(grid, Location(Index(row), Index(column)))
            if not symbol_adt.isEmpty(symbol):
                found[(row, column)] = symbol_adt.getColour(symbol).name
    return found


def winner(grid):
    symbol = grid_adt.win(grid)
    return None if symbol_adt.isEmpty(symbol) else symbol_adt.getColour(symbol).name


def position(picture, look_ahead, person_first=True):
    """A game at the position drawn (R, B and . by rows), the computer looking so far ahead."""
    rows = [line.split() for line in picture.strip().splitlines()]
    grid = grid_adt.newGridType(Dimension(len(rows)))
    for r, row in enumerate(rows, start=1):
        for c, mark in enumerate(row, start=1):
            if mark != ".":
                colour = Colour(RED if mark == "R" else BLUE)
                grid = grid_adt.occupySquare(grid, Location(Index(r), Index(c)), symbol_adt.newSymbolType(colour))
    game = new_game([str(len(rows)), "y" if person_first else "n", "1"])
    game = connect4.setGameTree(game, game_tree_adt.setGrid(game_tree_adt.newGameTreeType(), grid))
    return connect4.setLevelNumber(game, LevelNumber(look_ahead))


def computer_reply(game):
    """The computer's move from the game's position: (the square, the grid after it)."""
    before = marks(current_grid(game))
    game = connect4.makeComputerMove(game)
    after = marks(current_grid(game))
    added = {square: colour for square, colour in after.items() if square not in before}
    assert len(added) == 1 and all(after[s] == c for s, c in before.items()), "the computer must add exactly one mark"
    ((square, colour),) = added.items()
    return square, colour, current_grid(game)


# Whole games ------------------------------------------------------------------------


@pytest.mark.covers(
    "Connect4Type.play", "Connect4Type.newConnect4Type", "Connect4Type.makeHumanMove", "Connect4Type.makeComputerMove"
)
def test_the_person_wins():
    game, transcript = play(PERSON_WINS)
    assert winner(current_grid(game)) == RED
    assert transcript.rstrip().endswith("You win!")
    assert "The computer plays row" in transcript


@pytest.mark.covers("Connect4Type.play", "Connect4Type.gameOver")
def test_the_computer_wins():
    game, transcript = play(COMPUTER_WINS)
    assert winner(current_grid(game)) == BLUE
    assert transcript.rstrip().endswith("The computer wins.")


@pytest.mark.covers("Connect4Type.play", "GridType.draw")
def test_a_draw():
    game, transcript = play(DRAW)
    grid = current_grid(game)
    assert grid_adt.fullGrid(grid) and winner(grid) is None
    assert transcript.rstrip().endswith("It's a draw.")


@pytest.mark.parametrize(
    "answers, outcome", [(COMPUTER_FIRST_AND_WINS, "The computer wins."), (COMPUTER_FIRST_DRAW, "It's a draw.")]
)
def test_games_the_computer_starts(answers, outcome):
    game, transcript = play(answers)
    first_move = transcript.index("The computer plays")
    assert first_move < transcript.index("Your move"), "the computer, playing red, moves first"
    assert transcript.rstrip().endswith(outcome)
    assert symbol_adt.getColour(grid_adt.getSymbol(current_grid(game), Location(Index(1), Index(2)))).name == BLUE


def test_the_grid_is_shown_before_every_move_and_at_the_end():
    game, transcript = play(PERSON_WINS)
    moves = len(marks(current_grid(game)))
    assert transcript.count("  1 2 3 4\n") == moves + 1


def test_each_computer_move_is_announced_where_it_was_made():
    game = connect4.makeComputerMove(new_game(["4", "n", "2"]))
    (square,) = marks(current_grid(game))
    out = io.StringIO()
    with pytest.raises(EndOfInput):  # the script ends at the person's first move
        connect4.play(new_game(["4", "n", "2"], out))
    assert f"The computer plays row {square[0]}, column {square[1]}." in out.getvalue()


def test_game_tree_stays_rooted_at_level_0_holding_the_current_grid():
    game = new_game(["4", "y", "3", "1 1", "4 4"])
    with pytest.raises(EndOfInput):
        connect4.play(game)  # the reference's updates change the game they are given: it holds the last position
    tree = connect4.getGameTree(game)
    assert game_tree_adt.getLevel(tree).number == 0
    assert len(marks(game_tree_adt.getGrid(tree))) == 4


# Refused answers --------------------------------------------------------------------


def test_refused_setup_answers_are_asked_again_with_the_reason():
    answers = ["abc", "3", "", "10", "4", "maybe", "y", "0", "6", "1"]
    out = io.StringIO()
    game = new_game(answers, out)
    transcript = out.getvalue()
    assert "'abc' is not a whole number." in transcript
    assert "3 is not between 4 and 9." in transcript
    assert "Please type an answer." in transcript
    assert "10 is not between 4 and 9." in transcript
    assert "'maybe' is not an answer" in transcript
    assert "0 is not between 1 and 4." in transcript
    assert "6 is not between 1 and 4." in transcript
    assert grid_adt.getDimension(current_grid(game)).number == 4
    assert connect4.getLevelNumber(game).number == 1
    assert symbol_adt.getColour(connect4.getPlayer1(game).symbol).name == RED


def test_refused_moves_are_asked_again_with_the_reason():
    moves = ["x", "5 5", "1", "", "1 2 3", "1 1", "1 1", "1 2", "4 4", "4 1", "4 3", "4 2"]
    game, transcript = play(PERSON_WINS[:3] + moves)
    assert "'x' is not a square" in transcript
    assert "5 5 is off the board: rows and columns run from 1 to 4." in transcript
    assert "'1' is not a square" in transcript
    assert "Please type an answer." in transcript
    assert "'1 2 3' is not a square" in transcript
    assert "Row 1, column 1 is taken: choose an empty square." in transcript
    assert transcript.rstrip().endswith("You win!")


def test_the_look_ahead_offered_depends_on_the_grid_size():
    out = io.StringIO()
    game = new_game(["8", "y", "4", "3"], out)
    assert "(1 to 3; more is slower)" in out.getvalue()
    assert "4 is not between 1 and 3." in out.getvalue()
    assert connect4.getLevelNumber(game).number == 3


def test_the_end_of_input_mid_game_ends_play():
    with pytest.raises(EndOfInput):
        play(PERSON_WINS[:5])


# The computer's choices -------------------------------------------------------------


@pytest.mark.covers("Connect4Type.makeComputerMove", "GameTreeType.chooseBest", "GameTreeType.findBest")
@pytest.mark.parametrize(
    "picture, winning_square",
    [
        # the computer (blue) completes a row, though red threatens another
        ("B B B .\n. . . .\n. . R .\nR R R .", (1, 4)),
        # a column, though red threatens another
        (". . . .\nR B . .\nR B . .\nR B . R", (1, 2)),
        # a diagonal
        ("B R . R\nR B . .\n. R B .\n. . . .", (4, 4)),
        # the other diagonal, on a 5 x 5 grid
        (". . . . .\n. . . . B\nR R . B .\n. . B . .\n. . R . R", (5, 2)),
    ],
)
@pytest.mark.parametrize("look_ahead", [1, 2, 3, 4])
def test_the_computer_takes_a_win_in_one_move(picture, winning_square, look_ahead):
    """At any look-ahead: the reference values a win more the earlier it comes."""
    if look_ahead > 3 and picture.count("\n") > 3:
        pytest.skip("look-ahead 4 on 5 x 5 is slow; 1 to 3 are checked")
    game = position(picture, look_ahead=look_ahead)
    square, colour, grid = computer_reply(game)
    assert colour == BLUE
    assert square == winning_square
    assert winner(grid) == BLUE


@pytest.mark.covers("Connect4Type.makeComputerMove", "GameTreeType.buildGame", "GameTreeType.chooseBest")
@pytest.mark.parametrize(
    "picture, threatened_square",
    [
        ("R R R .\n. B . .\n. . B .\n. . . .", (1, 4)),
        ("R B . .\nR . . .\nR . B .\n. . . .", (4, 1)),
        ("R . B .\n. R . .\n. B R .\n. . . .", (4, 4)),
        (". . . R .\nB . R . .\n. R . . .\n. . . B .\n. . . . .", (4, 1)),
    ],
)
@pytest.mark.parametrize("look_ahead", [2, 3, 4])
def test_the_computer_blocks_a_loss_in_one_move(picture, threatened_square, look_ahead):
    """At any look-ahead of 2 or more: the reference puts a loss off as long as it can."""
    if look_ahead > 3 and picture.count("\n") > 3:
        pytest.skip("look-ahead 4 on 5 x 5 is slow; 2 and 3 are checked")
    game = position(picture, look_ahead=look_ahead)
    square, colour, grid = computer_reply(game)
    assert colour == BLUE
    assert square == threatened_square
    assert winner(grid) is None


def test_playing_red_the_computer_takes_its_win():
    game = position("R R R .\nB B B .\n. . . .\n. . . .", look_ahead=1, person_first=False)
    square, colour, grid = computer_reply(game)
    assert (square, colour, winner(grid)) == ((1, 4), RED, RED)


@pytest.mark.parametrize("side, look_ahead, seed", [(4, 1, 1), (4, 2, 2), (4, 3, 3), (5, 1, 4), (5, 2, 5), (6, 1, 6)])
def test_the_computer_never_makes_an_illegal_move(side, look_ahead, seed):
    """Random play by the person: every computer move adds one mark of its colour on an empty square."""
    rng = random.Random(seed)
    game = new_game([str(side), rng.choice("yn"), str(look_ahead)])
    computer_colour = symbol_adt.getColour(connect4.getPlayer2(game).symbol).name
    while not connect4.gameOver(game):
        count = len(marks(current_grid(game)))
        red_to_move = count % 2 == 0
        if red_to_move == (computer_colour == RED):
            _, colour, _ = computer_reply(game)
            assert colour == computer_colour
            tree = game_tree_adt.adjustLevel(connect4.getGameTree(game))
            assert game_tree_adt.getLevel(tree).number == 0
            assert game_tree_adt.isEmpty(game_tree_adt.getParent(tree))
            assert game_tree_adt.isEmpty(game_tree_adt.getSibling(tree))
            game = connect4.setGameTree(game, tree)
        else:
            free = [
                (r, c)
                for r in range(1, side + 1)
                for c in range(1, side + 1)
                if (r, c) not in marks(current_grid(game))
            ]
            row, column = rng.choice(free)
            location = Location(Index(row), Index(column))
            assert connect4.movePossible(game, location)
            game = connect4.makeHumanMove(game, location)
            tree = connect4.getGameTree(game)
            if not game_tree_adt.isEmpty(game_tree_adt.getChild(tree)):
                tree = game_tree_adt.adjustLevel(game_tree_adt.findMove(tree, game_tree_adt.getGrid(tree)))
                game = connect4.setGameTree(game, tree)
        assert len(marks(current_grid(game))) == count + 1
    assert grid_adt.gameOver(current_grid(game))


# The text driver --------------------------------------------------------------------


def test_a_session_plays_a_game_then_stops_when_declined():
    status, transcript = session(PERSON_WINS + ["n"])
    assert status == 0
    assert "You win!\nPlay again? (y/n) n\nGoodbye.\n" in transcript


def test_a_session_plays_again_when_asked():
    status, transcript = session(PERSON_WINS + ["yes"] + COMPUTER_WINS + ["no"])
    assert status == 0
    assert transcript.count("How many squares a side") == 2
    assert "You win!" in transcript and "The computer wins." in transcript
    assert transcript.rstrip().endswith("Goodbye.")


def test_options_answer_the_setup_questions():
    status, transcript = session(
        PERSON_WINS[3:] + ["n"], "--size", "4", "--first", "you", "--lookahead", "1", "--seed", "7"
    )
    assert status == 0
    assert "How many squares" not in transcript and "move first?" not in transcript and "look ahead (" not in transcript
    assert "You play red (R) and move first" in transcript
    assert "You win!" in transcript


def test_an_option_answers_its_question_and_the_others_are_still_asked():
    status, transcript = session(["4", "1"] + COMPUTER_FIRST_AND_WINS[3:] + ["n"], "--first", "computer")
    assert status == 0
    assert "How many squares" in transcript and "look ahead (" in transcript and "move first?" not in transcript
    assert "The computer plays red (R) and moves first" in transcript
    assert "The computer wins." in transcript


def test_a_look_ahead_option_too_deep_for_the_size_answered_is_reduced():
    status, transcript = session(["6", "n"], "--lookahead", "4", "--first", "you")
    assert status == 0
    assert "the computer will look 3 ahead." in transcript


def test_the_end_of_input_mid_game_says_goodbye():
    status, transcript = session(PERSON_WINS[:5])
    assert status == 0
    assert transcript.rstrip().endswith("Goodbye.")


def test_ctrl_c_says_goodbye_with_status_130():
    def answers():
        yield from PERSON_WINS[:4]
        raise KeyboardInterrupt

    status, transcript = session(answers())
    assert status == 130
    assert transcript.rstrip().endswith("Goodbye.")


@pytest.mark.parametrize(
    "argv, complaint",
    [
        (["--size", "3"], "3 is not between 4 and 9"),
        (["--size", "ten"], "'ten' is not a whole number"),
        (["--first", "maybe"], "invalid choice: 'maybe'"),
        (["--lookahead", "0"], "0 is not between 1 and 4"),
        (["--size", "6", "--lookahead", "4"], "--lookahead 4 is too slow on a 6 x 6 grid (at most 3)"),
        (["--seed", "x"], "invalid int value: 'x'"),
        (["--colour", "red"], "unrecognized arguments: --colour red"),
    ],
)
def test_bad_options_are_refused_with_a_one_line_error(argv, complaint, capsys):
    with pytest.raises(SystemExit) as stopped:
        driver.main(argv)
    assert stopped.value.code == 2
    error = capsys.readouterr().err.strip().splitlines()[-1]
    assert error.startswith("connect4: error:") and complaint in error


def test_help_describes_every_option(capsys):
    with pytest.raises(SystemExit) as stopped:
        driver.main(["--help"])
    assert stopped.value.code == 0
    text = capsys.readouterr().out
    for option in ("--size", "--first", "--lookahead", "--seed"):
        assert option in text
