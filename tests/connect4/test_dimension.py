"""DimensionType: the side length of a square grid, from 4 upwards."""

import pytest
from hypothesis import given

from speckit.testing import covers, expect, expect_equal

from . import paths
from .adapter import Build, offers
from .numeric import check_comparisons, check_equivalence
from .strategies import dimension_numbers


@covers("DimensionType.newDimensionType", "DimensionType.equals", "DimensionType.lessThan", "DimensionType.greaterThan")
@given(n=dimension_numbers)
def test_new_dimension_is_four_the_smallest(impl, n):
    ops, build = impl.dimension, Build(impl).dimension
    if not offers(ops.newDimensionType, 0):
        pytest.skip("the package offers only newDimensionType(IndexType), as declared (erratum E03)")
    expect(
        ops.equals(ops.newDimensionType(), build(4)), "newDimensionType() holds 4, as newDimensionType(index 4) does"
    )
    expect(
        not ops.lessThan(build(n), ops.newDimensionType()),
        f"no dimension ({n}) is less than newDimensionType(), which holds 4",
    )
    expect_equal(
        ops.greaterThan(build(n), ops.newDimensionType()),
        n > 4,
        f"greaterThan(dimension {n}, newDimensionType()), which holds 4",
    )


@covers("DimensionType.newDimensionType", "DimensionType.equals")
@given(n=dimension_numbers)
def test_new_dimension_holds_the_index_number(impl, n):
    ops, build = impl.dimension, Build(impl)
    expect(
        ops.equals(ops.newDimensionType(build.index(n)), ops.newDimensionType(build.index(n))),
        f"newDimensionType(index {n}) equals another newDimensionType(index {n})",
    )
    expect(
        not ops.equals(ops.newDimensionType(build.index(n)), ops.newDimensionType(build.index(n + 1))),
        f"newDimensionType(index {n}) differs from newDimensionType(index {n + 1})",
    )


@covers("DimensionType.lessThan", "DimensionType.greaterThan", "DimensionType.equals")
@given(a=dimension_numbers, b=dimension_numbers)
def test_comparisons_agree_with_the_numbers(impl, a, b):
    check_comparisons(impl.dimension, Build(impl).dimension, a, b, "dimension")


@covers("DimensionType.equals")
@given(a=dimension_numbers, b=dimension_numbers, c=dimension_numbers)
def test_equals_is_an_equivalence(impl, a, b, c):
    check_equivalence(impl.dimension, Build(impl).dimension, a, b, c, "dimension")


@covers("DimensionType.clone", "DimensionType.equals", "DimensionType.lessThan", "DimensionType.greaterThan")
@given(n=dimension_numbers)
def test_clone_is_equal(impl, n):
    # DimensionType has no update, so a clone's independence cannot be observed through it.
    ops, build = impl.dimension, Build(impl).dimension
    copy = ops.clone(build(n))
    expect(ops.equals(copy, build(n)), f"clone(dimension {n}) equals dimension {n}")
    expect(ops.lessThan(copy, build(n + 1)), f"clone(dimension {n}) is less than dimension {n + 1}")
    expect(not ops.greaterThan(copy, build(n)), f"clone(dimension {n}) is not greater than dimension {n}")


# Values from every path, and the frame rule (see ``paths``) ---------------------------------------


@covers(
    "DimensionType.equals",
    "DimensionType.lessThan",
    "DimensionType.greaterThan",
    "DimensionType.newDimensionType",
    "DimensionType.clone",
)
@paths.few()
@given(first=paths.any_path("dimension"), second=paths.any_path("dimension"))
def test_dimensions_made_by_any_path_compare_by_their_numbers(impl, first, second):
    paths.check_compared(impl, first, second)
