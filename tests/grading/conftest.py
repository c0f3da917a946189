"""Shared helpers of the grading tests: building submissions from the reference."""

from __future__ import annotations

import ast
import json
import os
import shutil
import tomllib
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

INDEX_DIMENSION_RUBRIC = """
spec = "connect4"
title = "Index and Dimension"
[grading]
mode = "best"
common = []
hidden = ["*equivalence*"]
[types.IndexType]
points = 4
[types.DimensionType]
points = 3
"""
"""The rubric of the tests that grade whole runs: two types, the second using the first."""

needs_root = pytest.mark.skipif(
    os.geteuid() != 0,
    reason="the sandbox confines student code (other uid, mount namespace) only when the grader runs as root",
)


def grade_files(folder: Path) -> dict[str, bytes]:
    """The grade files of a run, by path, without what holds times: the log, the class report, a shard's
    own record, and the seconds each submission took in its record. That the report is the same from the
    same records is test_class_report's."""
    files = {}
    for p in sorted(folder.rglob("*")):
        if not p.is_file() or p.name in ("grading.log", "shard.json", "report.html"):
            continue
        data = p.read_bytes()
        if p.parent.name == "records":
            data = json.dumps({k: v for k, v in json.loads(data).items() if k != "seconds"}, sort_keys=True).encode()
        files[p.relative_to(folder).as_posix()] = data
    return files


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


FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def plain_alternative(destination: Path) -> Path:
    """tests/fixtures/alt_connect4_plain.toml made a package at ``destination``: alt_connect4 with every
    value that can be a plain Python value one (colours "R" and "B", ints), with value semantics."""
    from speckit.patches import variant_of

    return variant_of(FIXTURES / "alt_connect4", FIXTURES / "alt_connect4_plain.toml", destination)


@pytest.fixture(scope="session")
def plain(tmp_path_factory) -> Path:
    """The plain alternative (:func:`plain_alternative`), made once per session."""
    return plain_alternative(tmp_path_factory.mktemp("plain") / "alt_connect4_plain")


INCREMENT = '''def increment(index: Index) -> Index:
    """Add one to the index and return it."""
'''


MODULE_PLACES = {"imports": "\n", "end": "\n\n"}
"""The module-level places code may be injected at, with the blank lines that set it off."""


def malicious_cases() -> list[str]:
    """The names of the malicious fixtures in ``submissions``."""
    return sorted(path.stem for path in MALICIOUS.glob("*.toml"))


def _injection_line(tree: ast.Module, place: str, total: int) -> int:
    """How many lines of the reference come before the code injected at ``place``."""
    if place == "imports":
        imports = [node for node in tree.body if isinstance(node, (ast.Import, ast.ImportFrom))]
        assert imports, "adt/index.py has no module-level imports to inject code after"
        return imports[-1].end_lineno
    if place == "end":
        return total
    operation = next((node for node in tree.body if isinstance(node, ast.FunctionDef) and node.name == place), None)
    assert operation is not None, f"adt/index.py has no operation {place!r} to inject code into"
    first = operation.body[0]
    return first.end_lineno if ast.get_docstring(operation) is not None else first.lineno - 1


def malicious_index(case: str, places: dict[str, str] | None = None) -> str:
    """The malicious index.py of ``case``: the current reference with the fixture's docstring and
    attack, placeholders filled."""
    fixture = tomllib.loads((MALICIOUS / f"{case}.toml").read_text(encoding="utf-8"))
    assert set(fixture) == {"docstring", "inject"} and fixture["inject"], (
        f"{case}.toml must hold a docstring and an [inject] table"
    )
    reference = (REFERENCE / "index.py").read_text(encoding="utf-8")
    tree = ast.parse(reference)
    assert ast.get_docstring(tree) is not None, "adt/index.py has no module docstring to replace with the fixture's"
    lines = reference.splitlines(keepends=True)
    insertions = sorted(
        ((_injection_line(tree, place, len(lines)), place, code) for place, code in fixture["inject"].items()),
        reverse=True,
    )
    for line, place, code in insertions:
        lines.insert(line, MODULE_PLACES.get(place, "") + code)
    lines[: tree.body[0].end_lineno] = [f'"""{fixture["docstring"]}"""\n']
    text = "".join(lines)
    for placeholder, value in (places or {}).items():
        text = text.replace(placeholder, value)
    return text


def malicious_package(destination: Path, case: str, places: dict[str, str] | None = None) -> Path:
    """A copy of the reference package whose index.py is the malicious one of ``case``."""
    return reference_copy(destination, index=malicious_index(case, places))
