"""Shared helpers of the grading tests: building submissions from the reference."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from speckit.registry import kit

HERE = Path(__file__).resolve().parent
MALICIOUS = HERE / "submissions"
REFERENCE = kit("connect4").reference_dir

INDEX_RUBRIC = """
spec = "connect4"
title = "Index only"
[grading]
mode = "submitted"
common = []
hidden = ["*equivalence*"]
[limits]
test_seconds = 60
run_seconds = 600
[types.IndexType]
points = 4
"""

needs_root = pytest.mark.skipif(
    os.geteuid() != 0,
    reason="the sandbox confines student code (other uid, mount namespace) only when the grader runs as root",
)


def reference_copy(destination: Path, **modules: str) -> Path:
    """A copy of the reference package, with the given modules' text replaced."""
    shutil.copytree(REFERENCE, destination, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    for name, text in modules.items():
        (destination / f"{name}.py").write_text(text, encoding="utf-8")
    return destination


def patched_reference(destination: Path, module: str, find: str, replace: str) -> Path:
    """A copy of the reference with one textual change in one module (the change must apply once)."""
    text = (REFERENCE / f"{module}.py").read_text(encoding="utf-8")
    assert text.count(find) == 1, f"{find!r} occurs {text.count(find)} times in {module}.py"
    return reference_copy(destination, **{module: text.replace(find, replace)})


INCREMENT = '''def increment(index: Index) -> Index:
    """Add one to the index and return it."""
'''
