"""The sandbox's modules depend in one direction: the server never loads the test-process side."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import speckit.sandbox
from speckit.paths import REPO_ROOT

PACKAGE = Path(speckit.sandbox.__file__).parent
TEST_PROCESS_SIDE = {
    "speckit.sandbox.catalogue",
    "speckit.sandbox.client",
    "speckit.sandbox.connection",
    "speckit.sandbox.folders",
    "speckit.sandbox.operation",
    "speckit.sandbox.pipeline",
    "speckit.sandbox.reads",
    "speckit.sandbox.values",
    "speckit.sandbox.process",
    "speckit.sandbox.overrun",
    "speckit.sandbox.bubblewrap",
    "speckit.pytest_plugin",
    "speckit.runner",
    "speckit.registry",
    "speckit.grading",
    "speckit.cli",
    "hypothesis",
    "pytest",
    "_pytest",
}


def test_the_server_loads_nothing_of_the_test_process_side():
    probe = "import json, sys\nimport speckit.sandbox.server\nprint(json.dumps(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=REPO_ROOT, check=True)
    loaded = set(json.loads(done.stdout))
    assert "speckit.sandbox.server" in loaded
    wrong = sorted(m for m in loaded if m in TEST_PROCESS_SIDE or m.split(".")[0] in TEST_PROCESS_SIDE)
    assert not wrong, f"importing the server loads {wrong}"


def _imports(path: Path) -> set[str]:
    """The sibling modules a module of the package imports when it is loaded (not inside functions)."""
    found = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                found.add(node.module.split(".")[0])
            else:
                found.update(alias.name for alias in node.names)
    return found


def test_the_package_has_no_import_cycle():
    graph = {path.stem: _imports(path) for path in PACKAGE.glob("*.py")}
    done: set[str] = set()

    def visit(module: str, path: tuple[str, ...]) -> None:
        assert module not in path, f"import cycle: {' -> '.join((*path, module))}"
        if module in done:
            return
        for imported in graph.get(module, ()):
            visit(imported, (*path, module))
        done.add(module)

    for module in graph:
        visit(module, ())


def test_no_private_name_is_imported_across_modules():
    for path in PACKAGE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith("speckit")):
                private = [a.name for a in node.names if a.name.startswith("_") and a.name != "__future__"]
                assert not private or node.module == "__future__", f"{path.name} imports {private} from {node.module}"
