"""The student bundle: what an instructor hands to students, with no solution and no hidden test.

It holds an installable wheel (the kit's machinery, one specification's data, the
modules the contract supplies, under their own import names, the programs ``[kit]
student_scripts`` declares, which play on the student's package, and the visible part of
the conformance suite, so that ``speckit check`` and ``speckit skeleton`` work) and a
docs site built from the same data. It leaves out the reference implementation, the
zoo, the alternative implementations, the rubric and every test the rubric hides: a
hidden test is cut out of its module together with the helpers only it used.
"""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import attrs

import spec as spec_data

from .. import registry
from .. import rubric as rubric_module
from ..paths import REPO_ROOT
from .source import SKIPPED, BundleError, checkout, refuse_existing

MACHINERY_LEFT_OUT = ("rubrics", "_kit")
"""Parts of ``speckit/`` a student bundle does not carry: the rubrics and an installed wheel's copies."""


@attrs.frozen
class StudentBundle:
    """What was built: the wheel, the docs site, and what was left out of the suite."""

    wheel: Path
    docs: Path | None
    hidden_tests: tuple[str, ...]
    supplied: tuple[str, ...]


def build(spec_name: str, out: Path, *, docs: bool = True) -> StudentBundle:
    """Build the student bundle of ``spec_name`` in the new folder ``out``."""
    out = Path(out)
    refuse_existing(out, "an existing folder")
    checkout()
    kit = registry.kit(spec_name)
    rubric = rubric_module.load(None, spec_name)
    with tempfile.TemporaryDirectory(prefix="speckit-student-") as scratch:
        stage = Path(scratch) / "stage"
        stage.mkdir()
        _copy_machinery(stage)
        _copy_spec(stage, spec_name)
        supplied = _copy_supplied(stage, kit)
        hidden = _copy_visible_suite(stage, kit, rubric, supplied)
        _write_project(stage, spec_name, supplied, kit.declaration.student_scripts)
        refuse_solution(stage)
        out.mkdir(parents=True)
        wheel = _build_wheel(stage, out)
        site = _build_docs(stage, spec_name, out / "docs") if docs else None
    return StudentBundle(wheel, site, tuple(hidden), tuple(supplied))


def _copy_machinery(stage: Path) -> None:
    shutil.copytree(
        REPO_ROOT / "speckit",
        stage / "speckit",
        ignore=shutil.ignore_patterns(*MACHINERY_LEFT_OUT, "__pycache__", "*.pyc"),
    )


def _copy_spec(stage: Path, spec_name: str) -> None:
    """The spec package with only this specification's data; its ``[kit]`` names no solution."""
    source = REPO_ROOT / "spec"

    def other_specifications(folder: str, names: list[str]) -> list[str]:
        """Caches everywhere, and at the top every data folder but this specification's."""
        if Path(folder) != source:
            return ["__pycache__"]
        return [n for n in names if (source / n).is_dir() and n != spec_name] + ["__pycache__"]

    shutil.copytree(source, stage / "spec", ignore=other_specifications)
    declaration = stage / "spec" / spec_name / "spec.toml"
    declaration.write_text(without_solution(declaration.read_text(encoding="utf-8")), encoding="utf-8")


def without_solution(text: str) -> str:
    """A ``spec.toml`` whose ``[kit]`` table declares no reference, zoo, readings, alternative, rubric or register of
    mutants, and is the main one."""
    head, table, rest = text.partition("\n[kit]\n")
    if not table:
        raise BundleError("the specification's spec.toml has no [kit] table")
    body, sub, tail = rest.partition("\n[kit.")
    body = re.sub(r"^(reference|zoo|readings|alternative|rubric|mutants)\s*=.*$", r'\1 = ""', body, flags=re.M)
    body = re.sub(r"^(main|scripts)\s*=.*$\n?", "", body, flags=re.M)
    return head + table + "main = true\n" + body + sub + tail


def _copy_supplied(stage: Path, kit: registry.Kit) -> list[str]:
    """The supplied modules and the student programs' modules under their import names, with
    the kit modules they import; never a contract module."""
    contract = {f"{kit.reference}.{t.module}" for t in spec_data.load(kit.spec).types if not t.supplied}
    programs = [entry.partition(":")[0] for entry in kit.declaration.student_scripts.values()]
    wanted, seen = [*kit.declaration.supplied, *programs], []
    while wanted:
        module = wanted.pop()
        if module in seen:
            continue
        if module in contract:
            raise BundleError(
                f"the supplied modules or the student programs import {module}, a module students write: "
                f"it cannot go into a student bundle"
            )
        seen.append(module)
        path = REPO_ROOT.joinpath(*module.split(".")).with_suffix(".py")
        target = stage.joinpath(*module.split(".")).with_suffix(".py")
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, target)
        package = module.rsplit(".", 1)[0]
        wanted += [name for name in _kit_imports(path, package) if name.split(".")[0] == module.split(".")[0]]
    for folder in {stage.joinpath(*m.split(".")[:-1]) for m in seen}:
        while folder != stage and not (folder / "__init__.py").exists():
            (folder / "__init__.py").write_text(
                '"""The modules the kit supplies to students (no reference implementation)."""\n', encoding="utf-8"
            )
            folder = folder.parent
    return sorted(seen)


