"""How long a student waits for ``speckit check``: one type, and the whole suite, on the reference.

    python benchmarks/check.py [--spec connect4] [--type IndexType] [--repeat N]

Prints wall and processor time (of the child pytest process, where the testing happens)
for ``speckit check --type TYPE`` and for the whole suite, each the best of N runs in the
``check`` profile that ``speckit check`` uses, the whole suite once more in the
``grading`` profile (what ``speckit check`` ran before it had its own profile), and,
as the baseline measured in the same run, the cost of starting a Python that imports
pytest and does nothing else: what no change to the suite can save. On a loaded machine
the wall times swing; the processor times and the ratios to the baseline are the
steadier figures. Targets (issue 14): one type in at most 2 s, the whole suite in 8 s.
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

import spec as spec_data
from speckit.check import ok, statuses
from speckit.runner import run_suite, user_bytecode_cache
from speckit.traceability import selected_tests

TARGETS = {"one type": 2.0, "whole suite": 8.0}


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def best(action, repeat: int) -> tuple[float, float, object]:
    """The fastest of ``repeat`` runs: (wall seconds, children's processor seconds, result)."""
    runs = []
    for _ in range(repeat):
        cpu, wall = children_cpu(), time.perf_counter()
        result = action()
        runs.append((time.perf_counter() - wall, children_cpu() - cpu, result))
    return min(runs, key=lambda run: run[0])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spec", default="connect4")
    parser.add_argument("--type", default="IndexType", dest="type_name")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    specification = spec_data.load(args.spec)

    baseline = best(
        lambda: subprocess.run([sys.executable, "-c", "import pytest, hypothesis"], check=True), args.repeat
    )
    cache = user_bytecode_cache()  # as speckit check runs it
    tests = selected_tests(specification, [args.type_name])
    one = best(lambda: run_suite(args.spec, tests=tests, profile="check", bytecode_cache=cache), args.repeat)
    cold = best(lambda: run_suite(args.spec, tests=tests, profile="check"), 1)
    whole = best(lambda: run_suite(args.spec, profile="check", bytecode_cache=cache), max(1, args.repeat - 1))
    grading = best(lambda: run_suite(args.spec, profile="grading", bytecode_cache=cache), 1)

    print(f"speckit check on the reference of {args.spec} (best of {args.repeat}; wall / processor)")
    print(f"  baseline: python importing pytest and hypothesis  {baseline[0]:6.2f} s / {baseline[1]:6.2f} s")
    print(f"  one type, no bytecode cache (as before)           {cold[0]:6.2f} s / {cold[1]:6.2f} s")
    print(f"  whole suite, grading profile (before)             {grading[0]:6.2f} s / {grading[1]:6.2f} s")
    for label, (wall, cpu, run), types in (("one type", one, [args.type_name]), ("whole suite", whole, [])):
        rows = statuses(specification, run, types)
        verdict = "all passed" if ok(rows) and not run.crash else "NOT ALL PASSED"
        target = TARGETS[label]
        tests = f"{args.type_name}, {len(run.tests)} tests" if types else f"{len(run.tests)} tests"
        print(
            f"  {f'{label} ({tests})':<34}"
            f"{wall:6.2f} s / {cpu:6.2f} s   {wall / baseline[0]:5.1f}x baseline   "
            f"target {target:g} s: wall {'met' if wall <= target else 'NOT met'}, "
            f"processor {'met' if cpu <= target else 'NOT met'}"
            f"   ({verdict})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
