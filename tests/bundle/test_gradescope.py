"""The Gradescope autograder: its zip's layout, and run_autograder on a simulated /autograder tree."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import spec
from speckit.bundle import gradescope
from speckit.bundle.source import BundleError
from speckit.paths import REPO_ROOT
from speckit.skeleton import write_skeleton

jsonschema = pytest.importorskip("jsonschema")
SCHEMA = json.loads((Path(__file__).parent / "gradescope_results.schema.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def autograder(tmp_path_factory):
    """The Connect-4 autograder, built and unpacked as Gradescope unpacks it into /autograder/source."""
    folder = tmp_path_factory.mktemp("gradescope")
    archive = gradescope.build("connect4", folder / "autograder.zip")
    root = folder / "autograder"
    with zipfile.ZipFile(archive) as z:
        z.extractall(root / "source")
        modes = {info.filename: info.external_attr >> 16 for info in z.infolist()}
    return archive, root, modes


def run_autograder(root: Path, submission: Path | None) -> dict:
    """Lay out one submission as Gradescope does, run run_autograder, and read results.json."""
    shutil.rmtree(root / "submission", ignore_errors=True)
    shutil.rmtree(root / "results", ignore_errors=True)
    (root / "submission").mkdir(parents=True)
    if submission is not None:
        shutil.copytree(submission, root / "submission", dirs_exist_ok=True)
    script = root / "source" / "run_autograder"
    environment = dict(os.environ, AUTOGRADER_ROOT=str(root), SPECKIT_PYTHON=sys.executable)
    done = subprocess.run(["bash", str(script)], capture_output=True, text=True, env=environment, timeout=900)
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads((root / "results" / "results.json").read_text(encoding="utf-8"))
    jsonschema.validate(result, SCHEMA)
    return result


def test_the_zip_has_gradescopes_layout(autograder):
    archive, root, modes = autograder
    assert {"setup.sh", "run_autograder", "rubric.toml"} <= set(modes)
    assert modes["setup.sh"] & 0o111 and modes["run_autograder"] & 0o111
    assert "kit/tests/connect4/test_grid.py" in modes, "the hidden tests travel inside the autograder"
    assert "kit/speckit/cli.py" in modes and "kit/pyproject.toml" in modes
    assert not any("__pycache__" in name or name.startswith("kit/.venv") for name in modes)
    setup = (root / "source" / "setup.sh").read_text()
    assert "bubblewrap" in setup and '"$root/source/kit"' in setup and 'root="${AUTOGRADER_ROOT:-/autograder}"' in setup
    assert 'kit"' in setup and "kit[" not in setup, (
        "the autograder installs the kit without extras (no docs tools, no matplotlib)"
    )


def test_an_existing_file_is_never_replaced(tmp_path):
    taken = tmp_path / "autograder.zip"
    taken.write_text("an instructor's file")
    with pytest.raises(BundleError, match="already exists"):
        gradescope.build("connect4", taken)
    assert taken.read_text() == "an instructor's file"


def test_an_empty_submission_gets_zero_with_the_reason(autograder):
    result = run_autograder(autograder[1], None)
    assert result["score"] == 0 and "Nothing was submitted" in result["output"]
    assert result["output_format"] == "text" and isinstance(result["execution_time"], int)


def test_a_zip_left_unextracted_is_the_submission_and_two_are_refused(tmp_path):
    from speckit.bundle.autograder import Ambiguous, submitted_zip

    (tmp_path / "mine.zip").write_bytes(b"PK")
    assert submitted_zip(tmp_path) == tmp_path / "mine.zip"
    (tmp_path / "old").mkdir()
    (tmp_path / "old" / "older.zip").write_bytes(b"PK")
    with pytest.raises(Ambiguous, match=r"several \.zip files .*mine\.zip, old/older\.zip"):
        submitted_zip(tmp_path)
    (tmp_path / "index.py").write_text("")
    assert submitted_zip(tmp_path) is None, "the .py files are the submission; a zip beside them is not"


@pytest.mark.slow
def test_correct_partial_and_broken_submissions(autograder, tmp_path):
    root = autograder[1]
    correct = run_autograder(root, REPO_ROOT / "adt")
    assert correct["score"] == pytest.approx(100)
    assert correct["tests"] and all(t["status"] == "passed" for t in correct["tests"])

    partial = tmp_path / "partial"
    write_skeleton(spec.load("connect4"), partial)
    shutil.copy2(REPO_ROOT / "adt" / "index.py", partial / "index.py")
    graded = run_autograder(root, partial)
    assert 0 < graded["score"] < 100
    assert any(t["status"] == "failed" for t in graded["tests"])

    zipped = tmp_path / "zipped"
    zipped.mkdir()
    shutil.make_archive(str(zipped / "connect4"), "zip", tmp_path / "partial" / "..", "partial")
    graded_zip = run_autograder(root, zipped)
    assert graded_zip["score"] == graded["score"], "a zip left unextracted is graded as its files would be"

    broken = tmp_path / "broken"
    shutil.copytree(REPO_ROOT / "adt", broken, ignore=shutil.ignore_patterns("__pycache__"))
    (broken / "grid.py").write_text("def newGridType(:\n")
    graded = run_autograder(root, broken)
    assert graded["score"] < 100
    assert "syntax" in json.dumps(graded).lower()
