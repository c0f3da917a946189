"""``speckit grade`` and ``speckit grade report``: grade a class's submissions, and build a run's class report again."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..core import UserError
from . import EXIT_OK, GRADE_REPORT, spec_option


def register(commands: argparse._SubParsersAction) -> None:
    """Add ``speckit grade`` and, under its name, ``speckit grade report``."""
    grade = commands.add_parser(
        "grade",
        help="grade a folder of student submissions (folders or .zip files) against a rubric, safely; "
        "'grade report DIR' rebuilds a run's class report",
        description=(
            "Grade every submission in SUBMISSIONS (each a folder or a .zip file holding a package that "
            "follows the contract, possibly in a folder below) against a rubric. Student code runs in a "
            "confined operation server, never in the grader. Writes grades.csv, feedback/<student>.md, "
            "results/<student>/results.json (Gradescope), junit/<student>.xml, records/<student>.json and the "
            "class report, report.html, to the output folder. 'speckit grade report DIR' builds the class report "
            "of an earlier run again (a submissions folder called report is given as ./report)."
        ),
    )
    grade.add_argument(
        "submissions",
        metavar="SUBMISSIONS",
        nargs="+",
        help="the folder of submissions; or 'merge OUT1 OUT2 ...': "
        "merge the output folders of the shards of one class into --out",
    )
    grade.add_argument("--out", default="grades", metavar="DIR", help="the output folder (default: ./grades)")
    grade.add_argument(
        "--shard",
        default=None,
        metavar="K/N",
        help="grade only the Kth of N slices of the submissions (every Nth by sorted name, from the Kth) "
        "and write shard.json for 'speckit grade merge'",
    )
    grade.add_argument("--jobs", type=int, default=2, metavar="N", help="submissions graded at once (default 2)")
    grade.add_argument(
        "--replace",
        action="store_true",
        help="when --out holds an earlier run, move it aside (to DIR.previous) instead of refusing",
    )
    grade.add_argument(
        "--rubric",
        default=None,
        metavar="FILE",
        help="the rubric (TOML; default: the kit's rubric of the specification)",
    )
    grade.add_argument(
        "--unconfined",
        action="store_true",
        help="grade even where student code can only run as your own user (no bubblewrap, not root): it may then read "
        "and write your files, see your environment and use the network; one job at a time",
    )
    spec_option(grade)
    grade.set_defaults(run=_grade)
    _register_report(commands)


def _register_report(commands: argparse._SubParsersAction) -> None:
    """Add ``speckit grade report DIR``, listed under grade (no help of its own in the list)."""
    report = commands.add_parser(
        GRADE_REPORT,
        prog="speckit grade report",
        description=(
            "Build the class report (report.html) of a grading run again, from the records/ folder of its output "
            "folder: after installing matplotlib for the charts, or for a run merged from shards."
        ),
    )
    report.add_argument("out", metavar="DIR", help="the output folder of a grading run")
    report.set_defaults(run=_grade_report)


def _grade(args: argparse.Namespace) -> int:
    from ..grading import grade, merge

    if args.jobs < 1:
        raise UserError("--jobs must be at least 1")
    folders = args.submissions
    if folders[0] == "merge" and len(folders) > 1:
        if args.shard or args.rubric:
            raise UserError(
                "speckit grade merge takes the shards' output folders and --out (the rubric comes from the shards)"
            )
        merge(folders[1:], args.out, replace=args.replace)
        return EXIT_OK
    if len(folders) > 1:
        raise UserError(f"give one SUBMISSIONS folder (got {len(folders)}), or 'merge' and the shards' output folders")
    grade(
        folders[0],
        args.out,
        jobs=args.jobs,
        rubric=args.rubric,
        spec_name=args.spec,
        replace=args.replace,
        shard=args.shard,
        unconfined=args.unconfined,
    )
    return EXIT_OK


def _grade_report(args: argparse.Namespace) -> int:
    from ..grading.charts import INSTALL_HINT, available
    from ..grading.classreport import write_report

    path = write_report(Path(args.out))
    print(
        f"speckit grade report: wrote {path}"
        + ("" if available() else f" (no charts: matplotlib is not installed; {INSTALL_HINT})")
    )
    return EXIT_OK
