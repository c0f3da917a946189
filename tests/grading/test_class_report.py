"""The class report (report.html) and the records it is built from: content, escaping, determinism."""

from __future__ import annotations

import hashlib
import io
import json
import re
import shutil
import subprocess
import sys
import types
import zipfile
from decimal import Decimal
from pathlib import Path

import pytest

from speckit import rubric as rubric_module
from speckit.cli import main
from speckit.core import Outcome
from speckit.grading import (
    GradedAs,
    OperationGrade,
    StudentGrade,
    TestGrade,
    TestRecord,
    TypeGrade,
    charts,
    classreport,
    grade,
)
from speckit.grading.classrecord import RECORDS, RecordError, run_facts
from speckit.grading.classreport import REPORT, merge_class_report, write_class_report, write_report
from speckit.grading.records import points

from .conftest import INCREMENT, INDEX_RUBRIC, patched_reference, reference_copy

OPS = ("IndexType.newIndexType", "IndexType.increment", "IndexType.decrement")


def _facts(tmp_path: Path) -> dict:
    path = tmp_path / "rubric.toml"
    path.write_text(INDEX_RUBRIC, encoding="utf-8")
    isolation = types.SimpleNamespace(mechanism="bubblewrap", complete=True)
    return run_facts(rubric_module.load(path), isolation, "uid 61000; no network", "")


def _failure(test: str, covers: tuple[str, ...], message: str, kind: Outcome = Outcome.FAILED) -> TestGrade:
    record = TestRecord(
        test=f"tests/connect4/test_index.py::{test}", covers=covers, outcome=Outcome.FAILED, kind=kind, message=message
    )
    return TestGrade(record, covers, False, points(0), points(1))


def _student(name: str, earned: dict[str, str], failures: tuple[TestGrade, ...] = (), **kwargs) -> StudentGrade:
    """A student of IndexType (4 points: 2, 1 and 1 by operation) earning ``earned`` per operation."""
    shares = dict(zip(OPS, ("2.00", "1.00", "1.00"), strict=True))
    operations = tuple(OperationGrade(q, points(shares[q]), points(earned.get(q, shares[q])), 1, 1) for q in OPS)
    graded_as = kwargs.pop("graded_as", GradedAs.SUBMITTED)
    other = kwargs.pop("other", "")
    score = sum((o.score for o in operations), points(0))
    index = TypeGrade("IndexType", score, points(4), graded_as, failures, operations, other=other)
    return StudentGrade(name, (index,), **kwargs)


def _class(tmp_path: Path) -> Path:
    """An output folder holding the records and report of a made-up class of four."""
    out = tmp_path / "out"
    (out / "feedback").mkdir(parents=True)
    long_example = "Falsifying example: test(n=12345678901234567890)"
    grades = [
        _student("alice", {}, seconds=3.0),
        _student(
            "bob",
            {"IndexType.increment": "0.00"},
            (
                _failure(
                    "test_increment_gives_the_next_index",
                    ("IndexType.increment",),
                    f"increment(index 1) gives index 3 (erratum E01)\n{long_example}",
                ),
            ),
            seconds=9.5,
            graded_as=GradedAs.HYBRID,
            other="as submitted: 1.00 of 4.00 points (1 of 3 tests passed)",
            fallbacks=("IndexType graded as a hybrid",),
        ),
        _student(
            "carol",
            {"IndexType.increment": "0.00", "IndexType.decrement": "0.00"},
            (
                _failure(
                    "test_increment_gives_the_next_index",
                    ("IndexType.increment",),
                    "increment(index 1) gives index 1\nFalsifying example: test(n=1)",
                ),
                _failure(
                    "test_decrement_gives_the_previous_index",
                    ("IndexType.decrement",),
                    "IndexType.decrement did not return within 2 s (an endless loop?); "
                    "it is not called again in this run",
                ),
            ),
            seconds=20.25,
            original="Carol <img src=x onerror=alert(1)>",
        ),
        _student(
            "dave",
            {q: "0.00" for q in OPS},
            (
                _failure(
                    "test_new_index_is_one_the_smallest",
                    ("IndexType.newIndexType",),
                    "module index could not be imported: NameError: name 'x' is not defined <script>alert(1)</script>",
                    Outcome.MISSING,
                ),
            ),
            seconds=1.0,
        ),
    ]
    for g in grades:
        (out / "feedback" / f"{g.name}.md").write_text("feedback\n", encoding="utf-8")
    write_class_report(out, grades, _facts(tmp_path))
    return out


@pytest.fixture(scope="module")
def made_up(tmp_path_factory) -> tuple[Path, str]:
    out = _class(tmp_path_factory.mktemp("made-up"))
    return out, (out / REPORT).read_text(encoding="utf-8")


