"""The solver: its solutions, replayed through the reference's MIS routines, win (not a conformance test)."""

import random

import pytest

from reference_games.freecell import board_adt, card_adt, solver_model, stack_adt
from reference_games.freecell.deals import deal
from reference_games.freecell.exceptions import FreecellError
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
@pytest.mark.parametrize("number", [285, 392, 657, 672, 679, 771, 821, 851, 917])
def test_the_deals_the_single_estimate_solver_lost_are_solved_and_their_solutions_win(number):
    # Each stalled one greedy estimate within 100,000 positions; the later estimates win them.
    position = Position(tuple(map(tuple, deal(number))))
    found = solve(position)
    assert found.solved and replay(position, found.calls).hasWon()


ROUTINES = [
    ("moveColToCol", 8, 8),
    ("moveColToFree", 8, 4),
    ("moveFreeToCol", 4, 8),
    ("moveColToWin", 8, 4),
    ("moveFreeToWin", 4, 4),
]


def legal_moves(position: Position):
    """Every single-card MIS call the reference accepts on ``position``, with the position after it."""
    for routine, sources, targets in ROUTINES:
        for a in range(sources):
            for b in range(targets):
                board = TABLE.new_board(position)
                try:
                    getattr(board, routine)(a, b)
                except FreecellError:
                    continue
                yield (routine, a, b), TABLE.read(board)


def model_state(position: Position):
    cascades = [[solver_model.code(*c) for c in cascade] for cascade in position.cascades]
    cells = [solver_model.code(*c) for c in position.cells if c]
    home = [0] * 4
    for top in position.foundations:
        if top:
            home[solver_model.SUITS.index(top[0])] = top[1]
    solver_model.settle(cascades, cells, home)
    return solver_model.state(cascades, cells, home)


@pytest.mark.parametrize("seed", [0] + [pytest.param(seed, marks=pytest.mark.slow) for seed in range(1, 6)])
def test_every_legal_single_card_move_leads_to_a_state_the_search_generates(seed):
    # The proof that a deal has no solution rests on this: the search misses no move.
    rng = random.Random(seed)
    position = Position(tuple(map(tuple, deal(rng.randint(1, 32000)))))
    for _ in range(40):
        start = model_state(position)
        reached = {after for _, after in solver_model.successors(start)}
        moves = list(legal_moves(position))
        if not moves:
            break
        for call, after in moves:
            state = model_state(after)
            assert state in reached or state == start, f"{call} from {position} is not searched"
        position = rng.choice(moves)[1]


@pytest.mark.slow
def test_deal_11982_is_reported_unsolvable_after_searching_every_position():
    found = solve(Position(tuple(map(tuple, deal(11982)))), max_states=10**7)
    assert not found.solved and found.exhausted


def test_a_position_one_move_from_the_win_is_solved_from_a_free_cell():
    kings = {"SPADES": 13, "CLUBS": 13, "HEARTS": 13, "DIAMONDS": 12}
    position = Position(
        ((),) * 8, cells=(None, ("DIAMONDS", 13), None, None), foundations=tuple((s, r) for s, r in kings.items())
    )
    found = solve(position)
    assert found.calls == [("moveFreeToWin", 1, 3)]
    assert replay(position, found.calls).hasWon()


def test_a_position_without_a_legal_move_is_reported_unsolvable_after_searching_it_all():
    # Four kings fill the free cells; every cascade's top card has nowhere to go.
    cascades = [
        (("SPADES", 1), ("SPADES", 3)),
        (("CLUBS", 1), ("CLUBS", 3)),
        (("HEARTS", 1), ("HEARTS", 5)),
        (("DIAMONDS", 1), ("DIAMONDS", 5)),
    ]
    cascades += [(("SPADES", 7),), (("CLUBS", 7),), (("HEARTS", 9),), (("DIAMONDS", 9),)]
    position = Position(tuple(cascades), cells=(("SPADES", 13), ("HEARTS", 13), ("CLUBS", 13), ("DIAMONDS", 13)))
    found = solve(position)
    assert not found.solved and found.exhausted and found.states == 1
