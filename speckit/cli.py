"""The ``speckit`` command line: check an implementation, show coverage, write a skeleton, run the zoo, grade."""

from __future__ import annotations

import argparse
import importlib.util
import sys
import tempfile
from pathlib import Path

import spec as spec_data

from . import __version__
from . import registry
from .registry import kit

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``speckit`` console script."""
    parser = _parser()
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help()
        return EXIT_USAGE
    try:
        return args.run(args)
    except KeyboardInterrupt:
        print("speckit: interrupted", file=sys.stderr)
        return 130
    except (KeyError, ValueError, OSError) as e:
        message = e.args[0] if isinstance(e, KeyError) and e.args else e
        print(f"speckit: {message}", file=sys.stderr)
        return EXIT_USAGE


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="speckit",
        description="Executable ADT specifications: check an implementation against its specification.",
    )
    parser.add_argument("--version", action="version", version=f"speckit {__version__}")
    commands = parser.add_subparsers(title="commands", metavar="COMMAND", dest="command")

    check = commands.add_parser(
        "check",
        help="run the conformance suite on an implementation and print a per-operation table",
        description=(
            "Run the conformance suite of a specification against an implementation (a package "
            "directory following the contract; default: the kit's reference implementation) and "
            "print, for every documented operation, whether its tests passed, failed, or whether "
            "it is missing or not implemented, with the first failure explained in the "
            "specification's terms. Exit status 0 when everything passed, 1 otherwise."
        ),
    )
    check.add_argument("path", nargs="?", help="the implementation's package directory (default: the reference)")
    _spec_option(check)
    check.add_argument("--profile", choices=["grading", "dev"], default="grading", help="Hypothesis profile (default: grading, deterministic)")
    check.add_argument("--lines", type=int, default=30, metavar="N", help="lines of explanation shown per failing operation (default 30)")
    check.set_defaults(run=_check)

    coverage = commands.add_parser("coverage", help="list each documented operation with the tests that cover it")
    _spec_option(coverage)
    coverage.set_defaults(run=_coverage)

    skeleton = commands.add_parser(
        "skeleton",
        help="write a package with every module and operation of a specification, ready to implement",
        description="Write a student skeleton: every module and function of the contract, with docstrings from the specification and bodies that raise NotImplementedError.",
    )
    skeleton.add_argument("directory", help="the folder to create (must be empty or absent)")
    _spec_option(skeleton)
    skeleton.add_argument("--force", action="store_true", help="write into a folder that is not empty, replacing files")
    skeleton.set_defaults(run=_skeleton)

    zoo = commands.add_parser("zoo", help="run the suite on every faulty variant of the reference and report which it catches")
    _spec_option(zoo)
    zoo.add_argument("--jobs", type=int, default=2, metavar="N", help="mutants tested at once (default 2)")
    zoo.set_defaults(run=_zoo)

    from .mutants import configure_parser as configure_mutants

    configure_mutants(commands.add_parser("mutants", help="mutation analysis: how many generated faults of the reference the suite catches"))

    grade = commands.add_parser(
        "grade",
        help="grade a folder of student submissions (folders or .zip files) against a rubric, safely",
        description=(
            "Grade every submission in SUBMISSIONS (each a folder or a .zip file holding a package that "
            "follows the contract, possibly one level down) against a rubric. Student code runs in a "
            "confined operation server, never in the grader. Writes grades.csv, feedback/<student>.md, "
            "results/<student>/results.json (Gradescope) and junit/<student>.xml to the output folder."
        ),
    )
    grade.add_argument("submissions", metavar="SUBMISSIONS", help="the folder of submissions")
    grade.add_argument("--out", default="grades", metavar="DIR", help="the output folder (default: ./grades)")
    grade.add_argument("--jobs", type=int, default=2, metavar="N", help="submissions graded at once (default 2)")
    grade.add_argument("--rubric", default=None, metavar="FILE", help="the rubric (TOML; default: the kit's rubric of the specification)")
    _spec_option(grade)
    grade.set_defaults(run=_grade)
    return parser


def _spec_option(parser: argparse.ArgumentParser) -> None:
    main = registry.main_spec()
    parser.add_argument(
        "--spec", default=main, choices=registry.names(), help=f"the specification (default: {main}, the kit's main one)"
    )


def _check(args: argparse.Namespace) -> int:
    from . import check
    from .runner import run_suite

    specification = spec_data.load(args.spec)
    target = _implementation_path(args.path) if args.path else None
    origin = str(target) if target else f"the reference implementation ({kit(args.spec).reference})"
    print(f"Checking {origin} against {specification.title} ...", file=sys.stderr, flush=True)
    run = run_suite(args.spec, target, profile=args.profile)
    if run.crash:
        print(f"speckit: {run.crash}", file=sys.stderr)
        return EXIT_FAILED if run.returncode != 4 else EXIT_USAGE
    rows = check.statuses(specification, run)
    print(check.render(specification, rows, origin=origin, explain_lines=args.lines))
    return EXIT_OK if check.ok(rows) else EXIT_FAILED


def _implementation_path(text: str) -> Path | str:
    """A package directory, or an importable module name; a ValueError naming what is wrong otherwise."""
    path = Path(text)
    if path.is_dir():
        if not any(path.glob("*.py")):
            raise ValueError(f"{text}: not a package (the folder has no Python modules)")
        return path.resolve()
    if path.exists():
        raise ValueError(f"{text}: not a package directory (it is a file)")
    if text.isidentifier() and importlib.util.find_spec(text) is not None:
        return text
    raise ValueError(f"{text}: no such folder, and no importable package of that name")


def _coverage(args: argparse.Namespace) -> int:
    from .traceability import covering_tests, uncovered, unknown_names

    specification = spec_data.load(args.spec)
    coverage = covering_tests(specification)
    for op in specification.operations(extensions=True):
        tests = coverage.get(op.qualname, ())
        tag = " [extension]" if op.extension else ""
        print(f"{op.qualname}{tag}: {len(tests)} test{'s' if len(tests) != 1 else ''}")
        for test in tests:
            print(f"    {test}")
    missing, unknown = uncovered(specification), unknown_names(specification)
    print(f"\n{len(list(specification.operations())) - len(missing)} of {len(list(specification.operations()))} documented operations covered.")
    for name in missing:
        print(f"not covered: {name}")
    for name in unknown:
        print(f"marker names an unknown operation: {name}")
    return EXIT_OK if not missing and not unknown else EXIT_FAILED


def _skeleton(args: argparse.Namespace) -> int:
    from .skeleton import write_skeleton

    specification = spec_data.load(args.spec)
    written = write_skeleton(specification, Path(args.directory), force=args.force)
    spec_flag = "" if args.spec == registry.main_spec() else f" --spec {args.spec}"
    print(f"Wrote {len(written)} files to {args.directory}. Next: implement a type, then run `speckit check{spec_flag} {args.directory}`.")
    return EXIT_OK


def _zoo(args: argparse.Namespace) -> int:
    from .zoo import killed, load_mutants, run_zoo

    mutants = load_mutants(args.spec)
    with tempfile.TemporaryDirectory(prefix="speckit-zoo-") as scratch:
        runs = run_zoo(mutants, Path(scratch), jobs=args.jobs)
    survivors = []
    for mutant in mutants:
        run = runs[mutant.id]
        if killed(run):
            first = next(t for t in run.tests if t["outcome"] == "failed")
            print(f"caught    {mutant.id}: {mutant.description}  <- {first['test']}")
        else:
            survivors.append(mutant)
            print(f"SURVIVED  {mutant.id}: {mutant.description}" + (f" ({run.crash})" if run.crash else ""))
    print(f"\n{len(mutants) - len(survivors)} of {len(mutants)} faulty variants caught.")
    return EXIT_OK if not survivors else EXIT_FAILED


def _grade(args: argparse.Namespace) -> int:
    from .grade import GradeError, grade
    from .rubric import RubricError

    if args.jobs < 1:
        raise ValueError("--jobs must be at least 1")
    try:
        grade(args.submissions, args.out, jobs=args.jobs, rubric=args.rubric, spec_name=args.spec)
    except (GradeError, RubricError) as e:
        print(f"speckit: {e}", file=sys.stderr)
        return EXIT_USAGE
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
