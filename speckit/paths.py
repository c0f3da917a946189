"""Where the kit's own files are: the conformance suite and the reference implementation."""

from __future__ import annotations

from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent


def suite_root() -> Path:
    """The folder holding the conformance suites (``tests/<spec>/test_*.py``)."""
    return REPO_ROOT / "tests"
