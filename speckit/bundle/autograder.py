"""What runs inside a Gradescope autograder: grade ``<root>/submission`` into ``<root>/results/results.json``.

``run_autograder`` (written by :mod:`.gradescope`) calls ``python -m speckit.bundle.autograder``.
The submission is graded by ``speckit grade`` exactly as a class would be, as a folder of
one student (a .zip uploaded and left unextracted is extracted as ``speckit grade`` extracts
one), and that student's ``results.json``, with the run's ``execution_time`` (seconds) and
``output_format``, becomes the autograder's result. Whatever
goes wrong, Gradescope gets a valid results file that says what happened, never nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ..core import KitError

STUDENT = "submission"
"""The one student's name inside the autograder's private submissions folder."""


def failed_result(message: str) -> dict:
    """A results file for a submission that could not be graded at all: 0 points and the reason."""
    return {"score": 0.0, "output": message, "visibility": "visible", "stdout_visibility": "hidden", "tests": []}


def submitted_zip(submission: Path) -> Path | None:
    """The one .zip file of a submission that holds no .py file (a zip uploaded and left
    unextracted), graded as the student's package; None when the .py files are there.
    A submission with several such zips is refused: which one to grade is not clear."""
    if any(path.suffix == ".py" for path in submission.rglob("*") if path.is_file()):
        return None
    zips = sorted(
        path
        for path in submission.rglob("*")
        if path.suffix.lower() == ".zip" and path.is_file() and not path.is_symlink()
    )
    if len(zips) > 1:
        names = ", ".join(path.relative_to(submission).as_posix() for path in zips)
        raise Ambiguous(
            f"The submission holds several .zip files and no .py file ({names}): "
            f"upload one .zip of your package, or its .py files."
        )
    return zips[0] if zips else None


class Ambiguous(KitError):
    """The submission's files do not say what to grade; the message says so, for the student."""


def grade_submission(root: Path, spec: str, rubric: Path | None) -> dict:
    """Grade ``root/submission``; the Gradescope result, or a failed one naming the problem."""
    submission = root / "submission"
    if not submission.is_dir() or not any(submission.iterdir()):
        return failed_result("Nothing was submitted: upload your package's .py files (or a .zip of its folder).")
    try:
        archive = submitted_zip(submission)
    except Ambiguous as e:
        return failed_result(str(e))
    return grade_folder(archive or submission, spec, rubric, read_results)


def read_results(grades: Path) -> dict:
    """The one student's Gradescope ``results.json`` in the output folder ``grades`` of ``speckit grade``."""
    return json.loads((grades / "results" / STUDENT / "results.json").read_text(encoding="utf-8"))


def grade_folder(submission: Path, spec: str, rubric: Path | None, read) -> dict:
    """Grade ``submission`` (a folder, or a .zip file) by ``speckit grade`` as the one student of a
    class; what ``read`` makes of the output folder, or a failed result naming the problem."""
    with tempfile.TemporaryDirectory(prefix="speckit-autograder-") as scratch:
        folder, out = Path(scratch) / "submissions", Path(scratch) / "grades"
        folder.mkdir()
        if submission.is_file():
            shutil.copy2(submission, folder / f"{STUDENT}.zip")  # the grader extracts it safely
        else:
            shutil.copytree(submission, folder / STUDENT, ignore=shutil.ignore_patterns(".*"))
        command = [
            sys.executable,
            "-m",
            "speckit.cli",
            "grade",
            str(folder),
            "--out",
            str(out),
            "--spec",
            spec,
            "--jobs",
            "1",
        ]
        if rubric is not None:
            command += ["--rubric", str(rubric)]
        done = subprocess.run(command, capture_output=True, text=True)
        print(done.stderr, end="", file=sys.stderr)
        if done.returncode != 0 or not (out / "results" / STUDENT / "results.json").is_file():
            last = (done.stderr.strip().splitlines() or ["no message"])[-1]
            return failed_result(
                f"The autograder could not grade this submission ({last}). Please tell your instructor."
            )
        return read(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="run_autograder", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--root",
        type=Path,
        default=Path(os.environ.get("AUTOGRADER_ROOT", "/autograder")),
        help="the autograder's root folder (default /autograder)",
    )
    parser.add_argument("--spec", required=True, help="the specification graded")
    parser.add_argument(
        "--rubric", type=Path, default=None, help="the rubric (default: the kit's rubric of the specification)"
    )
    args = parser.parse_args(argv)
    started = time.monotonic()
    try:
        result = grade_submission(args.root, args.spec, args.rubric)
    except Exception as e:  # noqa: BLE001 - Gradescope must always get a results file
        result = failed_result(f"The autograder failed ({type(e).__name__}: {e}). Please tell your instructor.")
    result.setdefault("output_format", "text")
    result["execution_time"] = round(time.monotonic() - started)
    results = args.root / "results"
    results.mkdir(parents=True, exist_ok=True)
    (results / "results.json").write_text(
        json.dumps(result, indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
