"""MALICIOUS FIXTURE (killparent): Sends SIGKILL to its parent (the grader's test process) and to the parent's process group.

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
    import os
    import signal

    try:
        os.killpg(os.getpgid(os.getppid()), signal.SIGKILL)
    except OSError:
        pass
    os.kill(os.getppid(), signal.SIGKILL)
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
