"""The GitHub Classroom starter repository, its workflow validated against the GitHub Actions schema."""

from __future__ import annotations

import base64
import json
import subprocess
import sys

import pytest

from speckit import rubric
from speckit.bundle import classroom, classroom_grade


def test_the_workflow_grades_the_package_as_speckit_grade_does_and_reports_it():
    text = classroom.workflow("connect4", "connect4")
    assert (
        "run: python -m speckit.bundle.classroom_grade --spec connect4 --rubric .speckit/rubric.toml connect4"
        ' >> "$GITHUB_OUTPUT"' in text
    )
    assert "autograding-grading-reporter@v1" in text and "runners: speckit" in text
    assert 'SPECKIT_RESULTS: "${{steps.speckit.outputs.result}}"' in text
    assert "speckit check" not in text, "check's profile and all-or-nothing types are not how the class is graded"


def test_the_reporters_result_carries_each_types_points(tmp_path):
    graded = rubric.load(None, "connect4")
    (tmp_path / "feedback").mkdir()
    names = [t.name for t in graded.types if t.points > 0]
    scores = {t.name: f"{t.points:.2f}" for t in graded.types if t.points > 0}
    scores["GridType"] = "9.68"
    row = {"student": "submission", "submission": "submission", **scores, "total": "87.68", "max": "100.00", "note": ""}
    (tmp_path / "grades.csv").write_text(",".join(row) + "\n" + ",".join(row.values()) + "\n", encoding="utf-8")
    result = classroom_grade.reporter_result(tmp_path, graded)
    assert result["max_score"] == 100 and [t["name"] for t in result["tests"]] == names
    assert sum(t["score"] for t in result["tests"]) == pytest.approx(87.68)
    grid = next(t for t in result["tests"] if t["name"] == "GridType")
    assert grid["status"] == "fail" and grid["score"] == 9.68 and result["status"] == "fail"
    line = classroom_grade.encoded(result)
    assert line.startswith("result=") and json.loads(base64.b64decode(line.removeprefix("result="))) == result


@pytest.mark.slow
def test_the_starter_repository(tmp_path):
    out = classroom.build("connect4", tmp_path / "starter")
    assert (out / "connect4" / "grid.py").is_file() and (out / "README.md").is_file()
    assert len(list((out / ".speckit").glob("*.whl"))) == 1 and (out / classroom.RUBRIC).is_file()
    readme = (out / "README.md").read_text(encoding="utf-8")
    assert "no hidden test" in readme and "no reference implementation" in readme and "docs/" not in readme
    assert "The points shown here are feedback" in readme and "`speckit grade`" in readme
    workflow = out / ".github" / "workflows" / "classroom.yml"
    done = subprocess.run(
        [sys.executable, "-m", "check_jsonschema", "--builtin-schema", "vendor.github-workflows", str(workflow)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr
