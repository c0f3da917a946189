"""What the ``xplus`` program tells a player: what wins, that the computer is thinking, its dictionary, its rule."""

import pytest

from reference_games.xplus.configurations import Configurations
from reference_games.xplus.program import goal, main, play_game


@pytest.mark.parametrize("size", [1, 2])
def test_a_board_too_small_for_any_shape_is_refused(size, capsys):
    with pytest.raises(SystemExit) as stop:
        main([str(size), "5", "2"])
    assert stop.value.code == 2
    assert "the smallest shape needs a 3 x 3 board" in capsys.readouterr().err


def test_a_length_below_the_smallest_shape_is_explained_not_promised():
    assert "of 3 tiles" not in goal(3, 3)
    assert "every shape has at least 5 tiles, so any shape will do" in goal(3, 3)
    assert goal(7, 9) == "Form an X-shape or a +shape of at least 9 tiles to win."


def test_a_length_no_shape_on_the_board_reaches_says_every_game_is_a_draw():
    assert "at most 5 tiles): every game is a draw" in goal(3, 6)


def test_the_computer_says_it_is_thinking_and_stats_show_its_dictionary(capsys):
    plays = iter(["1 1"])

    def ask(prompt):
        try:
            return next(plays)
        except StopIteration:
            raise EOFError from None

    play_game(Configurations(4, 5, 3), 4, 3, ask=ask, stats=True)
    out = capsys.readouterr().out
    assert out.index("The computer is thinking ...") < out.index("The computer plays row")
    line = next(line for line in out.splitlines() if line.startswith("Dictionary: "))
    assert "records in 9,973 slots (load factor" in line and "collisions, longest chain" in line


def test_a_deep_search_on_a_large_board_is_announced_as_slow(capsys, monkeypatch):
    import reference_games.xplus.program as program

    class Stopped(Exception):
        """Raised in place of the game: everything said before the first question has been said."""

    def no_game(*args, **kwargs):
        raise Stopped

    monkeypatch.setattr(program, "play_game", no_game)
    with pytest.raises(Stopped):
        main(["6", "5", "8"])
    assert "a move may take a minute or more" in capsys.readouterr().out


def test_the_help_says_the_first_move_in_the_corner_is_the_assignments_rule(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "its first move is row 0, column 0" in help_text and "not a bug" in help_text
