"""The suite is sharp: it fails every faulty variant in the zoo, with tests that pass the reference.

Each mutant runs in a child process against the test modules of the type it patches
and of the behaviour it breaks (two at a time), so the whole zoo takes a few minutes.
"""

from pathlib import Path

import pytest

from speckit.runner import run_suite
from speckit.zoo import killed, load_mutants, run_zoo, suite_files

MUTANTS = load_mutants("connect4")
MINIMUM = 40


@pytest.fixture(scope="module")
def zoo_runs(tmp_path_factory):
    return run_zoo(MUTANTS, Path(tmp_path_factory.mktemp("zoo")), jobs=2)


@pytest.fixture(scope="module")
def reference_outcomes():
    files = sorted({f for m in MUTANTS for f in suite_files(m)})
    run = run_suite("connect4", None, tests=files)
    assert not run.crash, run.crash
    return {t["test"]: t["outcome"] for t in run.tests}


def test_the_zoo_is_large_and_spread_over_the_types():
    assert len(MUTANTS) >= MINIMUM, f"only {len(MUTANTS)} mutants; the suite issue asks for at least {MINIMUM}"
    modules = {m.module for m in MUTANTS}
    expected = {"index", "colour", "dimension", "worth", "level_number", "location", "symbol", "player", "square", "grid"}
    assert expected <= modules, f"types without a mutant: {sorted(expected - modules)}"


@pytest.mark.parametrize("mutant", MUTANTS, ids=lambda m: m.id)
def test_suite_fails_the_mutant_with_a_test_the_reference_passes(mutant, zoo_runs, reference_outcomes):
    run = zoo_runs[mutant.id]
    assert killed(run), f"the suite passes the faulty variant {mutant.id!r} ({mutant.description}){': ' + run.crash if run.crash else ''}"
    catching = [t["test"] for t in run.tests if t["outcome"] == "failed" and reference_outcomes.get(t["test"]) == "passed"]
    assert catching, f"{mutant.id}: every test failing it also fails (or is absent) on the reference"
