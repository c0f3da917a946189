"""GameLogic: the report's test tables, then every method against the model.

Every method is called on a grid built through Grid's documented operations; after
each call the grid must read back unchanged (no GameLogic method changes the grid it is
given). unsupportedConnectThree, an update of its list, is checked by the frame rule of
:mod:`.paths` on grids from every path.
"""

import pytest
from hypothesis import assume, example, given
from hypothesis import strategies as st

from speckit.testing import SuiteFailure, covers, expect, expect_equal, frames

from . import paths
from .adapter import Build, Read
from .model import (
    BLUE,
    EMPTY,
    HEIGHT,
    OTHER,
    RED,
    SQUARES,
    WIDTH,
    Model,
    all_of,
    grid_of,
    no_four_full_grid,
    shown,
    squares_text,
)
from .strategies import colours, free_grids, grids, played_grids, sparse_free_grids, unfinished_games

RISING = grid_of((3, 3), (4, 2), (5, 1), (6, 0))  # the report's downward-to-the-right four
SUPPORT = {(x, y): (BLUE if (x + y) % 2 == 0 else RED) for x in range(WIDTH) for y in range(3)}


def unchanged(impl, grid, model, call):
    got = Read(impl).grid(grid)
    expect(got == model, f"{call} leaves the grid as it was (the frame rule)", expected=shown(model), actual=shown(got))


# isWin -----------------------------------------------------------------------------------------


def full_grid_won_at_the_bottom() -> Model:
    model = no_four_full_grid()
    model.put(2, 0, RED)
    model.put(3, 0, RED)
    return model


IS_WIN = {
    "bb1": (RISING, (5, 1), {"Win"}, "isConnect4 = True"),
    "bb2": (no_four_full_grid(), (5, 1), {"Draw"}, "isConnect4 = False and isFull = True"),
    "bb1_full": (full_grid_won_at_the_bottom(), (0, 0), {"Win"}, "isConnect4 = True on a full grid: Win comes first"),
    "bb3": (grid_of((0, 0), (1, 0)), (1, 0), {"Ongoing"}, "isConnect4 = False and isFull = False"),
    "wb1": (RISING, (5, 1), {"Win"}, "(3,3), (4,2), (5,1), (6,0) Red; (Grid, 5, 1)"),
    "wb2": (
        all_of(RED),
        (5, 1),
        {"Win", "Draw"},
        "all Red; (Grid, 5, 1): Win by the decision table, Draw as the report recorded (erratum S09)",
    ),
    "wb3": (RISING, (0, 0), {"Ongoing"}, "(3,3), (4,2), (5,1), (6,0) Red; (Grid, 0, 0)"),
}


@covers("GameLogic.GameLogic", "GameLogic.isWin")
@pytest.mark.parametrize("test", IS_WIN, ids=lambda t: f"isWin_{t}")
def test_isWin_report_tests(impl, test):
    model, (x, y), allowed, what = IS_WIN[test]
    build, read = Build(impl), Read(impl)
    grid = build.grid(model)
    state = read.state(impl.game_logic.isWin(build.logic(), grid, x, y))
    expect(
        state in allowed,
        f"isWin(grid, {x}, {y}) {test}: {what}{shown(model)}",
        expected=" or ".join(sorted(allowed)),
        actual=state,
    )
    unchanged(impl, grid, model, f"isWin(grid, {x}, {y})")


IS_CONNECT4 = {
    "wb1": (grid_of((1, 0), (2, 0), (3, 0), (4, 0)), (2, 0), True, "horizontal connect four"),
    "wb2": (grid_of((1, 0), (2, 0), (3, 0), (4, 0)), (0, 0), False, "empty space"),
    "wb3": (grid_of((0, 0), (1, 1), (2, 2), (3, 3)), (2, 2), True, "upward-to-the-right diagonal"),
    "wb4": (RISING, (5, 1), True, "downward-to-the-right diagonal"),
    "wb5": (grid_of((0, 0), (0, 1), (0, 2), (0, 3)), (0, 2), True, "vertical connect four"),
}


@covers("GameLogic.isConnect4")
@pytest.mark.parametrize("test", IS_CONNECT4, ids=lambda t: f"isConnect4_{t}")
def test_isConnect4_report_tests(impl, test):
    model, (x, y), expected, what = IS_CONNECT4[test]
    build = Build(impl)
    grid = build.grid(model)
    expect_equal(
        impl.game_logic.isConnect4(build.logic(), grid, x, y),
        expected,
        f"isConnect4(grid, {x}, {y}) {test}: {what}{shown(model)}",
    )


def _diagonal(length: int) -> Model:
    """Red on the rising diagonal from (0, 0), each red disc supported by blue ones."""
    model = Model()
    for k in range(length):
        for below in range(k):
            model.put(k, below, BLUE if (k + below) % 2 else OTHER[RED] if below % 3 else BLUE)
        model.put(k, k, RED)
    if length < 4:  # support the square that would complete the three, so it is a threat
        for below in range(length):
            model.put(length, below, BLUE if below % 2 == 0 else RED)
    return model


