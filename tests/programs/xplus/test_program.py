"""The program ``xplus SIZE LENGTH MAX_LEVELS``, played end to end on a terminal (pexpect).

These check the kit's program on the reference (or, with --impl, on its own
Configurations through ``--impl``), not a student's operations; the rubric does not
run them.
"""

from pathlib import Path

import pexpect
import pytest

from reference_games.xplus.program import main
from speckit.paths import REPO_ROOT
from tests.support.programs import spawn_module

ALT_XPLUS = Path(__file__).resolve().parents[2] / "fixtures" / "alt_xplus"


def spawn(*args: str, cwd: Path = REPO_ROOT) -> pexpect.spawn:
    return spawn_module("reference_games.xplus.program", *args, cwd=cwd)


def test_a_game_on_4x4_shows_coordinates_validates_plays_and_announces_moves():
    game = spawn("4", "3", "2")
    game.expect(r"0   1   2   3")
    game.expect(r"Your play")
    game.sendline("nonsense")
    game.expect("two whole numbers")
    game.sendline("7 7")
    game.expect(r"no square \(7, 7\)")
    game.sendline("1 1")
    game.expect(r"You play row 1, column 1\.")
    game.expect(r"The computer plays row (\d), column (\d)\.")
    taken = f"{game.match.group(1)} {game.match.group(2)}"
    game.expect("Your play")
    game.sendline(taken)
    game.expect("is taken")
    game.sendeof()
    game.expect("Goodbye")
    game.expect(pexpect.EOF)


def test_a_game_played_to_its_end_announces_the_result_the_board_shows(capsys):
    """Every free square is offered in turn (taken ones are refused and asked again) until the game ends."""
    from reference_games.xplus.configurations import Configurations
    from reference_games.xplus.program import RESULTS, outcome, play_game

    plays = iter([f"{r} {c}" for r in range(3) for c in range(3)] * 2)
    board = Configurations(3, 5, 2)
    result = play_game(board, 3, 2, ask=lambda prompt: next(plays))
    out = capsys.readouterr().out
    assert result is not None and result == outcome(board)
    assert out.rstrip().endswith(RESULTS[result])
    assert out.count("The computer plays row") >= 1


@pytest.mark.parametrize(
    "args, message",
    [
        (["0", "3", "2"], "SIZE must be"),
        (["4", "0", "2"], "LENGTH must be"),
        (["4", "3", "0"], "MAX_LEVELS must be"),
        (["x", "3", "2"], "invalid int value"),
    ],
)
def test_bad_arguments_get_a_one_line_message(args, message, capsys):
    with pytest.raises(SystemExit) as stop:
        main(args)
    assert stop.value.code == 2
    assert message in capsys.readouterr().err


def test_impl_plays_on_another_package_and_refuses_a_bad_path(capsys, tmp_path):
    """Run from a scratch folder: the package's path is found from this file, not the working folder."""
    game = spawn("3", "3", "1", "--impl", str(ALT_XPLUS), cwd=tmp_path)
    game.expect("Your play")
    game.sendline("1 1")
    game.expect(r"The computer plays row \d, column \d\.")
    game.sendeof()
    game.expect(pexpect.EOF)
    with pytest.raises(SystemExit) as stop:
        main(["3", "3", "1", "--impl", str(tmp_path / "nowhere")])
    assert "xplus:" in str(stop.value.code)


def test_a_package_not_written_yet_is_refused_naming_its_first_operation(tmp_path, capsys):
    from speckit.cli import main as speckit

    assert speckit(["skeleton", "--spec", "xplus", str(tmp_path / "fresh")]) == 0
    capsys.readouterr()
    with pytest.raises(SystemExit) as stop:
        main(["3", "3", "1", "--impl", str(tmp_path / "fresh")])
    message = str(stop.value.code)
    assert message.startswith(f"xplus: cannot play on {tmp_path / 'fresh'}: ") and "is not implemented yet" in message
    assert "speckit check --spec xplus" in message
