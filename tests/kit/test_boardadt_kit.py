"""The BoardADT suite is sharp, fair and complete.

* sharp: it fails every faulty variant in tests/zoo/boardadt, each with a test that
  passes the reference (each mutant runs in a child process against the test modules
  of the module it patches and of the behaviour it breaks, two at a time);
* fair: it passes tests/fixtures/alt_boardadt, a correct implementation that makes
  other legitimate choices (string colours, a dictionary board, a new record from
  each Get_Value, the other readings of errata B02, B04, B05 and B09);
* complete: the specification loads, and every documented operation has a test.
"""

from pathlib import Path

import pytest

import spec
from speckit.runner import run_suite
from speckit.traceability import uncovered, unknown_names
from speckit.zoo import killed, load_mutants, run_zoo, suite_files

MUTANTS = load_mutants("boardadt")
MINIMUM = 15
ALTERNATIVE = Path(__file__).resolve().parent.parent / "fixtures" / "alt_boardadt"


@pytest.fixture(scope="module")
def zoo_runs(tmp_path_factory):
    return run_zoo(MUTANTS, Path(tmp_path_factory.mktemp("boardadt-zoo")), jobs=2)


@pytest.fixture(scope="module")
def reference_outcomes():
    files = sorted({f for m in MUTANTS for f in suite_files(m)})
    run = run_suite("boardadt", None, tests=files)
    assert not run.crash, run.crash
    return {t["test"]: t["outcome"] for t in run.tests}


def test_the_specification_loads_with_its_types_and_errata():
    boardadt = spec.load("boardadt")
    assert [t.name for t in boardadt.types] == ["color_type", "square_type", "value_type", "board_type", "Player"]
    assert len(list(boardadt.operations())) == 11
    assert len(boardadt.errata) >= 10
    assert boardadt.type("board_adt").class_name == "Board"


def test_every_documented_operation_is_covered_by_a_test():
    boardadt = spec.load("boardadt")
    assert not uncovered(boardadt), f"operations without a covering test: {uncovered(boardadt)}"
    assert not unknown_names(boardadt), f"covers markers naming no operation: {unknown_names(boardadt)}"


def test_the_zoo_is_large_and_spread_over_the_modules():
    assert len(MUTANTS) >= MINIMUM, f"only {len(MUTANTS)} mutants; at least {MINIMUM} are asked for"
    modules = {m.module for m in MUTANTS}
    assert {"board_adt", "player", "square", "value", "color"} <= modules, f"modules without a mutant: {modules}"
    broken = {m.breaks for m in MUTANTS}
    board_ops = {op.qualname for op in spec.load("boardadt").type("board_type").operations if op.name != "Board"}
    assert board_ops <= broken, f"board operations no mutant breaks: {sorted(board_ops - broken)}"


@pytest.mark.parametrize("mutant", MUTANTS, ids=lambda m: m.id)
def test_suite_fails_the_mutant_with_a_test_the_reference_passes(mutant, zoo_runs, reference_outcomes):
    run = zoo_runs[mutant.id]
    assert killed(run), f"the suite passes the faulty variant {mutant.id!r} ({mutant.description}){': ' + run.crash if run.crash else ''}"
    catching = [t["test"] for t in run.tests if t["outcome"] == "failed" and reference_outcomes.get(t["test"]) == "passed"]
    assert catching, f"{mutant.id}: every test failing it also fails (or is absent) on the reference"


def test_the_whole_suite_passes_the_alternative_correct_implementation():
    run = run_suite("boardadt", ALTERNATIVE)
    assert not run.crash, run.crash
    failures = [f"{t['test']}\n{t['message']}" for t in run.tests if t["outcome"] == "failed"]
    assert run.tests, "the suite ran no test"
    assert not failures, f"{len(failures)} tests fail a correct implementation:\n\n" + "\n\n".join(failures[:5])