# isConnect4's black-box tests run in free play: a line (or a three) ends free play invalidly.
FREE_PLAY_LINES = {
    "bb1": (grid_of(*[(0, y) for y in range(4)]), "vertical connect four, reds at the bottom"),
    "bb2": (grid_of(*[(x, 0) for x in range(4)], colour=BLUE), "horizontal connect four, blues at the bottom"),
    "bb3": (_diagonal(4), "diagonal connect four, reds from the bottom"),
    "bb4": (grid_of(*[(0, y) for y in range(5)]), "vertical connection of five"),
    "bb5": (grid_of(*[(x, 0) for x in range(5)]), "horizontal connection of five"),
    "bb6": (_diagonal(5), "diagonal connection of five"),
    "bb7": (grid_of(*[(0, y) for y in range(3)]), "vertical connection of three"),
    "bb8": (grid_of(*[(x, 0) for x in range(3)]), "horizontal connection of three"),
    "bb9": (_diagonal(3), "diagonal connection of three"),
}


@covers("GameLogic.isConnect4", "GameLogic.endFreePlay")
@pytest.mark.parametrize("test", FREE_PLAY_LINES, ids=lambda t: f"isConnect4_{t}")
def test_isConnect4_black_box_tests_end_free_play_invalid(impl, test):
    model, what = FREE_PLAY_LINES[test]
    build, read = Build(impl), Read(impl)
    found = read.pairs(impl.game_logic.endFreePlay(build.logic(), build.grid(model)), "endFreePlay")
    required, optional = model.free_play_errors()
    expect(
        bool(found),
        f"{test}: {what} in free play is invalid: endFreePlay reports errors{shown(model)}",
        expected=squares_text(required),
        actual="[]",
    )
    expect(
        required <= found <= required | optional,
        f"{test}: endFreePlay reports the line's squares or the square completing it{shown(model)}",
        expected=squares_text(required),
        actual=squares_text(found),
    )


# endFreePlay -------------------------------------------------------------------------------------

END_FREE = {
    "bb1": (
        Model({(0, 0): RED, (1, 0): RED, (2, 0): BLUE, (3, 0): BLUE}),
        "valid",
        "two red and two blue on the bottom",
    ),
    "bb2": (Model({(0, 0): RED, (1, 0): RED, (2, 0): BLUE}), "valid", "two red and one blue on the bottom"),
    "bb3": (Model({(0, 1): BLUE}), {(0, 1)}, "one blue at (0, 1): unsupported, so invalid (erratum S17)"),
    "bb5": (grid_of((0, 0), (1, 0), (2, 0)), "invalid", "three red on the bottom, no blue"),
    "bb6": (
        Model({**{(x, 0): BLUE for x in range(4)}, **{(x, 1): RED for x in range(3)}}),
        "invalid",
        "four blue on the bottom, three red on them",
    ),
    "wb1": (Model(), set(), "all Empty: no errors"),
    "wb2": (
        grid_of((0, 0), (0, 1), (0, 2), (0, 3)),
        {(0, 0), (0, 1), (0, 2), (0, 3)},
        "a vertical four: its squares, with or without (0, 4) completing it (erratum S07)",
    ),
    "wb3": (
        grid_of((0, 0), (0, 1), (0, 2)),
        {(0, 3)},
        "a vertical three: the square completing it, with or without the three (erratum S08)",
    ),
    "wb4": (grid_of((0, 5)), {(0, 5)}, "an unsupported disc"),
    "wb5": (grid_of((0, 0), (0, 1), (1, 0), (1, 1)), set(), "a red square block: balance is not checked here"),
    "wb6": (grid_of((1, 0), (2, 0), (3, 0)), {(0, 0), (4, 0)}, "a horizontal three: the squares completing it"),
    "wb7": (
        grid_of((1, 0), (2, 0), (3, 0), (4, 0)),
        {(1, 0), (2, 0), (3, 0), (4, 0)},
        "a horizontal four: its squares, with or without (0, 0) and (5, 0) (erratum S07)",
    ),
}


@covers("GameLogic.endFreePlay")
@pytest.mark.parametrize("test", END_FREE, ids=lambda t: f"endFreePlay_{t}")
def test_endFreePlay_report_tests(impl, test):
    model, expected, what = END_FREE[test]
    build, read = Build(impl), Read(impl)
    grid = build.grid(model)
    found = read.pairs(impl.game_logic.endFreePlay(build.logic(), grid), "endFreePlay")
    claim = f"endFreePlay {test}: {what}{shown(model)}"
    if expected == "valid":
        expect(not found, claim, expected="[] (valid)", actual=squares_text(found))
    elif expected == "invalid":
        expect(bool(found), claim, expected="errors (invalid)", actual="[]")
    else:
        _, optional = model.free_play_errors()
        expect(
            expected <= found <= expected | optional, claim, expected=squares_text(expected), actual=squares_text(found)
        )
    unchanged(impl, grid, model, "endFreePlay(grid)")


