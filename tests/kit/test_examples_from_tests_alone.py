"""A test's examples depend on the test alone, not on the literals of the code it loads.

Hypothesis sometimes draws a constant found in any loaded module that is not installed; with
the plugin, two implementations whose source holds different literals get the same examples.
"""

pytest_plugins = ["pytester"]

TEST = """
from pathlib import Path

from hypothesis import given, settings, strategies as st

import student_code


@settings(derandomize=True, database=None, max_examples=300)
@given(st.integers(), st.text(max_size=3))
def test_examples(number, text):
    with Path("examples.txt").open("a") as examples:
        examples.write(repr((number, text)) + "\\n")
"""


def examples(pytester, literals: str) -> list[str]:
    pytester.makepyfile(student_code=f"LITERALS = {literals}\n", test_examples=TEST)
    (pytester.path / "examples.txt").unlink(missing_ok=True)
    pytester.runpytest_subprocess("-p", "speckit.pytest_plugin", "-p", "no:cacheprovider").assert_outcomes(passed=1)
    return (pytester.path / "examples.txt").read_text().splitlines()


def test_the_literals_of_loaded_code_do_not_change_the_examples(pytester):
    first = examples(pytester, "(918273645, 'zq', 5.5)")
    second = examples(pytester, "(-77665544, 'wv', 9.25)")
    assert first == second
    assert not any("918273645" in e or "-77665544" in e for e in first)
