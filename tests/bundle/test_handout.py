"""The handout as students and graders receive it, for every specification: a correct package
written into the handout's own skeleton gets full marks from ``speckit check``, ``speckit
grade``, the Gradescope autograder and the Classroom workflow; and, for Connect-4 and the
X+Game, the same package with a syntax error in one module or a NameError at import in another
is blamed on that file and line everywhere, and loses nothing in the types that do not need it.

Nothing here runs from the checkout but the builders: the student wheel is installed into a
fresh environment (one for all specifications, each wheel replacing the previous one), its
``speckit skeleton`` writes the package, the modules students write are copied over from a
correct implementation (the alternative one, else the reference) while the supplied files
stay exactly as the skeleton wrote them, and the autograder is installed by its own
``setup.sh`` under a temporary root. Each specification's handout is built, installed and
set up once for all its tests.
"""

from __future__ import annotations

import ast
import base64
import csv
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import attrs
import pytest

import spec as spec_data
from speckit import rubric as rubric_module
from speckit.bundle import classroom, gradescope, student
from speckit.registry import kit

pytestmark = pytest.mark.slow

SPECS = sorted(spec_data.available())
STUB = '#!/bin/sh\necho "$0 $*: not available in this test" >&2\nexit 1\n'


@pytest.fixture(scope="module")
def place(tmp_path_factory):
    """One fresh environment for the handouts (each spec's wheel replaces the previous one), and
    a folder of stand-ins for the system commands the test must never run for real."""
    root = tmp_path_factory.mktemp("handout")
    subprocess.run([sys.executable, "-m", "venv", str(root / "venv")], check=True)
    stubs = root / "stubs"
    stubs.mkdir()
    (stubs / "apt-get").write_text(STUB)
    (stubs / "sudo").write_text('#!/bin/sh\n[ "$1" = apt-get ] && exit 0\nexec "$@"\n')  # the machine has bubblewrap
    for path in stubs.iterdir():
        path.chmod(0o755)
    return root


@attrs.frozen
class Handout:
    """One specification's handout, installed: the student wheel in the shared environment, and
    the Gradescope autograder set up by its own ``setup.sh`` under a temporary root."""

    spec_name: str
    wheel: Path
    venv: Path
    autograder: Path
    autograder_env: dict

    def speckit(self, *arguments: str) -> list[str]:
        return [str(self.venv / "bin" / "speckit"), *arguments]

    def run_autograder(self, package: Path) -> dict:
        """Gradescope's run of ``package`` as the submission: its results.json."""
        for folder in ("submission", "results"):
            shutil.rmtree(self.autograder / folder, ignore_errors=True)
        shutil.copytree(package, self.autograder / "submission")
        ran = run(["bash", str(self.autograder / "source" / "run_autograder")], self.autograder, self.autograder_env)
        assert ran.returncode == 0, ran.stderr[-2000:]
        return json.loads((self.autograder / "results" / "results.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module", params=SPECS)
def handout(request, place, tmp_path_factory) -> Handout:
    """The handout of one specification (``request.param``), built and installed once for every
    test of it (pytest runs the tests of one specification together)."""
    spec_name = request.param
    tmp_path = tmp_path_factory.mktemp(f"handout-{spec_name}")
    bundle = student.build(spec_name, tmp_path / "bundle", docs=False)
    pip = [str(place / "venv" / "bin" / "python"), "-m", "pip", "-q"]
    others = [f"speckit-{name.replace('_', '-')}-student" for name in SPECS]  # any of them installed before
    assert run([*pip, "uninstall", "-y", *others], tmp_path).returncode == 0
    done = run([*pip, "install", str(bundle.wheel)], tmp_path)
    assert done.returncode == 0, done.stderr

    root = tmp_path / "autograder"
    with zipfile.ZipFile(gradescope.build(spec_name, tmp_path / "autograder.zip")) as archive:
        archive.extractall(root / "source")
    env = dict(os.environ, AUTOGRADER_ROOT=str(root), PATH=f"{place / 'stubs'}:{os.environ['PATH']}")
    env.pop("SPECKIT_PYTHON", None)
    env.pop("VIRTUAL_ENV", None)
    setup = run(["bash", str(root / "source" / "setup.sh")], root, env)
    assert setup.returncode == 0, setup.stderr[-2000:]
    return Handout(spec_name, bundle.wheel, place / "venv", root, env)


def run(command, cwd: Path, env: dict | None = None, timeout: int = 1800) -> subprocess.CompletedProcess:
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, env=env, timeout=timeout)


