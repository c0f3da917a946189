"""Configurations against a model of the rules, on boards of 3 x 3 to 8 x 8.

Boards are built with savePlay only (tiles placed, overwritten and emptied) and read
back with squareIsEmpty, the board variable and the configuration string; wins,
isDraw and evalBoard are compared with the model (errata X05, X06, X07, X11) on
random boards and on boards built around a shape with arms of independent lengths.
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import spec
from speckit.testing import covers, expect, expect_equal, obey

from . import paths
from .adapter import Build, configuration_of, expect_squares
from .model import COMPUTER, EMPTY, HUMAN, PLUS_ARMS, SIZES, UNDECIDED, X_ARMS, BoardModel
from .strategies import boards, play_sequences, scores, shaped_boards

XPLUS = spec.load("xplus")


def board_variable(impl, configurations, n):
    """The board variable read as rows of characters, a message saying why it cannot be read,
    or None where the sandbox cannot index a value of the implementation (rule XR2 still checks it)."""
    try:
        board = configurations.board
        if type(board).__name__ == "Handle":
            return None
        return [[str(board[r][c]) for c in range(n)] for r in range(n)]
    except Exception as e:  # noqa: BLE001 - any failure to read it is reported as such
        return f"cannot read board[row][col]: {type(e).__name__}: {e}"


@covers(
    "Configurations.Configurations",
    "Configurations.squareIsEmpty",
    "Configurations.wins",
    "Configurations.isDraw",
    "Configurations.evalBoard",
)
@given(n=st.sampled_from(list(SIZES)), k=st.integers(1, 17), levels=st.integers(1, 6))
def test_a_new_board_is_empty_and_undecided(impl, n, k, levels):
    model = BoardModel(n, k)
    configurations = Build(impl).configurations(model, levels)
    expect_squares(impl, configurations, model, f"Configurations({n}, {k}, {levels})")
    ops = impl.configurations
    expect_equal(ops.wins(configurations, HUMAN), False, "nobody wins on an empty board: wins('X')")
    expect_equal(ops.wins(configurations, COMPUTER), False, "nobody wins on an empty board: wins('O')")
    expect_equal(ops.isDraw(configurations), False, "an empty board is not a draw")
    expect_equal(ops.evalBoard(configurations), UNDECIDED, "an empty board is UNDECIDED (1)")
    seen = board_variable(impl, configurations, n)
    if seen is not None:
        expect_equal(seen, [[EMPTY] * n for _ in range(n)], "the board variable holds ' ' on every square")


@covers("Configurations.Configurations", "Configurations.savePlay", "Configurations.squareIsEmpty")
@given(data=st.data(), n=st.sampled_from(list(SIZES)))
def test_save_play_changes_exactly_its_square(impl, data, n):
    plays = data.draw(play_sequences(n), label="plays")
    model = BoardModel(n, 5)
    configurations = impl.configurations.Configurations(n, 5, 2)
    for row, col, symbol in plays:
        model.play(row, col, symbol)
        impl.configurations.savePlay(configurations, row, col, symbol)
    expect_squares(impl, configurations, model, f"after savePlay {plays}")
    seen = board_variable(impl, configurations, n)
    if seen is not None:
        expect_equal(
            seen,
            [[model.at(r, c) for c in range(n)] for r in range(n)],
            f"the board variable after savePlay {plays} (erratum X12)",
        )


@covers(
    "Configurations.savePlay",
    "Configurations.repeatedConfiguration",
    "Configurations.addConfiguration",
    "HashDictionary.get",
)
@given(data=st.data(), n=st.sampled_from(list(SIZES)))
def test_the_configuration_is_the_board_row_by_row(impl, data, n):
    plays = data.draw(play_sequences(n), label="plays")
    model = BoardModel(n, 5)
    configurations = impl.configurations.Configurations(n, 5, 2)
    for row, col, symbol in plays:
        model.play(row, col, symbol)
        impl.configurations.savePlay(configurations, row, col, symbol)
    configuration_of(impl, configurations, model)


@covers("Configurations.repeatedConfiguration", "Configurations.createDictionary", "HashDictionary.put")
@given(model=boards(), score=scores, decoy=scores)
def test_repeated_configuration_finds_the_board_and_nothing_else(impl, model, score, decoy):
    configurations = Build(impl).configurations(model)
    ops = impl.configurations
    dictionary = ops.createDictionary(configurations)
    expect_equal(
        ops.repeatedConfiguration(configurations, dictionary),
        -1,
        "repeatedConfiguration of a board not in the dictionary is -1",
    )
    other = model.string()[::-1] + "X"
    impl.hash_dictionary.put(dictionary, impl.data.Data(other, decoy))
    expect_equal(
        ops.repeatedConfiguration(configurations, dictionary),
        -1,
        f"a record of another string ({other!r}) is not the board's",
    )
    impl.hash_dictionary.put(dictionary, impl.data.Data(model.string(), score))
    expect_equal(
        ops.repeatedConfiguration(configurations, dictionary),
        score,
        f"after put of Data({model.string()!r}, {score}), repeatedConfiguration returns {score} (erratum X04)",
    )


@covers("Configurations.createDictionary", "Configurations.addConfiguration", "Configurations.repeatedConfiguration")
@given(model=boards(), score=st.integers(0, 3))
def test_create_dictionary_makes_fresh_independent_dictionaries(impl, model, score):
    configurations = Build(impl).configurations(model)
    ops = impl.configurations
    first, second = ops.createDictionary(configurations), ops.createDictionary(configurations)
    expect_equal(impl.hash_dictionary.numRecords(first), 0, "createDictionary returns an empty dictionary")
    ops.addConfiguration(configurations, first, score)
    expect_equal(
        ops.repeatedConfiguration(configurations, first),
        score,
        "the configuration added to a dictionary is found in it",
    )
    expect_equal(
        ops.repeatedConfiguration(configurations, second),
        -1,
        "another dictionary made by createDictionary does not hold it",
    )
    expect_equal(impl.hash_dictionary.numRecords(second), 0, "dictionaries made by createDictionary are independent")


def expect_rules(impl, model: BoardModel) -> None:
    expect_rules_on(impl, Build(impl).configurations(model), model, "")


def expect_rules_on(impl, configurations, model: BoardModel, made_by: str) -> None:
    """wins, isDraw and evalBoard of ``configurations`` (made by ``made_by``, when said) follow the model's rules."""
    ops = impl.configurations
    where = f"on the board{made_by}\n{model.picture()}\n"
    for symbol in (HUMAN, COMPUTER):
        expect_equal(
            ops.wins(configurations, symbol),
            model.wins(symbol),
            f"{where}wins({symbol!r}): its longest shape has {model.longest_shape(symbol)} tiles (errata X05, X06)",
        )
    expect_equal(ops.isDraw(configurations), model.draw(), f"{where}isDraw: full and nobody has won (erratum X07)")
    if not (model.wins(HUMAN) and model.wins(COMPUTER)):
        scores = model.scores()
        score = ops.evalBoard(configurations)
        expect(
            score in scores,
            f"{where}evalBoard (errata X07, X11: COMPUTER_WINS also for an 'O' shape shorter than k)",
            expected=" or ".join(map(str, sorted(scores))),
            actual=score,
        )