def solution_modules(names) -> list[str]:
    """The paths among ``names`` (``adt/grid.py``, relative to a bundle's root) that are a module
    students write of some specification's reference implementation, each with whose it is."""
    written = {}
    for spec_name in registry.names():
        reference = registry.kit(spec_name).reference
        if not reference:
            continue
        for type_spec in spec_data.load(spec_name).types:
            if not type_spec.supplied:
                written[f"{reference.replace('.', '/')}/{type_spec.module}.py"] = f"{spec_name}'s {type_spec.name}"
    return sorted(f"{name} ({written[name]})" for name in names if name in written)


def refuse_solution(stage: Path) -> None:
    """A BundleError if anything staged for the bundle is a module of a reference that students write."""
    found = solution_modules(path.relative_to(stage).as_posix() for path in stage.rglob("*.py"))
    if found:
        raise BundleError(f"the student bundle would carry the solution: {', '.join(found)}; nothing was written")


def _kit_imports(path: Path, package: str) -> list[str]:
    """The modules a file imports, relative imports resolved against ``package``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = package.rsplit(".", node.level - 1)[0] if node.level else ""
            name = ".".join(p for p in (base, node.module) if p)
            found.append(name)
            found += [
                f"{name}.{alias.name}"
                for alias in node.names
                if REPO_ROOT.joinpath(*name.split("."), f"{alias.name}.py").is_file()
            ]
        elif isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
    return [name for name in found if REPO_ROOT.joinpath(*name.split(".")).with_suffix(".py").is_file()]


def _copy_visible_suite(stage: Path, kit: registry.Kit, rubric: rubric_module.Rubric, supplied: list[str]) -> list[str]:
    """The suite without its hidden tests; returns the ids of the tests left out."""
    suite, hidden = kit.suite_dir, []
    relative = Path(kit.declaration.suite)
    target = stage / relative
    target.mkdir(parents=True)
    for parent in relative.parents:
        if parent != Path("."):
            for name in ("__init__.py", "conftest.py"):
                if (REPO_ROOT / parent / name).is_file():
                    shutil.copy2(REPO_ROOT / parent / name, stage / parent / name)
    for path in sorted(suite.rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        rel = path.relative_to(REPO_ROOT)
        text = path.read_text(encoding="utf-8")
        leaking = [
            m
            for m in _kit_imports(path, ".".join(rel.with_suffix("").parts[:-1]))
            if m.split(".")[0] == kit.reference.split(".")[0] and m not in supplied and m != kit.reference
        ]
        if leaking:
            hidden.append(f"{rel.as_posix()} (imports the reference: {', '.join(leaking)})")
            continue
        visible, cut = without_hidden_tests(text, rel.as_posix(), rubric.is_hidden)
        hidden += cut
        (stage / rel).parent.mkdir(parents=True, exist_ok=True)
        (stage / rel).write_text(visible, encoding="utf-8")
        _copy_shared_test_helpers(path, rel, relative, stage)
    return hidden


def _copy_shared_test_helpers(path: Path, rel: Path, suite: Path, stage: Path) -> None:
    """The helper modules of the tests' own package, outside the suite's folder, that a suite module
    imports (``from ..support.signals import interruptible``): the suite cannot be collected without them."""
    top = suite.parts[0]
    for name in _kit_imports(path, ".".join(rel.with_suffix("").parts[:-1])):
        helper = Path(*name.split(".")).with_suffix(".py")
        if name.split(".")[0] == top and suite not in helper.parents and not (stage / helper).exists():
            (stage / helper).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO_ROOT / helper, stage / helper)


def without_hidden_tests(text: str, module_id: str, is_hidden) -> tuple[str, list[str]]:
    """A test module's source without its hidden tests and the top-level helpers only they used."""
    tree = ast.parse(text)
    nodes = {
        node.name: node for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
    }
    removed = {name for name in nodes if name.startswith(("test", "Test")) and is_hidden(f"{module_id}::{name}")}
    if is_hidden(module_id):
        removed = set(nodes)
    cut = sorted(f"{module_id}::{name}" for name in removed)
    while True:
        removed_uses = _names_used([nodes[name] for name in removed])
        orphans = {
            name
            for name in nodes
            if name not in removed
            and name in removed_uses
            and name not in _names_used([n for n in tree.body if getattr(n, "name", None) not in removed | {name}])
        }
        if not orphans:
            break
        removed |= orphans
    lines = text.splitlines(keepends=True)
    for name in sorted(removed, key=lambda n: nodes[n].lineno, reverse=True):
        node = nodes[name]
        start = min([node.lineno, *(d.lineno for d in node.decorator_list)]) - 1
        del lines[start : node.end_lineno]
    return "".join(lines), cut


