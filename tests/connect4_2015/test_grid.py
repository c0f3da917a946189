"""Grid: the report's test tables for the Grid, then properties against the model.

Report tests are named ``test_<method>_<bb|wb><number>``: black-box (bb) or white-box
(wb) test number so-and-so of the report, with its expected output as the oracle
(overruled only where an erratum says so).
"""

import pytest
from hypothesis import example, given

from speckit.testing import SuiteFailure, covers, expect, expect_equal

from . import paths
from .adapter import Build, Read
from .model import BLUE, EMPTY, HEIGHT, RED, SQUARES, WIDTH, Model, all_of, grid_of, shown
from .strategies import grids, off_grid, played_grids


def raises_index_error(call) -> bool:
    """Whether the traced call failed with an IndexError (the report's IndexOutOfBounds)."""
    try:
        call()
    except SuiteFailure as e:
        return is_index_error(e)
    return False


def is_index_error(failure: SuiteFailure) -> bool:
    """Whether an operation failed by raising an IndexError, or a subclass of it (an instance
    of a subclass is an IndexError; the sandbox names its nearest builtin class)."""
    raised = getattr(failure, "raised", None)
    return isinstance(raised, type) and issubclass(raised, IndexError)


def top_row_full(model: Model) -> bool:
    """Whether every square of the top row holds a disc: isFull's decision table (erratum S02)."""
    return all(model.get(x, HEIGHT - 1) != EMPTY for x in range(WIDTH))


# The report's tests -------------------------------------------------------------------------


@covers("Grid.Grid", "Grid.getWidth", "Grid.getHeight")
def test_getWidth_is_7_and_getHeight_is_6_erratum_S01(impl):
    grid = impl.grid.Grid()
    expect_equal(impl.grid.getWidth(grid), WIDTH, "getWidth returns BOARD_WIDTH, 7 columns (requirement A1.1)")
    expect_equal(impl.grid.getHeight(grid), HEIGHT, "getHeight returns BOARD_HEIGHT, 6 rows, not 7 (erratum S01)")


ISFULL = {
    "bb1": (grid_of(*[(x, 0) for x in range(WIDTH)]), False, "top row empty"),
    "bb2": (all_of(BLUE), True, "top row filled, as in play only a full grid has"),
    "wb1": (Model(), False, "all spaces Empty"),
    "wb2": (all_of(RED), True, "all spaces Red"),
    "wb3": (
        grid_of(*[(x, HEIGHT - 1) for x in range(WIDTH)]),
        {False, True},
        "only the top row Red: False by the description and the test's expected output, True by the decision table "
        "(erratum S02)",
    ),
}


@covers("Grid.isFull", "Grid.setSpace")
@pytest.mark.parametrize("test", ISFULL, ids=lambda t: f"isFull_{t}")
def test_isFull_report_tests(impl, test):
    model, expected, what = ISFULL[test]
    build = Build(impl)
    grid = build.grid(model)
    answer = impl.grid.isFull(grid)
    if isinstance(expected, set):
        expect(
            answer in expected,
            f"isFull {test}: {what}{shown(model)}",
            expected=" or ".join(map(str, sorted(expected))),
            actual=answer,
        )
    else:
        expect_equal(answer, expected, f"isFull {test}: {what}{shown(model)}")


VALID = {
    "bb1": (Model(), (2, 0), True, "in the board, empty and supported"),
    "bb2": (Model(), (2, 3), False, "in the board, empty and not supported"),
    "bb3": (grid_of((2, 0)), (2, 0), False, "in the board and not empty"),
    "bb4": (Model(), (9, 9), False, "out of the board"),
    "wb1": (Model(), (0, 0), True, "all Empty, (0,0)"),
    "wb2": (Model(), (0, 5), False, "all Empty, (0,5): empty but unsupported"),
    "wb3": (all_of(RED), (0, 5), False, "all Red, (0,5): supported but not empty"),
}


@covers("Grid.isValidSpot", "Grid.setSpace")
@pytest.mark.parametrize("test", VALID, ids=lambda t: f"isValidSpot_{t}")
def test_isValidSpot_report_tests(impl, test):
    model, (x, y), expected, what = VALID[test]
    build = Build(impl)
    expect_equal(
        impl.grid.isValidSpot(build.grid(model), x, y), expected, f"isValidSpot({x}, {y}) {test}: {what}{shown(model)}"
    )


