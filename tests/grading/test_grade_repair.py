"""A package that cannot be imported whole: only its broken parts are replaced (issue 29, item 4).

Students' modules often rely on their siblings' representation (a dimension built from its
own package's index values). Graded beside the reference's other modules such a module
fails; graded in the student's own package with only the broken module replaced, it
scores exactly as if nothing were broken.
"""

from __future__ import annotations

import io
from decimal import Decimal
from pathlib import Path

import pytest

from speckit.grading import GradedAs, Grader, grade

from .conftest import REFERENCE, reference_copy

pytestmark = pytest.mark.slow  # grades whole packages in the sandbox

RUBRIC = """
spec = "connect4"
title = "Index and Dimension"
[grading]
mode = "best"
common = []
hidden = []
[types.IndexType]
points = 4
[types.DimensionType]
points = 3
[types.GridType]
points = 5
"""

FIRST = "from __future__ import annotations\n"
BROKEN_LINE = (REFERENCE / "grid.py").read_text(encoding="utf-8").splitlines().index(FIRST.strip()) + 3
"""The line of grid.py the broken submissions break: the second after the reference's first import."""

RUNS: list[tuple[str, str]] = []
"""(submission, package run) for every suite run of the fixture's grading."""


def _own_representation(destination: Path, grid: str | None = None, init: str = "") -> Path:
    """A correct package whose index keeps its number as ``value`` and whose dimension reads it there."""
    index = (
        (REFERENCE / "index.py")
        .read_text(encoding="utf-8")
        .replace(".number", ".value")
        .replace("number: int", "value: int")
    )
    dimension = (REFERENCE / "dimension.py").read_text(encoding="utf-8").replace("side.number", "side.value")
    modules = {"index": index, "dimension": dimension}
    if grid is not None:
        modules["grid"] = grid
    package = reference_copy(destination, **modules)
    with (package / "__init__.py").open("a", encoding="utf-8") as f:
        f.write(init)
    return package


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    base = tmp_path_factory.mktemp("repair")
    submissions = base / "submissions"
    grid = (REFERENCE / "grid.py").read_text(encoding="utf-8")
    first = FIRST
    _own_representation(submissions / "clean" / "connect4", init="\nfrom . import grid\n")
    _own_representation(
        submissions / "nameerror" / "connect4",
        grid=grid.replace(first, first + "\nundefined_name\n", 1),
        init="\nfrom . import grid\n",
    )
    _own_representation(
        submissions / "syntax" / "connect4",
        grid=grid.replace(first, first + "\ndef (:\n", 1),
        init="\nfrom . import grid\n",
    )
    rubric = base / "rubric.toml"
    rubric.write_text(RUBRIC)
    runs, real = RUNS, Grader.run

    def recorded(self, package, entries, slot, *budget):
        runs.append((package.parent.name.split("-", 1)[1], package.name))
        return real(self, package, entries, slot, *budget)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Grader, "run", recorded)
        grades = grade(submissions, base / "out", jobs=2, rubric=rubric, stream=io.StringIO())
    return {g.name: {t.name: t for t in g.types} for g in grades}, {g.name: g for g in grades}, base / "out"


def test_an_exception_at_import_is_not_run_again_before_the_repair(graded):
    # A crash for the machine's sake (an import past its time) is run again; an exception is the package's own.
    assert graded and RUNS.count(("nameerror", "package")) == 1, RUNS


@pytest.mark.parametrize("name", ["nameerror", "syntax"])
def test_types_that_do_not_need_the_broken_module_score_as_without_the_error(graded, name):
    types, _, _ = graded
    clean, broken = types["clean"], types[name]
    assert clean["IndexType"].score == Decimal("4.00") and clean["DimensionType"].score == Decimal("3.00")
    for kind in ("IndexType", "DimensionType"):
        # Before: Dimension graded beside the reference's index read side.value of an index that has none: 0 of 3.
        assert broken[kind] == clean[kind], f"{kind} differs from the same package without the error"


@pytest.mark.parametrize(
    "name, words",
    [
        ("nameerror", ["grid.py", "NameError", f"(line {BROKEN_LINE})"]),
        ("syntax", ["grid", "syntax", f"line {BROKEN_LINE}"]),
    ],
)
def test_the_broken_module_scores_nothing_and_the_note_names_it(graded, name, words):
    types, students, out = graded
    grid = types[name]["GridType"]
    assert grid.score == 0 and grid.tests
    note = next(n for n in students[name].notes if "could not be run" in n)
    assert "the reference's grid.py in place of yours" in note and "every other module is yours" in note
    assert all(word.lower() in (note + grid.tests[0].message).lower() for word in words), (note, grid.tests[0].message)
    assert grid.graded_as is GradedAs.HYBRID
    assert "every other module is yours" in (out / "feedback" / f"{name}.md").read_text(encoding="utf-8")
