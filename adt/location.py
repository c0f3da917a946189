"""LocationType: where a square is, a row index and a column index."""

from __future__ import annotations

import attrs

from . import index as index_adt
from .index import Index


@attrs.define
class Location:
    """A location value: a row and a column."""

    row: Index = attrs.field(factory=index_adt.newIndexType)
    column: Index = attrs.field(factory=index_adt.newIndexType)


def newLocationType() -> Location:
    """Make a new location at row 1, column 1 (erratum E12)."""
    return Location()


def setRow(location: Location, row: Index) -> Location:
    """Set the location's row and return the location."""
    location.row = row
    return location


def getRow(location: Location) -> Index:
    """Return the location's row."""
    return location.row


def setColumn(location: Location, column: Index) -> Location:
    """Set the location's column and return the location."""
    location.column = column
    return location


def getColumn(location: Location) -> Index:
    """Return the location's column."""
    return location.column


def clone(location: Location) -> Location:
    """Return an independent copy of the location, with copies of its indexes."""
    copy = newLocationType()
    copy = setRow(copy, index_adt.clone(getRow(location)))
    return setColumn(copy, index_adt.clone(getColumn(location)))
