"""Benchmark ``speckit grade`` on a realistic class: mostly incomplete or faulty work.

Usage::

    python benchmarks/grade_class.py [--spec NAME] [--size N] [--jobs N] [--rubric FILE] [--keep DIR]

It builds a class of ``--size`` submissions (40 by default) deterministically from the
kit's own material (:func:`build_class`), in the mix of issue 31: about 25 % correct (the
reference and the alternative), 40 % with one or two faults (zoo members, combined),
20 % half written (a skeleton with some types filled in from the reference), 10 % empty
skeletons and 5 % that do not import (a syntax error in a module ``__init__.py`` imports,
a NameError in ``__init__.py``). It grades them with ``--jobs`` at a time and prints each
kind's time per submission (mean and maximum), the total, and each kind's ratio to the
correct kind's mean measured in the same run; then the sandbox's overhead: the correct
kind's mean against one in-process pytest run of the same suite on the reference. Load
averages before and after are printed, since a busy machine slows every kind alike.

Targets (issue 31, for connect4 with 2 jobs on 2 cores): no kind's mean above 1.5 x the
correct kind's; the class of 40 within 8 minutes.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from grade import baseline

import spec as spec_data
from speckit import registry
from speckit import rubric as rubric_module
from speckit.grading import Grader, grade
from speckit.registry import kit
from speckit.skeleton import reference_copy, write_skeleton
from speckit.zoo import load_mutants

MIX = (("correct", 0.25), ("faulty", 0.40), ("half", 0.20), ("empty", 0.10), ("unimportable", 0.05))
"""The kinds of submission in a class, and their shares."""
TARGET_RATIO = 1.5
TARGET_MINUTES = 8.0


def counts(size: int) -> dict[str, int]:
    """How many submissions of each kind a class of ``size`` holds (at least one of each from 5 up)."""
    numbers = {kind: max(1 if size >= len(MIX) else 0, round(size * share)) for kind, share in MIX}
    numbers["faulty"] += size - sum(numbers.values())
    return numbers


def _student_types(spec_name: str) -> list:
    return [t for t in spec_data.load(spec_name).types if not t.supplied]


def _faulty(spec_name: str, destination: Path, n: int, mutants: list) -> None:
    """The reference with one zoo member (even n) or two from different modules (odd n)."""
    first = mutants[(n * 7) % len(mutants)]
    chosen = [first]
    if n % 2:
        chosen += [m for m in mutants[(n * 11) % len(mutants) :] + mutants if m.module != first.module][:1]
    reference_copy(spec_name, destination)
    for mutant in chosen:
        path = destination / f"{mutant.module}.py"
        text = path.read_text(encoding="utf-8")
        if text.count(mutant.find) == 1:
            path.write_text(text.replace(mutant.find, mutant.replace), encoding="utf-8")


def _half(spec_name: str, destination: Path, n: int, shaped: Path) -> None:
    """A skeleton with every other student type (from the n-th) filled in from the reference."""
    write_skeleton(spec_data.load(spec_name), destination)
    for i, t in enumerate(_student_types(spec_name)):
        if (i + n) % 2 == 0 and (shaped / f"{t.module}.py").is_file():
            shutil.copy2(shaped / f"{t.module}.py", destination / f"{t.module}.py")


def _unimportable(spec_name: str, destination: Path, n: int) -> None:
    """The reference whose ``__init__.py`` imports a module with a syntax error (even n) or raises NameError (odd n)."""
    reference_copy(spec_name, destination)
    init = destination / "__init__.py"
    if n % 2 == 0:
        module = _student_types(spec_name)[-1].module
        with (destination / f"{module}.py").open("a", encoding="utf-8") as f:
            f.write("\ndef broken(:\n")
        extra = f"\nfrom . import {module}\n"
    else:
        extra = "\nundefined_name_at_import\n"
    init.write_text(init.read_text(encoding="utf-8") + extra, encoding="utf-8")


def build_class(spec_name: str, folder: Path, size: int = 40) -> dict[str, str]:
    """Write a class of ``size`` submissions into ``folder``; return each submission's kind by name.

    The same arguments always build the same class (no randomness, sorted material).
    """
    folder.mkdir(parents=True, exist_ok=True)
    mutants = sorted(load_mutants(spec_name), key=lambda m: m.id)
    package = kit(spec_name).reference_dir.name
    kinds: dict[str, str] = {}
    with tempfile.TemporaryDirectory(prefix="speckit-class-") as scratch:
        shaped = reference_copy(spec_name, Path(scratch) / "shaped")
        # Named so that sorted names (the order of grading) interleave the kinds: a class is graded
        # in a mix, and a run stopped early has seen every kind.
        order = sorted(
            (n / number, i, kind, n) for i, (kind, number) in enumerate(counts(size).items()) for n in range(number)
        )
        for position, (_, _, kind, n) in enumerate(order):
            name = f"s{position + 1:02d}-{kind}"
            destination = folder / name / package
            if kind == "correct":
                source = kit(spec_name).alternative_dir if n % 4 == 3 else None
                if source is None:
                    reference_copy(spec_name, destination)
                else:
                    shutil.copytree(source, destination, ignore=shutil.ignore_patterns("__pycache__"))
            elif kind == "faulty":
                _faulty(spec_name, destination, n, mutants)
            elif kind == "half":
                _half(spec_name, destination, n, shaped)
            elif kind == "empty":
                write_skeleton(spec_data.load(spec_name), destination)
            else:
                _unimportable(spec_name, destination, n)
            kinds[name] = kind
    return kinds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--spec",
        default=registry.main_spec(),
        choices=registry.names(),
        help="the specification (default: the main one)",
    )
    parser.add_argument("--size", type=int, default=40, help="submissions in the class (default 40)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--rubric", default=None, help="default: the kit's rubric of the specification")
    parser.add_argument(
        "--keep", default=None, metavar="DIR", help="write the grades here instead of a temporary folder"
    )
    args = parser.parse_args()
    if args.size < len(MIX):
        parser.error(f"--size must be at least {len(MIX)} (one of each kind)")

    chosen = rubric_module.load(args.rubric, args.spec)
    with Grader(chosen, out=Path(tempfile.gettempdir()), submissions=REPO, jobs=1) as probe:
        suite_files = [kit(args.spec).suite_dir / f.name for f in probe.files_for(probe.graded)]
    print(
        f"rubric {chosen.source}: {len(suite_files)} test modules; class of {args.size}: "
        + ", ".join(f"{n} {kind}" for kind, n in counts(args.size).items()),
        flush=True,
    )
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores", flush=True)

    with tempfile.TemporaryDirectory(prefix="speckit-class-bench-") as scratch:
        submissions = Path(scratch) / "submissions"
        kinds = build_class(args.spec, submissions, args.size)
        out = Path(args.keep) if args.keep else Path(scratch) / "out"
        started = time.monotonic()
        grades = grade(
            submissions,
            out,
            jobs=args.jobs,
            rubric=args.rubric,
            spec_name=args.spec,
            stream=sys.stdout,
            replace=bool(args.keep),
        )
        total = time.monotonic() - started
        with tempfile.TemporaryDirectory(prefix="speckit-bench-pyc-") as bytecode:
            (in_process,) = baseline(suite_files, Path(bytecode), 1)

    seconds: dict[str, list[float]] = {}
    for g in grades:
        seconds.setdefault(kinds[g.name], []).append(g.seconds)
    correct = sum(seconds["correct"]) / len(seconds["correct"])
    print(f"\n{'kind':<13} {'n':>3} {'mean s':>8} {'max s':>8} {'x correct':>10}")
    worst = 0.0
    for kind, _ in MIX:
        times = seconds.get(kind, [])
        if times:
            mean = sum(times) / len(times)
            worst = max(worst, mean / correct)
            print(f"{kind:<13} {len(times):>3} {mean:>8.1f} {max(times):>8.1f} {mean / correct:>10.2f}")
    print(f"\ntotal: {total:.1f} s ({total / 60:.1f} min) for {len(grades)} submissions with --jobs {args.jobs}")
    print(
        f"sandbox overhead: a correct submission {correct:.1f} s in the sandbox against {in_process:.1f} s "
        f"for one in-process pytest run of the same suite on the reference: {correct / in_process:.2f} x"
    )
    if args.spec == "connect4" and args.size == 40 and args.jobs == 2:
        print(
            f"targets: every kind at most {TARGET_RATIO} x the correct kind: worst {worst:.2f} x, "
            f"{'met' if worst <= TARGET_RATIO else 'NOT met'}; "
            f"the class within {TARGET_MINUTES:g} minutes: {total / 60:.1f}, "
            f"{'met' if total <= TARGET_MINUTES * 60 else 'NOT met'}"
        )
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores")
    wrong = [g.name for g in grades if kinds[g.name] == "correct" and (g.total < g.max_score or g.reason)]
    if wrong:
        print(f"correct submissions that lost points: {', '.join(wrong)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
