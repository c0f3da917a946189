"""``speckit grade``: reading submissions safely, scoring by the rubric, and the output files."""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import stat
import sys
import zipfile
from decimal import Decimal
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest

import spec as spec_data
from speckit import registry
from speckit import rubric as rubric_module
from speckit.cli import main
from speckit.core import Outcome
from speckit.grading import GradedAs, StudentGrade, TestGrade, TestRecord, TypeGrade, grade
from speckit.grading.intake import Unreadable, copy_folder, discover, extract_zip, find_package, suffixed, syntax_errors
from speckit.grading.reports import Cleaner, feedback, gradebook, gradescope, junit
from speckit.grading.scoring import apportion, score_type
from speckit.registry import kit
from speckit.rubric import Limits, RubricError

from .conftest import INCREMENT, REFERENCE, patched_reference, reference_copy
from .conftest import INDEX_DIMENSION_RUBRIC as RUBRIC

CONNECT4 = spec_data.load("connect4")
LIMITS = Limits(max_files=50, max_megabytes=1)


# -- submissions ---------------------------------------------------------------------------


def test_discover_names_folders_and_zips_uniquely(tmp_path):
    for name in ("alice", "Bob Smith", ".hidden", "__MACOSX", "a b", "a_b", "café"):
        (tmp_path / name).mkdir()
    (tmp_path / "alice.zip").write_bytes(b"")
    (tmp_path / "notes.txt").write_text("x")
    (tmp_path / "link").symlink_to(tmp_path / "alice")
    found, skipped = discover(tmp_path)
    # A name no other entry maps to is kept, readable (café stays café); names that collide
    # all get a suffix of their own, so none takes another's id.
    assert sorted((s.name, s.original) for s in found) == sorted(
        [
            ("Bob_Smith", "Bob Smith"),
            (suffixed("a_b", "a b"), "a b"),
            (suffixed("a_b", "a_b"), "a_b"),
            (suffixed("alice", "alice"), "alice"),
            (suffixed("alice", "alice.zip"), "alice.zip"),
            ("café", "café"),
        ]
    )
    assert all(s.source.name == s.original for s in found)
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
    bomb = _zip(tmp_path / "bomb.zip", {f"pkg/m{i}.py": b"#" * 250_000 for i in range(5)})
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


def test_the_package_is_found_in_a_folder_below_and_two_copies_are_not_guessed_between(tmp_path):
    nested = reference_copy(tmp_path / "bob" / "work" / "connect4")
    (tmp_path / "bob" / "setup.py").write_text("")
    assert find_package(tmp_path / "bob", CONNECT4) == nested
    deep = reference_copy(tmp_path / "erin" / "Downloads" / "a1" / "src" / "connect4")
    (deep.parent / "old").mkdir()
    (deep.parent / "old" / "index.py").write_text("")  # fewer of the modules: not a rival
    assert find_package(tmp_path / "erin", CONNECT4) == deep
    reference_copy(tmp_path / "erin" / "Downloads" / "a1" / "src" / "copy")
    with pytest.raises(Unreadable, match=r"several folders .*src/connect4/, Downloads/a1/src/copy/"):
        find_package(tmp_path / "erin", CONNECT4)
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


@pytest.mark.parametrize("name", registry.names())
def test_every_specifications_rubric_loads_and_totals_100(name):
    rubric = rubric_module.load(spec_name=name)
    assert rubric.spec == name and rubric.total == 100


@pytest.mark.parametrize(
    "text, message",
    [
        ("[types.NoSuchType]\npoints = 1", "no such type"),
        ('[grading]\nmode = "lenient"\n[types.IndexType]\npoints = 1', "mode must be one of"),
        ("[types.IndexType]\npoints = -1", "0 or more"),
        ("[types.IndexType]\npoints = 1\noperations = { jump = 2 }", "no operation 'jump'"),
        ("[limits]\nmemory_mb = 0\n[types.IndexType]\npoints = 1", "positive number"),
        ("[types.IndexType]\npoints = 1\n[types.index]\npoints = 2", "given twice"),
        ("typo = 1\n[types.IndexType]\npoints = 1", "unknown key typo"),
        ("", "nothing would be graded"),
        ("[types.IndexType]\npoints = 1.005", "hundredths"),
    ],
)
def test_rubric_mistakes_are_named(tmp_path, text, message):
    path = tmp_path / "r.toml"
    path.write_text(text)
    with pytest.raises(RubricError, match=message):
        rubric_module.load(path, "connect4")


# -- scoring -------------------------------------------------------------------------------


def _record(test: str, outcome: str, *covers: str, message: str = "", structural: bool = False) -> TestRecord:
    return TestRecord(f"tests/connect4/{test}", covers, Outcome(outcome), Outcome(outcome), message, structural)


STRUCTURE = "test_structure.py::test_operation_exists_with_its_documented_parameters"


def test_partial_credit_is_the_share_of_each_operations_tests_passed():
    rubric = rubric_module.parse(
        {
            "grading": {"common": ["test_structure.py"], "hidden": ["*secret*"]},
            "types": {"IndexType": {"points": 6, "operations": {"increment": 2, "clone": 0}}},
        }
    )
    records = (
        _record("test_index.py::test_a", "passed", "IndexType.increment", "DimensionType.equals"),
        _record("test_index.py::test_b", "failed", "IndexType.increment", "IndexType.equals", message="boom"),
        _record("test_index.py::test_secret", "passed", "IndexType.equals"),
        _record("test_index.py::test_skip", "skipped", "IndexType.equals"),
        _record("test_index.py::test_clone", "failed", "IndexType.clone"),
        _record("test_index.py::test_decrement", "passed", "IndexType.decrement"),
        _record("test_structure.py::test_common", "passed", "IndexType.lessThan"),
        _record(f"{STRUCTURE}[IndexType.lessThan]", "passed", "IndexType.lessThan", structural=True),
        _record(f"{STRUCTURE}[IndexType.decrement]", "failed", "IndexType.decrement", structural=True),
        _record("test_grid.py::test_elsewhere", "failed", "IndexType.lessThan"),
    )
    grade = score_type(rubric.types[0], rubric, CONNECT4, records, GradedAs.SUBMITTED, lambda s: s)
    points = {
        o.qualname.split(".")[1]: (str(o.points), str(o.score), o.passed, o.counted, o.gated) for o in grade.operations
    }
    # increment (weight 2), decrement, lessThan and equals (1 each) share 6 points: 2.40 and 1.20 each.
    # decrement's behaviour test passes, but its structure test fails: it earns nothing.
    assert points == {
        "increment": ("2.40", "1.20", 1, 2, False),
        "decrement": ("1.20", "0.00", 1, 1, True),
        "lessThan": ("1.20", "1.20", 1, 1, False),
        "equals": ("1.20", "0.60", 1, 2, False),
    }
    assert grade.score == Decimal("3.00") and grade.max_score == Decimal("6.00")
    by_test = {t.test.split("::")[1]: t for t in grade.tests}
    assert by_test["test_b"].max_score == Decimal("1.80") and by_test["test_b"].score == 0
    assert by_test["test_decrement"].max_score == Decimal("1.20") and by_test["test_decrement"].score == 0
    assert by_test["test_skip"].max_score == 0 and by_test["test_secret"].hidden
    structural = [t for t in grade.tests if t.record.structural]
    assert len(structural) == 2 and all(t.max_score == t.score == 0 for t in structural)
    assert sum(t.score for t in grade.tests) == grade.score
    assert sum(t.max_score for t in grade.tests) == grade.max_score
    assert "test_clone" not in by_test and "test_elsewhere" not in by_test
    assert "not graded (no test covers them)" in grade.note and "IndexType.newIndexType" in grade.note
    assert "no points for operations without their documented signature: IndexType.decrement" in grade.note


@pytest.mark.parametrize(
    "total, weights, shares",
    [
        ("100", [1, 1, 1], ["33.34", "33.33", "33.33"]),
        ("4", [1] * 7, ["0.58", "0.57", "0.57", "0.57", "0.57", "0.57", "0.57"]),
        ("22", [2, 1, 0, 1], ["11.00", "5.50", "0.00", "5.50"]),
        ("0.05", [1] * 7, ["0.01"] * 5 + ["0.00"] * 2),
    ],
)
def test_points_are_shared_in_hundredths_that_add_up_exactly(total, weights, shares):
    result = apportion(Decimal(total), weights)
    assert [str(s) for s in result] == shares and sum(result) == Decimal(total)


def test_published_text_holds_no_grader_paths_or_addresses(tmp_path):
    clean = Cleaner([tmp_path / "stage"])
    text = clean(
        f"<Index object at 0x7f3a2b1c9d80> in {tmp_path}/stage/package/index.py via speckit_impl_0123456789ab.index\x07"
    )
    assert text == "<Index object at 0x…> in <submission>/package/index.py via <package>.index"


# -- the whole run -------------------------------------------------------------------------


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
    for name in (
        "colour",
        "worth",
        "level_number",
        "location",
        "symbol",
        "player",
        "square",
        "grid",
        "game_tree",
        "connect4",
    ):
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


def _files(folder: Path) -> list[str]:
    """The grade files of a run (what holds times aside: the log, the records and the class report built from them)."""
    return sorted(
        p.relative_to(folder).as_posix()
        for p in folder.rglob("*")
        if p.is_file() and p.name not in ("grading.log", "report.html") and p.parent.name != "records"
    )


def _untimed_records(folder: Path) -> dict[str, dict]:
    return {
        p.name: {k: v for k, v in json.loads(p.read_text(encoding="utf-8")).items() if k != "seconds"}
        for p in (folder / "records").glob("*.json")
    }


