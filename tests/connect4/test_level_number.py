"""LevelNumberType: the level of a game-tree node, from 0 upwards."""

from hypothesis import given
from hypothesis import strategies as st

from speckit.testing import covers, expect

from .numeric import check_clone, check_comparisons, check_equivalence, check_round_trip, check_step
from . import paths
from .strategies import Build, level_numbers


@covers("LevelNumberType.newLevelNumberType", "LevelNumberType.equals", "LevelNumberType.greaterThan")
@given(n=st.integers(1, 60))
def test_new_level_number_is_zero(impl, n):
    ops, build = impl.level_number, Build(impl).level
    expect(ops.equals(ops.newLevelNumberType(), ops.newLevelNumberType()), "newLevelNumberType() equals another: both hold 0")
    expect(ops.greaterThan(build(n), ops.newLevelNumberType()), f"level number {n} is greater than newLevelNumberType(), which holds 0")


@covers("LevelNumberType.increment", "LevelNumberType.equals", "LevelNumberType.greaterThan")
@given(n=level_numbers)
def test_increment_gives_the_next_level_number(impl, n):
    check_step(impl.level_number, Build(impl).level, impl.level_number.increment, n, +1, "level number", "increment")


@covers("LevelNumberType.decrement", "LevelNumberType.equals", "LevelNumberType.lessThan")
@given(n=st.integers(1, 60))
def test_decrement_gives_the_previous_level_number(impl, n):
    check_step(impl.level_number, Build(impl).level, impl.level_number.decrement, n, -1, "level number", "decrement")


@covers("LevelNumberType.increment", "LevelNumberType.decrement")
@given(n=level_numbers)
def test_decrement_undoes_increment(impl, n):
    ops = impl.level_number
    check_round_trip(ops, Build(impl).level, ops.increment, ops.decrement, n, "level number")


@covers("LevelNumberType.lessThan", "LevelNumberType.greaterThan", "LevelNumberType.equals")
@given(a=level_numbers, b=level_numbers)
def test_comparisons_agree_with_the_numbers(impl, a, b):
    check_comparisons(impl.level_number, Build(impl).level, a, b, "level number")


@covers("LevelNumberType.equals")
@given(a=level_numbers, b=level_numbers, c=level_numbers)
def test_equals_is_an_equivalence(impl, a, b, c):
    check_equivalence(impl.level_number, Build(impl).level, a, b, c, "level number")


@covers("LevelNumberType.clone")
@given(n=level_numbers)
def test_clone_is_equal_and_independent(impl, n):
    check_clone(impl.level_number, Build(impl).level, impl.level_number.increment, n, "level number")


# Values from every path, and the frame rule (see ``paths``) ---------------------------------------


@covers("LevelNumberType.equals", "LevelNumberType.lessThan", "LevelNumberType.greaterThan", "LevelNumberType.newLevelNumberType", "LevelNumberType.increment", "LevelNumberType.decrement", "LevelNumberType.clone")
@paths.few()
@given(first=paths.any_path("level"), second=paths.any_path("level"))
def test_level_numbers_made_by_any_path_compare_by_their_numbers(impl, first, second):
    paths.check_compared(impl, first, second)


@covers("LevelNumberType.increment")
@paths.few()
@given(case=paths.frame_cases("LevelNumberType.increment"))
def test_increment_changes_its_argument_at_most(impl, case):
    paths.check_frame_case(impl, case)


@covers("LevelNumberType.decrement")
@paths.few()
@given(case=paths.frame_cases("LevelNumberType.decrement"))
def test_decrement_changes_its_argument_at_most(impl, case):
    paths.check_frame_case(impl, case)