def _names_used(nodes: list[ast.AST]) -> set[str]:
    return {n.id for node in nodes for n in ast.walk(node) if isinstance(n, ast.Name)}


PROJECT = """\
[build-system]
requires = ["hatchling>=1.24"]
build-backend = "hatchling.build"

[project]
name = "speckit-{spec}-student"
version = "{version}"
description = "The {title} specification for students: its data, the supplied modules and the visible conformance suite"
requires-python = ">=3.11"
dependencies = {dependencies}

[project.scripts]
speckit = "speckit.cli:main"
{scripts}
[tool.hatch.build.targets.wheel]
only-include = {include}
exclude = ["__pycache__", "*.pyc"]

[tool.hatch.build.targets.wheel.sources]
"tests" = "speckit/_kit/tests"
"""


def _write_project(stage: Path, spec_name: str, supplied: list[str], scripts: dict[str, str]) -> None:
    import tomllib

    kit_project = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    roots = sorted({"speckit", "spec", "tests", *(m.split(".")[0] for m in supplied)})
    (stage / "pyproject.toml").write_text(
        PROJECT.format(
            spec=spec_name.replace("_", "-"),
            version=kit_project["version"],
            title=spec_data.load(spec_name).title.replace('"', "'"),
            dependencies=_toml_list(kit_project["dependencies"]),
            include=_toml_list(roots),
            scripts="".join(f'"{name}" = "{entry}"\n' for name, entry in sorted(scripts.items())),
        ),
        encoding="utf-8",
    )


def _toml_list(items) -> str:
    return "[" + ", ".join(f'"{item}"' for item in items) + "]"


def _build_wheel(stage: Path, out: Path) -> Path:
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(stage)],
        capture_output=True,
        text=True,
    )
    wheels = sorted(out.glob("*.whl"))
    if done.returncode != 0 or len(wheels) != 1:
        raise BundleError(
            f"building the student wheel failed: {(done.stderr.strip().splitlines() or ['no message'])[-1]}"
        )
    return wheels[0]


LEFT_OUT_PAGES = ("api",)
"""Pages of the kit's docs about its own solution."""


def _build_docs(stage: Path, spec_name: str, site: Path) -> Path:
    """The docs site as students see it: no page of the reference's code, no other specification's page."""
    docs = stage / "docs"
    shutil.copytree(REPO_ROOT / "docs", docs, ignore=SKIPPED)
    dropped = set(LEFT_OUT_PAGES)
    for page in (docs / "reference_games").glob("*.rst"):
        if page.stem != spec_name:
            dropped.add(f"reference_games/{page.stem}")
    if spec_name != registry.main_spec():
        # The narrative pages are about the main specification: this one's page is the site.
        dropped |= {page.stem for page in docs.glob("*.rst") if page.stem != "index"}
        title = spec_data.load(spec_name).title
        (docs / "index.rst").write_text(
            f"{title}\n{'=' * len(title)}\n\n.. toctree::\n   :maxdepth: 2\n\n   reference_games/{spec_name}\n",
            encoding="utf-8",
        )
    for name in dropped:
        (docs / f"{name}.rst").unlink(missing_ok=True)
    for page in docs.rglob("*.rst"):
        text = page.read_text(encoding="utf-8")
        for name in dropped:
            text = re.sub(rf"^\s+{re.escape(name)}\n", "", text, flags=re.M)
            text = re.sub(rf":doc:`{re.escape(name)}`", "the kit's instructor edition", text)
        page.write_text(text, encoding="utf-8")
    command = [
        sys.executable,
        "-m",
        "sphinx",
        "-q",
        "-b",
        "html",
        "-D",
        f"specdoc_spec={spec_name}",
        str(docs),
        str(site),
    ]
    done = subprocess.run(command, capture_output=True, text=True, cwd=stage)
    if done.returncode != 0:
        raise BundleError(
            f"building the student docs failed: {(done.stderr.strip().splitlines() or ['no message'])[-1]}"
        )
    return site
