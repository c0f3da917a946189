"""IndexType: a row or column number, from 1 upwards."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from speckit.testing import covers, expect

from . import paths
from .adapter import Build, offers
from .numeric import check_clone, check_comparisons, check_equivalence, check_round_trip, check_step
from .strategies import index_numbers


@covers("IndexType.newIndexType", "IndexType.lessThan", "IndexType.equals")
@given(n=index_numbers)
def test_new_index_is_one_the_smallest(impl, n):
    ops, build = impl.index, Build(impl).index
    expect(
        not ops.lessThan(build(n), ops.newIndexType()),
        f"lessThan(index {n}, newIndexType()) gives False: newIndexType() holds 1, the smallest index",
    )
    expect(ops.equals(ops.newIndexType(), build(1)), "newIndexType() equals another newIndexType()")


@covers("IndexType.increment", "DimensionType.newDimensionType", "DimensionType.equals")
def test_three_increments_from_the_default_make_four(impl):
    build = Build(impl)
    if not offers(impl.dimension.newDimensionType, 0):
        pytest.skip("the package offers only newDimensionType(IndexType), as declared (erratum E03)")
    expect(
        impl.dimension.equals(impl.dimension.newDimensionType(build.index(4)), impl.dimension.newDimensionType()),
        "newIndexType() incremented 3 times holds 4: newDimensionType of it equals the default dimension, 4",
    )


@covers("IndexType.increment", "IndexType.equals", "IndexType.greaterThan")
@given(n=index_numbers)
def test_increment_gives_the_next_index(impl, n):
    check_step(impl.index, Build(impl).index, impl.index.increment, n, +1, "index", "increment")


@covers("IndexType.decrement", "IndexType.equals", "IndexType.lessThan")
@given(n=st.integers(2, 60))
def test_decrement_gives_the_previous_index(impl, n):
    check_step(impl.index, Build(impl).index, impl.index.decrement, n, -1, "index", "decrement")


@covers("IndexType.increment", "IndexType.decrement")
@given(n=index_numbers)
def test_decrement_undoes_increment(impl, n):
    check_round_trip(impl.index, Build(impl).index, impl.index.increment, impl.index.decrement, n, "index")


@covers("IndexType.lessThan", "IndexType.greaterThan", "IndexType.equals")
@given(a=index_numbers, b=index_numbers)
def test_comparisons_agree_with_the_numbers(impl, a, b):
    check_comparisons(impl.index, Build(impl).index, a, b, "index")


@covers("IndexType.equals")
@given(a=index_numbers, b=index_numbers, c=index_numbers)
def test_equals_is_an_equivalence(impl, a, b, c):
    check_equivalence(impl.index, Build(impl).index, a, b, c, "index")


@covers("IndexType.clone")
@given(n=index_numbers)
def test_clone_is_equal_and_independent(impl, n):
    check_clone(impl.index, Build(impl).index, impl.index.increment, n, "index")


# Values from every path, and the frame rule (see ``paths``) ---------------------------------------


@covers(
    "IndexType.equals",
    "IndexType.lessThan",
    "IndexType.greaterThan",
    "IndexType.newIndexType",
    "IndexType.increment",
    "IndexType.decrement",
    "IndexType.clone",
)
@paths.few()
@given(first=paths.any_path("index"), second=paths.any_path("index"))
def test_indexes_made_by_any_path_compare_by_their_numbers(impl, first, second):
    paths.check_compared(impl, first, second)


@covers("IndexType.increment")
@paths.few()
@given(case=paths.frame_cases("IndexType.increment"))
def test_increment_changes_its_argument_at_most(impl, case):
    paths.check_frame_case(impl, case)


@covers("IndexType.decrement")
@paths.few()
@given(case=paths.frame_cases("IndexType.decrement"))
def test_decrement_changes_its_argument_at_most(impl, case):
    paths.check_frame_case(impl, case)
