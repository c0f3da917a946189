"""The handout as students and graders receive it, for every specification: a correct package
written into the handout's own skeleton gets full marks from ``speckit check``, ``speckit
grade``, the Gradescope autograder and the Classroom workflow.

Nothing here runs from the checkout but the builders: the student wheel is installed into a
fresh environment (one for all specifications, each wheel replacing the previous one), its
``speckit skeleton`` writes the package, the modules students write are copied over from a
correct implementation (the alternative one, else the reference) while the supplied files
stay exactly as the skeleton wrote them, and the autograder is installed by its own
``setup.sh`` under a temporary root.
"""

from __future__ import annotations

import base64
import csv
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import spec as spec_data
from speckit import rubric as rubric_module
from speckit.bundle import classroom, gradescope, student
from speckit.registry import kit

pytestmark = pytest.mark.slow

SPECS = sorted(spec_data.available())
STUB = "#!/bin/sh\necho \"$0 $*: not available in this test\" >&2\nexit 1\n"


@pytest.fixture(scope="module")
def place(tmp_path_factory):
    """One fresh environment for the handouts (each spec's wheel replaces the previous one), and
    a folder of stand-ins for the system commands the test must never run for real."""
    root = tmp_path_factory.mktemp("handout")
    subprocess.run([sys.executable, "-m", "venv", str(root / "venv")], check=True)
    stubs = root / "stubs"
    stubs.mkdir()
    (stubs / "apt-get").write_text(STUB)
    (stubs / "sudo").write_text("#!/bin/sh\n[ \"$1\" = apt-get ] && exit 0\nexec \"$@\"\n")  # the machine has bubblewrap
    for path in stubs.iterdir():
        path.chmod(0o755)
    return root


def run(command, cwd: Path, env: dict | None = None, timeout: int = 1800) -> subprocess.CompletedProcess:
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, env=env, timeout=timeout)


def correct_package(spec_name: str) -> Path:
    """A correct implementation: the alternative one where the kit has it, else the reference."""
    alternative = kit(spec_name).declaration.alternative and kit(spec_name).alternative_dir
    return alternative if alternative and alternative.is_dir() else kit(spec_name).reference_dir


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