@covers("GameLogic.endFreePlay")
@given(model=st.one_of(sparse_free_grids, free_grids, played_grids))
def test_endFreePlay_reports_exactly_the_errors_of_the_model(impl, model):
    build, read = Build(impl), Read(impl)
    grid = build.grid(model)
    found = read.pairs(impl.game_logic.endFreePlay(build.logic(), grid), "endFreePlay")
    required, optional = model.free_play_errors()
    expect(
        required <= found,
        "endFreePlay reports every error: lines of four, else unsupported discs and squares completing "
        f"four{shown(model)}",
        expected=squares_text(required),
        actual=squares_text(found),
    )
    expect(
        found <= required | optional,
        f"endFreePlay reports nothing else (errata S07, S08){shown(model)}",
        expected=squares_text(required),
        actual=squares_text(found),
    )
    unchanged(impl, grid, model, "endFreePlay(grid)")


# endRegularPlay ---------------------------------------------------------------------------------

END_REGULAR = {
    "bb1": (
        grid_of((2, 0), (3, 0), (4, 0), (5, 0)),
        {(2, 0), (3, 0), (4, 0), (5, 0)},
        "isConnect4 == True: the winning four",
    ),
    "bb2": (grid_of((2, 0), (3, 0), (4, 0)), set(), "isConnect4 == False: none"),
    "wb1": (Model(), set(), "all Empty"),
    "wb2": (grid_of((0, 0), (0, 1), (0, 2), (0, 3)), {(0, 0), (0, 1), (0, 2), (0, 3)}, "a vertical four"),
    "wb3": (all_of(RED), set(SQUARES), "all Red: every square"),
}


@covers("GameLogic.endRegularPlay")
@pytest.mark.parametrize("test", END_REGULAR, ids=lambda t: f"endRegularPlay_{t}")
def test_endRegularPlay_report_tests(impl, test):
    model, expected, what = END_REGULAR[test]
    build, read = Build(impl), Read(impl)
    found = read.pairs(impl.game_logic.endRegularPlay(build.logic(), build.grid(model)), "endRegularPlay")
    expect(
        found == expected,
        f"endRegularPlay {test}: {what}{shown(model)}",
        expected=squares_text(expected),
        actual=squares_text(found),
    )


@covers("GameLogic.isConnect4", "Grid.setSpace")
@given(
    model=grids,
    updates=st.lists(st.tuples(st.sampled_from(SQUARES), st.sampled_from((RED, BLUE, EMPTY))), min_size=1, max_size=6),
)
@example(model=RISING, updates=[((5, 1), EMPTY)])
def test_one_logic_answers_for_the_grid_as_it_is_now(impl, model, updates):
    """A grid reached by more setSpace calls after a question gets the answer for its new discs, not the old ones."""
    build = Build(impl)
    grid = build.grid(model)
    logic, ops = build.logic(), impl.game_logic
    model = model.copy()
    history = []
    for step in [None, *updates]:
        if step is not None:
            (x, y), colour = step
            impl.grid.setSpace(grid, x, y, build.space(colour))
            model.put(x, y, colour)
            history.append(f"setSpace({x}, {y}, {colour})")
        connected = impl.batch(lambda: [ops.isConnect4(logic, grid, x, y) for x, y in SQUARES])
        # Equal lengths, but strict=False: a change to this test's code changes its examples (see CONTRIBUTING).
        for (x, y), c in zip(SQUARES, connected, strict=False):
            expect_equal(
                c,
                model.in_four(x, y),
                f"isConnect4(grid, {x}, {y}) asked again of one GameLogic after {history or 'no change'}{shown(model)}",
            )


@covers("GameLogic.isWin", "GameLogic.isConnect4", "GameLogic.endRegularPlay")
@given(model=grids)
def test_wins_and_lines_agree_with_the_model_on_every_square(impl, model):
    assume(model != all_of(RED) and model != all_of(BLUE))
    build, read = Build(impl), Read(impl)
    grid = build.grid(model)
    logic, ops = build.logic(), impl.game_logic
    connected, states, fours = impl.batch(
        lambda: (
            [ops.isConnect4(logic, grid, x, y) for x, y in SQUARES],
            [ops.isWin(logic, grid, x, y) for x, y in SQUARES],
            ops.endRegularPlay(logic, grid),
        )
    )
    # Equal lengths, but strict=False: a change to this test's code changes its examples (see CONTRIBUTING).
    for (x, y), c, s in zip(SQUARES, connected, states, strict=False):
        expect_equal(
            c, model.in_four(x, y), f"isConnect4(grid, {x}, {y}): the disc there is in a line of four{shown(model)}"
        )
        expected = "Win" if model.in_four(x, y) else "Draw" if model.full() else "Ongoing"
        expect_equal(read.state(s), expected, f"isWin(grid, {x}, {y}) follows its decision table{shown(model)}")
    found = read.pairs(fours, "endRegularPlay")
    expect(
        found == model.fours(),
        f"endRegularPlay: the squares of every line of four{shown(model)}",
        expected=squares_text(model.fours()),
        actual=squares_text(found),
    )
    unchanged(impl, grid, model, "isConnect4, isWin and endRegularPlay")


