"""A test failing because an operation is missing or not implemented stops at its first example.

Every example fails such a test alike, so the plugin carries the failure past Hypothesis's
shrinking (which can take a minute on a large input) and reports it as it was raised.
A failure of behaviour is still shrunk to its smallest example, and every test keeps
the examples it had without the plugin (Hypothesis derives them from the test's source).
"""

pytest_plugins = ["pytester"]

MODULE = """
from pathlib import Path

from hypothesis import given, strategies as st

from speckit.core import {failure}


@given(st.lists(st.integers(), min_size=3))
def test_calls_the_operation(numbers):
    with Path("examples.txt").open("a") as examples:
        examples.write(repr(numbers) + "\\n")
    raise {failure}("BoardT.setStack fails on every input", "BoardT.setStack")
"""


def run(pytester, failure: str) -> tuple[list[str], str]:
    pytester.makepyfile(test_unrunnable=MODULE.format(failure=failure))
    result = pytester.runpytest_subprocess("-p", "speckit.pytest_plugin", "-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    return (pytester.path / "examples.txt").read_text().splitlines(), result.stdout.str()


def test_a_not_implemented_operation_fails_at_the_first_example_as_itself(pytester):
    examples, output = run(pytester, "NotImplementedOperation")
    assert len(examples) == 1, examples
    assert "NotImplementedOperation: BoardT.setStack fails on every input" in output
    assert "_NoOtherExample" not in output


def test_a_missing_operation_fails_at_the_first_example(pytester):
    examples, output = run(pytester, "MissingOperation")
    assert len(examples) == 1, examples
    assert "MissingOperation: BoardT.setStack" in output


def test_a_failed_operation_is_still_shrunk_to_its_smallest_example(pytester):
    examples, _ = run(pytester, "OperationFailed")
    assert len(examples) > 1 and examples[-1] == "[0, 0, 0]", examples[-5:]


EXAMPLES = """
from pathlib import Path

from hypothesis import given, settings, strategies as st


@settings(derandomize=True, database=None, max_examples=8)
@given(st.integers())
def test_{name}(number):
    with Path("{name}.txt").open("a") as examples:
        examples.write(repr(number) + "\\n")
"""


def test_each_test_keeps_its_own_examples(pytester):
    pytester.makepyfile(test_first=EXAMPLES.format(name="first"), test_second=EXAMPLES.format(name="second"))

    def examples(*options: str) -> dict[str, list[str]]:
        for name in ("first", "second"):
            (pytester.path / f"{name}.txt").unlink(missing_ok=True)
        pytester.runpytest_subprocess("-p", "no:cacheprovider", *options).assert_outcomes(passed=2)
        return {name: (pytester.path / f"{name}.txt").read_text().splitlines() for name in ("first", "second")}

    plain = examples()
    with_plugin = examples("-p", "speckit.pytest_plugin")
    assert with_plugin == plain
    assert plain["first"] != plain["second"]
