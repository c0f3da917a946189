"""The console game ``freecell``, end to end on scripted input (not a conformance test)."""

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from reference_games.freecell import game
from reference_games.freecell.deals import deal
from reference_games.freecell.notation import from_routine
from reference_games.freecell.solver import Position, solve
from tests.support.programs import environment, run_module

ROOT = Path(__file__).resolve().parents[3]
ALTERNATIVE = ROOT / "tests" / "fixtures" / "alt_freecell"


def play(argv, lines):
    """Run the game on scripted lines; its exit status and everything it printed."""
    script = iter(lines)

    def read(prompt):
        out.write(prompt)
        try:
            return next(script)
        except StopIteration:
            raise EOFError from None

    out = io.StringIO()
    status = game.main(argv, read=read, out=out)
    return status, out.getvalue()


def test_deal_617_is_shown_in_the_standard_layout():
    status, text = play(["--deal", "617", "--ascii"], [])
    assert status == 0
    assert "Freecell, deal #617" in text
    assert " 7D  AD  5C  3S  5S  8C  2D  AH" in text
    assert " JD  KS  KC  4H" in text
    assert text.rstrip().endswith("Goodbye.")


def test_a_move_is_made_and_undone():
    status, text = play(["--deal", "617", "--ascii"], ["1a", "u", "u"])
    boards = text.split("move>")
    assert "Moved: 1a" in text and " JD  --  --  --" in boards[1]
    assert "Undone." in text and "Nothing to undo." in text
    assert " --  --  --  --" in boards[2]


def test_illegal_moves_are_refused_with_the_mis_reason_in_words():
    status, text = play(["--deal", "617"], ["12", "1a", "1a", "ba", "bh", "a7", "x7", "aa"])
    assert "Illegal move: not descending rank: J♦ cannot go on K♠." in text
    assert "Illegal move: occupied cell: free cell a already holds J♦." in text
    assert "Illegal move: unoccupied cell: free cell b is empty." in text
    assert "Illegal move: not alternating colour: J♦ cannot go on J♥." in text
    assert "'x' in 'x7' is not a place" in text
    assert "cannot move from one free cell to another" in text


def test_a_card_that_cannot_start_a_foundation_is_refused_in_words():
    status, text = play(["--deal", "617"], ["4h"])
    assert "Illegal move: not ascending rank: only an ace can start a foundation, not 4♥." in text


def test_a_solution_typed_in_wins_and_safe_cards_go_home_automatically():
    calls = solve(Position(tuple(map(tuple, deal(1))))).calls
    moves = [str(from_routine(*c)) for c in calls]
    status, text = play(["--deal", "1", "--no-auto"], moves)
    assert "You won deal #1!" in text
    status, text = play(["--deal", "1"], [m for m in moves if not m.endswith("h")][:5])
    assert "(auto)" in text


def test_a_hint_is_a_move_of_a_solution():
    status, text = play(["--deal", "1"], ["?"])
    assert "Thinking ..." in text
    hint = text.split("Hint: try ")[1].split()[0]
    assert len(hint) == 2


def follow_hints(argv: list[str], moves: int = 400) -> str:
    """Play a game answering every prompt with the last hint's move (asking for one first); all it printed."""
    out = io.StringIO()
    asked = [False]

    def read(prompt):
        out.write(prompt)
        if len(out.getvalue().split("\nmove> ")) > 2 * moves:
            raise EOFError
        asked[0] = not asked[0]
        if asked[0]:
            return "?"
        last = out.getvalue().rsplit("Hint: ", 1)[1].split("\n")[0]
        return last.removeprefix("try ") if last.startswith("try ") else "q"

    game.main(argv, read=read, out=out)
    return out.getvalue()


def test_following_the_hints_wins_a_deal_where_greedy_hints_went_back_and_forth():
    # Deal 7 once ended in "try 3a", "try a3", ... for ever: each hint came from a new search.
    text = follow_hints(["--deal", "7", "--ascii"])
    assert "You won deal #7!" in text