# The computer player's helpers -------------------------------------------------------------------


def three_at_3_3(third: bool = True, blocked: bool = False) -> Model:
    """Rows 0-2 of columns 0-3 filled, red on (0,3), (1,3) and, if ``third``, (2,3): (3,3) completes it."""
    model = Model({(x, y): c for (x, y), c in SUPPORT.items() if x <= 3})
    for x in range(3 if third else 2):
        model.put(x, 3, RED)
    if blocked:
        model.put(3, 3, BLUE)
    return model


def expect_count(count, expected: int, claim: str) -> None:
    """connectAmountOfThree's answer: the count, where none is 0 or the report's null, None (erratum S10)."""
    if expected == 0:
        expect(
            count is None or (type(count) is int and count == 0),
            claim + "\nno square completes a four: 0 or None (the report's null, erratum S10)",
            expected="0 or None",
            actual=count,
        )
    else:
        expect_equal(count, expected, claim)


CONNECT_THREE = {
    "bb1": (three_at_3_3(), (3, 3), "(3,3) valid, Empty, and completes four"),
    "bb2": (three_at_3_3(third=False), None, "(3,3) valid and Empty, but completes nothing: iterate on"),
    "bb3": (three_at_3_3(blocked=True), None, "(3,3) not Empty: iterate on"),
}


@covers("GameLogic.connectThree", "GameLogic.connectAmountOfThree")
@pytest.mark.parametrize("test", CONNECT_THREE, ids=lambda t: f"connectThree_{t}")
def test_connectThree_and_connectAmountOfThree_report_tests(impl, test):
    model, expected, what = CONNECT_THREE[test]
    threats = model.threats(RED)
    assert (expected in threats) if expected else (3, 3) not in threats, "the suite's grid is the report's case"
    build, read = Build(impl), Read(impl)
    grid = build.grid(model)
    found = impl.game_logic.connectThree(build.logic(), grid, build.space(RED))
    claim = f"connectThree(grid, Red) {test}: {what}{shown(model)}"
    if expected is not None:
        expect_equal(read.pair(found, "connectThree"), expected, claim)
    elif not threats:
        expect(found is None, claim + "\nno square completes a red four, so None", expected=None, actual=found)
    else:
        expect(read.pair(found, "connectThree") in threats, claim, expected=squares_text(threats), actual=found)
    count = impl.game_logic.connectAmountOfThree(build.logic(), grid, build.space(RED))
    expect_count(count, len(threats), f"connectAmountOfThree(grid, Red) {test}: {what}{shown(model)}")


@covers("GameLogic.connectThree", "GameLogic.connectAmountOfThree")
@given(model=st.one_of(played_grids, sparse_free_grids), colour=colours)
def test_connectThree_finds_a_threat_and_connectAmountOfThree_counts_them(impl, model, colour):
    build, read = Build(impl), Read(impl)
    grid = build.grid(model)
    logic = build.logic()
    threats = model.threats(colour)
    found = impl.game_logic.connectThree(logic, grid, build.space(colour))
    if not threats:
        expect(
            found is None,
            f"connectThree(grid, {colour}): no square completes a {colour} four, so None{shown(model)}",
            expected=None,
            actual=found,
        )
    else:
        pair = read.pair(found, f"connectThree(grid, {colour})")
        expect(
            pair in threats,
            f"connectThree(grid, {colour}) returns a valid spot completing a {colour} four (erratum S10){shown(model)}",
            expected=squares_text(threats),
            actual=pair,
        )
    expect_count(
        impl.game_logic.connectAmountOfThree(logic, grid, build.space(colour)),
        len(threats),
        f"connectAmountOfThree(grid, {colour}) counts the squares completing a four{shown(model)}",
    )
    unchanged(impl, grid, model, f"connectThree and connectAmountOfThree(grid, {colour})")


def under_red_three() -> Model:
    """Columns 0-2 filled to row 3 with red on row 4 of columns 0-2 and column 3 to row 2: (3,3) supports (3,4)."""
    model = Model({(x, y): c for (x, y), c in SUPPORT.items() if x <= 3})
    for x in range(3):
        model.put(x, 3, BLUE if x != 1 else RED)
        model.put(x, 4, RED)
    return model


