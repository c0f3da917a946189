"""Types that lose points to another type's failure say which (issue 29, item 5)."""

from __future__ import annotations

import io

import pytest

from speckit.grading import grade

from .conftest import patched_reference

pytestmark = pytest.mark.slow  # grades whole packages in the sandbox

RUBRIC = """
spec = "connect4"
title = "Colour and Symbol"
[grading]
mode = "best"
common = []
hidden = []
[types.ColourType]
points = 4
[types.SymbolType]
points = 6
"""

EQUALS = "    return first.name == second.name\n"


@pytest.fixture(scope="module")
def blue_equals(tmp_path_factory):
    """One fault in ColourType.equals: true whenever the first colour is blue."""
    base = tmp_path_factory.mktemp("losses")
    patched_reference(
        base / "submissions" / "blue" / "connect4",
        "colour",
        EQUALS,
        "    return first.name == BLUE or first.name == second.name\n",
    )
    rubric = base / "rubric.toml"
    rubric.write_text(RUBRIC)
    (student,) = grade(base / "submissions", base / "out", jobs=1, rubric=rubric, stream=io.StringIO())
    return {t.name: t for t in student.types}, (base / "out" / "feedback" / "blue.md").read_text(encoding="utf-8")


def test_a_type_that_lost_points_to_another_types_operation_names_it(blue_equals):
    types, feedback = blue_equals
    symbol = types["SymbolType"]
    assert "lost to ColourType.equals" in symbol.note, symbol
    assert "lost to ColourType.equals" in feedback


def test_the_faulty_type_itself_is_not_said_to_lose_to_another(blue_equals):
    types, _ = blue_equals
    colour = types["ColourType"]
    assert colour.score < colour.max_score and "lost to" not in colour.note