@pytest.mark.slow
@pytest.mark.parametrize("number", range(1, 101))
def test_following_the_hints_wins_every_solvable_deal_from_1_to_100(number):
    assert f"You won deal #{number}!" in follow_hints(["--deal", str(number), "--ascii"])


def solution(argv: list[str]) -> list[str]:
    """The moves ``--solve`` prints."""
    out = io.StringIO()
    assert game.main([*argv, "--solve"], out=out) == 0
    text = out.getvalue()
    assert text.startswith(f"Deal #{argv[1]}\nSolution in ")
    return " ".join(text.splitlines()[2:]).split()


def test_solve_prints_a_solution_that_wins_typed_into_the_default_game():
    moves = solution(["--deal", "1"])
    assert sum(m.endswith("h") for m in moves) < 52  # the game makes the safe moves home by itself
    status, played = play(["--deal", "1"], moves)
    assert "Illegal move" not in played and "You won deal #1!" in played


def test_solve_no_auto_prints_every_move_home_and_wins_typed_into_a_no_auto_game():
    moves = solution(["--deal", "1", "--no-auto"])
    assert sum(m.endswith("h") for m in moves) == 52
    status, played = play(["--deal", "1", "--no-auto"], moves)
    assert "Illegal move" not in played and "You won deal #1!" in played


@pytest.mark.slow
@pytest.mark.parametrize("number", range(1, 51))
def test_every_printed_solution_of_deals_1_to_50_wins_typed_into_the_default_game(number):
    status, played = play(["--deal", str(number)], solution(["--deal", str(number)]))
    assert "Illegal move" not in played and f"You won deal #{number}!" in played


def test_solve_with_impl_plays_the_solution_on_the_package():
    out = io.StringIO()
    assert game.main(["--deal", "1", "--solve", "--impl", str(ALTERNATIVE)], out=out) == 0
    assert f"Played on {ALTERNATIVE}: the solution wins." in out.getvalue()


@pytest.mark.slow
def test_a_hint_on_a_deal_proven_unsolvable_says_no_solution_exists():
    status, text = play(["--deal", "11982"], ["?"])
    assert "Hint: no solution exists from here" in text


def test_ctrl_c_while_solving_leaves_with_status_130_and_no_traceback(monkeypatch):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(game.guide.solver, "solve", interrupted)
    out = io.StringIO()
    assert game.main(["--deal", "1", "--solve"], out=out) == 130
    assert "Interrupted" in out.getvalue()


def test_a_solution_piped_into_head_ends_without_a_traceback():
    env = {**os.environ, "NO_COLOR": "1"}
    pipeline = f"{sys.executable} -m reference_games.freecell.game --deal 1 --solve --no-auto | head -n 1"
    done = subprocess.run(["bash", "-c", pipeline], capture_output=True, text=True, cwd=ROOT, env=env, timeout=120)
    assert done.stdout == "Deal #1\n"
    assert "Traceback" not in done.stderr and "BrokenPipe" not in done.stderr


def test_the_game_plays_on_another_implementation_through_its_mis_routines():
    status, text = play(["--deal", "617", "--impl", str(ALTERNATIVE), "--ascii"], ["1a", "12", "u"])
    assert status == 0
    assert "Moved: 1a" in text and " JD  --  --  --" in text
    # The alternative checks the rank before the colour (erratum F25): its reason is the rank.
    assert "Illegal move: not descending rank: 4S cannot go on KS." in text
    assert "Undone." in text


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--deal", "0"], "deals go from 1 to 1,000,000"),
        (["--deal", "x"], "invalid int value"),
        (["--impl", "/no/such/folder"], "cannot play on /no/such/folder"),
    ],
)
def test_bad_arguments_get_a_clear_message(argv, message, capsys):
    with pytest.raises(SystemExit) as exit:
        play(argv, [])
    assert message in capsys.readouterr().err + str(exit.value.code)


def test_the_console_script_leaves_cleanly_at_end_of_input():
    done = run_module(
        "reference_games.freecell.game", "--deal", "617", answers=["1a"], env=environment(NO_COLOR="1"), timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.rstrip().endswith("Goodbye.") and "Traceback" not in done.stderr