def under_red_top_row() -> Model:
    """under_red_three one row up: red on the top row of columns 0-2, and (3,4) supports (3,5)."""
    model = Model({(x, y): c for (x, y), c in SUPPORT.items() if x <= 3})
    for x, colours_up in enumerate(((BLUE, RED), (RED, BLUE), (BLUE, RED))):
        model.put(x, 3, colours_up[0])
        model.put(x, 4, colours_up[1])
        model.put(x, 5, RED)
    model.put(3, 3, BLUE)
    return model


UNSUPPORTED = {
    "bb1": (under_red_three(), {(3, 3)}, "(3,3) Empty and a red disc on (3,4) would complete four"),
    "bb2": (
        Model({(x, y): c for (x, y), c in SUPPORT.items() if x <= 3}),
        set(),
        "(3,3) Empty, nothing completed above it",
    ),
    "bb3": (Model({**under_red_three().cells, (3, 3): BLUE, (3, 4): BLUE}), set(), "(3,3) not Empty"),
    "bb1_top_row": (
        under_red_top_row(),
        {(3, 4)},
        "(3,4) Empty and a red disc on (3,5), the top row, would complete four",
    ),
}


def model_dont_place(model: Model, colour: str) -> set:
    return {(x, y) for x, y in SQUARES if model.valid(x, y) and y + 1 < HEIGHT and model.completes(x, y + 1, colour)}


@covers("GameLogic.unsupportedConnectThree")
@pytest.mark.parametrize("test", UNSUPPORTED, ids=lambda t: f"unsupportedConnectThree_{t}")
def test_unsupportedConnectThree_report_tests(impl, test):
    model, expected, what = UNSUPPORTED[test]
    assert model_dont_place(model, RED) == expected, "the suite's grid is the report's case"
    build, read = Build(impl), Read(impl)
    dont_place = [[6, 5]]  # a square the list already held stays in it
    result = impl.game_logic.unsupportedConnectThree(build.logic(), build.grid(model), dont_place, build.space(RED))
    expect(result is None, "unsupportedConnectThree is void: it returns None", expected=None, actual=result)
    found = read.pairs(dont_place, "the list dontPlace")
    expected = expected | {(6, 5)}
    expect(
        found == expected,
        f"unsupportedConnectThree {test}: {what}, added to the list [[6, 5]]{shown(model)}",
        expected=squares_text(expected),
        actual=squares_text(found),
    )


@covers("GameLogic.unsupportedConnectThree")
@given(
    model=played_grids,
    colour=colours,
    kept=st.lists(st.tuples(st.integers(0, 6), st.integers(0, 5)), max_size=3),
    rnd=frames.RANDOM,
)
def test_unsupportedConnectThree_adds_the_squares_under_a_four_and_keeps_the_list(impl, model, colour, kept, rnd):
    """Its update is the list dontPlace: the grid given and every other grid and player keep their models."""
    build, read = Build(impl), Read(impl)
    grid, others = paths.made_around(impl, paths.grids(rnd, model), paths.bystanders(rnd, "grid"))
    dont_place = [list(p) for p in kept]
    impl.game_logic.unsupportedConnectThree(build.logic(), grid.value, dont_place, build.space(colour))
    found = read.pairs(dont_place, "the list dontPlace")
    expected = model_dont_place(model, colour) | set(kept)
    given = [("grid", grid.value, model, "the grid")]
    paths.expect_kept(
        f"unsupportedConnectThree(logic, grid, x, Space.{colour}) where x = {[list(p) for p in kept]}",
        squares_text(set(kept)),
        f"{squares_text(expected)}: every valid spot below a square completing a {colour} four added to what it "
        f"held{shown(model)}",
        [
            paths.Verdict(found == expected, squares_text(found)),
            *(paths.holding(impl, kind, value, m) for kind, value, m, _ in given + others),
        ],
        given,
        others,
    )


def model_check_l(model: Model, i: int, j: int, c: str) -> bool:
    """checkL's decision table, restated."""
    if not (j > 1 and model.get(i, j - 2) == c and model.get(i, j - 1) == c and model.get(i, j) == EMPTY):
        return False
    right = 0 < i < WIDTH - 2 and model.get(i + 1, j) == c and model.get(i + 2, j) == c
    left = 1 < i < WIDTH - 1 and model.get(i - 1, j) == c and model.get(i - 2, j) == c
    return right or left


def l_at_3_3(side: int) -> Model:
    model = Model({(x, y): c for (x, y), c in SUPPORT.items()})
    model.put(3, 1, RED)
    model.put(3, 2, RED)
    if side:
        model.put(3 + side, 3, RED)
        model.put(3 + 2 * side, 3, RED)
    return model


BLOCK_L = {
    "bb1": (l_at_3_3(+1), (3, 3), "checkL(g, 3, 3, c) = True: a right L"),
    "bb1_left": (l_at_3_3(-1), (3, 3), "checkL(g, 3, 3, c) = True: a left L (checkL's test 2)"),
    "bb2": (l_at_3_3(0), None, "checkL(g, 3, 3, c) = False: iterate on"),
}