@covers("Configurations.wins", "Configurations.isDraw", "Configurations.evalBoard", "Configurations.savePlay")
@given(model=boards())
def test_wins_draw_and_score_follow_the_rules_on_any_board(impl, model):
    expect_rules(impl, model)


@covers("Configurations.wins", "Configurations.evalBoard")
@given(model=shaped_boards())
def test_a_shape_wins_exactly_when_it_has_k_tiles(impl, model):
    expect_rules(impl, model)


@covers("Configurations.isDraw", "Configurations.evalBoard", "Configurations.wins")
@given(model=boards(fill=True))
def test_a_full_board_is_a_draw_unless_someone_has_won(impl, model):
    expect_rules(impl, model)


@covers("Configurations.wins")
@given(n=st.sampled_from(list(SIZES)), data=st.data())
def test_x_and_plus_arms_of_one_centre_do_not_add_up(impl, n, data):
    row, col = data.draw(st.integers(1, n - 2)), data.draw(st.integers(1, n - 2))
    symbol = data.draw(st.sampled_from([HUMAN, COMPUTER]))
    tiles = {(row, col): symbol}
    for dr, dc in ((-1, -1), (-1, 1), (1, -1), (1, 1), (-1, 0), (1, 0), (0, -1), (0, 1)):
        tiles[(row + dr, col + dc)] = symbol
    model = BoardModel(n, 9, tiles)
    expect(
        model.longest_shape(symbol) == 5 and not model.wins(symbol),
        "the model: a 3 x 3 block holds shapes of 5 tiles only",
    )
    expect_rules(impl, model)


