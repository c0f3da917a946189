"""The grade files: the gradebook, each student's feedback, Gradescope results and JUnit XML,
and the grading log.

Every grade file is a function of the grades alone (sorted, no timestamps, durations or
temporary paths), so grading the same folder twice writes the same bytes; timing goes to
the log. Points are written as they are held, in hundredths, so every total is the sum of
its parts as written.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import re
from collections.abc import Iterable
from decimal import Decimal
from pathlib import Path
from xml.etree import ElementTree as ET

from ..core import Outcome
from ..escape import code, csv_cell, markdown
from ..rubric import Rubric, TypeRubric
from .records import ZERO, GradedAs, StudentGrade, TestGrade, TypeGrade, join_notes

FEEDBACK_LINES = 60
RESULTS = ("grades.csv", "feedback", "results", "junit")
"""What a run writes into the output folder, besides the log."""
LOG = "grading.log"


class Cleaner:
    """Makes text from a run fit to publish: no grader paths, no memory addresses, no control characters."""

    def __init__(self, paths: Iterable[Path]):
        self.paths = sorted({str(p) for p in paths}, key=len, reverse=True)

    def __call__(self, text: str) -> str:
        for path in self.paths:
            text = text.replace(path, "<submission>")
        text = re.sub(r"/tmp/speckit-[A-Za-z0-9_.-]+", "<grader>", text)
        text = re.sub(r"\bspeckit_impl_[0-9a-f]{12}\b", "<package>", text)
        text = re.sub(r"0x[0-9a-fA-F]{6,}", "0x…", text)
        text = "".join(c for c in text if c in "\n\t" or (c.isprintable() and c not in "\ufeff"))
        return text[:20000]


def write_outputs(
    out: Path,
    grades: list[StudentGrade],
    graded: list[TypeRubric],
    rubric: Rubric,
    skipped: list[str],
    warning: str = "",
    sandbox: str = "",
) -> None:
    """Write the grade files into ``out`` (a folder holding no earlier run); ``sandbox``: the
    confinement student code ran under (:class:`speckit.sandbox.Isolation`'s mechanism)."""
    out.mkdir(parents=True, exist_ok=True)
    for name in RESULTS[1:]:
        (out / name).mkdir(exist_ok=True)
    write_file(out / "grades.csv", gradebook(grades, graded, warning))
    for grade in grades:
        write_file(out / "feedback" / f"{grade.name}.md", feedback(grade, rubric, skipped, warning))
        target = out / "results" / grade.name
        target.mkdir(exist_ok=True)
        write_file(target / "results.json", gradescope(grade, rubric, warning, sandbox))
        write_file(out / "junit" / f"{grade.name}.xml", junit(grade, warning, sandbox))


def write_file(path: Path, text: str) -> None:
    """Write a fresh file, never through a symbolic link planted where it goes."""
    with contextlib.suppress(FileNotFoundError):
        path.unlink()
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
    with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
        f.write(text)


def module_problem(test: TestGrade) -> str:
    """Why a failed test could not run because its module is missing or cannot be imported, or ""."""
    return test.record.module_problem


def module_problems(grade: StudentGrade) -> list[str]:
    """The distinct reasons modules of the submission could not be used, in the order the types come."""
    return list(dict.fromkeys(problem for t in grade.types for x in t.tests if (problem := module_problem(x))))


def gradebook(grades: list[StudentGrade], graded: list[TypeRubric], warning: str = "") -> str:
    """``grades.csv``: a row per student, its safe name beside the submission's own, a column per type."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow([csv_cell(c) for c in ["student", "submission", *[e.name for e in graded], "total", "max", "note"]])
    for grade in grades:
        by_type = {t.name: t for t in grade.types}
        row = [
            grade.name,
            grade.original or grade.name,
            *[by_type[e.name].score for e in graded],
            grade.total,
            grade.max_score,
            join_notes(grade.reason, *grade.notes, *module_problems(grade), warning),
        ]
        writer.writerow([csv_cell(cell) for cell in row])
    return buffer.getvalue()


def _fence(text: str) -> str:
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}text\n{text}\n{fence}"


def _clip(text: str, lines: int = FEEDBACK_LINES) -> str:
    rows = text.strip().splitlines()
    return "\n".join(rows[:lines] + ([f"... ({len(rows) - lines} more lines)"] if len(rows) > lines else []))


HOW = {
    GradedAs.SUBMITTED: "as submitted",
    GradedAs.HYBRID: "with the reference's other modules",
    GradedAs.NONE: "not graded",
}


def feedback(grade: StudentGrade, rubric: Rubric, skipped: list[str], warning: str = "") -> str:
    """The student's Markdown report: scores, then every visible failure; hidden tests as counts only.

    Every text from a run or a submission is escaped (:func:`speckit.escape.markdown`) or fenced."""
    out = [f"# {markdown(rubric.title)}: feedback for {markdown(grade.name)}", ""]
    if warning:
        out += [f"> {markdown(warning)}", ""]
    out += [f"**Total: {grade.total} of {grade.max_score} points.**", ""]
    if grade.reason:
        out += [f"Your submission could not be graded: {markdown(grade.reason)}.", ""]
    problems = module_problems(grade)
    for note in (*grade.notes, *problems, *skipped):
        out.append(f"- {markdown(note)}")
    if grade.notes or problems or skipped:
        out.append("")
    out += ["| Type | Points | Out of | Tests passed | Graded |", "|---|---:|---:|---:|---|"]
    for t in grade.types:
        out.append(
            f"| {markdown(t.name)} | {t.score} | {t.max_score} | {t.passed} of {len(t.counted)} | {HOW[t.graded_as]} |"
        )
    out.append("")
    if grade.reason:
        return "\n".join(out) + "\n"
    for t in grade.types:
        out += _type_feedback(t)
    return "\n".join(out).rstrip() + "\n"


def _type_feedback(t: TypeGrade) -> list[str]:
    """A type's section of the feedback: how it was graded, its operations, its hidden and visible failures."""
    out = [f"## {markdown(t.name)}: {t.score} of {t.max_score}", ""]
    if t.graded_as is GradedAs.HYBRID:
        out.append(
            "Graded in a copy of the reference implementation holding your module for this type, "
            "because it earned more that way: faults in your other types cost this one nothing."
        )
    if t.other:
        out.append(f"For comparison, {markdown(t.other)}.")
    if t.note:
        out.append(f"Note: {markdown(t.note)}.")
    if t.graded_as is GradedAs.HYBRID or t.other or t.note:
        out.append("")
    if t.operations:
        out += ["| Operation | Points | Out of | Tests passed |", "|---|---:|---:|---:|"]
        for op in t.operations:
            gate = f" ({_gate(t, op.qualname)}: no points)" if op.gated else ""
            name = markdown(op.qualname.split(".", 1)[1])
            out.append(f"| {name}{gate} | {op.score} | {op.points} | {op.passed} of {op.counted} |")
        out.append("")
    hidden = [x for x in t.tests if x.hidden and x.record.counted]
    if hidden:
        failed_hidden = sum(1 for x in hidden if x.outcome is Outcome.FAILED)
        out += [f"Hidden tests: {len(hidden)}, of which {failed_hidden} failed.", ""]
    return out + _failures_feedback(t)


def _failures_feedback(t: TypeGrade) -> list[str]:
    """A type's visible failures, one section each; operations not written yet in one line."""
    out: list[str] = []
    failed = [x for x in t.tests if not x.hidden and x.outcome is Outcome.FAILED and not module_problem(x)]
    unwritten = [x for x in failed if x.record.kind in (Outcome.MISSING, Outcome.NOT_IMPLEMENTED)]
    for test in failed:
        if test in unwritten:
            continue
        worth = (
            "a structure test: it gates, it carries no points" if test.record.structural else f"{test.max_score} points"
        )
        out += [f"### failed: {code(test.record.name)}", ""]
        out.append(f"Checks: {markdown(', '.join(test.covers))} ({worth})")
        out += ["", _fence(_clip(test.message)), ""]
    if unwritten:
        # Operations not written yet are one line, not a section per test: real failures stay visible.
        missing = sorted({op for x in unwritten for op in x.covers})
        tests = f"{len(unwritten)} test{'s' if len(unwritten) != 1 else ''}"
        out += [f"Not written yet (missing or not implemented), {tests}: {markdown(', '.join(missing))}.", ""]
    return out


PLAIN = "text"
"""Gradescope's format for text shown as it is (no Markdown, no HTML)."""


def _gate(t, qualname: str) -> str:
    """Why a gated operation earns nothing: its structure test found it missing, its module
    could not be imported, or its signature is not the documented one."""
    for x in t.tests:
        if x.record.structural and x.outcome is Outcome.FAILED and qualname in x.covers:
            problem = module_problem(x)
            if problem and not problem.startswith("the implementation has no module"):
                return "its module could not be imported"
            if x.record.kind is Outcome.MISSING:
                return "missing"
    return "signature wrong"


def _number(value: Decimal) -> float:
    """A score for JSON: the float whose shortest form is the exact hundredths."""
    return float(value)


def gradescope(grade: StudentGrade, rubric: Rubric, warning: str = "", sandbox: str = "") -> str:
    """Gradescope's ``results.json``: the score, and one entry per test and type.

    The entries' scores add up to the score, and their maximums to the maximum. Every
    output and name is declared plain text (``output_format``), so Gradescope renders none
    of a submission's text as Markdown or HTML.
    """
    tests = [entry for t in grade.types for entry in _gradescope_tests(t, rubric, grade.reason)]
    summary = [
        f"{t.name}: {t.score} of {t.max_score}"
        + (" (graded with the reference's other modules)" if t.graded_as is GradedAs.HYBRID else "")
        for t in grade.types
    ]
    summary[:0] = [*grade.notes, *module_problems(grade)]
    if grade.reason:
        summary.insert(0, f"The submission could not be graded: {grade.reason}")
    if warning:
        summary.insert(0, warning)
    result = {
        "score": _number(grade.total),
        "output": "\n".join(summary),
        "output_format": PLAIN,
        "test_output_format": PLAIN,
        "test_name_format": PLAIN,
        "visibility": "visible",
        "stdout_visibility": "hidden",
        "tests": tests,
    }
    if sandbox:
        result["extra_data"] = {"sandbox": sandbox}
    return json.dumps(result, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def _gradescope_tests(t: TypeGrade, rubric: Rubric, reason: str) -> list[dict[str, object]]:
    """A type's Gradescope entries: one per test, and one for the points no test that ran carries."""
    tests: list[dict[str, object]] = []
    carried = sum((x.max_score for x in t.tests), ZERO)
    for test in t.tests:
        visibility = rubric.hidden_visibility if test.hidden else "visible"
        entry = {
            "name": f"{t.name}: {test.record.name}",
            "score": _number(test.score),
            "max_score": _number(test.max_score),
            "status": "passed" if test.outcome in (Outcome.PASSED, Outcome.SKIPPED) else "failed",
            "output": test.message if test.outcome is not Outcome.PASSED else "",
            "output_format": PLAIN,
            "visibility": visibility,
            "tags": sorted(test.covers)
            + (["hybrid"] if t.graded_as is GradedAs.HYBRID else [])
            + (["structure"] if test.record.structural else []),
        }
        tests.append(entry)
    if carried < t.max_score or not t.tests:
        rest = t.max_score - carried
        earned = t.score - sum((x.score for x in t.tests), ZERO)
        tests.append(
            {
                "name": t.name if not t.tests else f"{t.name}: points no test that ran carries",
                "score": _number(earned),
                "max_score": _number(rest),
                "status": "passed" if earned >= rest else "failed",
                "output": t.note or reason,
                "output_format": PLAIN,
                "visibility": "visible",
            }
        )
    return tests


_NOT_XML = re.compile("[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _x(text: str) -> str:
    """Text XML can hold."""
    return _NOT_XML.sub("\ufffd", text)


def junit(grade: StudentGrade, warning: str = "", sandbox: str = "") -> str:
    """JUnit XML: a test suite per type, a test case per test (hidden ones included: this file is the instructor's)."""
    root = ET.Element("testsuites", name=f"speckit grade: {grade.name}")
    if warning or sandbox:
        properties = ET.SubElement(root, "properties")
        if sandbox:
            ET.SubElement(properties, "property", name="sandbox", value=_x(sandbox))
        if warning:
            ET.SubElement(properties, "property", name="warning", value=_x(warning))
    total = failures = skipped = 0
    for t in grade.types:
        suite = ET.SubElement(root, "testsuite", name=t.name)
        properties = ET.SubElement(suite, "properties")
        for key, value in (("score", t.score), ("max_score", t.max_score), ("graded_as", t.graded_as.value)):
            ET.SubElement(properties, "property", name=key, value=str(value))
        counts = {"failed": 0, "skipped": 0}
        cases = t.tests or ()
        if not cases:
            case = ET.SubElement(suite, "testcase", classname=t.name, name=t.name)
            if t.score < t.max_score:
                ET.SubElement(case, "failure", message=_x((t.note or grade.reason)[:200])).text = _x(
                    t.note or grade.reason
                )
                counts["failed"] += 1
        for test in cases:
            case = ET.SubElement(suite, "testcase", classname=t.name, name=_x(test.test))
            if test.hidden:
                ET.SubElement(ET.SubElement(case, "properties"), "property", name="visibility", value="hidden")
            if test.outcome is Outcome.FAILED:
                first = test.message.strip().splitlines()[0] if test.message.strip() else "failed"
                ET.SubElement(case, "failure", message=_x(first[:200]), type=test.record.kind.value).text = _x(
                    test.message
                )
                counts["failed"] += 1
            elif test.outcome is Outcome.SKIPPED:
                ET.SubElement(case, "skipped", message=_x(test.message[:200]))
                counts["skipped"] += 1
        n = max(1, len(cases))
        suite.set("tests", str(n))
        suite.set("failures", str(counts["failed"]))
        suite.set("errors", "0")
        suite.set("skipped", str(counts["skipped"]))
        total, failures, skipped = total + n, failures + counts["failed"], skipped + counts["skipped"]
    root.set("tests", str(total))
    root.set("failures", str(failures))
    root.set("errors", "0")
    root.set("skipped", str(skipped))
    ET.indent(root)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
