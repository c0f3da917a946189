"""Print figures of the kit's structure, to compare a checkout before and after a redesign.

    python benchmarks/structure.py [ROOT]

- the five largest modules and classes of the kit's own code (``speckit/``, ``spec/``), in lines;
- the functions over 60 lines there and in the suites (``tests/``);
- the places each specification lives: files and folders of the checkout whose path names it;
- the pairs of places across the suites that share six or more lines of the same shape
  (the ``duplicates`` command, where it is on the PATH);
- the hops from an operation's name to its spec entry, reference, tests and docs page, per
  specification (median and maximum over its operations, and per destination).

Hops count what a reader holding only ``Type.operation`` opens or looks up to read each
of the four, for every documented operation (extensions included) of every type the
students write (the kit's supplied types are left out). Searching inside an open file is
free; opening a file or asking a lookup is one hop:

- the type's module: free when it is the type's name in snake_case less a trailing
  ``Type``, ``_type`` or ``T`` (``GridType`` -> ``grid``, ``color_type`` -> ``color``);
  otherwise one lookup (``spec.toml``'s ``types``), paid once for all four;
- the spec entry: its ``spec/<spec>/<module>.toml``, 1;
- the reference: its module of the ``[kit] reference`` package, 1, and one more for each
  ``from ... import`` followed to the module that defines the function (or class);
- the tests: each file holding a test whose ``covers`` marker names the operation
  (:func:`speckit.traceability.covering_tests`, program tests included) is 1; one more
  lookup (``speckit coverage``, or the docs page's "Tested by") when any of them is not the
  suite's ``test_<module>.py``, which a reader cannot guess;
- the docs page: the page holding the type's ``spec-type`` directive (the ``specdoc_spec``
  specification's generated ``types/<module>`` pages included), 1 when its name is the
  specification's or the module's, else 2 (through the index).

An operation with no covering test or no page counts as unreachable there, reported apart.
"""

from __future__ import annotations

import ast
import re
import shutil
import statistics
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
    print_hops(names)


DESTINATIONS = ("spec", "reference", "tests", "docs")


def print_hops(names: list[str]) -> None:
    """Per specification: the hops from an operation's name to its four destinations (see the module's docstring)."""
    sys.path.insert(0, str(ROOT))  # the checkout measured, not the one this script was run from
    try:
        import spec as spec_data
        from speckit.registry import kit
        from speckit.traceability import covering_tests
    except ImportError as e:
        print(f"hops: not measurable in this checkout ({e})")
        return
    pages = _type_pages(spec_data, names)
    for name in names:
        specification = spec_data.load(name)
        covering = covering_tests(specification)
        reference, suite = kit(name).reference_dir, kit(name).suite_dir
        totals: list[int] = []
        each: dict[str, list[int]] = {d: [] for d in DESTINATIONS}
        unreachable = {d: 0 for d in DESTINATIONS}
        for t in specification.types:
            if t.supplied:
                continue
            lookup = 0 if _module_of(t.name) == t.module else 1
            for op in t.operations:
                hops = {
                    "spec": 1 if op.name in _text(ROOT / "spec" / name / f"{t.module}.toml") else None,
                    "reference": _reference_hops(reference, t.module, op.name),
                    "tests": _test_hops(covering.get(op.qualname, ()), suite / f"test_{t.module}.py"),
                    "docs": _docs_hops(pages.get((name, t.name)), name, t.module),
                }
                for destination, count in hops.items():
                    if count is None:
                        unreachable[destination] += 1
                    else:
                        each[destination].append(count)
                if None not in hops.values():
                    totals.append(lookup + sum(h for h in hops.values() if h is not None))
        figures = ", ".join(f"{d} {_median_max(each[d])}" for d in DESTINATIONS)
        missing = ", ".join(f"{count} without {d}" for d, count in unreachable.items() if count)
        print(
            f"hops from an operation's name (median/max) {name}: {_median_max(totals)} over {len(totals)} operations "
            f"({figures}){'; ' + missing if missing else ''}"
        )


def _median_max(values: list[int]) -> str:
    return f"{statistics.median(values):g}/{max(values)}" if values else "-"


def _module_of(type_name: str) -> str:
    """The module a reader guesses from a type's name: snake_case, less a trailing Type, _type or T."""
    stem = re.sub(r"(_?[Tt]ype|T)$", "", type_name)
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", stem).lower()


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8") if path.is_file() else ""


def _reference_hops(package: Path, module: str, name: str, seen: int = 1) -> int | None:
    """1 for the module, and one more per ``from ... import`` followed to where ``name`` is defined."""
    path = package / f"{module}.py"
    if not path.is_file() or seen > 5:
        return None
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) and node.name == name:
            return seen
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and any(alias.name in (name, "*") for alias in node.names):
            source = (node.module or "").rsplit(".", 1)[-1]
            if node.level and source:  # a module of the same package: follow it
                return _reference_hops(package, source, name, seen + 1)
            return seen + 1  # another package (the kit's supplied module): one more file to open
    return None


def _test_hops(test_ids: tuple[str, ...], own: Path) -> int | None:
    """A hop per file holding a covering test, and a lookup when one of them is not the type's own test file."""
    files = {test_id.split("::")[0] for test_id in test_ids}
    if not files:
        return None
    own_name = str(own.relative_to(ROOT)) if own.is_relative_to(ROOT) else str(own)
    return len(files) + (0 if files <= {own_name} else 1)


def _type_pages(spec_data, names: list[str]) -> dict[tuple[str, str], str]:
    """The docs page (path under docs/, without .rst) holding each type's spec-type directive, by (spec, type)."""
    pages: dict[tuple[str, str], str] = {}
    for path in sorted((ROOT / "docs").rglob("*.rst")):
        if "_build" in path.parts:
            continue
        page = str(path.relative_to(ROOT / "docs").with_suffix(""))
        for spec_name, type_name in re.findall(r"^\.\. spec-type:: (\S+) (\S+)", _text(path), re.MULTILINE):
            pages[(spec_name, type_name)] = page
    configured = re.search(r'^specdoc_spec = "(\w+)"', _text(ROOT / "docs" / "conf.py"), re.MULTILINE)
    if configured and configured[1] in names:  # its type pages are written when the docs are built
        for t in spec_data.load(configured[1]).types:
            pages.setdefault((configured[1], t.name), f"types/{t.module}")
    return pages


def _docs_hops(page: str | None, spec_name: str, module: str) -> int | None:
    if page is None:
        return None
    return 1 if Path(page).name in (spec_name, module) else 2


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
