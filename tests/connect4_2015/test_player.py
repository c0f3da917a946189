"""Player: the report's test tables for the turn states, then the computer's choice.

The computer player's rule "complete a three first" means it never misses a win in one
and always blocks an immediate loss when it has no win: checked on many positions from
play. Anything else it chooses is the team's heuristic (erratum S16), and only has to
be a square where a disc may be placed.
"""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from speckit.testing import covers, expect, expect_equal, frames

from . import paths
from .adapter import Build, Read
from .model import BLUE, OTHER, RED, Model, shown, squares_text
from .strategies import colours, unfinished_games

GRAB, DROP = "WaitingForPieceClick", "WaitingForGridClick"


def player_in(impl, state: str, colour: str, ai: bool = False):
    """A player of ``colour`` brought into ``state`` by the documented methods."""
    space = Build(impl).space(colour)
    player = impl.player.Player(space, ai) if ai else impl.player.Player(space)
    if state == DROP:
        impl.player.waitForPieceDrop(player)
    return player


CLICKS = [(GRAB, RED), (GRAB, BLUE), (DROP, RED), (DROP, BLUE)]


@covers("Player.Player", "Player.canClickRed", "Player.canClickBlue", "Player.canClickGrid", "Player.waitForPieceDrop")
@pytest.mark.parametrize(
    "number, state, colour", [(i + 1, s, c) for i, (s, c) in enumerate(CLICKS)], ids=lambda v: str(v)
)
def test_canClickRed_canClickBlue_canClickGrid_report_tests_1_to_4(impl, number, state, colour):
    player = player_in(impl, state, colour)
    ops = impl.player
    what = f"test {number}: state = Turn.{state}, pieceColour = {colour}"
    expect_equal(ops.canClickRed(player), state == GRAB and colour == RED, f"canClickRed {what}")
    expect_equal(ops.canClickBlue(player), state == GRAB and colour == BLUE, f"canClickBlue {what}")
    expect_equal(ops.canClickGrid(player), state == DROP, f"canClickGrid {what}")


@covers("Player.Player", "Player.isAI", "Player.setAI", "Player.getColour")
@pytest.mark.parametrize("ai", [True, False], ids=["isAI_bb1", "isAI_bb2"])
def test_isAI_report_tests(impl, ai):
    build, read = Build(impl), Read(impl)
    for colour in (RED, BLUE):
        player = impl.player.Player(build.space(colour), ai)
        expect_equal(impl.player.isAI(player), ai, f"isAI: type = PlayerType.{'AI' if ai else 'Human'}")
        expect_equal(read.space(impl.player.getColour(player)), colour, f"getColour of Player(Space.{colour}, {ai})")
    human = impl.player.Player(build.space(RED))
    expect_equal(impl.player.isAI(human), False, "Player(pieceColour) without isAI is a human player")


@covers("Player.setAI", "Player.isAI")
def test_setAI_bb1_makes_a_computer_player_and_false_takes_no_action(impl):
    build = Build(impl)
    player = impl.player.Player(build.space(BLUE))
    impl.player.setAI(player, False)
    expect_equal(
        impl.player.isAI(player), False, "setAI(false) on a human player: no action taken, still human (erratum S14)"
    )
    impl.player.setAI(player, True)
    expect_equal(impl.player.isAI(player), True, "setAI bb1: isAI = True sets the type to PlayerType.AI")
    expect_equal(
        impl.player.canClickBlue(player),
        True,
        "setAI changes nothing but the type: the player still waits to pick up its piece",
    )


@covers("Player.waitForPieceDrop", "Player.waitForPieceGrab", "Player.canClickGrid", "Player.canClickRed")
@pytest.mark.parametrize("start", [DROP, GRAB], ids=["test1_from_grid_click", "test2_from_piece_click"])
@pytest.mark.parametrize("method", ["waitForPieceDrop", "waitForPieceGrab"])
def test_waitForPieceDrop_and_waitForPieceGrab_report_tests(impl, method, start):
    player = player_in(impl, start, RED)
    result = getattr(impl.player, method)(player)
    expect(result is None, f"{method} is void", expected=None, actual=result)
    after = DROP if method == "waitForPieceDrop" else GRAB
    expect_equal(
        impl.player.canClickGrid(player), after == DROP, f"{method} from Turn.{start}: the state is Turn.{after}"
    )
    expect_equal(
        impl.player.canClickRed(player),
        after == GRAB,
        f"{method} from Turn.{start}: a red player may click the red piece exactly when waiting for a piece click",
    )