def correct_package(spec_name: str) -> Path:
    """A correct implementation: the alternative one where the kit has it, else the reference."""
    alternative = kit(spec_name).declaration.alternative and kit(spec_name).alternative_dir
    return alternative if alternative and alternative.is_dir() else kit(spec_name).reference_dir


def points_by_type(result: dict) -> dict[str, float]:
    """The points of a Gradescope result by type (its tests are named "Type: ...")."""
    by_type: dict[str, float] = {}
    for test in result["tests"]:
        name = test["name"].split(":")[0]
        by_type[name] = by_type.get(name, 0) + test["score"]
    return by_type


def write_package(spec_name: str, venv: Path, work: Path) -> Path:
    """The handout's skeleton, with a correct package's modules over those students write."""
    done = run([str(venv / "bin" / "speckit"), "skeleton", "--spec", spec_name, "mypkg"], work)
    assert done.returncode == 0, done.stderr
    package = work / "mypkg"
    supplied = {f"{t.module}.py" for t in spec_data.load(spec_name).types if t.supplied}
    as_written = {name: (package / name).read_bytes() for name in supplied}
    for module in correct_package(spec_name).glob("*.py"):
        if module.name not in supplied:
            shutil.copy2(module, package / module.name)
    assert {name: (package / name).read_bytes() for name in supplied} == as_written
    return package


def rubric_points(spec_name: str) -> dict[str, float]:
    """The points of each graded type."""
    return {
        entry.name: entry.points
        for entry in rubric_module.load(kit(spec_name).rubric_path, spec_name).types
        if entry.points > 0
    }


def test_a_correct_package_in_the_handouts_skeleton_gets_full_marks_everywhere(place, handout, tmp_path):
    spec_name = handout.spec_name
    points = rubric_points(spec_name)
    work = tmp_path / "work"
    work.mkdir()
    package = write_package(spec_name, handout.venv, work)

    _student_commands_work(handout, work)
    _instructor_grades_it(handout, package, tmp_path, points)
    # The Gradescope autograder (set up by its setup.sh under a temporary root): run_autograder.
    result = handout.run_autograder(package)
    assert result["score"] == pytest.approx(sum(points.values())), result["output"]
    assert points_by_type(result) == pytest.approx(points)
    _classroom_workflow_passes(place, handout, package, tmp_path, points)


def _student_commands_work(handout, work: Path) -> None:
    """The student's documented commands pass on the package ``mypkg`` in ``work``: speckit
    check, and pytest on the installed suite; the commands that are not the student's refuse in
    one clear line."""
    spec_name, venv = handout.spec_name, handout.venv
    checked = run([str(venv / "bin" / "speckit"), "check", "--spec", spec_name, "mypkg"], work)
    assert checked.returncode == 0, checked.stdout[-3000:] + checked.stderr[-2000:]
    assert "Traceback" not in checked.stdout + checked.stderr

    first = next(t for t in spec_data.load(spec_name).types if not t.supplied)
    suite = f"speckit._kit.tests.{Path(kit(spec_name).declaration.suite).name}.test_{first.module}"
    pytest_command = [str(venv / "bin" / "python"), "-m", "pytest", "-p", "speckit.pytest_plugin", "--pyargs", suite]
    tested = run([*pytest_command, "--impl", "mypkg", "-q", "-x"], work)
    assert tested.returncode == 0 and " passed" in tested.stdout, tested.stdout[-2000:] + tested.stderr[-2000:]
    class_folder = work.parent / "refused-class"
    class_folder.mkdir()
    shutil.copytree(work / "mypkg", class_folder / "alice")
    for command, says in (
        (["mutants", "--spec", spec_name], "mutation analysis is for the kit's maintainers"),
        (
            ["grade", str(class_folder), "--spec", spec_name, "--out", str(work.parent / "unused")],
            "grading is the instructor's work",
        ),
    ):
        refused = run([str(venv / "bin" / "speckit"), *command], work)
        assert refused.returncode != 0 and says in refused.stderr and len(refused.stderr.strip().splitlines()) == 1, (
            refused.stderr
        )


