"""The GitHub Classroom starter repository, its workflow validated against the GitHub Actions schema."""

from __future__ import annotations

import subprocess
import sys

import pytest

from speckit.bundle import classroom

from speckit import rubric


def test_the_workflow_grades_each_type_for_its_points():
    graded = [t for t in rubric.load(None, "connect4").types if t.points > 0]
    text = classroom.workflow("connect4", "connect4", graded)
    assert text.count("autograding-command-grader@v1") == len(graded)
    assert "command: speckit check --spec connect4 --type GridType connect4" in text
    assert f"runners: {','.join(t.name.lower() for t in graded)}" in text


@pytest.mark.slow
def test_the_starter_repository(tmp_path):
    out = classroom.build("connect4", tmp_path / "starter")
    assert (out / "connect4" / "grid.py").is_file() and (out / "README.md").is_file()
    assert len(list((out / ".speckit").glob("*.whl"))) == 1
    workflow = out / ".github" / "workflows" / "classroom.yml"
    done = subprocess.run(
        [sys.executable, "-m", "check_jsonschema", "--builtin-schema", "vendor.github-workflows", str(workflow)],
        capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