def test_grading_twice_writes_the_same_bytes(twice):
    _, first, second = twice
    names = _files(first)
    assert names == _files(second)
    assert "grades.csv" in names and "results/bob/results.json" in names and "junit/carol.xml" in names
    for name in names:
        assert (first / name).read_bytes() == (second / name).read_bytes(), f"{name} differs between two runs"
    records = _untimed_records(first)
    assert sorted(records) == ["alice.json", "bob.json", "carol.json", "dave.json"]
    assert records == _untimed_records(second), "the records differ between two runs in more than their times"


def _gradebook(folder: Path) -> dict[str, dict[str, str]]:
    with (folder / "grades.csv").open(newline="", encoding="utf-8") as f:
        return {row["student"]: row for row in csv.DictReader(f)}


def test_the_grades(twice):
    grades, first, _ = twice
    assert (first / "grades.csv").read_text().splitlines()[
        0
    ] == "student,submission,IndexType,DimensionType,total,max,note"
    rows = _gradebook(first)
    assert list(rows) == ["alice", "bob", "carol", "dave"]
    assert [rows["alice"][k] for k in ("submission", "IndexType", "DimensionType", "total", "max")] == [
        "alice",
        "4.00",
        "3.00",
        "7.00",
        "7.00",
    ]
    assert rows["bob"]["submission"] == "bob.zip" and rows["dave"]["submission"] == "dave.zip"
    assert [rows["carol"][k] for k in ("total", "max")] == ["0.00", "7.00"] and rows["carol"]["note"].startswith(
        "every module has a syntax error"
    )
    assert rows["dave"]["note"].startswith("not a readable zip file (BadZipFile: File is not a zip file)")
    for row in rows.values():
        assert Decimal(row["IndexType"]) + Decimal(row["DimensionType"]) == Decimal(row["total"])
    bob = {t.name: t for t in grades["bob"].types}
    # increment adds 2: Index loses points; Dimension, which is built from indexes, would too,
    # but graded with the reference's Index it earns everything.
    assert 0 < bob["IndexType"].score < 4
    assert bob["DimensionType"].graded_as is GradedAs.HYBRID and bob["DimensionType"].score == 3
    assert "as submitted" in bob["DimensionType"].other


def test_the_log_says_how_the_run_went(twice):
    _, first, _ = twice
    log = (first / "grading.log").read_text()
    assert "limits: memory_mb 1024" in log and "sandbox: " in log
    assert "graded alice: 7.00 of 7.00 in " in log and "graded bob (submitted as 'bob.zip')" in log
    assert "fallback: DimensionType graded as a hybrid" in log


def test_feedback_explains_failures_and_hides_hidden_tests(twice):
    _, first, _ = twice
    text = (first / "feedback" / "bob.md").read_text()
    assert "### failed: `test_decrement_gives_the_previous_index`" in text
    assert "IndexType.increment: " in text and "Calls, in order:" in text and "The specification requires:" in text
    assert "equivalence" not in text and "Hidden tests: 1, of which" in text
    assert "graded the package in connect4/" in text
    assert "<submission>" not in text or "/tmp/" not in text
    assert "could not be graded: not a readable zip file" in (first / "feedback" / "dave.md").read_text()


def test_gradescope_results_follow_the_autograder_format_and_add_up(twice):
    grades, first, _ = twice
    for name, student in grades.items():
        data = json.loads((first / "results" / name / "results.json").read_text(), parse_float=Decimal)
        assert set(data) == {
            "score",
            "output",
            "output_format",
            "test_output_format",
            "test_name_format",
            "visibility",
            "stdout_visibility",
            "tests",
            "extra_data",
        }
        assert data["extra_data"]["sandbox"] in ("bubblewrap", "mount namespace", "another user", "resource limits")
        assert data["score"] == student.total
        assert data["tests"], name
        for test in data["tests"]:
            assert {"name", "score", "max_score", "status", "output", "visibility"} <= set(test)
            assert test["status"] in ("passed", "failed") and test["visibility"] in (
                "visible",
                "hidden",
                "after_published",
            )
            assert 0 <= test["score"] <= test["max_score"]
        # exactly, as written: the parts add up to the whole
        assert sum(Decimal(t["score"]) for t in data["tests"]) == data["score"]
        assert sum(Decimal(t["max_score"]) for t in data["tests"]) == student.max_score == Decimal("7.00")
    bob = json.loads((first / "results" / "bob" / "results.json").read_text())
    assert {t["visibility"] for t in bob["tests"] if "equivalence" in t["name"]} == {"hidden"}


def test_junit_is_well_formed(twice):
    _, first, _ = twice
    root = ET.parse(first / "junit" / "bob.xml").getroot()
    suites = {s.get("name"): s for s in root.iter("testsuite")}
    assert set(suites) == {"IndexType", "DimensionType"}
    assert int(root.get("failures")) == sum(int(s.get("failures")) for s in suites.values()) > 0
    assert all(case.get("time") is None for case in root.iter("testcase"))