ALL_BUT_BOTTOM = Model({(x, y): RED for x, y in SQUARES if y > 0})
SUPPORTED = {
    "bb1": (Model(), (3, 0), True, "a bottom spot"),
    "bb2": (Model(), (3, 1), False, "not a bottom spot, the spot below empty"),
    "bb3": (grid_of((3, 0), (3, 1)), (3, 2), True, "the spots below filled and supported"),
    "bb4": (grid_of((3, 1)), (3, 2), False, "the spot below filled, but not supported"),
    "wb1": (Model(), (5, 0), True, "(5,0) is on the bottom row"),
    "wb4": (Model(), (1, 1), False, "all Empty, (1,1): nothing at (1,0)"),
    "wb5": (all_of(RED), (6, 5), True, "all Red, (6,5)"),
    "wb6": (ALL_BUT_BOTTOM, (6, 5), False, "all Red but the bottom row, (6,5): nothing at (6,0)"),
}


@covers("Grid.isSupported", "Grid.setSpace")
@pytest.mark.parametrize("test", SUPPORTED, ids=lambda t: f"isSupported_{t}")
def test_isSupported_report_tests(impl, test):
    model, (x, y), expected, what = SUPPORTED[test]
    build = Build(impl)
    expect_equal(
        impl.grid.isSupported(build.grid(model), x, y), expected, f"isSupported({x}, {y}) {test}: {what}{shown(model)}"
    )


@covers("Grid.isSupported")
@pytest.mark.parametrize(
    "square",
    [(100, 0), (100, 5), (-1, 0), (WIDTH, 0), (3, HEIGHT), (3, -1)],
    ids=["isSupported_wb2", "isSupported_wb3", "left_bottom", "right_bottom", "above", "below"],
)
def test_isSupported_off_the_grid_erratum_S03(impl, square):
    """Off the grid: False or IndexError; on the bottom row's line, True too (the decision table's "a bottom spot")."""
    grid = impl.grid.Grid()
    try:
        result = impl.grid.isSupported(grid, *square)
    except SuiteFailure as e:
        expect(
            is_index_error(e),
            f"isSupported{square} off the grid may raise IndexError (erratum S03)",
            expected="False or IndexError",
            actual=str(e).splitlines()[0],
        )
        return
    if square[1] == 0:
        expect(
            result in (True, False),
            f"isSupported{square}: a bottom spot off the grid, True by the decision table, False by the report's "
            "expected output (erratum S03)",
            expected="True, False or IndexError",
            actual=result,
        )
    else:
        expect_equal(
            result,
            False,
            f"isSupported{square}: an off-grid square above the bottom row is not supported (erratum S03)",
        )


@covers("Grid.setSpace", "Grid.getSpaceType")
@pytest.mark.parametrize("colour", [RED, EMPTY], ids=["setSpace_wb1", "setSpace_wb2"])
def test_setSpace_report_tests(impl, colour):
    build, read = Build(impl), Read(impl)
    grid = build.grid(all_of(BLUE) if colour == EMPTY else Model())
    impl.grid.setSpace(grid, 6, 5, build.space(colour))
    expect_equal(
        read.space(impl.grid.getSpaceType(grid, 6, 5)),
        colour,
        f"setSpace(6, 5, Space.{colour}) sets connectFourBoard[6, 5]",
    )


@covers("Grid.setSpace", "Grid.getSpaceType")
def test_setSpace_wb3_off_the_grid_raises_index_error_and_changes_nothing(impl):
    build, read = Build(impl), Read(impl)
    model = grid_of((0, 0), (6, 5))
    grid = build.grid(model)
    expect(
        raises_index_error(lambda: impl.grid.setSpace(grid, 6, 100, build.space(EMPTY))),
        "setSpace(6, 100, Space.Empty) raises IndexError (erratum S04)",
        expected="IndexError",
        actual="no IndexError",
    )
    expect(
        read.grid(grid) == model,
        "a refused setSpace changes no square",
        expected=shown(model),
        actual=shown(read.grid(grid)),
    )


GET = {
    "bb1": (grid_of((2, 0)), (2, 0), RED, "in the board, the piece red"),
    "bb2": (grid_of((2, 0), colour=BLUE), (2, 0), BLUE, "in the board, the piece blue"),
    "wb1": (Model(), (6, 5), EMPTY, "all Empty, (6,5)"),
    "wb2": (all_of(RED), (6, 5), RED, "all Red, (6,5)"),
    "wb3": (all_of(BLUE), (6, 5), BLUE, "all Blue, (6,5)"),
}


@covers("Grid.getSpaceType", "Grid.setSpace")
@pytest.mark.parametrize("test", GET, ids=lambda t: f"getSpaceType_{t}")
def test_getSpaceType_report_tests(impl, test):
    model, (x, y), expected, what = GET[test]
    build, read = Build(impl), Read(impl)
    expect_equal(
        read.space(impl.grid.getSpaceType(build.grid(model), x, y)), expected, f"getSpaceType({x}, {y}) {test}: {what}"
    )