@covers("GameLogic.blockL")
@pytest.mark.parametrize("test", BLOCK_L, ids=lambda t: f"blockL_{t}")
def test_blockL_report_tests(impl, test):
    model, expected, what = BLOCK_L[test]
    assert {s for s in SQUARES if model_check_l(model, *s, RED)} == ({expected} if expected else set())
    build, read = Build(impl), Read(impl)
    found = impl.game_logic.blockL(build.logic(), build.grid(model), build.space(RED))
    if expected is None:
        expect(found is None, f"blockL(grid, Red) {test}: {what}{shown(model)}", expected=None, actual=found)
    else:
        expect_equal(read.pair(found, "blockL"), expected, f"blockL(grid, Red) {test}: {what}{shown(model)}")


def l_of(column: int, side: int) -> Model:
    """Two red discs in ``column`` and two beside the square above them, on ``side`` (+1 right, -1 left)."""
    return Model({(column, 0): RED, (column, 1): RED, (column + side, 2): RED, (column + 2 * side, 2): RED})


L_BOUNDS = {
    "right_at_1": (l_of(1, +1), (1, 2)),
    "right_at_4": (l_of(4, +1), (4, 2)),
    "right_at_0": (l_of(0, +1), None),
    "left_at_5": (l_of(5, -1), (5, 2)),
    "left_at_2": (l_of(2, -1), (2, 2)),
    "left_at_6": (l_of(6, -1), None),
    # A disc beside the square at the edge: checkL must not look past the grid for a second one.
    "right_at_5_by_the_edge": (Model({(5, 0): RED, (5, 1): RED, (6, 2): RED}), None),
    "left_at_1_by_the_edge": (Model({(1, 0): RED, (1, 1): RED, (0, 2): RED}), None),
}


def broken_l(column: int, side: int, square: tuple[int, int]) -> Model:
    """l_of(column, side) with ``square`` (one of its discs, or the square it completes) taken by a blue disc."""
    model = l_of(column, side)
    model.put(*square, BLUE)
    return model


for _column, _side in ((2, +1), (4, -1)):
    for _square in (*l_of(_column, _side).cells, (_column, 2)):
        L_BOUNDS[f"{'right' if _side > 0 else 'left'}_at_{_column}_but_{_square[0]}_{_square[1]}_blue"] = (
            broken_l(_column, _side, _square),
            None,
        )


@covers("GameLogic.blockL")
@pytest.mark.parametrize("test", L_BOUNDS)
def test_blockL_keeps_to_the_bounds_of_checkL_table(impl, test):
    model, expected = L_BOUNDS[test]
    assert {s for s in SQUARES if model_check_l(model, *s, RED)} == ({expected} if expected else set())
    build, read = Build(impl), Read(impl)
    found = impl.game_logic.blockL(build.logic(), build.grid(model), build.space(RED))
    what = "a right L needs 0 < i < 5, a left L 1 < i < 6 (checkL's table)"
    if expected is None:
        expect(found is None, f"blockL(grid, Red) {test}: {what}{shown(model)}", expected=None, actual=found)
    else:
        expect_equal(read.pair(found, "blockL"), expected, f"blockL(grid, Red) {test}: {what}{shown(model)}")


@covers("GameLogic.blockL")
@given(model=st.one_of(played_grids, free_grids), colour=colours)
def test_blockL_finds_an_L_exactly_when_there_is_one(impl, model, colour):
    build, read = Build(impl), Read(impl)
    grid = build.grid(model)
    ls = {s for s in SQUARES if model_check_l(model, *s, colour)}
    found = impl.game_logic.blockL(build.logic(), grid, build.space(colour))
    if not ls:
        expect(found is None, f"blockL(grid, {colour}): no L, so None{shown(model)}", expected=None, actual=found)
    else:
        expect(
            read.pair(found, "blockL") in ls,
            f"blockL(grid, {colour}) returns a square of checkL's table{shown(model)}",
            expected=squares_text(ls),
            actual=found,
        )
    unchanged(impl, grid, model, "blockL")


# Columns: canPlaceCheck, findY, moveRight, moveLeft, findSpot ------------------------------------


def full_column(x: int) -> Model:
    return Model({(x, y): RED if y % 2 else BLUE for y in range(HEIGHT)})


CAN_PLACE = {
    "bb1": (Model(), [[3, 0]], 3, False, "pair[0] == x_Pos"),
    "bb2": (full_column(3), [[5, 0]], 3, False, "pair[0] != x_Pos and the top of the column is not Empty"),
    "bb3": (Model(), [[5, 0]], 3, True, "pair[0] != x_Pos and the top of the column is Empty"),
    "bb3_five": (
        Model({(3, y): RED if y % 2 else BLUE for y in range(HEIGHT - 1)}),
        [[5, 0]],
        3,
        True,
        "pair[0] != x_Pos and the top of the column is Empty, the square under it taken",
    ),
}