def test_output_writers_survive_hostile_messages():
    rubric = rubric_module.load(spec_name="connect4")
    hostile = "```\n</failure><script>]]>\x00\x1b[31m" + "`" * 10
    record = _record("test_index.py::test_x", "failed", "IndexType.increment", message=hostile)
    test = TestGrade(record, ("IndexType.increment",), False, Decimal("0.00"), Decimal("1.00"))
    student = StudentGrade(
        "eve", (TypeGrade("IndexType", Decimal("0.00"), Decimal("1.00"), GradedAs.SUBMITTED, tests=(test,)),)
    )
    text = feedback(student, rubric, [])
    assert "`" * 11 + "text" in text
    ET.fromstring(junit(student).split("\n", 1)[1])
    json.loads(gradescope(student, rubric))


MODULE_RUBRIC = {"grading": {"common": ["test_structure.py"], "hidden": []}, "types": {"IndexType": {"points": 4}}}


def _unimportable_index(message: str) -> StudentGrade:
    """A grade of IndexType whose every test failed because the module could not be used, for ``message``."""
    rubric = rubric_module.parse(MODULE_RUBRIC)
    missing = Outcome.MISSING
    records = tuple(
        TestRecord(f"tests/connect4/{test}", (op,), Outcome.FAILED, missing, message, structural)
        for op in ("IndexType.increment", "IndexType.decrement")
        for test, structural in ((f"{STRUCTURE}[{op}]", True), (f"test_index.py::test_{op.split('.')[1]}", False))
    )
    graded = score_type(rubric.types[0], rubric, CONNECT4, records, GradedAs.SUBMITTED, lambda s: s)
    return StudentGrade("eve", (graded,))


@pytest.mark.parametrize(
    "message, shown, gate",
    [
        (
            "module index has a syntax error at line 41 of index.py: unmatched ')'",
            "syntax error at line 41 of index.py",
            "its module could not be imported",
        ),
        (
            "module index could not be imported: display.py has a syntax error at line 8: invalid syntax",
            "display.py has a syntax error at line 8",
            "its module could not be imported",
        ),
        ("the implementation has no module index (expected index.py)", "has no module index", "missing"),
    ],
    ids=["syntax", "syntax-elsewhere", "missing-module"],
)
def test_a_module_that_cannot_be_used_is_named_in_every_output(message, shown, gate):
    """Before: "signature wrong: no points" for every operation, "Not written yet" for every test,
    and neither the gradebook's note nor results.json's output said why."""
    student = _unimportable_index(message)
    rubric = rubric_module.parse(MODULE_RUBRIC)
    text = feedback(student, rubric, [])
    assert shown in text and f"({gate}: no points)" in text
    assert "signature wrong" not in text and "Not written yet" not in text
    assert shown in json.loads(gradescope(student, rubric))["output"]
    (row,) = csv.DictReader(io.StringIO(gradebook([student], rubric.types)))
    assert shown in row["note"] and row["total"] == "0.00"


def test_cli_reports_usage_errors(tmp_path, capsys):
    assert main(["grade", str(tmp_path / "nowhere")]) == 2
    assert "no such folder" in capsys.readouterr().err
    (tmp_path / "bad.toml").write_text("[types.Nope]\npoints = 1\n")
    assert main(["grade", str(tmp_path), "--rubric", str(tmp_path / "bad.toml")]) == 2
    assert "no such type" in capsys.readouterr().err


# -- a package that cannot be imported whole is graded type by type, with the reason ---------

IMPORT_RUBRIC = """
spec = "connect4"
title = "Index and Dimension"
[grading]
mode = "submitted"
[limits]
import_seconds = 3
[types.IndexType]
points = 4
[types.DimensionType]
points = 3
"""

IMPORTING_DIMENSION = "\nfrom . import dimension\n"


def _with_code_at_import(destination: Path, module: str, code: str, init: str = IMPORTING_DIMENSION) -> Path:
    """A copy of the reference whose ``module`` runs ``code`` when imported, and whose ``__init__`` adds ``init``."""
    text = (REFERENCE / f"{module}.py").read_text(encoding="utf-8")
    first = "from __future__ import annotations\n"
    package = reference_copy(destination, **{module: text.replace(first, first + code, 1)})
    with (package / "__init__.py").open("a", encoding="utf-8") as f:
        f.write(init)
    return package