@covers("Grid.getSpaceType")
@pytest.mark.parametrize("square", [(9, 2), (100, 100)], ids=["getSpaceType_bb3", "getSpaceType_wb4"])
def test_getSpaceType_off_the_grid_raises_index_error(impl, square):
    grid = impl.grid.Grid()
    expect(
        raises_index_error(lambda: impl.grid.getSpaceType(grid, *square)),
        f"getSpaceType{square} off the grid raises IndexError (erratum S04)",
        expected="IndexError",
        actual="no IndexError",
    )


IN_RANGE = {
    "bb1": (
        Model({(3, 0): RED, (3, 1): RED, (3, 2): RED, (3, 3): RED, (4, 0): BLUE}),
        False,
        "two red on two red, one blue",
    ),
    "bb2": (Model({(0, 0): RED, (1, 0): RED, (2, 0): BLUE}), True, "two connected red, one blue"),
    "bb3": (
        Model({(3, 0): BLUE, (3, 1): BLUE, (3, 2): BLUE, (3, 3): BLUE, (6, 0): BLUE, (0, 0): RED}),
        False,
        "four blue, a disconnected blue, one red",
    ),
    "bb4": (
        Model({(0, 0): BLUE, (1, 0): BLUE, (2, 0): RED}),
        {True, False},
        "two connected blue, one red: valid by the test and the description, not by the table's Red - Blue = 1 or 0 "
        "(erratum S06)",
    ),
    "bb5": (Model(), True, "no pieces"),
    "wb1": (Model(), True, "all Empty"),
    "wb2": (all_of(RED), False, "all Red"),
    "wb3": (Model({(x, y): RED if y < 3 else BLUE for x, y in SQUARES}), True, "3 rows Red, 3 rows Blue"),
    "wb4": (
        Model({(x, y): RED if y < 3 or (x, y) == (0, 3) else BLUE for x, y in SQUARES}),
        False,
        "3 rows and one space Red (22), the rest Blue (20): unbalanced, overruling the report's True (erratum S06)",
    ),
}


@covers("Grid.endSpaceInRange", "Grid.setSpace")
@pytest.mark.parametrize("test", IN_RANGE, ids=lambda t: f"endSpaceInRange_{t}")
def test_endSpaceInRange_report_tests(impl, test):
    model, expected, what = IN_RANGE[test]
    build = Build(impl)
    answer = impl.grid.endSpaceInRange(build.grid(model))
    if isinstance(expected, set):
        expect(
            answer in expected, f"endSpaceInRange {test}: {what}{shown(model)}", expected="True or False", actual=answer
        )
    else:
        expect_equal(answer, expected, f"endSpaceInRange {test}: {what}{shown(model)}")


# Properties against the model ---------------------------------------------------------------


@covers("Grid.Grid", "Grid.getSpaceType", "Grid.isFull")
def test_a_new_grid_is_empty(impl):
    read = Read(impl)
    grid = impl.grid.Grid()
    expect(
        read.grid(grid) == Model(),
        "Grid() initialises every square to Space.Empty",
        expected="42 Empty squares",
        actual=shown(read.grid(grid)),
    )
    expect_equal(impl.grid.isFull(grid), False, "a new grid is not full")


@covers("Grid.Grid", "Grid.setSpace", "Grid.getSpaceType")
@given(path=paths.reaching(grids))
def test_setSpace_then_getSpaceType_reads_back_every_square_by_every_path(impl, path):
    """Grid(), setSpace calls overwriting and clearing squares, then those reaching the model, in any order."""
    got = Read(impl).grid(paths.make(impl, path))
    expect(
        got == path.model,
        f"the grid {path!r} reads back square by square",
        expected=shown(path.model),
        actual=shown(got),
    )


@covers("Grid.setSpace", "Grid.getSpaceType")
@given(case=paths.frame_cases("Grid.setSpace"))
def test_setSpace_changes_its_square_only_the_frame_rule(impl, case):
    """setSpace sets its square and no other; every other grid and player made before or meanwhile keeps its model."""
    paths.check_frame_case(impl, case)