@covers("GameLogic.canPlaceCheck")
@pytest.mark.parametrize("test", CAN_PLACE, ids=lambda t: f"canPlaceCheck_{t}")
def test_canPlaceCheck_report_tests(impl, test):
    model, dont_place, x, expected, what = CAN_PLACE[test]
    build = Build(impl)
    expect_equal(
        impl.game_logic.canPlaceCheck(build.logic(), build.grid(model), dont_place, x),
        expected,
        f"canPlaceCheck(grid, {dont_place}, {x}) {test}: {what}{shown(model)}",
    )


FIND_Y = {
    "bb1_off_left": (Model(), -1, -1, "x < 0"),
    "bb1_off_right": (Model(), 7, -1, "x > g.getWidth() - 1"),
    "bb1_full": (full_column(3), 3, -1, "the column is full"),
    "bb2": (Model({(3, y): RED if y % 2 else BLUE for y in range(4)}), 3, 4, "(3,4) is Empty: it returns 4"),
    "bb2_top": (
        Model({(3, y): RED if y % 2 else BLUE for y in range(HEIGHT - 1)}),
        3,
        5,
        "(3,5), the top square, is Empty: it returns 5",
    ),
}


@covers("GameLogic.findY")
@pytest.mark.parametrize("test", FIND_Y, ids=lambda t: f"findY_{t}")
def test_findY_report_tests(impl, test):
    model, x, expected, what = FIND_Y[test]
    build = Build(impl)
    expect_equal(
        impl.game_logic.findY(build.logic(), build.grid(model), x),
        expected,
        f"findY(grid, {x}) {test}: {what}{shown(model)}",
    )


@covers("GameLogic.inverseSpace")
@pytest.mark.parametrize(
    "c, expected",
    [(RED, BLUE), (BLUE, RED), (EMPTY, EMPTY)],
    ids=["inverseSpace_bb1", "inverseSpace_bb2", "inverseSpace_bb3"],
)
def test_inverseSpace_report_tests(impl, c, expected):
    build, read = Build(impl), Read(impl)
    expect_equal(
        read.space(impl.game_logic.inverseSpace(build.logic(), build.space(c))),
        expected,
        f"inverseSpace(Space.{c}) is Space.{expected}",
    )


def allowed(model: Model, dont_place, x: int) -> bool:
    return model.height(x) >= 0 and all(p[0] != x for p in dont_place)


def wrap(x: int) -> int:
    return 0 if x >= WIDTH else WIDTH - 1 if x < 0 else x


def model_move(model: Model, dont_place, x_pos: int, step: int) -> tuple[int, int] | None:
    """moveRight (step 1) and moveLeft (step -1) from a column of the grid, restated (erratum S11):
    the first allowed column going that way, wrapping around; None when every column is
    refused, where any square a disc may be placed on is accepted."""
    for k in range(WIDTH):
        column = (x_pos + k * step) % WIDTH
        if allowed(model, dont_place, column):
            return column, model.height(column)
    return None


def move_options(model: Model, dont_place, x: int, steps) -> set:
    """The squares moveRight (step 1) or moveLeft (step -1) may return; with every column refused, every valid spot."""
    moves = {model_move(model, dont_place, x, step) for step in steps}
    return {(c, model.height(c)) for c in range(WIDTH) if model.height(c) >= 0} if None in moves else moves


def call_move(impl, name: str, logic, grid, dont_place, x: int):
    """moveRight or moveLeft with the MIS's three parameters, or with reps 0 (findSpot's call) when
    the implementation takes four (erratum S11: both arities are readings)."""
    op = getattr(impl.game_logic, name)
    try:
        return op(logic, grid, list(dont_place), x)
    except SuiteFailure as e:
        if not (isinstance(e.raised, type) and issubclass(e.raised, TypeError)):
            raise
    return op(logic, grid, list(dont_place), x, 0)


MOVES = {
    "bb1": (Model(), [], 2, "canPlaceCheck = True: that column"),
    "bb2": (
        Model(),
        [[x, 0] for x in range(WIDTH)],
        2,
        "canPlaceCheck = False and reps reaches the width: a legal square all the same (erratum S11)",
    ),
    "bb3": (full_column(2), [[3, 0]], 2, "canPlaceCheck = False: the next column on"),
    "bb3_past_the_edge": (
        Model(),
        [[0, 0], [WIDTH - 1, 0]],
        0,
        "canPlaceCheck = False at an edge: the next column on, wrapping around past the edge",
    ),
    "bb3_far": (
        Model(),
        [[x, 0] for x in range(2, WIDTH)],
        2,
        "canPlaceCheck = False for five columns on: the first allowed one further on, wrapping around",
    ),
    "bb2_full": (
        Model(full_column(1).cells | full_column(2).cells | full_column(3).cells | {(0, 0): RED, (4, 0): BLUE}),
        [[x, 0] for x in range(WIDTH)],
        2,
        "every column refused and the first ones full: a legal square all the same (erratum S11)",
    ),
    "bb2_full_then_empty": (
        Model(full_column(1).cells | full_column(2).cells | full_column(3).cells),
        [[x, 0] for x in range(WIDTH)],
        2,
        "every column refused and the first ones full: a legal square all the same (erratum S11)",
    ),
}


