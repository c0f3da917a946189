"""The 2015 design as the kit holds it: its data, its traces to the requirements, its reference's internal design."""

import importlib

import pytest

import spec
from speckit.traceability import uncovered

C2015 = spec.load("connect4_2015")


def test_the_specification_loads_with_its_types_and_more_than_twelve_errata():
    assert [t.name for t in C2015.types] == ["Space", "GameState", "Grid", "GameLogic", "Player", "View", "Controller"]
    assert len(C2015.errata) > 12
    assert C2015.type("view").supplied and not any(t.supplied for t in C2015.types if t.name != "View")


def test_every_method_traces_to_a_requirement():
    missing = [op.qualname for op in C2015.operations() if not op.requirement.startswith("A")]
    assert not missing, f"methods without a requirement: {missing}"


def test_every_method_with_a_decision_table_in_the_report_has_it_restated():
    tables = {op.qualname for op in C2015.operations() if op.decisions}
    for qualname in (
        "Grid.isFull",
        "Grid.isValidSpot",
        "GameLogic.isWin",
        "GameLogic.endFreePlay",
        "GameLogic.moveRight",
        "Player.canClickRed",
        "Controller.onGridClick",
        "Controller.onClickEnd",
    ):
        assert qualname in tables, f"{qualname} has no decision table"


def test_every_method_is_covered_by_a_test():
    assert not uncovered(C2015), uncovered(C2015)


@pytest.mark.parametrize(
    "module, cls, names",
    [
        ("grid", "Grid", ["isInGridRange", "isSpotEmpty"]),
        ("game_logic", "GameLogic", ["checkL", "pieceRotate"]),
        ("player", "Player", ["priorityMove", "LTRmove"]),
        ("controller", "Controller", ["setMode", "checkWin", "highlightSpace", "save", "load"]),
    ],
)
def test_the_reference_keeps_the_internal_design_s_private_methods(module, cls, names):
    owner = getattr(importlib.import_module(f"reference_games.connect4_2015.{module}"), cls)
    for name in names:
        assert callable(getattr(owner, name, None)) and getattr(owner, name).__doc__, f"{cls}.{name}"
    assert callable(importlib.import_module("reference_games.connect4_2015.game_logic").makePair)