@covers("Player.getTurn", "Player.setTurn", "Player.getColour")
@given(turns=st.lists(st.integers(0, 42), min_size=1, max_size=5), colour=colours, ai=st.booleans())
def test_the_turn_counter_reads_back_what_was_set_erratum_S14(impl, turns, colour, ai):
    """Only the round trip: the interface gives getTurn no meaning, so a new player's counter is free (erratum S14)."""
    build, read = Build(impl), Read(impl)
    player = impl.player.Player(build.space(colour), ai)
    for turn in turns:
        impl.player.setTurn(player, turn)
        expect_equal(impl.player.getTurn(player), turn, f"getTurn after setTurn({turn})")
    expect_equal(read.space(impl.player.getColour(player)), colour, "setTurn changes nothing else: getColour")
    expect_equal(impl.player.isAI(player), ai, "setTurn changes nothing else: isAI")


@covers(
    "Player.waitForPieceDrop",
    "Player.waitForPieceGrab",
    "Player.canClickRed",
    "Player.canClickBlue",
    "Player.canClickGrid",
    "Player.setAI",
)
@given(colour=colours, steps=st.lists(st.sampled_from(["waitForPieceDrop", "waitForPieceGrab", "setAI"]), max_size=8))
def test_the_state_follows_the_last_wait_call(impl, colour, steps):
    build = Build(impl)
    player = impl.player.Player(build.space(colour))
    state = GRAB
    for step in steps:
        if step == "setAI":
            impl.player.setAI(player, True)
        else:
            getattr(impl.player, step)(player)
            state = DROP if step == "waitForPieceDrop" else GRAB
        after = f"after {steps[: steps.index(step) + 1]}"
        expect_equal(impl.player.canClickGrid(player), state == DROP, f"canClickGrid {after}")
        expect_equal(impl.player.canClickRed(player), state == GRAB and colour == RED, f"canClickRed {after}")
        expect_equal(impl.player.canClickBlue(player), state == GRAB and colour == BLUE, f"canClickBlue {after}")


# Players reached by every path, and the frame rule ------------------------------------------------


@covers(
    "Player.Player",
    "Player.setTurn",
    "Player.setAI",
    "Player.waitForPieceDrop",
    "Player.waitForPieceGrab",
    "Player.canClickRed",
    "Player.canClickBlue",
    "Player.canClickGrid",
    "Player.isAI",
    "Player.getColour",
    "Player.getTurn",
)
@given(path=paths.player_paths)
def test_a_player_reached_by_any_path_answers_by_its_model(impl, path):
    verdict = paths.holding(impl, "player", paths.make(impl, path), path.model)
    expect(verdict, f"{path!r} is {path.model}", expected=str(path.model), actual=verdict)


@covers("Player.setTurn", "Player.getTurn")
@given(case=paths.frame_cases("Player.setTurn"))
def test_setTurn_changes_the_counter_only_the_frame_rule_erratum_S14(impl, case):
    paths.check_frame_case(impl, case)


@covers("Player.setAI", "Player.isAI")
@given(case=paths.frame_cases("Player.setAI"))
def test_setAI_changes_the_type_only_the_frame_rule(impl, case):
    paths.check_frame_case(impl, case)


@covers("Player.waitForPieceDrop", "Player.canClickGrid")
@given(case=paths.frame_cases("Player.waitForPieceDrop"))
def test_waitForPieceDrop_changes_the_state_only_the_frame_rule(impl, case):
    paths.check_frame_case(impl, case)


@covers("Player.waitForPieceGrab", "Player.canClickGrid")
@given(case=paths.frame_cases("Player.waitForPieceGrab"))
def test_waitForPieceGrab_changes_the_state_only_the_frame_rule(impl, case):
    paths.check_frame_case(impl, case)


# The computer's choice -----------------------------------------------------------------------------


def ai_move(impl, model: Model, colour: str, claim: str, player_path=None):
    """aiTurn of a new computer player of ``colour`` (or of the player ``player_path`` makes) on a grid of ``model``."""
    build, read = Build(impl), Read(impl)
    grid = build.grid(model)
    new = player_path is None
    player = impl.player.Player(build.space(colour), True) if new else paths.make(impl, player_path)
    square = read.pair(impl.player.aiTurn(player, grid), f"aiTurn {claim}")
    expect(
        model.valid(*square),
        f"aiTurn {claim} returns a square where a disc may be placed now{shown(model)}",
        expected="a valid spot",
        actual=square,
    )
    got = read.grid(grid)
    expect(
        got == model,
        f"aiTurn {claim} leaves the grid as it was: the controller places the disc",
        expected=shown(model),
        actual=shown(got),
    )
    return square