@covers("GameLogic.moveRight", "GameLogic.moveLeft")
@pytest.mark.parametrize("test", MOVES, ids=lambda t: f"moveRight_moveLeft_{t}")
def test_moveRight_and_moveLeft_report_tests(impl, test):
    model, dont_place, x, what = MOVES[test]
    build, read = Build(impl), Read(impl)
    grid = build.grid(model)
    for name, step in (("moveRight", 1), ("moveLeft", -1)):
        found = read.pair(call_move(impl, name, build.logic(), grid, dont_place, x), name)
        options = move_options(model, dont_place, x, [step])
        expect(
            found in options,
            f"{name}(grid, {dont_place}, {x}) {test}: {what}{shown(model)}",
            expected=squares_text(options),
            actual=found,
        )


@covers("GameLogic.moveRight", "GameLogic.moveLeft", "GameLogic.canPlaceCheck", "GameLogic.findY", "GameLogic.findSpot")
@given(game=unfinished_games, x=st.integers(-1, WIDTH), dont=st.lists(st.integers(0, WIDTH - 1), max_size=7))
def test_column_choices_agree_with_the_model(impl, game, x, dont):
    """moveRight and moveLeft start from a column of the grid: wrapping a column off the grid is
    the private pieceRotate's job, which the interface does not promise (erratum S11)."""
    model = game[0]
    build, read = Build(impl), Read(impl)
    grid = build.grid(model)
    logic, ops = build.logic(), impl.game_logic
    dont_place = [[c, max(model.height(c), 0)] for c in dont]
    if 0 <= x < WIDTH:
        for name, step in (("moveRight", 1), ("moveLeft", -1)):
            found = read.pair(call_move(impl, name, logic, grid, dont_place, x), name)
            options = move_options(model, dont_place, x, [step])
            expect(
                found in options,
                f"{name}(grid, {dont_place}, {x}): the first allowed column that way, wrapping around; a legal "
                f"square when none is (erratum S11){shown(model)}",
                expected=squares_text(options),
                actual=found,
            )
    column = wrap(x)
    expect_equal(
        ops.canPlaceCheck(logic, grid, dont_place, column),
        allowed(model, dont_place, column),
        f"canPlaceCheck(grid, {dont_place}, {column}){shown(model)}",
    )
    expect_equal(
        ops.findY(logic, grid, column),
        model.height(column),
        f"findY(grid, {column}): the row a disc dropped there lands on{shown(model)}",
    )
    spot = read.pair(ops.findSpot(logic, grid, dont_place, column), "findSpot")
    options = (
        {(column, model.height(column))}
        if allowed(model, dont_place, column)
        else move_options(model, dont_place, column, [1, -1])
    )
    expect(
        spot in options,
        f"findSpot(grid, {dont_place}, {column}): that column if allowed, else moveRight's or moveLeft's "
        f"square{shown(model)}",
        expected=squares_text(options),
        actual=spot,
    )
    unchanged(impl, grid, model, "the column helpers")


FIND_SPOT = {
    "bb1": (Model(), [], 2, "canPlaceCheck = True: returns the pair in column 2"),
    "bb2_bb3": (full_column(2), [[3, 0]], 2, "canPlaceCheck = False: moveRight's or moveLeft's pair, chosen at random"),
    "bb2_bb3_all_refused": (
        full_column(4),
        [[x, 0] for x in range(WIDTH)],
        2,
        "canPlaceCheck = False for every column: moveRight's or moveLeft's pair, a legal square (erratum S11)",
    ),
}


@covers("GameLogic.findSpot")
@pytest.mark.parametrize("test", FIND_SPOT, ids=lambda t: f"findSpot_{t}")
def test_findSpot_report_tests(impl, test):
    model, dont_place, x, what = FIND_SPOT[test]
    build, read = Build(impl), Read(impl)
    grid = build.grid(model)
    options = {(x, model.height(x))} if allowed(model, dont_place, x) else move_options(model, dont_place, x, [1, -1])
    for _ in range(10):  # the random choice, made again and again, stays within the two
        spot = read.pair(impl.game_logic.findSpot(build.logic(), grid, list(dont_place), x), "findSpot")
        expect(
            spot in options,
            f"findSpot(grid, {dont_place}, {x}) {test}: {what}{shown(model)}",
            expected=squares_text(options),
            actual=spot,
        )