def _row(page: str, ident: str, label: str) -> list[str]:
    """The cells of the row of table ``ident`` whose header is ``label``."""
    table = re.search(rf'<table id="{ident}">(.*?)</table>', page, re.S).group(1)
    row = re.search(rf"<tr><th>{re.escape(label)}</th>(.*?)</tr>", table, re.S).group(1)
    return re.findall(r"<td[^>]*>(.*?)</td>", row)


def test_the_totals_are_summarised_with_mean_median_and_quartiles(made_up):
    _, page = made_up
    # Totals 4, 3, 2 and 0: mean 2.25, median 2.5, quartiles (inclusive) 1.5 and 3.25.
    assert _row(page, "totals-stats", "total") == ["4", "2.25", "2.50", "1.50", "3.25", "0.00", "4.00"]
    assert _row(page, "totals-stats", "IndexType")[0] == "4"
    for section in ("run", "totals", "operations", "failures", "grader", "students"):
        assert f'<section id="{section}">' in page


def test_failures_are_grouped_by_behaviour_with_count_errata_smallest_example_and_students(made_up):
    _, page = made_up
    first = re.search(r'<div class="failure" id="failure-1">(.*?)</div>', page, re.S).group(1)
    assert "increment gives the next index" in first and '<strong class="count">2 students</strong>' in first
    assert "<strong>E01</strong>" in first, "the erratum bob's message cites"
    assert "Falsifying example: test(n=1)" in first and "12345678901234567890" not in first, (
        "carol's example is the smaller"
    )
    assert re.findall(r'class="students">Students: (.*?)</p>', first) == [
        '<a href="feedback/bob.md">bob</a>, <a href="feedback/carol.md">carol</a>'
    ]
    # A missing operation is not a failure of behaviour: it is listed as not written yet.
    assert "new index is one the smallest" not in page
    unwritten = re.search(r'<table id="unwritten-table">(.*?)</table>', page, re.S).group(1)
    assert "<td>IndexType.newIndexType</td>" in unwritten


def test_what_the_grader_had_to_do(made_up):
    _, page = made_up
    hybrids = re.search(r'<table id="hybrids">(.*?)</table>', page, re.S).group(1)
    assert "bob" in hybrids and "as submitted: 1.00 of 4.00 points" in hybrids
    assert "did not return within 2 s" in re.search(r'<table id="limits">(.*?)</table>', page, re.S).group(1)
    assert "module index could not be imported" in re.search(r'<table id="imports">(.*?)</table>', page, re.S).group(1)
    slowest = re.search(r'<table id="slowest">(.*?)</table>', page, re.S).group(1)
    assert re.findall(r"feedback/(\w+)\.md", slowest) == ["carol", "bob", "alice", "dave"]
    assert "20.2" in slowest or "20.3" in slowest
    confinement = re.search(r'<table id="confinement">(.*?)</table>', page, re.S).group(1)
    assert "bubblewrap" in confinement and '<td class="n">4</td>' in confinement


def test_the_run_names_the_specification_and_the_rubrics_digest(made_up):
    out, page = made_up
    digest = hashlib.sha256((out.parent / "rubric.toml").read_bytes()).hexdigest()[:16]
    assert f"<code>{digest}</code>" in page and "<td>connect4</td>" in page and "speckit version" in page


def test_text_from_submissions_is_escaped(made_up):
    _, page = made_up
    assert "<script" not in page and "<img" not in page
    assert "Carol &lt;img src=x onerror=alert(1)&gt;" in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_the_page_is_self_contained(made_up):
    _, page = made_up
    assert "Content-Security-Policy" in page and "default-src 'none'" in page
    assert not re.search(r'(?:src|href)="(?:https?:)?//', page), "nothing is loaded from elsewhere"
    links = {link for link in re.findall(r'href="([^"#][^"]*)"', page) if not link.startswith("data:image/png;base64,")}
    assert links == {f"feedback/{n}.md" for n in ("alice", "bob", "carol", "dave")}


@pytest.mark.skipif(not charts.available(), reason="matplotlib (speckit[report]) is not installed")
def test_the_charts_have_a_block_per_student_and_a_row_per_operation(made_up):
    _, page = made_up
    assert page.count("<svg ") == 3
    assert len(re.findall(r'id="totals-chart-student-\d+"', page)) == 4
    assert len(re.findall(r'id="heat-chart-row-\d+"', page)) == len(OPS)
    assert len(re.findall(r'id="heat-chart-lost-\d+"', page)) == len(OPS)
    ids = re.findall(r'\bid="([^"]+)"', page)
    assert len(ids) == len(set(ids)), "the charts' ids do not clash"
    assert "<dc:date>" not in page


