"""The suite is fair: it passes a correct implementation that makes other legitimate choices.

The alternative in tests/fixtures/alt_connect4 returns new values from updates instead
of changing their arguments, represents the numeric types as plain ints, and makes
Python's == mean identity: all allowed by the specification (errata E01, E25).
"""

from pathlib import Path

from speckit.runner import run_suite

ALTERNATIVE = Path(__file__).resolve().parent.parent / "fixtures" / "alt_connect4"


def test_the_whole_suite_passes_the_alternative_correct_implementation():
    run = run_suite("connect4", ALTERNATIVE)
    assert not run.crash, run.crash
    failures = [f"{t['test']}\n{t['message']}" for t in run.tests if t["outcome"] == "failed"]
    assert run.tests, "the suite ran no test"
    assert not failures, f"{len(failures)} tests fail a correct implementation:\n\n" + "\n\n".join(failures[:5])