@pytest.fixture(scope="module")
def unimportable(tmp_path_factory):
    """Packages whose import raises, ends the process or takes too long, graded with mode "submitted"."""
    base = tmp_path_factory.mktemp("unimportable")
    submissions = base / "submissions"
    _with_code_at_import(submissions / "raises", "dimension", "\nundefined_name\n")
    _with_code_at_import(submissions / "exits", "dimension", "\nimport os\nos._exit(0)\n")
    _with_code_at_import(submissions / "slow", "index", "", init="\nimport time\ntime.sleep(60)\n")
    rubric = base / "rubric.toml"
    rubric.write_text(IMPORT_RUBRIC)
    grades = grade(submissions, base / "out", jobs=2, rubric=rubric, stream=io.StringIO())
    return {g.name: g for g in grades}, base / "out"


@pytest.mark.slow
@pytest.mark.parametrize(
    "name, words",
    [("raises", ["NameError", "import"]), ("exits", ["import", "exit"]), ("slow", ["import"])],
)
def test_a_package_that_cannot_be_imported_is_graded_type_by_type_with_the_reason(unimportable, name, words):
    grades, out = unimportable
    student = grades[name]
    types = {t.name: t for t in student.types}
    # Before: "0 of 0 points", every type "no graded test covers its operations".
    assert student.max_score == Decimal("7.00")
    assert not student.reason and any("could not be run" in note for note in student.notes)
    reason = next(note for note in student.notes if "could not be run" in note)
    assert all(word.lower() in reason.lower() for word in words), reason
    # Index is sound: graded in the package with only the broken parts replaced, it earns everything.
    assert types["IndexType"].score == Decimal("4.00")
    text = (out / "feedback" / f"{name}.md").read_text(encoding="utf-8")
    assert (
        "could not be run" in text
        and "**Total: " in text
        and " of 7.00 points.**" in text
        and "of 0 points" not in text
    )
    # The grade may stand (each type graded module by module), but every output says why it was graded so.
    # Before: only the feedback did; the gradebook's note and Gradescope's output said nothing.
    rows = {row["student"]: row for row in csv.DictReader((out / "grades.csv").open(encoding="utf-8"))}
    assert reason in rows[name]["note"]
    assert reason in json.loads((out / "results" / name / "results.json").read_text(encoding="utf-8"))["output"]
    if name == "slow":  # its modules are sound: only its __init__ is slow
        assert student.total == Decimal("7.00")
    else:  # its Dimension fails each of its tests, saying why
        dimension = types["DimensionType"]
        assert dimension.score == 0 and dimension.graded_as is GradedAs.HYBRID and dimension.tests
        assert all(word.lower() in dimension.tests[0].message.lower() for word in words[:1]), dimension.tests[0].message


HASH_DICTIONARY_RUBRIC = """
spec = "xplus"
title = "HashDictionary only"
[grading]
mode = "hybrid"
common = []
hidden = []
[types.HashDictionary]
points = 10
"""


@pytest.mark.slow
def test_a_hybrid_raises_the_kits_supplied_exception(tmp_path):
    """A hybrid is shaped as a student's package: its supplied modules re-export the kit's.

    A correct X+Game package whose ``__init__`` raises, graded in the ``hybrid`` mode. A hybrid
    that copied the reference's ``dictionary_exception.py`` raised a
    DictionaryException class of its own, and the correct HashDictionary earned 6.49 of 10.
    """
    from speckit.skeleton import reference_copy as shaped_reference_copy

    package = shaped_reference_copy("xplus", tmp_path / "submissions" / "alice")
    with (package / "__init__.py").open("a", encoding="utf-8") as f:
        f.write("\nraise RuntimeError('this package cannot be imported')\n")
    rubric = tmp_path / "rubric.toml"
    rubric.write_text(HASH_DICTIONARY_RUBRIC)
    (student,) = grade(
        tmp_path / "submissions", tmp_path / "out", jobs=1, rubric=rubric, spec_name="xplus", stream=io.StringIO()
    )
    (dictionary,) = student.types
    assert dictionary.graded_as is GradedAs.HYBRID
    assert dictionary.score == Decimal("10.00"), [
        t.message for t in dictionary.tests if t.outcome is not Outcome.PASSED
    ]


def test_a_type_whose_test_stops_at_another_types_broken_module_is_graded_as_a_hybrid(tmp_path):
    """The dictionary's model test plays configurations into it. With a syntax error in a correct
    package's configurations.py, the test stopped at Configurations, missing; through the sandbox
    the stop named no operation, so nothing said the dictionary lost its points to another type,
    and it kept what it earned as submitted (7.67 of 10 then)."""
    from speckit.skeleton import reference_copy as shaped_reference_copy

    package = shaped_reference_copy("xplus", tmp_path / "submissions" / "alice")
    with (package / "configurations.py").open("a", encoding="utf-8") as f:
        f.write("\ndef unfinished(:\n")
    rubric = tmp_path / "rubric.toml"
    rubric.write_text(HASH_DICTIONARY_RUBRIC.replace('mode = "hybrid"', 'mode = "best"'))
    (student,) = grade(
        tmp_path / "submissions", tmp_path / "out", jobs=1, rubric=rubric, spec_name="xplus", stream=io.StringIO()
    )
    (dictionary,) = student.types
    assert dictionary.graded_as is GradedAs.HYBRID and dictionary.score == Decimal("10.00")
    # As submitted it lost the points of the tests that stopped at Configurations (a share that
    # moves with the number of the dictionary's tests).
    submitted = Decimal(dictionary.other.removeprefix("as submitted: ").split()[0])
    assert submitted < Decimal("10.00") and "lost to Configurations.Configurations (missing)" in dictionary.note


