"""The student bundle: no solution and no hidden test, and a kit that checks and writes skeletons."""

from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap
import zipfile

import pytest

from speckit.bundle.student import build, without_hidden_tests, without_solution
from speckit.paths import REPO_ROOT

MODULE = textwrap.dedent(
    '''\
    import helpers


    class Machine:
        LIMIT = 3

        def step(self):
            return Machine.LIMIT + oracle()


    def oracle():
        return 1


    def shared():
        return 2


    def test_visible():
        assert shared() == 2


    @helpers.slow
    def test_hidden_machine():
        Machine().step()
        shared()
    '''
)


def test_a_hidden_test_goes_with_the_helpers_only_it_used():
    text, cut = without_hidden_tests(MODULE, "tests/x/test_m.py", lambda test_id: "machine" in test_id)
    assert cut == ["tests/x/test_m.py::test_hidden_machine"]
    assert "Machine" not in text and "oracle" not in text and "@helpers.slow" not in text
    assert "def shared" in text and "def test_visible" in text
    compile(text, "test_m.py", "exec")


def test_the_bundled_kit_table_names_no_solution():
    text = (REPO_ROOT / "spec" / "boardadt" / "spec.toml").read_text(encoding="utf-8")
    bundled = without_solution(text)
    import tomllib

    kit = tomllib.loads(bundled)["kit"]
    assert kit["reference"] == kit["zoo"] == kit["alternative"] == kit["rubric"] == ""
    assert kit["main"] is True and "scripts" not in kit
    assert kit["supplied"] == tomllib.loads(text)["kit"]["supplied"]


@pytest.mark.slow
def test_a_student_installs_the_bundle_and_checks_a_type(tmp_path):
    bundle = build("connect4", tmp_path / "bundle")
    names = zipfile.ZipFile(bundle.wheel).namelist()
    assert "adt/display.py" in names and "adt/input.py" in names
    assert not any(n.startswith(("adt/grid", "adt/index", "reference_games/", "speckit/rubrics/")) for n in names)
    assert not any("/zoo/" in n or "/fixtures/" in n for n in names)
    assert "tests/connect4/test_grid.py::test_grid_state_machine" in bundle.hidden_tests
    suite = zipfile.ZipFile(bundle.wheel).read("speckit/_kit/tests/connect4/test_grid.py").decode()
    assert "state_machine" not in suite.replace("run_state_machine_as_test", "") and "class GridMachine" not in suite
    assert (bundle.docs / "specification.html").is_file() and not (bundle.docs / "api.html").exists()

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python, speckit = venv / "bin" / "python", venv / "bin" / "speckit"
    subprocess.run([str(python), "-m", "pip", "install", "-q", str(bundle.wheel)], check=True, cwd=tmp_path)
    probe = "import importlib.util as u; print([m for m in ('adt.grid', 'adt.index', 'adt.game_tree', 'reference_games', 'adt.display') if u.find_spec(m)])"
    found = subprocess.run([str(python), "-c", probe], capture_output=True, text=True, cwd=tmp_path, check=True).stdout
    assert found.strip() == "['adt.display']"

    work = tmp_path / "work"
    work.mkdir()
    subprocess.run([str(speckit), "skeleton", "mypkg"], check=True, cwd=work, capture_output=True)
    shutil.copy2(REPO_ROOT / "adt" / "index.py", work / "mypkg" / "index.py")
    done = subprocess.run([str(speckit), "check", "mypkg"], cwd=work, capture_output=True, text=True, timeout=900)
    assert "IndexType" in done.stdout
    rows = [line.split() for line in done.stdout.splitlines() if line.strip().startswith(("increment ", "lessThan "))]
    assert rows and all("passed" in row for row in rows), done.stdout
    refused = subprocess.run([str(speckit), "check"], cwd=work, capture_output=True, text=True)
    assert refused.returncode == 2 and "give your package's folder" in refused.stderr