@covers("Configurations.Configurations")
def test_rule_XR2_the_board_variable_exists(impl):
    obey(impl, XPLUS, "XR2")


@pytest.mark.slow
@covers("Configurations.wins", "Configurations.isDraw", "Configurations.evalBoard")
@settings(max_examples=1500)
@given(model=st.one_of(boards(), shaped_boards(), boards(fill=True)))
def test_the_rules_hold_on_many_more_boards(impl, model):
    expect_rules(impl, model)


@covers("Configurations.wins", "Configurations.evalBoard")
@given(n=st.sampled_from(list(SIZES)), data=st.data())
def test_an_arm_ends_at_the_edge_of_the_board(impl, n, data):
    """A shape centred on an edge square: each arm that would leave the board has, instead, the same tile on the
    square across the board (where an index of -1 reaches in a Python list), which does not make it an arm."""
    symbol = data.draw(st.sampled_from([HUMAN, COMPUTER]), label="symbol")
    arms = data.draw(st.sampled_from([X_ARMS, PLUS_ARMS]), label="shape")
    edge = data.draw(st.sampled_from(["top", "bottom", "left", "right"]), label="edge")
    along = data.draw(st.integers(0, n - 1), label="square along the edge")
    row, col = {"top": (0, along), "bottom": (n - 1, along), "left": (along, 0), "right": (along, n - 1)}[edge]
    tiles = {(row, col): symbol}
    for dr, dc in arms:
        r, c = row + dr, col + dc
        tiles[(r % n, c % n)] = symbol  # on the board, or across it when the arm would leave it
    model = BoardModel(n, data.draw(st.integers(2, 5), label="k"), tiles)
    expect_rules(impl, model)


# Boards from every path, and the frame rule (see ``paths``) ---------------------------------------


@covers(
    "Configurations.Configurations",
    "Configurations.savePlay",
    "Configurations.squareIsEmpty",
    "Configurations.wins",
    "Configurations.isDraw",
    "Configurations.evalBoard",
    "Configurations.createDictionary",
    "Configurations.repeatedConfiguration",
)
@paths.few(2)
@given(path=paths.any_path("board"), data=st.data())
def test_the_queries_of_a_board_reached_by_any_path_follow_the_rules_and_change_nothing(impl, path, data):
    """A board whose squares were played, overwritten and emptied in any order: wins, isDraw and evalBoard
    follow the rules, repeatedConfiguration finds its configuration in a dictionary reached by any path,
    createDictionary is empty, and none of them changes the board or the dictionary (queries)."""
    board = paths.follow(impl, path)
    model = paths.board_of(path.model)
    score = data.draw(st.integers(0, 3), label="score")
    records = data.draw(paths.MODELS["dictionary"], label="other records")
    held = tuple(sorted((dict(records) | {model.string(): score}).items()))
    lookup = data.draw(paths.paths("dictionary", held), label="dictionary")
    dictionary = paths.follow(impl, lookup)
    expect_rules_on(impl, board.value, model, f" {path!r}")
    ops = impl.configurations
    expect_equal(
        ops.repeatedConfiguration(board.value, dictionary.value),
        score,
        f"repeatedConfiguration({path!r}, d), d = {lookup!r} holding {model.string()!r} with the score {score} "
        "(erratum X04)",
    )
    created = ops.createDictionary(board.value)
    expect_equal(impl.hash_dictionary.numRecords(created), 0, f"createDictionary({path!r}) returns an empty dictionary")
    queries = "after wins, isDraw, evalBoard, repeatedConfiguration and createDictionary (queries: they change nothing)"
    paths.check_models(
        impl,
        [
            ("board", board.value, board.model, f"{queries}, the board {path!r}"),
            ("dictionary", dictionary.value, dictionary.model, f"{queries}, the dictionary d = {lookup!r}"),
        ],
    )


@covers("Configurations.savePlay")
@paths.few(2)
@given(case=paths.frame_cases("Configurations.savePlay"))
def test_save_play_changes_its_own_square_only(impl, case):
    """savePlay changes its square of its board; every other board, of the same size, keeps its tiles."""
    paths.check_frame_case(impl, case)


@covers("Configurations.addConfiguration")
@paths.few(2)
@given(case=paths.frame_cases("Configurations.addConfiguration"))
def test_add_configuration_changes_its_dictionary_only(impl, case):
    """addConfiguration puts the board's configuration into its dictionary; the board and every other
    dictionary keep theirs."""
    paths.check_frame_case(impl, case)
