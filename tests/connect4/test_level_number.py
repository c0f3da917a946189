"""LevelNumberType: the level of a game-tree node, from 0 upwards.

Its clone is declared ``clone(WorthType) -> WorthType`` and described as copying a level
number (erratum E02): a package may take either, so no test makes a level number with it.
"""

from types import SimpleNamespace

from hypothesis import given
from hypothesis import strategies as st

from speckit.testing import OperationFailed, covers, expect

from . import paths
from .adapter import Build
from .numeric import check_comparisons, check_equivalence, check_round_trip, check_step, clone_fault
from .strategies import level_numbers, worth_numbers


@covers("LevelNumberType.newLevelNumberType", "LevelNumberType.equals", "LevelNumberType.greaterThan")
@given(n=st.integers(1, 60))
def test_new_level_number_is_zero(impl, n):
    ops, build = impl.level_number, Build(impl).level
    expect(
        ops.equals(ops.newLevelNumberType(), ops.newLevelNumberType()),
        "newLevelNumberType() equals another: both hold 0",
    )
    expect(
        ops.greaterThan(build(n), ops.newLevelNumberType()),
        f"level number {n} is greater than newLevelNumberType(), which holds 0",
    )


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


def _fault(find) -> str | None:
    """What is wrong with a clone, as ``find`` finds it, or what an operation raised on the way; None if nothing."""
    try:
        claim = find()
    except OperationFailed as failed:
        return str(failed).strip().splitlines()[0]
    return None if claim is None else f"'{claim}' does not hold"


@covers("LevelNumberType.clone")
@given(n=level_numbers, w=worth_numbers)
def test_clone_copies_a_level_number_or_a_worth(impl, n, w):
    """E02: an equal, independent copy of a level number (the description), or of a worth
    (the declaration, clone(WorthType) -> WorthType), compared by that type's equals."""
    build, clone = Build(impl), impl.level_number.clone
    as_level = _fault(
        lambda: clone_fault(impl.level_number, build.level, impl.level_number.increment, n, "level number")
    )
    if as_level is None:
        return
    worths = SimpleNamespace(clone=clone, equals=impl.worth.equals)
    as_worth = _fault(lambda: clone_fault(worths, build.worth, impl.worth.increment, w, "worth"))
    expect(
        as_worth is None,
        "clone copies level numbers, as described, or worths, as declared: clone(WorthType) -> WorthType (E02), "
        f"each copy equal to its source and independent of it; it does neither: as a level number's clone, {as_level}; "
        f"as a worth's, {as_worth}",
    )


# Values from every path, and the frame rule (see ``paths``) ---------------------------------------


@covers(
    "LevelNumberType.equals",
    "LevelNumberType.lessThan",
    "LevelNumberType.greaterThan",
    "LevelNumberType.newLevelNumberType",
    "LevelNumberType.increment",
    "LevelNumberType.decrement",
)
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
