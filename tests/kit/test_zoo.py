"""The suites are sharp: each fails every faulty variant in its zoo, with tests that pass the reference.

Each mutant runs in a child process against the test modules of the type it patches
and of the behaviour it breaks (two at a time), stopping at the first failure, so a
whole zoo takes a few minutes.
"""

from pathlib import Path

import pytest

import spec
from speckit.core import Outcome
from speckit.registry import names
from speckit.runner import run_suite
from speckit.zoo import killed, load_mutants, run_zoo, suite_files

MINIMUM = {"connect4": 40}
"""How many faulty variants a specification's zoo must hold at least, where more than 15."""

SPREAD = {"boardadt": {"board_adt", "player", "square", "value", "color"}}
"""The reference modules a zoo must have mutants of, where not every module of a type the students write."""


def spread(name: str) -> set[str]:
    return SPREAD.get(name) or {t.module for t in spec.load(name).types if not t.supplied}


MUTANTS = {name: load_mutants(name) for name in names()}
CASES = [pytest.param(name, m, id=m.id) for name, mutants in MUTANTS.items() for m in mutants]
_runs: dict[str, dict] = {}
_reference: dict[str, dict[str, Outcome]] = {}


def zoo_runs(name: str, scratch: Path) -> dict:
    if name not in _runs:
        _runs[name] = run_zoo(MUTANTS[name], scratch / name, jobs=2)
    return _runs[name]


def reference_outcomes(name: str) -> dict:
    if name not in _reference:
        files = sorted({f for m in MUTANTS[name] for f in suite_files(m)})
        run = run_suite(name, None, tests=files)
        assert not run.crash, run.crash
        _reference[name] = {t.test: t.outcome for t in run.tests}
    return _reference[name]


@pytest.mark.parametrize("name", names())
def test_the_zoo_is_large_and_spread_over_the_types(name):
    mutants = MUTANTS[name]
    assert len(mutants) >= MINIMUM.get(name, 15), (
        f"only {len(mutants)} mutants; at least {MINIMUM.get(name, 15)} are asked for"
    )
    missing = spread(name) - {m.module for m in mutants}
    assert not missing, f"modules without a mutant: {sorted(missing)}"


@pytest.mark.parametrize("name, mutant", CASES)
def test_suite_fails_the_mutant_with_a_test_the_reference_passes(name, mutant, tmp_path_factory):
    run = zoo_runs(name, Path(tmp_path_factory.getbasetemp()))[mutant.id]
    assert killed(run), (
        f"the suite passes the faulty variant {mutant.id!r} ({mutant.description})"
        f"{': ' + run.crash if run.crash else ''}"
    )
    reference = reference_outcomes(name)
    catching = [t.test for t in run.failed_tests() if reference.get(t.test) is Outcome.PASSED]
    assert catching, f"{mutant.id}: every test failing it also fails (or is absent) on the reference"
