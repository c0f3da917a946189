"""What the GitHub Classroom workflow runs: grade the student's package as ``speckit grade`` does.

``python -m speckit.bundle.classroom_grade --spec S --rubric R PACKAGE`` grades the
package folder of the student's repository with ``speckit grade`` (the grading profile,
partial credit per test) as the Gradescope autograder grades a submission
(:mod:`.autograder`), and prints
``result=...`` for ``$GITHUB_OUTPUT``: the result in the shape GitHub Classroom's
``autograding-grading-reporter`` reads (base64 of JSON, one test per graded type, each
scored with the points the type earned). The student's feedback goes to the log.

What differs from Gradescope: the student wheel in the starter carries no hidden test
and no reference (a repository hides nothing from its student), so the Classroom grade
counts the visible tests only, and every type is graded as submitted, without the
hybrids that keep a fault in one type from costing another.
"""

from __future__ import annotations

import argparse
import base64
import csv
import json
import sys
from pathlib import Path

from .. import rubric as rubric_module
from .autograder import STUDENT, grade_folder


def reporter_result(grades: Path, rubric: rubric_module.Rubric) -> dict:
    """The reporter's result for the one student graded in ``grades`` (the output of ``speckit grade``)."""
    with (grades / "grades.csv").open(encoding="utf-8", newline="") as f:
        row = next(r for r in csv.DictReader(f) if r["student"] == STUDENT)
    feedback = grades / "feedback" / f"{STUDENT}.md"
    if feedback.is_file():
        print(feedback.read_text(encoding="utf-8"), file=sys.stderr)
    tests = []
    for entry in graded_types(rubric):
        if not row.get(entry.name):
            continue
        score = float(row[entry.name])
        tests.append(
            {
                "name": entry.name,
                "status": "pass" if score >= entry.points else "fail",
                "score": score,
                "message": f"{entry.name}: {score:g} of {entry.points:g} points"
                + (f" ({row['note']})" if row.get("note") else ""),
            }
        )
    status = "pass" if all(t["status"] == "pass" for t in tests) else "fail"
    return {"version": 1, "status": status, "max_score": float(row["max"]), "tests": tests}


def graded_types(rubric: rubric_module.Rubric) -> list:
    """The types of ``rubric`` that carry points."""
    return [entry for entry in rubric.types if entry.points > 0]


def failed(message: str, rubric: rubric_module.Rubric) -> dict:
    """The reporter's result for a package that could not be graded: 0 points and the reason."""
    return {
        "version": 1,
        "status": "error",
        "max_score": float(sum(entry.points for entry in graded_types(rubric))),
        "tests": [{"name": "grading", "status": "error", "score": 0, "message": message}],
    }


def encoded(result: dict) -> str:
    """The line for ``$GITHUB_OUTPUT``: ``result=`` and the result as base64 of JSON."""
    return "result=" + base64.b64encode(json.dumps(result, sort_keys=True).encode("utf-8")).decode("ascii")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m speckit.bundle.classroom_grade", description=__doc__.splitlines()[0]
    )
    parser.add_argument("package", type=Path, help="the student's package folder")
    parser.add_argument("--spec", required=True, help="the specification graded")
    parser.add_argument("--rubric", type=Path, required=True, help="the rubric")
    args = parser.parse_args(argv)
    rubric = rubric_module.load(args.rubric, args.spec)
    if not args.package.is_dir():
        result = failed(f"there is no package folder {args.package} in the repository", rubric)
    else:
        result = grade_folder(args.package, args.spec, args.rubric, lambda out: reporter_result(out, rubric))
        if "version" not in result:  # the autograder's failed result, whose output is the reason
            result = failed(result["output"], rubric)
    total = sum(t["score"] for t in result["tests"])
    print(f"Total: {total:g} of {result['max_score']:g} points", file=sys.stderr)
    print(encoded(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