@covers("Player.aiTurn")
@given(game=unfinished_games)
def test_aiTurn_returns_a_valid_spot_and_wins_or_blocks_first(impl, game):
    model, _, to_move = game
    square = ai_move(impl, model, to_move, f"for {to_move} to move")
    wins, losses = model.threats(to_move), model.threats(OTHER[to_move])
    if wins:
        expect(
            square in wins,
            f"aiTurn completes its own three first: {to_move} wins at once{shown(model)}",
            expected=squares_text(wins),
            actual=square,
        )
    elif losses:
        expect(
            square in losses,
            f"aiTurn with no win blocks the opponent's four{shown(model)}",
            expected=squares_text(losses),
            actual=square,
        )


@covers("Player.aiTurn", "Player.setTurn", "Player.setAI", "Player.waitForPieceDrop", "Player.waitForPieceGrab")
@given(game=unfinished_games.filter(lambda g: g[0].threats(g[2]) or g[0].threats(OTHER[g[2]])), rnd=frames.RANDOM)
def test_aiTurn_of_a_computer_player_reached_by_any_path_wins_or_blocks_first(impl, game, rnd):
    """Whatever its counter and turn state, and whichever way it became a computer player."""
    model, _, to_move = game
    player = paths.players(rnd, to_move, computer=True)
    square = ai_move(impl, model, to_move, f"of {player!r}, {to_move} to move", player)
    expected = model.threats(to_move) or model.threats(OTHER[to_move])
    expect(
        square in expected,
        f"aiTurn of {player!r} takes a win in one, else blocks an immediate loss{shown(model)}",
        expected=squares_text(expected),
        actual=square,
    )


@covers("Player.aiTurn")
@given(game=unfinished_games.filter(lambda g: g[0].threats(g[2]) or g[0].threats(OTHER[g[2]])))
def test_aiTurn_never_misses_a_win_in_one_nor_a_block(impl, game):
    model, _, to_move = game
    square = ai_move(impl, model, to_move, f"for {to_move} to move")
    wins, losses = model.threats(to_move), model.threats(OTHER[to_move])
    expected = wins or losses
    expect(
        square in expected,
        f"aiTurn takes a win in one, else blocks an immediate loss{shown(model)}",
        expected=squares_text(expected),
        actual=square,
    )


@covers("Player.aiTurn")
def test_aiTurn_on_the_empty_grid_and_the_report_openings(impl):
    ai_move(impl, Model(), RED, "on the empty grid")
    ai_move(impl, Model({(3, 0): BLUE}), RED, "after the player took (3, 0)")


@covers("Player.aiTurn")
@given(game=unfinished_games)
def test_aiTurn_asked_again_about_the_same_grid_still_answers_by_the_rules(impl, game):
    """aiTurn is a query: the controller may ask again before any disc is placed (nothing new from the opponent)."""
    model, _, to_move = game
    build, read = Build(impl), Read(impl)
    grid = build.grid(model)
    player = impl.player.Player(build.space(to_move), True)
    wins, losses = model.threats(to_move), model.threats(OTHER[to_move])
    for asked in range(1, 4):
        square = read.pair(impl.player.aiTurn(player, grid), f"aiTurn asked {asked} times")
        expect(
            model.valid(*square),
            f"aiTurn asked {asked} times about the same grid returns a square where a disc may be placed{shown(model)}",
            expected="a valid spot",
            actual=square,
        )
        if wins or losses:
            expect(
                square in (wins or losses),
                f"aiTurn asked {asked} times takes a win in one, else blocks{shown(model)}",
                expected=squares_text(wins or losses),
                actual=square,
            )
    got = read.grid(grid)
    expect(
        got == model,
        "aiTurn leaves the grid as it was: the controller places the disc",
        expected=shown(model),
        actual=shown(got),
    )


@covers("Player.aiTurn")
@pytest.mark.parametrize("taken", [(4, 0), (2, 0)], ids=["right_of_3_0_taken", "left_of_3_0_taken"])
def test_aiTurn_opening_beside_a_taken_square_stays_valid(impl, taken):
    """The opponent holds (3, 0) and one square beside it: the opening's random side may be taken (precondition allows
    it)."""
    model = Model({(3, 0): BLUE, taken: BLUE})
    for _ in range(16):  # fresh players: both random sides are drawn
        ai_move(impl, model, RED, f"after the opponent took (3, 0) and {taken}")