def test_a_class_of_no_records_gets_a_report_with_no_charts_and_no_error():
    pytest.importorskip("matplotlib")
    page = classreport.build([], with_charts=True)
    assert "0 submissions graded" in page
    assert "<svg" not in page, "nothing to draw: no chart, and no matplotlib error"
    assert 'id="no-charts"' not in page, "matplotlib is there: the page must not say it is missing"


def test_without_matplotlib_the_report_says_how_to_get_the_charts(tmp_path, monkeypatch):
    monkeypatch.setattr(charts, "available", lambda: False)
    page = (_class(tmp_path) / REPORT).read_text(encoding="utf-8")
    assert "<svg" not in page
    (line,) = re.findall(r'<p class="warning" id="no-charts">(.*?)</p>', page)
    assert "matplotlib is not installed" in line and "speckit[report]" in line and "speckit grade report DIR" in line
    assert '<table id="operations-table">' in page, "the numbers are there without the charts"


def test_the_same_records_give_the_same_bytes_and_the_report_reads_only_them(made_up, tmp_path):
    out, page = made_up
    again = tmp_path / "again"
    shutil.copytree(out, again)
    write_report(again)
    assert (again / REPORT).read_text(encoding="utf-8") == page
    # A class graded in two shards: the merged folder's report is the single run's.
    shards = [tmp_path / "shard-1", tmp_path / "shard-2"]
    for i, path in enumerate(sorted((out / RECORDS).glob("*.json"))):
        (shards[i % 2] / RECORDS).mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, shards[i % 2] / RECORDS / path.name)
    merged = tmp_path / "merged"
    merge_class_report(shards, merged)
    assert (merged / REPORT).read_text(encoding="utf-8") == page
    assert main(["grade", "report", str(merged)]) == 0
    assert (merged / REPORT).read_text(encoding="utf-8") == page
    with pytest.raises(RecordError, match="graded in two shards"):
        merge_class_report([shards[0], shards[0]], tmp_path / "twice")


def test_rebuilding_refuses_a_folder_without_records(tmp_path, capsys):
    assert main(["grade", "report", str(tmp_path)]) == 2
    assert "holds no records/ folder" in capsys.readouterr().err
    assert main(["grade", "report", str(tmp_path / "missing")]) == 2
    assert "is not a folder" in capsys.readouterr().err
    (tmp_path / RECORDS).mkdir()
    (tmp_path / RECORDS / "x.json").write_text("{not json", encoding="utf-8")
    assert main(["grade", "report", str(tmp_path)]) == 2
    assert "x.json: not a readable record" in capsys.readouterr().err


def test_the_report_commands_usage_is_its_own(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["grade", "report", "DIR", "--bogus"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "usage: speckit grade report" in err and "--bogus" in err


def test_a_graded_class_gets_its_report(tmp_path):
    """A real run (IndexType only): a correct package, a faulty one in a zip, a broken zip."""
    submissions = tmp_path / "submissions"
    reference_copy(submissions / "alice")
    faulty = patched_reference(tmp_path / "bob" / "pkg", "index", INCREMENT, INCREMENT + "    index.number += 1\n")
    with zipfile.ZipFile(submissions / "bob.zip", "w") as z:
        for path in sorted(faulty.rglob("*.py")):
            z.write(path, path.relative_to(faulty.parent).as_posix())
    (submissions / "dave.zip").write_bytes(b"not a zip")
    rubric = tmp_path / "rubric.toml"
    rubric.write_text(INDEX_RUBRIC, encoding="utf-8")
    out = tmp_path / "out"
    grade(submissions, out, jobs=2, rubric=rubric, stream=io.StringIO())
    page = (out / REPORT).read_text(encoding="utf-8")
    assert sorted(p.name for p in (out / RECORDS).iterdir()) == ["alice.json", "bob.json", "dave.json"]
    bob = json.loads((out / RECORDS / "bob.json").read_text(encoding="utf-8"))
    assert bob["submission"] == "bob.zip" and Decimal(bob["total"]) < 4 and bob["run"]["spec"] == "connect4"
    assert any(f["covers"] for t in bob["types"] for f in t["failures"])
    assert "not a readable zip file" in re.search(r'<table id="imports">(.*?)</table>', page, re.S).group(1)
    failures = re.search(r'<section id="failures">(.*?)</section>', page, re.S).group(1)
    linked = set(re.findall(r'href="feedback/([^"]+)\.md"', failures))
    assert linked == {"bob"} and (out / "feedback" / "bob.md").is_file()
    rebuilt = subprocess.run(
        [sys.executable, "-m", "speckit.cli", "grade", "report", str(out)], capture_output=True, text=True, check=False
    )
    assert rebuilt.returncode == 0, rebuilt.stderr
    assert (out / REPORT).read_text(encoding="utf-8") == page, (
        "rebuilt from the same run in another process, the same bytes"
    )
