"""LocationType: where a square is, a row index and a column index."""

from hypothesis import given

from speckit.testing import covers, expect

from . import paths
from .adapter import Build
from .strategies import index_numbers, locations


def check_at(impl, location, row: int, column: int, claim: str) -> None:
    """The location's row and column are the indexes ``row`` and ``column``."""
    build = Build(impl)
    expect(impl.index.equals(impl.location.getRow(location), build.index(row)), f"{claim}: getRow gives index {row}")
    expect(
        impl.index.equals(impl.location.getColumn(location), build.index(column)),
        f"{claim}: getColumn gives index {column}",
    )


@covers("LocationType.newLocationType", "LocationType.getRow", "LocationType.getColumn")
def test_new_location_is_row_one_column_one(impl):
    check_at(impl, impl.location.newLocationType(), 1, 1, "newLocationType() is row 1, column 1 (E12)")


@covers("LocationType.setRow", "LocationType.getRow", "LocationType.getColumn")
@given(start=locations(), row=index_numbers)
def test_set_row_replaces_the_row_only(impl, start, row):
    build = Build(impl)
    after = impl.location.setRow(build.location(*start), build.index(row))
    check_at(impl, after, row, start[1], f"setRow(location {start}, index {row})")


@covers("LocationType.setColumn", "LocationType.getRow", "LocationType.getColumn")
@given(start=locations(), column=index_numbers)
def test_set_column_replaces_the_column_only(impl, start, column):
    build = Build(impl)
    after = impl.location.setColumn(build.location(*start), build.index(column))
    check_at(impl, after, start[0], column, f"setColumn(location {start}, index {column})")


@covers("LocationType.setRow", "LocationType.setColumn", "LocationType.getRow", "LocationType.getColumn")
@given(at=locations())
def test_rows_and_columns_are_kept_apart(impl, at):
    row, column = at
    build, ops = Build(impl), impl.location
    after = ops.setColumn(ops.setRow(ops.newLocationType(), build.index(row)), build.index(column))
    check_at(impl, after, row, column, f"setColumn(setRow(newLocationType(), index {row}), index {column})")
    after = ops.setRow(ops.setColumn(ops.newLocationType(), build.index(column)), build.index(row))
    check_at(impl, after, row, column, f"setRow(setColumn(newLocationType(), index {column}), index {row})")


@covers(
    "LocationType.clone",
    "LocationType.getRow",
    "LocationType.getColumn",
    "LocationType.setRow",
    "LocationType.setColumn",
)
@given(at=locations(), other=locations())
def test_clone_is_equal_and_independent(impl, at, other):
    build, ops = Build(impl), impl.location
    source = build.location(*at)
    copy = ops.clone(source)
    check_at(impl, copy, *at, f"clone(location {at})")
    moved = ops.setColumn(ops.setRow(copy, build.index(other[0])), build.index(other[1]))
    check_at(impl, moved, *other, f"a clone of location {at} moved to {other}")
    check_at(impl, source, *at, f"moving a clone of location {at} leaves the source")
    source = build.location(*at)
    copy = ops.clone(source)
    ops.setColumn(ops.setRow(source, build.index(other[0])), build.index(other[1]))
    check_at(impl, copy, *at, f"moving the source to {other} leaves its clone at {at}")


# Values from every path, and the frame rule (see ``paths``) ---------------------------------------


@covers(
    "LocationType.getRow",
    "LocationType.getColumn",
    "LocationType.newLocationType",
    "LocationType.setRow",
    "LocationType.setColumn",
    "LocationType.clone",
)
@paths.few()
@given(first=paths.any_path("location"), second=paths.any_path("location"))
def test_locations_made_by_any_path_show_their_row_and_column(impl, first, second):
    paths.check_compared(impl, first, second)


@covers("LocationType.setRow")
@paths.few()
@given(case=paths.frame_cases("LocationType.setRow"))
def test_set_row_changes_its_argument_at_most(impl, case):
    paths.check_frame_case(impl, case)


@covers("LocationType.setColumn")
@paths.few()
@given(case=paths.frame_cases("LocationType.setColumn"))
def test_set_column_changes_its_argument_at_most(impl, case):
    paths.check_frame_case(impl, case)
