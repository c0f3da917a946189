"""WorthType: how promising a grid looks, any whole number, negative, zero or positive."""

from hypothesis import given

from speckit.testing import covers, expect

from . import paths
from .adapter import Build
from .numeric import check_clone, check_comparisons, check_equivalence, check_round_trip, check_step
from .strategies import worth_numbers


@covers("WorthType.newWorthType", "WorthType.equals", "WorthType.lessThan", "WorthType.greaterThan")
def test_new_worth_is_zero_with_worths_either_side(impl):
    ops = impl.worth
    expect(
        ops.equals(ops.newWorthType(), ops.newWorthType()), "newWorthType() equals another newWorthType(): both hold 0"
    )
    expect(
        ops.lessThan(ops.decrement(ops.newWorthType()), ops.newWorthType()),
        "worth -1 is less than newWorthType(), which holds 0",
    )
    expect(
        ops.greaterThan(ops.increment(ops.newWorthType()), ops.newWorthType()),
        "worth 1 is greater than newWorthType(), which holds 0",
    )


@covers("WorthType.increment", "WorthType.equals", "WorthType.greaterThan")
@given(n=worth_numbers)
def test_increment_gives_the_next_worth(impl, n):
    check_step(impl.worth, Build(impl).worth, impl.worth.increment, n, +1, "worth", "increment")


@covers("WorthType.decrement", "WorthType.equals", "WorthType.lessThan")
@given(n=worth_numbers)
def test_decrement_gives_the_previous_worth_even_below_zero(impl, n):
    check_step(impl.worth, Build(impl).worth, impl.worth.decrement, n, -1, "worth", "decrement")


@covers("WorthType.increment", "WorthType.decrement")
@given(n=worth_numbers)
def test_decrement_undoes_increment(impl, n):
    ops, build = impl.worth, Build(impl).worth
    check_round_trip(ops, build, ops.increment, ops.decrement, n, "worth")
    expect(
        ops.equals(ops.increment(ops.decrement(build(n))), build(n)),
        f"increment(decrement(worth {n})) equals worth {n}",
    )


@covers("WorthType.lessThan", "WorthType.greaterThan", "WorthType.equals")
@given(a=worth_numbers, b=worth_numbers)
def test_comparisons_agree_with_the_numbers(impl, a, b):
    check_comparisons(impl.worth, Build(impl).worth, a, b, "worth")


@covers("WorthType.equals")
@given(a=worth_numbers, b=worth_numbers, c=worth_numbers)
def test_equals_is_an_equivalence(impl, a, b, c):
    check_equivalence(impl.worth, Build(impl).worth, a, b, c, "worth")


@covers("WorthType.clone")
@given(n=worth_numbers)
def test_clone_is_equal_and_independent(impl, n):
    check_clone(impl.worth, Build(impl).worth, impl.worth.decrement, n, "worth")


# Values from every path, and the frame rule (see ``paths``) ---------------------------------------


@covers(
    "WorthType.equals",
    "WorthType.lessThan",
    "WorthType.greaterThan",
    "WorthType.newWorthType",
    "WorthType.increment",
    "WorthType.decrement",
    "WorthType.clone",
)
@paths.few()
@given(first=paths.any_path("worth"), second=paths.any_path("worth"))
def test_worths_made_by_any_path_compare_by_their_numbers(impl, first, second):
    paths.check_compared(impl, first, second)


@covers("WorthType.increment")
@paths.few()
@given(case=paths.frame_cases("WorthType.increment"))
def test_increment_changes_its_argument_at_most(impl, case):
    paths.check_frame_case(impl, case)


@covers("WorthType.decrement")
@paths.few()
@given(case=paths.frame_cases("WorthType.decrement"))
def test_decrement_changes_its_argument_at_most(impl, case):
    paths.check_frame_case(impl, case)
