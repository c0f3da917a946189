"""Which tests cover which documented operations, read from the test sources.

A test declares the operations it checks with ``@pytest.mark.covers("Type.operation", ...)``
on the function or its class, or with a module-level ``pytestmark``. A specification's
tests are its suite and the ``other_tests`` its ``[kit]`` table declares (the reference
driver's tests, which check the reference only). Reading the
sources (rather than running pytest) keeps this fast and deterministic, so the docs,
``speckit coverage`` and the coverage test all see the same map.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

from spec import Specification

from .paths import package_base
from .registry import kit


def counted_modules(spec: Specification, *, suite_only: bool = False) -> list[Path]:
    """The test modules whose markers count for ``spec``: its suite's, then its other tests'
    (the ``[kit] other_tests`` folders and modules), unless ``suite_only``."""
    places = [kit(spec.name).suite_dir] + ([] if suite_only else [kit(spec.name).path(p) for p in spec.kit.other_tests])
    found: list[Path] = []
    for place in places:
        found += [place] if place.is_file() else sorted(place.glob("test_*.py"))
    return found


def covering_tests(spec: Specification, *, suite_only: bool = False) -> dict[str, tuple[str, ...]]:
    """Map each operation of ``spec`` (extensions included) to the ids of the tests covering it.

    Names in markers that are no operation of ``spec`` are keys too, so a typo shows.
    With ``suite_only``, only the tests that run against any implementation count.
    """
    found: dict[str, list[str]] = defaultdict(list)
    for test_id, operations in marked_tests(counted_modules(spec, suite_only=suite_only)):
        for qualname in operations:
            found[qualname].append(test_id)
    return {op.qualname: tuple(found.get(op.qualname, ())) for op in spec.operations(extensions=True)} | {
        name: tuple(ids) for name, ids in found.items() if not _known(spec, name)
    }


def selected_tests(spec: Specification, types: list[str]) -> list[Path]:
    """The suite's tests covering an operation of one of ``types``, as paths with pytest node ids
    (``.../tests/connect4/test_grid.py::TestGrid``), in suite order; [] when none does."""
    wanted = {spec.type(name).name for name in types}
    chosen = []
    for path in counted_modules(spec, suite_only=True):
        base = package_base(path)
        for test_id, operations in marked_tests([path]):
            if any(name.split(".")[0] in wanted for name in operations):
                chosen.append(base / test_id)
    return chosen


def marked_tests(paths: list[Path]):
    """``(test id, operations it declares it covers)`` for every test of the given modules."""
    for path in paths:
        yield from _scan(path, path.resolve().relative_to(package_base(path)).as_posix())


def uncovered(spec: Specification) -> tuple[str, ...]:
    """Documented operations, of the types students write, that no test declares it covers."""
    coverage = covering_tests(spec)
    return tuple(
        op.qualname
        for op in spec.operations()
        if not spec.type(op.type_name).supplied and not coverage.get(op.qualname)
    )


def unknown_names(spec: Specification) -> tuple[str, ...]:
    """Names used in ``covers`` markers that are not operations of ``spec`` (typos)."""
    return tuple(name for name in covering_tests(spec) if not _known(spec, name))


def _known(spec: Specification, qualname: str) -> bool:
    try:
        spec.operation(qualname)
    except KeyError:
        return False
    return True


def _scan(path: Path, relative: str):
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    module_marks = _module_marks(tree)
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
            yield f"{relative}::{node.name}", module_marks + _marks(node)
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            class_marks = module_marks + _marks(node)
            methods = [n for n in node.body if isinstance(n, ast.FunctionDef) and n.name.startswith("test")]
            if methods:
                for method in methods:
                    yield f"{relative}::{node.name}::{method.name}", class_marks + _marks(method)
            elif class_marks:
                # A Hypothesis state machine's TestCase class: the class itself is the test.
                yield f"{relative}::{node.name}", class_marks
        elif isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name) and _is_state_machine_test(node):
            target = node.targets[0].id
            yield f"{relative}::{target}", module_marks + _assigned_marks(tree, target)


def _module_marks(tree: ast.Module) -> list[str]:
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "pytestmark" for t in node.targets):
            values = node.value.elts if isinstance(node.value, (ast.List, ast.Tuple)) else [node.value]
            return [name for value in values for name in _covers_args(value)]
    return []


def _marks(node) -> list[str]:
    return [name for decorator in node.decorator_list for name in _covers_args(decorator)]


def _covers_args(expr) -> list[str]:
    if not isinstance(expr, ast.Call):
        return []
    func = expr.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    if name != "covers":
        return []
    return [arg.value for arg in expr.args if isinstance(arg, ast.Constant) and isinstance(arg.value, str)]


def _is_state_machine_test(node: ast.Assign) -> bool:
    """``TestGrid = GridMachine.TestCase``: a state machine exposed to pytest."""
    return (
        len(node.targets) == 1
        and isinstance(node.targets[0], ast.Name)
        and node.targets[0].id.startswith("Test")
        and isinstance(node.value, ast.Attribute)
        and node.value.attr == "TestCase"
    )


def _assigned_marks(tree: ast.Module, target: str) -> list[str]:
    """Marks applied later as ``TestGrid = pytest.mark.covers(...)(TestGrid)``."""
    marks = []
    for node in tree.body:
        if (
            isinstance(node, ast.Assign)
            and isinstance(node.targets[0], ast.Name)
            and node.targets[0].id == target
            and isinstance(node.value, ast.Call)
        ):
            marks.extend(_covers_args(node.value.func))
    return marks
