"""The suites are fair: each passes a correct implementation that makes other legitimate choices.

tests/fixtures/alt_connect4 returns new values from updates instead of changing their
arguments, represents the numeric types as plain ints, and makes Python's == mean
identity (errata E01, E25); tests/fixtures/alt_boardadt uses string colours, a
dictionary board, and the other readings of errata B02, B04, B05 and B09.
"""

import pytest

from speckit.registry import kit, names
from speckit.runner import run_suite


@pytest.mark.parametrize("name", names())
def test_the_whole_suite_passes_the_alternative_correct_implementation(name):
    run = run_suite(name, kit(name).alternative_dir)
    assert not run.crash, run.crash
    failures = [f"{t.test}\n{t.message}" for t in run.failed_tests()]
    assert run.tests, "the suite ran no test"
    assert not failures, f"{len(failures)} tests fail a correct implementation:\n\n" + "\n\n".join(failures[:5])
