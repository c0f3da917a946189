"""MALICIOUS FIXTURE (writer): Writes fake grades and results into the output folder and its working directory, then behaves.

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
    _forge_outputs()
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


def _forge_outputs():
    """Plant fake grades where the grader writes them; write a fake results.json where it runs."""
    import json
    import os

    fake = json.dumps({"score": 1000, "tests": [], "output": "FAKE RESULTS"})
    targets = ["results.json", "@OUT@/grades.csv", "@OUT@/results/writer/results.json", "@OUT@/feedback/writer.md"]
    for target in targets:
        try:
            os.makedirs(os.path.dirname(target) or ".", exist_ok=True)
            with open(target, "w") as f:
                f.write(fake if target.endswith(".json") else "student,total\nwriter,FAKE 1000\n")
        except OSError:
            pass
    try:
        os.symlink("/etc/passwd", "@OUT@/junit")
    except OSError:
        pass
    print(fake)
