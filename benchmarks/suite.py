"""How long the conformance suite takes against the reference, in the grading profile.

    python benchmarks/suite.py [--spec connect4] [--repeat N]

Prints the wall and processor time of a whole run of the suite (as `speckit check`
runs it: a child pytest process with the report plugin) and, as a baseline measured in
the same run, the cost of starting pytest and collecting the same tests without running
them; the difference is the testing itself. Target (suite issue): the whole Connect-4
suite in at most 60 s on this 2-core machine.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from speckit.registry import kit
from speckit.runner import run_suite

TARGET_SECONDS = 60.0


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(action) -> tuple[float, float, object]:
    cpu, wall = children_cpu(), time.perf_counter()
    result = action()
    return time.perf_counter() - wall, children_cpu() - cpu, result


def collect_only(spec: str) -> None:
    command = [
        sys.executable,
        "-m",
        "pytest",
        str(kit(spec).suite_dir),
        "--collect-only",
        "-q",
        "-p",
        "no:cacheprovider",
    ]
    subprocess.run(command, cwd=ROOT, capture_output=True, check=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spec", default="connect4")
    parser.add_argument("--repeat", type=int, default=1, help="runs of the suite to average (default 1)")
    args = parser.parse_args()

    base_wall, base_cpu, _ = timed(lambda: collect_only(args.spec))
    runs = []
    for _ in range(args.repeat):
        runs.append(timed(lambda: run_suite(args.spec)))
    wall = sum(r[0] for r in runs) / len(runs)
    cpu = sum(r[1] for r in runs) / len(runs)
    outcome = runs[-1][2]
    tests = len(outcome.tests)
    failed = len(outcome.failed_tests())

    print(f"suite of {args.spec} against the reference, grading profile ({tests} tests, {failed} failed)")
    print(f"  baseline: start pytest and collect only   {base_wall:7.1f} s wall  {base_cpu:7.1f} s cpu")
    print(f"  whole suite                               {wall:7.1f} s wall  {cpu:7.1f} s cpu")
    print(f"  ratio to baseline                         {wall / base_wall:7.1f} x wall {cpu / base_cpu:7.1f} x cpu")
    print(f"  testing itself (suite minus baseline)     {wall - base_wall:7.1f} s wall")
    verdict = "met" if wall <= TARGET_SECONDS else "NOT met"
    print(f"  target: at most {TARGET_SECONDS:.0f} s wall: {verdict}")
    return 0 if not failed else 1


if __name__ == "__main__":
    sys.exit(main())
