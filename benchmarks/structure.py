"""Print figures of the kit's structure, to compare a checkout before and after a redesign.

    python benchmarks/structure.py [ROOT]

- the five largest modules and classes of the kit's own code (``speckit/``, ``spec/``), in lines;
- the functions over 60 lines there and in the suites (``tests/``);
- the places each specification lives: files and folders of the checkout whose path names it;
- the pairs of places across the suites that share six or more lines of the same shape
  (the ``duplicates`` command, where it is on the PATH).
"""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent
KIT = ("speckit", "spec")
LONG_FUNCTION = 60


def python_files(*folders: str) -> list[Path]:
    return sorted(p for folder in folders for p in (ROOT / folder).rglob("*.py") if "fixtures" not in p.parts)


def spans(path: Path) -> tuple[list[tuple[str, int]], list[tuple[str, int]]]:
    """The classes and the functions of a module, each with its length in lines."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    classes, functions = [], []
    for node in ast.walk(tree):
        length = (node.end_lineno or node.lineno) - node.lineno + 1 if hasattr(node, "lineno") else 0
        if isinstance(node, ast.ClassDef):
            classes.append((node.name, length))
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            functions.append((node.name, length))
    return classes, functions


def main() -> None:
    kit_files = python_files(*KIT)
    modules = sorted(
        ((len(p.read_text(encoding="utf-8").splitlines()), p.relative_to(ROOT)) for p in kit_files), reverse=True
    )
    print("largest modules (lines):", ", ".join(f"{path} {lines}" for lines, path in modules[:5]))
    classes = []
    long_functions = {"kit": 0, "suites": 0}
    for group, files in (("kit", kit_files), ("suites", python_files("tests"))):
        for path in files:
            found_classes, functions = spans(path)
            if group == "kit":
                classes += [(length, f"{path.relative_to(ROOT)}:{name}") for name, length in found_classes]
            long_functions[group] += sum(1 for _, length in functions if length > LONG_FUNCTION)
    print("largest classes (lines):", ", ".join(f"{name} {lines}" for lines, name in sorted(classes, reverse=True)[:5]))
    print(f"functions over {LONG_FUNCTION} lines: kit {long_functions['kit']}, suites {long_functions['suites']}")
    tracked = subprocess.run(
        ["git", "-C", str(ROOT), "ls-files"], capture_output=True, text=True, check=True
    ).stdout.split()
    names = sorted(p.name for p in (ROOT / "spec").iterdir() if (p / "spec.toml").is_file())
    patterns = {name: re.compile(rf"(^|[/_-]){re.escape(name)}([/_.-]|$)") for name in names}
    places: dict[str, set[str]] = {name: set() for name in names}
    for path in tracked:
        named = [name for name in names if patterns[name].search(path)]
        if named:  # the longest name that matches: connect4_2015's files are not connect4's
            owner = max(named, key=len)
            places[owner].add(_place(path, patterns[owner]))
    for name in names:
        print(f"places {name} lives: {len(places[name])} ({', '.join(sorted(places[name]))})")
    if shutil.which("duplicates"):
        listing = subprocess.run(
            ["duplicates", "--repo", str(ROOT / "tests"), "--most", "200", "--seconds", "120"],
            capture_output=True,
            text=True,
        ).stdout.splitlines()
        rows = [line.split() for line in listing if re.match(r"D\d+ ", line)]
        across = [
            row for row in rows if {_suite(row[1]), _suite(row[3])} <= set(names) and _suite(row[1]) != _suite(row[3])
        ]
        print(f"duplicate pairs in tests/: {len(rows)}; across two suites: {len(across)}")


def _place(path: str, pattern: re.Pattern) -> str:
    """The shortest leading part of a path that names the specification (a folder or a file)."""
    parts = path.split("/")
    for end in range(1, len(parts) + 1):
        if pattern.search("/".join(parts[:end])):
            return "/".join(parts[:end])
    return path


def _suite(place: str) -> str:
    parts = place.split("/")
    return parts[0] if len(parts) > 1 else ""


if __name__ == "__main__":
    main()
