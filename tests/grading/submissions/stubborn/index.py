"""MALICIOUS FIXTURE (stubborn): Loops forever in increment with SIGALRM blocked and every exception swallowed: only a kill stops it.

Expected grade: as if increment raised an exception: every test that calls it fails, the others pass. The rest is the reference IndexType.
"""


from __future__ import annotations

import attrs

from spec import require


@attrs.define
class Index:
    """An index value; ``number`` is at least 1."""

    number: int = 1


def newIndexType() -> Index:
    """Make a new index holding 1."""
    return Index()


def increment(index: Index) -> Index:
    """Add one to the index and return it."""
    import signal

    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
    while True:
        try:
            pass
        except BaseException:
            pass
    index.number += 1
    return index


def decrement(index: Index) -> Index:
    """Subtract one from the index and return it; the index must be above 1."""
    require(index.number > 1, "IndexType.decrement", f"the index must be greater than 1 (it is {index.number})")
    index.number -= 1
    return index


def lessThan(first: Index, second: Index) -> bool:
    """Whether the first index is numerically smaller than the second."""
    return first.number < second.number


def greaterThan(first: Index, second: Index) -> bool:
    """Whether the first index is numerically larger than the second."""
    return first.number > second.number


def equals(first: Index, second: Index) -> bool:
    """Whether the two indexes hold the same number."""
    return first.number == second.number


def clone(index: Index) -> Index:
    """Return an independent copy of the index."""
    return Index(index.number)