# -- structure tests gate, they never score ---------------------------------------------------

STRUCTURE_RUBRIC = """
spec = "connect4"
title = "Index and Dimension, with the structure tests"
[grading]
mode = "best"
common = ["test_structure.py"]
[types.IndexType]
points = 4
[types.DimensionType]
points = 3
"""


def test_an_empty_skeleton_earns_nothing(tmp_path):
    from speckit.skeleton import write_skeleton

    submissions = tmp_path / "submissions"
    write_skeleton(CONNECT4, submissions / "empty" / "connect4")
    rubric = tmp_path / "rubric.toml"
    rubric.write_text(STRUCTURE_RUBRIC)
    (student,) = grade(submissions, tmp_path / "out", jobs=1, rubric=rubric, stream=io.StringIO())
    # Before: each passing structure test carried points (31.57 of 100 with the kit's rubric).
    assert student.total == 0 and student.max_score == Decimal("7.00")
    structural = [t for kind in student.types for t in kind.tests if t.record.structural]
    assert structural and all(t.outcome is Outcome.PASSED and t.max_score == 0 for t in structural)
    data = json.loads((tmp_path / "out" / "results" / "empty" / "results.json").read_text(), parse_float=Decimal)
    assert data["score"] == 0 and sum(t["max_score"] for t in data["tests"]) == Decimal("7.00")
    # Operations not written yet are one line per type in the feedback, not a section per test.
    feedback = (tmp_path / "out" / "feedback" / "empty.md").read_text()
    assert "### " not in feedback
    assert "Not written yet (missing or not implemented)" in feedback and "IndexType.increment" in feedback


EMPTY_HASH_DICTIONARY_RUBRIC = """
spec = "xplus"
title = "HashDictionary, as the kit's rubric grades it"
[grading]
mode = "best"
common = []
hidden = []
[types.HashDictionary]
points = 40
tests = ["test_hash_dictionary.py"]
operations = { put = 2 }
"""


@pytest.mark.slow
def test_an_empty_skeleton_earns_nothing_for_a_rule_about_code_it_does_not_have(tmp_path):
    """Rule XR1 (no ready-made hash table) holds of a skeleton only because it has no code."""
    from speckit.skeleton import write_skeleton

    submissions = tmp_path / "submissions"
    write_skeleton(spec_data.load("xplus"), submissions / "empty" / "xplus")
    rubric = tmp_path / "rubric.toml"
    rubric.write_text(EMPTY_HASH_DICTIONARY_RUBRIC)
    (student,) = grade(submissions, tmp_path / "out", jobs=1, rubric=rubric, spec_name="xplus", stream=io.StringIO())
    # Before: the rule's test passed and earned 6.67 of the kit's 100 points.
    assert student.total == 0 and student.max_score == Decimal("40.00")
    (rule,) = [t for kind in student.types for t in kind.tests if "XR1" in t.record.test]
    assert rule.outcome is not Outcome.PASSED and rule.record.kind is Outcome.NOT_IMPLEMENTED, rule.record.message


# -- an instructor's files are never lost -----------------------------------------------------


def _unreadable_class(folder: Path) -> Path:
    """A submissions folder whose one entry is a broken zip: grading it runs no student code."""
    folder.mkdir(parents=True)
    (folder / "dave.zip").write_bytes(b"not a zip")
    return folder


def test_an_out_folder_holding_an_earlier_run_is_refused_then_moved_aside(tmp_path, capsys):
    submissions = _unreadable_class(tmp_path / "submissions")
    out = tmp_path / "grades"
    (out / "feedback").mkdir(parents=True)
    (out / "grades.csv").write_text("earlier\n")
    (out / "feedback" / "alice.md").write_text("earlier feedback\n")
    assert main(["grade", str(submissions), "--out", str(out)]) == 2
    refused = capsys.readouterr().err
    assert "holds an earlier run" in refused and "--replace" in refused and "grades.previous" in refused
    assert (out / "grades.csv").read_text() == "earlier\n" and (out / "feedback" / "alice.md").is_file()
    assert main(["grade", str(submissions), "--out", str(out), "--replace"]) == 0
    aside = tmp_path / "grades.previous"
    assert (aside / "grades.csv").read_text() == "earlier\n" and (
        aside / "feedback" / "alice.md"
    ).read_text() == "earlier feedback\n"
    assert _gradebook(out)["dave"]["total"] == "0.00" and not (out / "feedback" / "alice.md").exists()
    assert main(["grade", str(submissions), "--out", str(out), "--replace"]) == 0
    assert (tmp_path / "grades.previous-2" / "grades.csv").is_file() and (
        aside / "grades.csv"
    ).read_text() == "earlier\n"


