"""What is particular to the BoardADT kit (its zoo, alternative and traceability are
checked with the other specifications' in test_zoo, test_alternative and test_traceability)."""

import spec
from reference_games.boardadt.color import blue, red
from reference_games.boardadt.square import Square
from reference_games.boardadt.value import Value
from speckit.traceability import uncovered
from speckit.zoo import load_mutants


def test_the_specification_loads_with_its_types_and_errata():
    boardadt = spec.load("boardadt")
    assert [t.name for t in boardadt.types] == ["color_type", "square_type", "value_type", "board_type", "Player"]
    assert len(list(boardadt.operations())) == 11
    assert len(boardadt.errata) >= 10
    assert boardadt.type("board_adt").class_name == "Board"


def test_even_the_supplied_computer_player_is_covered():
    boardadt = spec.load("boardadt")
    assert not uncovered(boardadt), f"operations without a covering test: {uncovered(boardadt)}"


def test_every_board_operation_is_broken_by_some_mutant():
    broken = {m.breaks for m in load_mutants("boardadt")}
    board_ops = {op.qualname for op in spec.load("boardadt").type("board_type").operations if op.name != "Board"}
    assert board_ops <= broken, f"board operations no mutant breaks: {sorted(board_ops - broken)}"


def test_the_references_records_serve_a_board_of_any_design_in_a_hybrid():
    """A student's board graded beside the reference's square.py and value.py (a hybrid)
    may write the fields of its records, as a Pascal program would, or key a dictionary
    by them: the reference's records allow both, and compare by their fields."""
    square, value = Square(1, 1), Value(True)
    square.column, square.row = 7, 6
    value.empty, value.color = False, red
    assert (square, value) == (Square(7, 6), Value(False, red))
    kept = {Square(7, 6): Value(False, red)}
    assert kept[square] == value and Value(False, blue) not in {value}
