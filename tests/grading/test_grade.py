"""``speckit grade``: reading submissions safely, scoring by the rubric, and the output files."""

from __future__ import annotations

import io
import json
import stat
import zipfile
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest

import spec as spec_data
from speckit import rubric as rubric_module
from speckit.cli import main
from speckit.grade import (
    Unreadable,
    _Cleaner,
    copy_folder,
    discover,
    extract_zip,
    feedback,
    find_package,
    grade,
    gradescope,
    junit,
    score_type,
    syntax_errors,
)
from speckit.rubric import Limits, RubricError

from .conftest import INCREMENT, patched_reference, reference_copy

CONNECT4 = spec_data.load("connect4")
LIMITS = Limits(max_files=50, max_megabytes=1)


# -- submissions ---------------------------------------------------------------------------


def test_discover_names_folders_and_zips_uniquely(tmp_path):
    for name in ("alice", "Bob Smith", ".hidden", "__MACOSX"):
        (tmp_path / name).mkdir()
    (tmp_path / "alice.zip").write_bytes(b"")
    (tmp_path / "notes.txt").write_text("x")
    (tmp_path / "link").symlink_to(tmp_path / "alice")
    found, skipped = discover(tmp_path)
    assert [(s.name, s.source.name) for s in found] == [("Bob_Smith", "Bob Smith"), ("alice", "alice"), ("alice-2", "alice.zip")]
    assert any("notes.txt" in s for s in skipped) and any("link" in s for s in skipped)


def _zip(path: Path, members: dict[str, bytes], symlinks: tuple[str, ...] = ()) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in members.items():
            z.writestr(name, data)
        for name in symlinks:
            info = zipfile.ZipInfo(name)
            info.external_attr = (stat.S_IFLNK | 0o777) << 16
            z.writestr(info, "/etc/passwd")
    return path


def test_zip_extraction_refuses_traversal_absolute_paths_and_symlinks(tmp_path):
    archive = _zip(
        tmp_path / "evil.zip",
        {
            "pkg/index.py": b"x = 1\n",
            "../escaped.py": b"x = 1\n",
            "/abs.py": b"x = 1\n",
            "pkg/../../up.py": b"x = 1\n",
            "C:/windows.py": b"x = 1\n",
            "pkg\\..\\..\\back.py": b"x = 1\n",
            "pkg/notes.txt": b"ignored",
            "__MACOSX/pkg/._index.py": b"junk",
        },
        symlinks=("pkg/link.py",),
    )
    out = tmp_path / "out"
    out.mkdir()
    notes = extract_zip(archive, out, LIMITS)
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()) == ["pkg/index.py"]
    assert not (tmp_path / "escaped.py").exists() and not (tmp_path / "up.py").exists()
    assert any("symbolic link" in n for n in notes) and sum("unsafe path" in n for n in notes) >= 4


def test_zip_bombs_and_crowds_are_refused(tmp_path):
    bomb = _zip(tmp_path / "bomb.zip", {f"pkg/m{i}.py": b"#" * 900_000 for i in range(3)})
    with pytest.raises(Unreadable, match="more than 1 MB"):
        extract_zip(bomb, tmp_path / "a", LIMITS)
    crowd = _zip(tmp_path / "crowd.zip", {f"pkg/m{i}.py": b"" for i in range(60)})
    with pytest.raises(Unreadable, match="60 entries"):
        extract_zip(crowd, tmp_path / "b", LIMITS)
    (tmp_path / "bad.zip").write_bytes(b"PK\x03\x04 not really")
    with pytest.raises(Unreadable, match="not a readable zip file"):
        extract_zip(tmp_path / "bad.zip", tmp_path / "c", LIMITS)