@pytest.mark.parametrize("spec_name", SPECS)
def test_a_correct_package_in_the_handouts_skeleton_gets_full_marks_everywhere(place, tmp_path, spec_name):
    rubric = kit(spec_name).rubric_path
    points = {entry.name: entry.points for entry in rubric_module.load(rubric, spec_name).types if entry.points > 0}
    total = sum(points.values())

    # The student's handout, installed into the shared environment in place of the previous one.
    bundle = student.build(spec_name, tmp_path / "bundle", docs=False)
    venv, pip = place / "venv", [str(place / "venv" / "bin" / "python"), "-m", "pip", "-q"]
    others = [f"speckit-{name.replace('_', '-')}-student" for name in SPECS]  # any of them installed before
    assert run([*pip, "uninstall", "-y", *others], tmp_path).returncode == 0
    done = run([*pip, "install", str(bundle.wheel)], tmp_path)
    assert done.returncode == 0, done.stderr

    work = tmp_path / "work"
    work.mkdir()
    package = write_package(spec_name, venv, work)

    checked = run([str(venv / "bin" / "speckit"), "check", "--spec", spec_name, "mypkg"], work)
    assert checked.returncode == 0, checked.stdout[-3000:] + checked.stderr[-2000:]
    assert "Traceback" not in checked.stdout + checked.stderr

    # The student's other documented commands: pytest on the installed suite, and one clear line
    # from the commands that are not the student's.
    first = next(t for t in spec_data.load(spec_name).types if not t.supplied)
    suite = f"speckit._kit.tests.{Path(kit(spec_name).declaration.suite).name}.test_{first.module}"
    tested = run([str(venv / "bin" / "python"), "-m", "pytest", "-p", "speckit.pytest_plugin", "--pyargs", suite, "--impl", "mypkg", "-q", "-x"], work)
    assert tested.returncode == 0 and " passed" in tested.stdout, tested.stdout[-2000:] + tested.stderr[-2000:]
    (tmp_path / "class").mkdir()
    shutil.copytree(package, tmp_path / "class" / "alice")
    for command, says in (["mutants", "--spec", spec_name], "mutation analysis is for the kit's maintainers"), (
        ["grade", str(tmp_path / "class"), "--spec", spec_name, "--out", str(tmp_path / "unused")], "grading is the instructor's work"
    ):
        refused = run([str(venv / "bin" / "speckit"), *command], work)
        assert refused.returncode != 0 and says in refused.stderr and len(refused.stderr.strip().splitlines()) == 1, refused.stderr

    # The instructor's speckit grade, from the handout, with the rubric.
    graded = run([str(venv / "bin" / "speckit"), "grade", str(tmp_path / "class"), "--out", str(tmp_path / "grades"),
                  "--spec", spec_name, "--rubric", str(rubric), "--jobs", "1"], tmp_path)  # fmt: skip
    assert graded.returncode == 0, graded.stderr[-2000:]
    with (tmp_path / "grades" / "grades.csv").open(encoding="utf-8", newline="") as f:
        row = next(csv.DictReader(f))
    assert {name: float(row[name]) for name in points} == points, row
    assert float(row["total"]) == total

    # The Gradescope autograder: its setup.sh, then run_autograder, under a temporary root.
    root = tmp_path / "autograder"
    with zipfile.ZipFile(gradescope.build(spec_name, tmp_path / "autograder.zip")) as archive:
        archive.extractall(root / "source")
    env = dict(os.environ, AUTOGRADER_ROOT=str(root), PATH=f"{place / 'stubs'}:{os.environ['PATH']}")
    env.pop("SPECKIT_PYTHON", None)
    env.pop("VIRTUAL_ENV", None)
    setup = run(["bash", str(root / "source" / "setup.sh")], root, env)
    assert setup.returncode == 0, setup.stderr[-2000:]
    shutil.copytree(package, root / "submission")
    ran = run(["bash", str(root / "source" / "run_autograder")], root, env)
    assert ran.returncode == 0, ran.stderr[-2000:]
    result = json.loads((root / "results" / "results.json").read_text(encoding="utf-8"))
    assert result["score"] == pytest.approx(total), result["output"]
    by_type = {}
    for test in result["tests"]:
        by_type[test["name"].split(":")[0]] = by_type.get(test["name"].split(":")[0], 0) + test["score"]
    assert by_type == pytest.approx(points)

    # The Classroom starter's workflow, its commands run in the starter as the runner runs them.
    starter = classroom.build(spec_name, tmp_path / "starter", wheel=bundle.wheel)
    shutil.rmtree(starter / spec_name)
    shutil.copytree(package, starter / spec_name)
    from ruamel.yaml import YAML

    steps = YAML(typ="safe").load((starter / ".github" / "workflows" / "classroom.yml").read_text(encoding="utf-8"))["jobs"]["autograding"]["steps"]
    output = tmp_path / "github_output"
    output.touch()
    env = dict(os.environ, PATH=f"{place / 'stubs'}:{venv / 'bin'}:{os.environ['PATH']}", GITHUB_OUTPUT=str(output))
    for step in steps:
        if "run" in step:
            done = run(["bash", "-e", "-c", step["run"]], starter, env)
            assert done.returncode == 0, f"{step['name']}: {done.stderr[-2000:]}"
    reported = output.read_text(encoding="utf-8").strip().removeprefix("result=")
    payload = json.loads(base64.b64decode(reported))
    assert payload["max_score"] == total and payload["status"] == "pass"
    assert {t["name"]: t["score"] for t in payload["tests"]} == points
