"""A test marked ``reference_only`` runs on the reference and is skipped, saying why, under ``--impl``.

The tests of the kit's own programs and of the reference's private parts carry the mark
(``tests/programs/``); the plugin enforces it, so no module writes its own skipping fixture.
"""

pytest_plugins = ["pytester"]

MODULE = """
import pytest

pytestmark = pytest.mark.reference_only("the kit's own game")


def test_the_game_starts():
    pass


@pytest.mark.reference_only("the reference's own saving")
def test_a_save_is_kept():
    pass


def test_the_board_is_drawn():
    pass
"""


def run(pytester, *options: str):
    pytester.makepyfile(test_programs=MODULE)
    return pytester.runpytest_subprocess("-p", "speckit.pytest_plugin", "-p", "no:cacheprovider", "-rs", *options)


def test_marked_tests_run_without_impl(pytester):
    run(pytester).assert_outcomes(passed=3)


def test_marked_tests_are_skipped_under_impl_saying_what_they_test(pytester):
    result = run(pytester, "--impl", str(pytester.path / "student"))
    result.assert_outcomes(passed=0, skipped=3)
    output = result.stdout.str()
    assert "SKIPPED [2] test_programs.py: tests the kit's own game, not the implementation given with --impl" in output
    # A test's own mark, the closest, says what it tests.
    assert "tests the reference's own saving, not the implementation given with --impl" in output