def test_folder_copy_follows_no_symlinks(tmp_path):
    source = tmp_path / "alice" / "pkg"
    source.mkdir(parents=True)
    (source / "index.py").write_text("x = 1\n")
    (source / "grid.py").symlink_to("/etc/passwd")
    (source / "sub").symlink_to(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    notes = copy_folder(tmp_path / "alice", out, LIMITS)
    assert [p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()] == ["pkg/index.py"]
    assert any("grid.py" in n for n in notes)


def test_the_package_is_found_one_or_two_levels_down(tmp_path):
    nested = reference_copy(tmp_path / "bob" / "work" / "connect4")
    (tmp_path / "bob" / "setup.py").write_text("")
    assert find_package(tmp_path / "bob", CONNECT4) == nested
    flat = reference_copy(tmp_path / "carol")
    assert find_package(flat, CONNECT4) == flat
    (tmp_path / "dave").mkdir()
    (tmp_path / "dave" / "main.py").write_text("")
    assert find_package(tmp_path / "dave", CONNECT4) is None


def test_syntax_errors_are_found_without_running_anything(tmp_path):
    package = reference_copy(tmp_path / "p", index="def broken(:\n", grid="import os\nos._exit(1)\n")
    assert syntax_errors(package, CONNECT4) == {"index.py": "line 1: invalid syntax"}


# -- the rubric ------------------------------------------------------------------------------


def test_the_default_rubric_loads_and_totals_100():
    rubric = rubric_module.load(spec_name="connect4")
    assert rubric.total == 100 and rubric.mode == "best"
    assert rubric.is_hidden("tests/connect4/test_grid.py::test_grid_state_machine")
    assert not rubric.is_hidden("tests/connect4/test_index.py::test_equals_is_an_equivalence")


@pytest.mark.parametrize(
    "text, message",
    [
        ('[types.NoSuchType]\npoints = 1', "no such type"),
        ('[grading]\nmode = "lenient"\n[types.IndexType]\npoints = 1', "mode must be one of"),
        ('[types.IndexType]\npoints = -1', "0 or more"),
        ('[types.IndexType]\npoints = 1\noperations = { jump = 2 }', "no operation 'jump'"),
        ('[limits]\nmemory_mb = 0\n[types.IndexType]\npoints = 1', "positive number"),
        ('[types.IndexType]\npoints = 1\n[types.index]\npoints = 2', "given twice"),
        ('typo = 1\n[types.IndexType]\npoints = 1', "unknown key typo"),
        ("", "nothing would be graded"),
    ],
)
def test_rubric_mistakes_are_named(tmp_path, text, message):
    path = tmp_path / "r.toml"
    path.write_text(text)
    with pytest.raises(RubricError, match=message):
        rubric_module.load(path, "connect4")


# -- scoring -------------------------------------------------------------------------------


def _record(test: str, outcome: str, *covers: str, message: str = "") -> dict:
    return {"test": f"tests/connect4/{test}", "outcome": outcome, "kind": outcome, "covers": list(covers), "message": message}


def test_partial_credit_is_the_share_of_each_operations_tests_passed():
    rubric = rubric_module.parse(
        {"grading": {"common": ["test_structure.py"], "hidden": ["*secret*"]},
         "types": {"IndexType": {"points": 6, "operations": {"increment": 2, "clone": 0}}}}
    )  # fmt: skip
    records = (
        _record("test_index.py::test_a", "passed", "IndexType.increment", "DimensionType.equals"),
        _record("test_index.py::test_b", "failed", "IndexType.increment", "IndexType.equals", message="boom"),
        _record("test_index.py::test_secret", "passed", "IndexType.equals"),
        _record("test_index.py::test_skip", "skipped", "IndexType.equals"),
        _record("test_index.py::test_clone", "failed", "IndexType.clone"),
        _record("test_structure.py::test_exists[IndexType.lessThan]", "passed", "IndexType.lessThan"),
        _record("test_grid.py::test_elsewhere", "failed", "IndexType.lessThan"),
    )
    grade = score_type(rubric.types[0], rubric, CONNECT4, records, "submitted", lambda s: s)
    points = {o.qualname.split(".")[1]: (o.points, o.score, o.passed, o.counted) for o in grade.operations}
    # increment (weight 2), equals and lessThan (1 each) are covered: 3, 1.5 and 1.5 points
    assert points == {"increment": (3.0, 1.5, 1, 2), "lessThan": (1.5, 1.5, 1, 1), "equals": (1.5, 0.75, 1, 2)}
    assert grade.score == pytest.approx(3.75) and grade.max_score == 6
    by_test = {t.test.split("::")[1]: t for t in grade.tests}
    assert by_test["test_b"].max_score == pytest.approx(1.5 + 0.75) and by_test["test_b"].score == 0
    assert by_test["test_skip"].max_score == 0 and by_test["test_secret"].hidden
    assert sum(t.score for t in grade.tests) == pytest.approx(grade.score)
    assert sum(t.max_score for t in grade.tests) == pytest.approx(grade.max_score)
    assert "test_clone" not in by_test and "test_elsewhere" not in by_test
    assert "not graded (no test covers them)" in grade.note and "IndexType.decrement" in grade.note


def test_published_text_holds_no_grader_paths_or_addresses(tmp_path):
    clean = _Cleaner([tmp_path / "stage"])
    text = clean(f"<Index object at 0x7f3a2b1c9d80> in {tmp_path}/stage/package/index.py via speckit_impl_0123456789ab.index\x07")
    assert text == "<Index object at 0x…> in <submission>/package/index.py via <package>.index"


# -- the whole run -------------------------------------------------------------------------

RUBRIC = """
spec = "connect4"
title = "Index and Dimension"
[grading]
mode = "best"
common = []
hidden = ["*equivalence*"]
[types.IndexType]
points = 4
[types.DimensionType]
points = 3
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """Four submissions: correct and nested; a faulty Index in a zip; syntax errors only; a broken zip."""
    base = tmp_path_factory.mktemp("grade")
    submissions = base / "submissions"
    reference_copy(submissions / "alice" / "mypkg")
    faulty = patched_reference(base / "bob" / "connect4", "index", INCREMENT, INCREMENT + "    index.number += 1\n")
    with zipfile.ZipFile(submissions / "bob.zip", "w") as z:
        for path in sorted(faulty.rglob("*.py")):
            z.write(path, path.relative_to(faulty.parent).as_posix())
    reference_copy(submissions / "carol", index="def newIndexType(:\n", dimension="class (\n")
    for name in ("colour", "worth", "level_number", "location", "symbol", "player", "square", "grid", "game_tree", "connect4"):
        (submissions / "carol" / f"{name}.py").unlink(missing_ok=True)
    (submissions / "dave.zip").write_bytes(b"not a zip")
    rubric = base / "rubric.toml"
    rubric.write_text(RUBRIC)
    return submissions, rubric, base


@pytest.fixture(scope="module")
def twice(folder):
    submissions, rubric, base = folder
    first = base / "first"
    grades = grade(submissions, first, jobs=2, rubric=rubric, stream=io.StringIO())
    second = base / "second"
    code = main(["grade", str(submissions), "--out", str(second), "--rubric", str(rubric), "--jobs", "2"])
    assert code == 0
    return {g.name: g for g in grades}, first, second


def test_grading_twice_writes_the_same_bytes(twice):
    _, first, second = twice
    names = sorted(p.relative_to(first).as_posix() for p in first.rglob("*") if p.is_file())
    assert names == sorted(p.relative_to(second).as_posix() for p in second.rglob("*") if p.is_file())
    assert "grades.csv" in names and "results/bob/results.json" in names and "junit/carol.xml" in names
    for name in names:
        assert (first / name).read_bytes() == (second / name).read_bytes(), f"{name} differs between two runs"


def test_the_grades(twice):
    grades, first, _ = twice
    rows = (first / "grades.csv").read_text().splitlines()
    assert rows[0] == "student,IndexType,DimensionType,total,max,note"
    assert rows[1] == "alice,4.00,3.00,7.00,7.00,"
    assert rows[2].startswith("bob,") and rows[3].startswith("carol,0.00,0.00,0.00,7.00,every module has a syntax error")
    assert rows[4] == "dave,0.00,0.00,0.00,7.00,not a readable zip file (BadZipFile: File is not a zip file)"
    bob = {t.name: t for t in grades["bob"].types}
    # increment adds 2: Index loses points; Dimension, which is built from indexes, would too,
    # but graded with the reference's Index it earns everything.
    assert 0 < bob["IndexType"].score < 4
    assert bob["DimensionType"].graded_as == "hybrid" and bob["DimensionType"].score == 3
    assert "as submitted" in bob["DimensionType"].other


def test_feedback_explains_failures_and_hides_hidden_tests(twice):
    _, first, _ = twice
    text = (first / "feedback" / "bob.md").read_text()
    assert "### failed: `test_decrement_gives_the_previous_index`" in text
    assert "IndexType.increment: " in text and "Operations called, in order:" in text and "Expected:" in text
    assert "equivalence" not in text and "Hidden tests: 1, of which" in text
    assert "graded the package in connect4/" in text
    assert "<submission>" not in text or "/tmp/" not in text
    assert "could not be graded: not a readable zip file" in (first / "feedback" / "dave.md").read_text()


def test_gradescope_results_follow_the_autograder_format(twice):
    grades, first, _ = twice
    for name, student in grades.items():
        data = json.loads((first / "results" / name / "results.json").read_text())
        assert set(data) == {"score", "output", "visibility", "stdout_visibility", "tests"}
        assert data["score"] == pytest.approx(round(student.total, 4))
        assert data["tests"], name
        for test in data["tests"]:
            assert {"name", "score", "max_score", "status", "output", "visibility"} <= set(test)
            assert test["status"] in ("passed", "failed") and test["visibility"] in ("visible", "hidden", "after_published")
            assert 0 <= test["score"] <= test["max_score"] + 1e-9
        assert sum(t["score"] for t in data["tests"]) == pytest.approx(data["score"], abs=1e-3)
    bob = json.loads((first / "results" / "bob" / "results.json").read_text())
    assert {t["visibility"] for t in bob["tests"] if "equivalence" in t["name"]} == {"hidden"}


def test_junit_is_well_formed(twice):
    _, first, _ = twice
    root = ET.parse(first / "junit" / "bob.xml").getroot()
    suites = {s.get("name"): s for s in root}
    assert set(suites) == {"IndexType", "DimensionType"}
    assert int(root.get("failures")) == sum(int(s.get("failures")) for s in root) > 0
    assert all(case.get("time") is None for case in root.iter("testcase"))


def test_output_writers_survive_hostile_messages():
    rubric = rubric_module.load(spec_name="connect4")
    from speckit.grade import StudentGrade, TestGrade, TypeGrade

    hostile = "```\n</failure><script>]]>\x00\x1b[31m" + "`" * 10
    test = TestGrade("tests/connect4/test_index.py::test_x", "failed", "failed", hostile, ("IndexType.increment",), False, 0.0, 1.0)
    student = StudentGrade("eve", (TypeGrade("IndexType", 0.0, 1.0, "submitted", tests=(test,)),))
    text = feedback(student, rubric, [])
    assert "`" * 11 + "text" in text
    ET.fromstring(junit(student).split("\n", 1)[1])
    json.loads(gradescope(student, rubric))


def test_cli_reports_usage_errors(tmp_path, capsys):
    assert main(["grade", str(tmp_path / "nowhere")]) == 2
    assert "no such folder" in capsys.readouterr().err
    (tmp_path / "bad.toml").write_text("[types.Nope]\npoints = 1\n")
    assert main(["grade", str(tmp_path), "--rubric", str(tmp_path / "bad.toml")]) == 2
    assert "no such type" in capsys.readouterr().err