@covers("Grid.isFull", "Grid.isValidSpot", "Grid.isSupported", "Grid.endSpaceInRange")
@given(path=paths.reaching(grids))
def test_the_predicates_agree_with_the_model_and_change_nothing(impl, path):
    read, model = Read(impl), path.model
    grid = paths.make(impl, path)
    ops = impl.grid
    full, valid, supported, balanced = impl.batch(
        lambda: (
            ops.isFull(grid),
            [ops.isValidSpot(grid, x, y) for x, y in SQUARES],
            [ops.isSupported(grid, x, y) for x, y in SQUARES],
            ops.endSpaceInRange(grid),
        )
    )
    if top_row_full(model) and not model.full():
        expect(
            full in (True, False),
            f"isFull: the top row is full, a square below is Empty: either (erratum S02){shown(model)}",
            expected="True or False",
            actual=full,
        )
    else:
        expect_equal(
            full, model.full(), f"isFull: every square holds a disc (erratum S02: the top row agrees){shown(model)}"
        )
    # Equal lengths, but strict=False: a change to this test's code changes its examples (see CONTRIBUTING).
    for (x, y), v, s in zip(SQUARES, valid, supported, strict=False):
        expect_equal(v, model.valid(x, y), f"isValidSpot({x}, {y}): on the grid, Empty and supported{shown(model)}")
        expect_equal(s, model.supported(x, y), f"isSupported({x}, {y}): no Empty square below it{shown(model)}")
    lead = model.count(RED) - model.count(BLUE)
    if lead == -1:
        expect(
            balanced in (True, False),
            f"endSpaceInRange: blue one more than red: either (erratum S06){shown(model)}",
            expected="True or False",
            actual=balanced,
        )
    else:
        expect_equal(
            balanced, lead in (0, 1), f"endSpaceInRange: red as many as blue or one more (erratum S06){shown(model)}"
        )
    expect(
        read.grid(grid) == model, "the queries change no square", expected=shown(model), actual=shown(read.grid(grid))
    )


@covers("Grid.isValidSpot", "Grid.getSpaceType", "Grid.setSpace")
@given(square=off_grid, model=played_grids)
@example(square=(WIDTH + 1, 0), model=Model())  # two steps off each edge, on the grid in the other coordinate
@example(square=(0, HEIGHT + 1), model=Model())
@example(square=(-2, HEIGHT - 1), model=Model())
@example(square=(WIDTH - 1, -2), model=Model())
def test_off_the_grid_no_spot_is_valid_and_no_square_can_be_read_or_set(impl, square, model):
    build, read = Build(impl), Read(impl)
    grid = build.grid(model)
    expect_equal(impl.grid.isValidSpot(grid, *square), False, f"isValidSpot{square}: off the grid")
    expect(
        raises_index_error(lambda: impl.grid.getSpaceType(grid, *square)),
        f"getSpaceType{square} raises IndexError (erratum S04)",
        expected="IndexError",
        actual="no IndexError",
    )
    expect(
        raises_index_error(lambda: impl.grid.setSpace(grid, *square, build.space(RED))),
        f"setSpace{square} raises IndexError (erratum S04)",
        expected="IndexError",
        actual="no IndexError",
    )
    expect(
        read.grid(grid) == model,
        f"a refused setSpace{square} changes nothing",
        expected=shown(model),
        actual=shown(read.grid(grid)),
    )


JUST_OFF = [(-1, 0), (WIDTH, 0), (0, -1), (0, HEIGHT), (-1, -1), (WIDTH, HEIGHT), (WIDTH - 1, -1), (WIDTH - 1, HEIGHT)]


@covers("Grid.isValidSpot", "Grid.isSupported", "Grid.getSpaceType", "Grid.setSpace")
@pytest.mark.parametrize("square", JUST_OFF, ids=lambda s: f"{s[0]}_{s[1]}")
def test_the_squares_just_off_each_edge_are_off_the_grid(impl, square):
    build, read = Build(impl), Read(impl)
    for model in (Model(), all_of(RED)):
        grid = build.grid(model)
        expect_equal(
            impl.grid.isValidSpot(grid, *square),
            False,
            f"isValidSpot{square}: one step off the {WIDTH} x {HEIGHT} grid{shown(model)}",
        )
        expect(
            raises_index_error(lambda: impl.grid.getSpaceType(grid, *square)),  # noqa: B023 - run before the loop moves on
            f"getSpaceType{square} one step off the grid raises IndexError (erratum S04)",
            expected="IndexError",
            actual="no IndexError",
        )
    grid = impl.grid.Grid()
    expect(
        raises_index_error(lambda: impl.grid.setSpace(grid, *square, build.space(RED))),
        f"setSpace{square} one step off the grid raises IndexError (erratum S04)",
        expected="IndexError",
        actual="no IndexError",
    )
    expect(
        read.grid(grid) == Model(),
        f"a refused setSpace{square} changes nothing",
        expected=shown(Model()),
        actual=shown(read.grid(grid)),
    )