def _instructor_grades_it(handout, package: Path, tmp_path: Path, points: dict) -> None:
    """The instructor's speckit grade, from the handout, with the rubric: full marks, type by type."""
    spec_name, venv = handout.spec_name, handout.venv
    (tmp_path / "class").mkdir()
    shutil.copytree(package, tmp_path / "class" / "alice")
    rubric = kit(spec_name).rubric_path
    options = ["--out", str(tmp_path / "grades"), "--spec", spec_name, "--rubric", str(rubric), "--jobs", "1"]
    graded = run([str(venv / "bin" / "speckit"), "grade", str(tmp_path / "class"), *options], tmp_path)
    assert graded.returncode == 0, graded.stderr[-2000:]
    with (tmp_path / "grades" / "grades.csv").open(encoding="utf-8", newline="") as f:
        row = next(csv.DictReader(f))
    assert {name: float(row[name]) for name in points} == points, row
    assert float(row["total"]) == sum(points.values())


def _classroom_workflow_passes(place: Path, handout, package: Path, tmp_path: Path, points: dict) -> None:
    """The Classroom starter's workflow, its commands run in the starter as the runner runs them: full marks."""
    spec_name, venv = handout.spec_name, handout.venv
    starter = classroom.build(spec_name, tmp_path / "starter", wheel=handout.wheel)
    shutil.rmtree(starter / spec_name)
    shutil.copytree(package, starter / spec_name)
    from ruamel.yaml import YAML

    workflow = YAML(typ="safe").load((starter / ".github" / "workflows" / "classroom.yml").read_text(encoding="utf-8"))
    steps = workflow["jobs"]["autograding"]["steps"]
    output = tmp_path / "github_output"
    output.touch()
    env = dict(os.environ, PATH=f"{place / 'stubs'}:{venv / 'bin'}:{os.environ['PATH']}", GITHUB_OUTPUT=str(output))
    for step in steps:
        if "run" in step:
            done = run(["bash", "-e", "-c", step["run"]], starter, env)
            assert done.returncode == 0, f"{step['name']}: {done.stderr[-2000:]}"
    reported = output.read_text(encoding="utf-8").strip().removeprefix("result=")
    payload = json.loads(base64.b64decode(reported))
    assert payload["max_score"] == sum(points.values()) and payload["status"] == "pass"
    assert {t["name"]: t["score"] for t in payload["tests"]} == points


BROKEN = {
    "connect4": {"syntax-error": ("game_tree", "def unfinished(:"), "name-error": ("grid", "LIMIT = UNDEFINED_LIMIT")},
    # Not configurations.py: the dictionary's model test plays configurations into it, so without the
    # reference (this handout's grade, Classroom's) a broken Configurations costs HashDictionary too.
    "xplus": {
        "syntax-error": ("hash_dictionary", "def unfinished(:"),
        "name-error": ("hash_dictionary", "LIMIT = UNDEFINED_LIMIT"),
    },
}
"""For each specification tested with broken packages, the two faults: (the module, the line
put before its first function or class): a syntax error, and a NameError raised at import. A
type needs the module when its own module imports it, directly or not."""


def break_module(package: Path, module: str, line: str) -> int:
    """Put ``line`` before the module's first top-level function or class; the line number it took."""
    path = package / f"{module}.py"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    at = next(i for i, text in enumerate(lines) if text.startswith(("def ", "class ", "@")))
    path.write_text("".join([*lines[:at], line + "\n", *lines[at:]]), encoding="utf-8")
    return at + 1


def needing(package: Path, module: str) -> set[str]:
    """The package's modules that import ``module``, directly or through their other modules."""
    imports = {}
    for path in package.glob("*.py"):
        found = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                found |= {node.module} if node.module else {alias.name for alias in node.names}
        imports[path.stem] = {name.split(".")[0] for name in found}
    needs = {module}
    while more := {name for name, used in imports.items() if used & needs} - needs:
        needs |= more
    return needs


def says_where(text: str, file: str, line: int) -> bool:
    """Whether ``text`` names the file and its line together, in any of the kit's wordings
    ("line 22 of grid.py", "grid.py has a syntax error at line 22", "grid.py raised ... (line 22)")."""
    text = re.sub(r"\\([^\sA-Za-z0-9])", r"\1", text)  # Markdown's escapes (game\_tree.py)
    return bool(re.search(rf"\bline {line} of {re.escape(file)}|\b{re.escape(file)}\b[^\n]*?\bline {line}\b", text))


def types_of(types: dict[str, str], module: str) -> set[str]:
    """The graded types written in ``module``."""
    return {name for name, m in types.items() if m == module}