@pytest.mark.parametrize("where", ["inside", "same", "around"])
def test_an_out_folder_that_mixes_with_the_submissions_is_refused(tmp_path, capsys, where):
    submissions = _unreadable_class(tmp_path / "class" / "submissions")
    out = {"inside": submissions / "grades", "same": submissions, "around": tmp_path / "class"}[where]
    before = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*"))
    assert main(["grade", str(submissions), "--out", str(out), "--replace"]) == 2
    assert "submissions folder" in capsys.readouterr().err
    assert sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*")) == before


def test_a_folder_that_is_not_a_run_is_never_moved(tmp_path, capsys):
    submissions = _unreadable_class(tmp_path / "submissions")
    out = tmp_path / "mine"
    out.mkdir()
    (out / "thesis.tex").write_text("precious\n")
    assert main(["grade", str(submissions), "--out", str(out), "--replace"]) == 2
    assert "holds no earlier grading run" in capsys.readouterr().err
    assert (out / "thesis.tex").read_text() == "precious\n" and not (tmp_path / "mine.previous").exists()


def test_the_gradebook_keeps_each_submissions_own_name(tmp_path):
    submissions = tmp_path / "submissions"
    for name in ("a b", "a_b", "café"):
        (submissions / name).mkdir(parents=True)
    grade(submissions, tmp_path / "out", jobs=1, rubric=None, spec_name="connect4", stream=io.StringIO())
    rows = _gradebook(tmp_path / "out")
    assert {name: row["submission"] for name, row in rows.items()} == {
        suffixed("a_b", "a_b"): "a_b",
        suffixed("a_b", "a b"): "a b",
        "café": "café",
    }
    assert (tmp_path / "out" / "feedback" / "café.md").is_file()


# -- a GitHub Classroom assignment, as ``gh classroom clone student-repos`` leaves it -----------


def cloned_repository(repository: Path, package: str) -> Path:
    """A student's repository of the Classroom starter, as cloned: git's folder (holding a stray
    module of the contract's, as hooks and objects may), the starter's workflow, wheel, rubric and
    README, and the package at ``package``."""
    for stray in ("hooks/index.py", "objects/dimension.py"):
        (repository / ".git" / stray).parent.mkdir(parents=True, exist_ok=True)
        (repository / ".git" / stray).write_text("def newIndexType(:\n", encoding="utf-8")
    (repository / ".git" / "HEAD").write_text("ref: refs/heads/main\n", encoding="utf-8")
    (repository / ".github" / "workflows").mkdir(parents=True)
    (repository / ".github" / "workflows" / "classroom.yml").write_text("name: Autograding\n", encoding="utf-8")
    (repository / ".speckit").mkdir()
    (repository / ".speckit" / "speckit_connect4_student-0.1.0-py3-none-any.whl").write_bytes(b"PK")
    (repository / ".speckit" / "rubric.toml").write_text(RUBRIC, encoding="utf-8")
    (repository / "README.md").write_text("# Connect-4\n", encoding="utf-8")
    return repository / package


def test_a_classroom_assignments_cloned_repositories_are_graded_as_a_class(tmp_path):
    """The instructor's grade of a Classroom assignment: each repository is a student, its package
    found at its depth and nothing taken from git's or the starter's own folders; a fault in Index
    costs Dimension nothing (graded again beside the reference's Index), as the starter's own
    workflow, which has no reference, cannot do."""
    cloned = tmp_path / "connect4-assignment-submissions"
    reference_copy(cloned_repository(cloned / "connect4-assignment-alice", "connect4"))
    patched_reference(
        cloned_repository(cloned / "connect4-assignment-bob", "work/connect4"),
        "index",
        INCREMENT,
        INCREMENT + "    index.number += 1\n",
    )
    rubric = tmp_path / "rubric.toml"
    rubric.write_text(RUBRIC)
    assert main(["grade", str(cloned), "--out", str(tmp_path / "grades"), "--rubric", str(rubric), "--jobs", "2"]) == 0
    rows = _gradebook(tmp_path / "grades")
    assert sorted(rows) == ["connect4-assignment-alice", "connect4-assignment-bob"]
    alice, bob = rows["connect4-assignment-alice"], rows["connect4-assignment-bob"]
    assert (alice["IndexType"], alice["DimensionType"], alice["total"]) == ("4.00", "3.00", "7.00")
    assert 0 < Decimal(bob["IndexType"]) < 4 and bob["DimensionType"] == "3.00"
    assert "graded the package in work/connect4/" in bob["note"] and "syntax" not in alice["note"] + bob["note"]


