"""The solver: its solutions, replayed through the reference's MIS routines, win (not a conformance test)."""

import pytest

from reference_games.freecell import board_adt, card_adt, stack_adt
from reference_games.freecell.deals import deal
from reference_games.freecell.game import Table
from reference_games.freecell.solver import Position, solve

TABLE = Table(card_adt, stack_adt, board_adt)


def replay(position: Position, calls) -> board_adt.BoardT:
    board = TABLE.new_board(position)
    for routine, a, b in calls:
        getattr(board, routine)(a, b)  # a refused move raises, failing the test
    return board


@pytest.mark.parametrize("number", [1, 2, 3, 617])
def test_a_solution_of_a_deal_replayed_through_the_mis_wins(number):
    position = Position(tuple(map(tuple, deal(number))))
    found = solve(position)
    assert found.solved, f"deal {number}: no solution within {found.states} positions"
    assert replay(position, found.calls).hasWon()


@pytest.mark.slow
@pytest.mark.parametrize("number", range(4, 41))
def test_deals_up_to_40_are_solved_and_their_solutions_win(number):
    position = Position(tuple(map(tuple, deal(number))))
    found = solve(position)
    assert found.solved and replay(position, found.calls).hasWon()


@pytest.mark.slow
@pytest.mark.parametrize("number", [178, 286, 479, 963, 972])
def test_the_hardest_deals_of_the_first_thousand_are_solved_and_their_solutions_win(number):
    # Runs of cards moved at once are spelled out as single-card moves; the replay checks each.
    position = Position(tuple(map(tuple, deal(number))))
    found = solve(position)
    assert found.solved and replay(position, found.calls).hasWon()


@pytest.mark.slow
def test_deal_11982_is_reported_unsolvable_after_searching_every_position():
    found = solve(Position(tuple(map(tuple, deal(11982)))), max_states=10**7)
    assert not found.solved and found.exhausted


def test_a_position_one_move_from_the_win_is_solved_from_a_free_cell():
    kings = {"SPADES": 13, "CLUBS": 13, "HEARTS": 13, "DIAMONDS": 12}
    position = Position((() ,) * 8, cells=(None, ("DIAMONDS", 13), None, None),
                        foundations=tuple((s, r) for s, r in kings.items()))  # fmt: skip
    found = solve(position)
    assert found.calls == [("moveFreeToWin", 1, 3)]
    assert replay(position, found.calls).hasWon()


def test_a_position_without_a_legal_move_is_reported_unsolvable_after_searching_it_all():
    # Four kings fill the free cells; every cascade's top card has nowhere to go.
    cascades = [(("SPADES", 1), ("SPADES", 3)), (("CLUBS", 1), ("CLUBS", 3)), (("HEARTS", 1), ("HEARTS", 5)), (("DIAMONDS", 1), ("DIAMONDS", 5))]
    cascades += [(("SPADES", 7),), (("CLUBS", 7),), (("HEARTS", 9),), (("DIAMONDS", 9),)]
    position = Position(tuple(cascades), cells=(("SPADES", 13), ("HEARTS", 13), ("CLUBS", 13), ("DIAMONDS", 13)))
    found = solve(position)
    assert not found.solved and found.exhausted and found.states == 1