@pytest.mark.parametrize("handout", sorted(BROKEN), indirect=True)
def test_a_module_that_cannot_be_imported_is_blamed_where_it_is_and_costs_no_other_type(handout, tmp_path):
    """A correct package with a syntax error in one module, and with a NameError at import in
    another: check, the instructor's grade (gradebook note, feedback, results.json) and the
    Gradescope autograder name the file and line, and every type whose module does not need the
    broken one gets the full points it gets without the fault."""
    spec_name = handout.spec_name
    points = rubric_points(spec_name)
    types = {t.name: t.module for t in spec_data.load(spec_name).types if t.name in points}
    (tmp_path / "class").mkdir()
    faults = {
        student_name: _broken_package_checked(handout, tmp_path, student_name, module, line, types)
        for student_name, (module, line) in BROKEN[spec_name].items()
    }
    _grade_names_each_fault(handout, tmp_path, faults, points)

    # Gradescope, for the error raised at import (its results.json is the one speckit grade writes,
    # checked above for both). Its autograder holds the reference, so a type that needs the broken
    # module may earn points there as a hybrid; every other type earns the same full points.
    file, number, unaffected, _ = faults["name-error"]
    result = handout.run_autograder(tmp_path / "class" / "name-error")
    assert says_where(result["output"], file, number), result["output"]
    by_type = points_by_type(result)
    assert {name: by_type[name] for name in unaffected} == pytest.approx({name: points[name] for name in unaffected})


def _broken_package_checked(handout, tmp_path: Path, student_name: str, module: str, line: int, types: dict) -> tuple:
    """A correct package with ``module`` broken at ``line``, put in the class folder, and checked
    for its broken module's types and one type that does not need it: ``check`` names the file
    and line, and that type passes. Its fault: (file, line number, unaffected types, own types)."""
    spec_name = handout.spec_name
    work = tmp_path / student_name
    work.mkdir()
    package = write_package(spec_name, handout.venv, work)
    unaffected = {name for name, m in types.items() if m not in needing(package, module)}
    assert unaffected and len(unaffected) < len(types), "the fault must cost some types and not others"
    fault = (f"{module}.py", break_module(package, module, line), unaffected, types_of(types, module))
    shutil.copytree(package, tmp_path / "class" / student_name)

    # The grade covers every type: the whole suite twice more would cost CI a minute for nothing new.
    file, number, _, own = fault
    bystander = sorted(unaffected)[0]
    chosen = [arg for name in [*sorted(own), bystander] for arg in ("--type", name)]
    checked = run(handout.speckit("check", "--spec", spec_name, *chosen, "mypkg"), work)
    assert "Traceback" not in checked.stdout + checked.stderr
    assert says_where(checked.stdout, file, number), checked.stdout[-3000:]
    assert re.search(rf"^{bystander} \({types[bystander]}\)\s+\d+ passed$", checked.stdout, re.MULTILINE), (
        bystander,
        checked.stdout,
    )
    return fault


def _grade_names_each_fault(handout, tmp_path: Path, faults: dict, points: dict) -> None:
    """The instructor's grade of the class: each student's gradebook note, feedback and results.json
    name the broken file and line; the types that do not need it get full points, its own fewer."""
    spec_name = handout.spec_name
    rubric = kit(spec_name).rubric_path
    arguments = ["--out", str(tmp_path / "grades"), "--spec", spec_name, "--rubric", str(rubric), "--jobs", "2"]
    graded = run(handout.speckit("grade", str(tmp_path / "class"), *arguments), tmp_path)
    assert graded.returncode == 0, graded.stderr[-2000:]
    with (tmp_path / "grades" / "grades.csv").open(encoding="utf-8", newline="") as f:
        rows = {row["student"]: row for row in csv.DictReader(f)}
    for student_name, (file, number, unaffected, own) in faults.items():
        row = rows[student_name]
        assert {name: float(row[name]) for name in unaffected} == {name: points[name] for name in unaffected}, row
        assert all(float(row[name]) < points[name] for name in own), row
        assert says_where(row["note"], file, number), row["note"]
        assert says_where(
            (tmp_path / "grades" / "feedback" / f"{student_name}.md").read_text(encoding="utf-8"), file, number
        )
        result = json.loads(
            (tmp_path / "grades" / "results" / student_name / "results.json").read_text(encoding="utf-8")
        )
        assert says_where(result["output"], file, number), result["output"]