# -- determinism: a class of correct submissions, graded twice --------------------------------


@pytest.mark.slow
def test_correct_submissions_get_full_marks_twice_in_the_same_bytes(tmp_path, plain):
    """Two legitimate representations: the alternative implementation, and plain str colours and int indexes, zipped."""
    submissions = tmp_path / "submissions"
    shutil.copytree(
        kit("connect4").alternative_dir, submissions / "alternative", ignore=shutil.ignore_patterns("__pycache__")
    )
    with zipfile.ZipFile(submissions / "plain.zip", "w") as z:
        for path in sorted(plain.glob("*.py")):
            z.write(path, f"work/connect4/{path.name}")
    runs = [tmp_path / "first", tmp_path / "second"]
    for out in runs:
        grades = grade(submissions, out, jobs=2, rubric=None, spec_name="connect4", stream=io.StringIO())
        assert {g.name: str(g.total) for g in grades} == {"alternative": "100.00", "plain": "100.00"}
        assert all(str(g.max_score) == "100.00" for g in grades)
    assert _files(runs[0]) == _files(runs[1])
    for name in _files(runs[0]):
        assert (runs[0] / name).read_bytes() == (runs[1] / name).read_bytes(), f"{name} differs between two runs"
    assert all((out / "grading.log").is_file() for out in runs)


def test_a_grader_that_cannot_be_made_leaves_no_folders(tmp_path, monkeypatch):
    from speckit.grading import GradeError, Grader

    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setattr("tempfile.tempdir", str(scratch))
    rubric = rubric_module.parse(
        {"spec": "connect4", "types": {"IndexType": {"points": 4, "tests": ["test_nowhere.py"]}}}
    )
    with pytest.raises(GradeError, match="nothing to grade"):
        Grader(rubric, out=tmp_path / "out", submissions=tmp_path)
    assert list(scratch.iterdir()) == []
    with Grader(rubric_module.load(spec_name="connect4"), out=tmp_path / "out", submissions=tmp_path) as grader:
        folders = [grader.private, grader.shared]
        assert all(f.is_dir() for f in folders)
    assert not any(f.exists() for f in folders)


def test_a_run_that_fails_once_is_run_again_before_any_hybrid(tmp_path, monkeypatch):
    """A package whose first run fails for the machine's sake (an import past its time on a
    loaded machine) is graded as submitted, not as hybrids that a correct package can lose in."""
    from speckit.grading import Grader
    from speckit.runner import SuiteRun

    real, calls = Grader.run, []

    def flaky(self, package, entries, slot, budget):
        calls.append(package.name)
        if len(calls) == 1:
            return SuiteRun((), {}, 3, crash="the package took more than 10 s to import")
        return real(self, package, entries, slot, budget)

    monkeypatch.setattr(Grader, "run", flaky)
    submissions = tmp_path / "submissions"
    reference_copy(submissions / "student" / "connect4")
    (result,) = grade(submissions, tmp_path / "out", jobs=1, spec_name="connect4", stream=io.StringIO())
    assert str(result.total) == "100.00"
    assert calls == ["package", "package"], "the package as submitted is run again, and no hybrid is needed"
    assert all(t.graded_as is GradedAs.SUBMITTED for t in result.types)
    assert "it was run again" in (tmp_path / "out" / "grading.log").read_text(encoding="utf-8")


# -- each job keeps to a processor of its own -------------------------------------------------


@pytest.mark.skipif(not hasattr(os, "sched_getaffinity"), reason="no processor affinity on this system")
def test_each_job_slot_gets_a_processor_of_its_own_when_there_are_enough():
    from speckit.grading.slots import processors as _processors

    available = sorted(os.sched_getaffinity(0))
    assert _processors(1) == [None], "one job may use any processor"
    assert _processors(len(available) + 1) == [None] * (len(available) + 1), "more jobs than processors: none pinned"
    if len(available) >= 2:
        pinned = _processors(2)
        assert all(cpus is not None and len(cpus) == 1 and cpus <= set(available) for cpus in pinned)
        assert pinned[0] != pinned[1]


@pytest.mark.skipif(not hasattr(os, "sched_getaffinity"), reason="no processor affinity on this system")
def test_a_run_and_what_it_starts_keep_to_the_processors_given(tmp_path):
    from speckit.runner import _run

    cpu = min(os.sched_getaffinity(0))
    script = (
        "import os, subprocess, sys; print(sorted(os.sched_getaffinity(0))); sys.stdout.flush(); "
        "subprocess.run([sys.executable, '-c', 'import os; print(sorted(os.sched_getaffinity(0)))'])"
    )
    with open(tmp_path / "output", "w+", encoding="utf-8") as output:
        assert _run([sys.executable, "-c", script], dict(os.environ), output, 60, None, frozenset({cpu})) == 0
        output.seek(0)
        assert output.read().split() == [f"[{cpu}]", f"[{cpu}]"]
