"""A failing example's values are let go once Hypothesis has moved on (issue 31).

Hypothesis keeps the exception of every failing example it meets while shrinking, and
with it the test's frames; in the sandbox each value those frames hold stays alive in
the operation server and its mirrored objects are sent with every later call. The
plugin clears the frames of each failing example but the final one, which pytest
reports with its locals.
"""

pytest_plugins = ["pytester"]

MODULE = '''
import weakref
from pathlib import Path

from hypothesis import given, settings, strategies as st


class Value:
    """Stands for a value an example made (a handle on the server's value, in the sandbox)."""


ALIVE = weakref.WeakSet()


@settings(derandomize=True, database=None)
@given(st.lists(st.integers(0, 1000), min_size=3))
def test_fails_on_a_large_sum(numbers):
    value_of_this_example = Value()
    ALIVE.add(value_of_this_example)
    with Path("alive.txt").open("a") as counts:
        counts.write(f"{len(ALIVE)}\\n")
    assert sum(numbers) <= 100, "fails on a sum above 100"
'''


def test_only_the_running_examples_values_are_alive_and_the_reported_one_keeps_its_locals(pytester):
    pytester.makepyfile(test_let_go=MODULE)
    result = pytester.runpytest_subprocess("-p", "speckit.pytest_plugin", "-p", "no:cacheprovider", "--showlocals")
    result.assert_outcomes(failed=1)
    alive = [int(n) for n in (pytester.path / "alive.txt").read_text().split()]
    assert len(alive) > 10, "Hypothesis shrank the failure through many examples"
    assert max(alive) <= 2, alive
    assert "value_of_this_example = <test_let_go.Value object" in result.stdout.str()
