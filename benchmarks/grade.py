"""Benchmark ``speckit grade``: 20 copies of the reference, two at a time, in the sandbox.

Usage::

    python benchmarks/grade.py [--spec NAME] [--copies N] [--jobs N] [--rubric FILE] [--baseline-runs N] [--keep DIR]

It first measures a baseline in the same run: ordinary in-process ``pytest`` runs of
the suite the rubric grades, on the reference (the cost of checking one submission
with no sandbox at all), three by default, of which the quickest counts (the run least
disturbed by whatever else the machine does; a single run varied by a quarter). Then
it grades ``--copies`` copies of the reference (half as folders, half as zip files)
with ``--jobs`` at a time, and prints each submission's wall time and its ratio to the
baseline, the targets (issue 15: at most 10 s a submission with 2 jobs, so 300 take at
most 25 minutes, and at most 1.25 times the baseline), and the load average, since a
busy machine slows both alike.

Every copy must earn full marks: a reference that loses points in the sandbox is a bug.
"""

from __future__ import annotations

import argparse
import io
import os
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from speckit import registry
from speckit import rubric as rubric_module
from speckit.grading import Grader, grade
from speckit.registry import kit

TARGET_SECONDS = 10.0
"""Seconds one Connect-4 submission may take, graded two at a time (300 in 25 minutes)."""
TARGET_RATIO = 1.25
"""Times the in-process suite one submission may take in the sandbox."""


def baseline(files: list[Path], bytecode: Path, runs: int) -> list[float]:
    """Seconds of each of ``runs`` in-process pytest runs of ``files`` on the reference.

    Its compiled modules are cached beforehand (a collection run), as the grader caches
    them for its runs: the comparison is of running the suite, not of compiling it.
    """
    command = [
        sys.executable,
        "-m",
        "pytest",
        *map(str, files),
        "-q",
        "-p",
        "no:cacheprovider",
        "--profile=grading",
        "-m",
        "not slow",
    ]
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    environment["PYTHONPYCACHEPREFIX"] = str(bytecode)
    subprocess.run([*command, "--collect-only"], cwd=REPO, capture_output=True, env=environment, check=False)
    times = []
    for _ in range(runs):
        started = time.monotonic()
        result = subprocess.run(command, cwd=REPO, capture_output=True, text=True, env=environment)
        times.append(time.monotonic() - started)
        if result.returncode != 0:
            print(result.stdout[-2000:], file=sys.stderr)
            raise SystemExit("the baseline run failed: the reference does not pass its own suite")
    return times


def make_copies(folder: Path, copies: int, spec_name: str) -> None:
    reference = kit(spec_name).reference_dir
    for n in range(copies):
        name = f"student{n + 1:02d}"
        if n % 2:
            with zipfile.ZipFile(folder / f"{name}.zip", "w", zipfile.ZIP_DEFLATED) as z:
                for path in sorted(reference.glob("*.py")):
                    z.write(path, f"{spec_name}/{path.name}")
        else:
            shutil.copytree(reference, folder / name / spec_name, ignore=shutil.ignore_patterns("__pycache__"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--spec",
        default=registry.main_spec(),
        choices=registry.names(),
        help="the specification (default: the main one)",
    )
    parser.add_argument("--copies", type=int, default=20)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--rubric", default=None, help="default: the kit's rubric of the specification")
    parser.add_argument(
        "--baseline-runs",
        type=int,
        default=3,
        metavar="N",
        help="in-process runs measured; the quickest is the baseline (default 3)",
    )
    parser.add_argument(
        "--keep", default=None, metavar="DIR", help="write the grades here instead of a temporary folder"
    )
    args = parser.parse_args()
    if args.baseline_runs < 1:
        parser.error("--baseline-runs must be at least 1")

    chosen = rubric_module.load(args.rubric, args.spec)
    with Grader(chosen, out=Path(tempfile.gettempdir()), submissions=REPO, jobs=1) as probe:
        files = probe.files_for(probe.graded)
        graded_types = [t.name for t in probe.graded]
        suite_files = [kit(args.spec).suite_dir / f.name for f in files]
    print(f"rubric {chosen.source}: grades {', '.join(graded_types)} with {len(suite_files)} test modules", flush=True)
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)

    with tempfile.TemporaryDirectory(prefix="speckit-bench-pyc-") as bytecode:
        runs = baseline(suite_files, Path(bytecode), args.baseline_runs)
    base = min(runs)
    print(
        f"baseline: the quickest of {len(runs)} in-process pytest runs of those modules on the reference: {base:.1f} s"
        f" (all: {', '.join(f'{t:.1f}' for t in runs)} s)",
        flush=True,
    )

    with tempfile.TemporaryDirectory(prefix="speckit-bench-") as scratch:
        submissions = Path(scratch) / "submissions"
        submissions.mkdir()
        make_copies(submissions, args.copies, args.spec)
        out = Path(args.keep) if args.keep else Path(scratch) / "out"
        log = io.StringIO()
        started = time.monotonic()
        grades = grade(
            submissions,
            out,
            jobs=args.jobs,
            rubric=args.rubric,
            spec_name=args.spec,
            stream=log,
            replace=bool(args.keep),
        )
        total = time.monotonic() - started
    print(log.getvalue().splitlines()[1], flush=True)
    print(f"\n{'submission':<12} {'score':>10} {'seconds':>8} {'x baseline':>11}")
    for g in grades:
        print(f"{g.name:<12} {g.total:>6.2f}/{g.max_score:<3g} {g.seconds:>8.1f} {g.seconds / base:>11.2f}")
    mean = sum(g.seconds for g in grades) / len(grades)
    print(
        f"\nmean per submission: {mean:.1f} s = {mean / base:.2f} x baseline "
        f"(each graded in the sandbox, {args.jobs} at a time)"
    )
    print(
        f"total: {total:.1f} s for {len(grades)} submissions with --jobs {args.jobs}; "
        f"{total / (base * len(grades) / args.jobs):.2f} x the baseline's time "
        f"for the same work in {args.jobs} parallel streams"
    )
    if args.spec == "connect4":
        per = total * args.jobs / len(grades)
        print(
            f"target: {TARGET_SECONDS:.0f} s a submission with 2 jobs (300 in 25 minutes): {per:.1f} s, "
            f"{'met' if per <= TARGET_SECONDS else 'NOT met'}; "
            f"at most {TARGET_RATIO} x baseline: {mean / base:.2f} x, "
            f"{'met' if mean / base <= TARGET_RATIO else 'NOT met'}"
        )
    else:
        print(f"no speed target is set for {args.spec} (the grading issue's target is for connect4)")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores")
    wrong = [g.name for g in grades if g.total < g.max_score or g.reason]
    if wrong:
        print(f"copies of the reference that lost points: {', '.join(wrong)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
