"""The kit's modules import one another in one direction: the import graph of ``speckit`` has no cycle.

Every import that runs counts, at the top of a module or inside a function: an import
deferred to dodge a cycle is still a cycle, one that breaks as soon as someone moves it
up. Only imports for type checkers (``if TYPE_CHECKING:``), which never run, are left out.
"""

from __future__ import annotations

import ast
from pathlib import Path

import speckit

PACKAGE = Path(speckit.__file__).parent


def modules() -> dict[str, Path]:
    """Every module of the package, by dotted name."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The kit's modules that the module ``name`` imports anywhere in its source."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in executed(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            for alias in node.names:
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base)
    return {target for target in found if target in known and target != name}


def executed(tree: ast.AST):
    """Every node of ``tree`` but those under ``if TYPE_CHECKING:``, which never run."""
    for child in ast.iter_child_nodes(tree):
        if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
            for other in child.orelse:
                yield other
                yield from executed(other)
            continue
        yield child
        yield from executed(child)


def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imports(name, path, set(known)) for name, path in known.items()}


def cycle(edges: dict[str, set[str]]) -> list[str]:
    """One cycle of the graph as a path that returns to its start, or [] when there is none."""
    state: dict[str, str] = {}
    trail: list[str] = []

    def visit(node: str) -> list[str]:
        state[node] = "open"
        trail.append(node)
        for target in sorted(edges.get(node, ())):
            if state.get(target) == "open":
                return trail[trail.index(target) :] + [target]
            if target not in state and (found := visit(target)):
                return found
        state[node] = "done"
        trail.pop()
        return []

    for node in sorted(edges):
        if node not in state and (found := visit(node)):
            return found
    return []


def test_the_import_graph_of_speckit_has_no_cycle():
    found = cycle(graph())
    assert not found, "import cycle: " + " -> ".join(found)


def test_the_scanner_sees_relative_absolute_and_deferred_imports():
    edges = graph()
    assert "speckit.core" in edges["speckit.impl"]  # from .core import ...
    assert "speckit.registry" in edges["speckit.commands.check"]  # from .. import registry
    assert "speckit.runner" in edges["speckit.commands.check"]  # inside a function: from ..runner import run_suite
    assert "speckit.commands" in edges["speckit.commands.check"]  # from . import EXIT_OK
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) == []


def test_the_shared_vocabulary_imports_nothing_of_the_kit():
    assert graph()["speckit.core"] == set()
