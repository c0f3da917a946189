"""The ``speckit`` command line: check an implementation, show coverage, write a skeleton, run the zoo
and the readings, grade."""

from __future__ import annotations

import argparse
import importlib.util
import os
import signal
import sys
import threading
import tempfile
from pathlib import Path

import spec as spec_data

from . import __version__
from spec import SpecDataError

from . import registry
from .core import ImplementationError, UserError
from .impl import package_directory
from .registry import kit

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2
GRADE_REPORT = "grade-report"
"""The command ``speckit grade report DIR`` runs (``main`` reads the two words as this one)."""


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``speckit`` console script."""
    argv = sys.argv[1:] if argv is None else list(argv)
    for argument in argv:
        try:
            argument.encode("utf-8")
        except UnicodeEncodeError:
            shown = os.fsencode(argument).decode("utf-8", "backslashreplace")
            print(f"speckit: {shown}: the name is not valid UTF-8, which Python packages need; rename it", file=sys.stderr)
            return EXIT_USAGE
    if argv[:2] == ["grade", "report"]:
        argv = [GRADE_REPORT, *argv[2:]]  # a command of its own, under grade's name (see _parser)
    parser, subcommands = _parser(), {}
    for action in parser._subparsers._group_actions if parser._subparsers else ():
        subcommands.update(getattr(action, "choices", None) or {})
    args, unknown = parser.parse_known_args(argv)
    if unknown:
        # The usage of the subcommand the unknown option was given to, not the top-level one.
        (subcommands.get(getattr(args, "command", None)) or parser).error(f"unrecognized arguments: {' '.join(unknown)}")
    if not getattr(args, "command", None):
        parser.print_help()
        return EXIT_USAGE
    previous = signal.signal(signal.SIGTERM, _terminated) if threading.current_thread() is threading.main_thread() else None
    try:
        return args.run(args)
    except KeyboardInterrupt:
        print("speckit: interrupted", file=sys.stderr)
        return 130
    except (UserError, SpecDataError, OSError) as e:
        # What the user gave is wrong, or the system refused: a message, not a traceback.
        # Any other exception is a bug of the kit and keeps its traceback.
        print(f"speckit: {e}", file=sys.stderr)
        return EXIT_USAGE
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _terminated(signum, frame) -> None:
    """SIGTERM (``kill``) stops the command as Ctrl-C does, so its children and temporary folders go too."""
    raise KeyboardInterrupt


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
    main = registry.main_spec()
    check.add_argument(
        "--spec",
        choices=registry.names(),
        help=f"the specification (default: the one whose modules the package has; without PATH, {main}, the kit's main one)",
    )
    check.add_argument(
        "--profile",
        choices=["check", "grading", "dev"],
        default="check",
        help="Hypothesis profile: check (default: deterministic, fewer examples, quick), grading (exactly as the grader runs), dev",
    )
    check.add_argument("--lines", type=int, default=30, metavar="N", help="lines of explanation shown per failing operation (default 30)")
    check.add_argument(
        "--type",
        dest="types",
        action="append",
        default=[],
        metavar="TYPE",
        help="check only this type's operations, with only the tests that cover them (a name as in the specification, "
        "IndexType, or its module, index); repeat for several",
    )
    check.add_argument(
        "--watch",
        action="store_true",
        help="keep watching the package and check again, the types whose modules changed, whenever a file of it is saved",
    )
    check.set_defaults(run=_check)

    coverage = commands.add_parser(
        "coverage",
        help="list each documented operation with the tests that cover it",
        description=(
            "List every documented operation of a specification with the tests that declare they cover it "
            "(their covers markers), then the operations students write that no test covers and any marker "
            "naming an unknown operation. Operations of the types the kit supplies are listed, not required. "
            "Exit status 0 when every operation to implement is covered, 1 otherwise."
        ),
    )
    _spec_option(coverage)
    coverage.set_defaults(run=_coverage)

    skeleton = commands.add_parser(
        "skeleton",
        help="write a package with every module and operation of a specification, ready to implement",
        description="Write a student skeleton: every module and function of the contract, with docstrings from the specification and bodies that raise NotImplementedError.",
    )
    skeleton.add_argument("directory", help="the folder to create (must be empty or absent)")
    _spec_option(skeleton)
    skeleton.add_argument(
        "--force",
        action="store_true",
        help="write into a folder that is not empty: add the modules it lacks; every existing file is kept as it is",
    )
    skeleton.set_defaults(run=_skeleton)

    zoo = commands.add_parser(
        "zoo",
        help="run the suite on every faulty variant of the reference and report which it catches",
        description=(
            "Run the conformance suite on every faulty variant (mutant) of the reference implementation kept in "
            "the specification's zoo, and say for each whether a test caught it and which. A variant that "
            "survives is a behaviour the suite does not check. Exit status 0 when every variant is caught, 1 otherwise."
        ),
    )
    _spec_option(zoo)
    zoo.add_argument("--jobs", type=int, default=2, metavar="N", help="mutants tested at once (default 2)")
    zoo.add_argument(
        "--examples", type=int, default=None, metavar="N",
        help="examples per property test instead of the grading profile's (does the suite still catch every variant with N?)",
    )
    zoo.add_argument(
        "--blame", action="store_true",
        help="instead, check each variant as a student would (the tests of its types, the check profile) and say whether "
        "check blames exactly the operation it breaks: that one failed, no other",
    )
    zoo.set_defaults(run=_zoo)

    readings = commands.add_parser(
        "readings",
        help="run the suite on every reading in the register and report which it passes",
        description=(
            "Run the conformance suite on every variant of the reference kept in the register of "
            "readings: each takes a reading of the document that an erratum accepts and the reference does "
            "not, and must pass the tests its patches can reach (the tests of each patched type and of every "
            "type that uses it, and the tests of no type; --whole-suite for all). Say for each whether it "
            "passed, or the first test that failed it and why. "
            "Exit status 0 when every reading passes, 1 otherwise."
        ),
    )
    readings.add_argument(
        "--spec", default=None, choices=registry.names(), help="only this specification's readings (default: every specification's)"
    )
    readings.add_argument("--sandbox", action="store_true", help="run each reading in the grading sandbox, as grading does")
    readings.add_argument("--jobs", type=int, default=2, metavar="N", help="readings tested at once (default 2)")
    readings.add_argument("--whole-suite", action="store_true",
                          help="run the whole suite on each reading, not only the tests of the types its patches can reach")
    readings.set_defaults(run=_readings)

    from .mutants import configure_parser as configure_mutants

    configure_mutants(commands.add_parser("mutants", help="mutation analysis: how many generated faults of the reference the suite catches"))

    grade = commands.add_parser(
        "grade",
        help="grade a folder of student submissions (folders or .zip files) against a rubric, safely; 'grade report DIR' rebuilds a run's class report",
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
        "submissions", metavar="SUBMISSIONS", nargs="+",
        help="the folder of submissions; or 'merge OUT1 OUT2 ...': merge the output folders of the shards of one class into --out",
    )  # fmt: skip
    grade.add_argument("--out", default="grades", metavar="DIR", help="the output folder (default: ./grades)")
    grade.add_argument(
        "--shard", default=None, metavar="K/N",
        help="grade only the Kth of N slices of the submissions (every Nth by sorted name, from the Kth) and write shard.json for 'speckit grade merge'",
    )  # fmt: skip
    grade.add_argument("--jobs", type=int, default=2, metavar="N", help="submissions graded at once (default 2)")
    grade.add_argument("--replace", action="store_true", help="when --out holds an earlier run, move it aside (to DIR.previous) instead of refusing")
    grade.add_argument("--rubric", default=None, metavar="FILE", help="the rubric (TOML; default: the kit's rubric of the specification)")
    grade.add_argument(
        "--unconfined",
        action="store_true",
        help="grade even where student code can only run as your own user (no bubblewrap, not root): it may then read "
        "and write your files, see your environment and use the network; one job at a time",
    )
    _spec_option(grade)
    grade.set_defaults(run=_grade)

    # Listed under grade (no help of its own here): ``speckit grade report DIR``.
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

    from .bundle.cli import add_command as add_bundle_command

    add_bundle_command(commands, _spec_option)
    return parser


def _spec_option(parser: argparse.ArgumentParser) -> None:
    main = registry.main_spec()
    parser.add_argument(
        "--spec", default=main, choices=registry.names(), help=f"the specification (default: {main}, the kit's main one)"
    )


def _check(args: argparse.Namespace) -> int:
    target = _implementation_path(args.path) if args.path else None
    if args.spec is None:
        args.spec = _spec_of(args.path, target) if target else registry.main_spec()
    if target is None and not kit(args.spec).reference:
        raise UserError("this kit carries no reference implementation (a student bundle): give your package's folder, as in `speckit check mypackage`")
    specification = spec_data.load(args.spec)
    types = _types(specification, args.types)
    origin = str(target) if target else f"the reference implementation ({kit(args.spec).reference})"
    if args.watch:
        from .watch import watch

        if not isinstance(target, Path):
            raise UserError("--watch needs the folder of your package (speckit check --watch PATH)")
        return watch(lambda changed: _check_once(args, specification, target, origin, changed), target, specification, types)
    return _check_once(args, specification, target, origin, types)


def _types(specification, names: list[str]) -> list[str]:
    """The type names ``--type`` gave, as the specification names them; a UserError for an unknown one."""
    found = []
    for name in names:
        try:
            found.append(specification.type(name).name)
        except KeyError:
            known = ", ".join(t.name for t in specification.types if not t.supplied)
            raise UserError(f"--type {name}: {specification.name} has no such type (its types: {known})") from None
    return list(dict.fromkeys(found))


def _check_once(args: argparse.Namespace, specification, target, origin: str, types: list[str]) -> int:
    """Run the suite (or the tests of ``types``) once and print the table; the exit status."""
    from . import check
    from .runner import run_suite, user_bytecode_cache
    from .traceability import selected_tests

    what = f" ({', '.join(types)})" if types else ""
    print(f"Checking {origin}{what} against {specification.title} ...", file=sys.stderr, flush=True)
    tests = selected_tests(specification, types) if types else None
    if tests == []:
        print(f"speckit: no test covers {', '.join(types)}", file=sys.stderr)
        return EXIT_FAILED
    progress = _ProgressLine(sys.stderr)
    try:
        run = run_suite(
            args.spec, target, profile=args.profile, tests=tests, progress=progress if progress.live else None,
            bytecode_cache=user_bytecode_cache(), own_temporary_folder=True,
        )  # fmt: skip
    finally:
        progress.clear()
    if run.crash:
        print(f"speckit: {run.crash}", file=sys.stderr)
        return EXIT_FAILED if run.returncode != 4 else EXIT_USAGE
    if types:
        run = _with_suspects_tests(args, specification, target, run, types)
    rows = check.statuses(specification, run, types)
    print(check.render(specification, rows, origin=origin, explain_lines=args.lines, import_problems=run.import_problems))
    return EXIT_OK if check.ok(rows) else EXIT_FAILED


def _with_suspects_tests(args: argparse.Namespace, specification, target, run, types: list[str]):
    """``run`` with the tests of the other types its failing examples called, when there are any:
    a failure of the checked types may be another type's, and only that type's tests can tell."""
    import attrs

    from .runner import run_suite, user_bytecode_cache
    from .traceability import selected_tests

    called = {name.split(".")[0] for test in run.failed_tests() for name in test.suspects}
    others = sorted(name for name in called - set(types) if not specification.type(name).supplied)
    if not others:
        return run
    done = {test.test for test in run.tests}
    tests = [path for path in selected_tests(specification, others) if not any(str(path).endswith(test) for test in done)]
    if not tests:
        return run
    print(f"Checking {', '.join(others)} too: failing examples called them ...", file=sys.stderr, flush=True)
    more = run_suite(args.spec, target, profile=args.profile, tests=tests, bytecode_cache=user_bytecode_cache(), own_temporary_folder=True)
    if more.crash:
        return run
    return attrs.evolve(
        run, tests=run.tests + more.tests, presence={**more.presence, **run.presence},
        import_problems={**more.import_problems, **run.import_problems},
    )  # fmt: skip


class _ProgressLine:
    """One line on a terminal, rewritten as tests finish: ``[ 42/180] tests/connect4/test_grid.py::...``.

    Only on a terminal: in a pipe, a log or a test's captured output nothing is written.
    """

    def __init__(self, stream) -> None:
        self.stream = stream
        self.live = bool(getattr(stream, "isatty", lambda: False)())
        self.shown = False

    def __call__(self, done: int, total: int, test: str) -> None:
        width = len(str(total))
        line = f"[{done:>{width}}/{total}] {test.rsplit('/', 1)[-1]}"
        self.stream.write("\r" + line[:78].ljust(78))
        self.stream.flush()
        self.shown = True

    def clear(self) -> None:
        if self.shown:
            self.stream.write("\r" + " " * 78 + "\r")
            self.stream.flush()
            self.shown = False


def _implementation_path(text: str) -> Path | str:
    """A package directory, resolved, or an importable module name; :class:`ImplementationError` otherwise."""
    if Path(text).exists():
        return package_directory(text)
    if text.split(".")[0] in sys.stdlib_module_names:
        raise ImplementationError(f"{text}: no such folder here (and {text} is Python's own module, not an implementation)")
    if text.isidentifier() and importlib.util.find_spec(text) is not None:
        return text
    raise ImplementationError(f"{text}: no such folder, and no importable package of that name")


def _spec_of(text: str, target: Path | str) -> str:
    """The specification a package follows, judged by its modules; a UserError asking for --spec if that is unclear."""
    folder = target if isinstance(target, Path) else Path(importlib.util.find_spec(target).submodule_search_locations[0])
    fits = registry.fitting(folder)
    if len(fits) == 1:
        return fits[0]
    which = f"its modules fit {' and '.join(fits)} equally" if fits else "it has no module of any specification"
    raise UserError(f"{text}: say which specification it follows with --spec ({which}; known: {', '.join(registry.names())})")


def _coverage(args: argparse.Namespace) -> int:
    from .traceability import covering_tests, uncovered, unknown_names

    specification = spec_data.load(args.spec)
    coverage = covering_tests(specification)
    for op in specification.operations(extensions=True):
        tests = coverage.get(op.qualname, ())
        tag = " [extension]" if op.extension else " [supplied by the kit]" if specification.type(op.type_name).supplied else ""
        print(f"{op.qualname}{tag}: {len(tests)} test{'s' if len(tests) != 1 else ''}")
        for test in tests:
            print(f"    {test}")
    to_write = [op for op in specification.operations() if not specification.type(op.type_name).supplied]
    missing, unknown = uncovered(specification), unknown_names(specification)
    print(f"\n{len(to_write) - len(missing)} of {len(to_write)} documented operations to implement are covered.")
    for name in missing:
        print(f"not covered: {name}")
    for name in unknown:
        print(f"marker names an unknown operation: {name}")
    return EXIT_OK if not missing and not unknown else EXIT_FAILED


def _skeleton(args: argparse.Namespace) -> int:
    from .skeleton import fill_skeleton

    specification = spec_data.load(args.spec)
    result = fill_skeleton(specification, Path(args.directory), force=args.force)
    spec_flag = "" if args.spec == registry.main_spec() else f" --spec {args.spec}"
    print(f"Wrote {len(result.written)} file{'s' if len(result.written) != 1 else ''} to {args.directory}"
          + "".join(f"\n  wrote  {p.name}" for p in result.written if args.force))
    if result.unchanged:
        print(f"Left {len(result.unchanged)} as generated: {', '.join(p.name for p in result.unchanged)}")
    if result.kept:
        print(f"Kept {len(result.kept)} you changed (never overwritten; to regenerate one, move it aside and run again): "
              + ", ".join(p.name for p in result.kept))
    print(f"Next: implement a type, then run `speckit check{spec_flag} {args.directory}`.")
    return EXIT_OK


def _zoo(args: argparse.Namespace) -> int:
    from .zoo import killed, load_mutants, run_zoo

    if args.jobs < 1:
        raise UserError("--jobs must be at least 1")
    if args.examples is not None and args.examples < 1:
        raise UserError("--examples must be at least 1")
    if not kit(args.spec).declaration.zoo:
        raise UserError("this kit carries no zoo of faulty variants (a student bundle)")
    mutants = load_mutants(args.spec)
    if args.blame:
        return _zoo_blame(args, mutants)
    with tempfile.TemporaryDirectory(prefix="speckit-zoo-") as scratch:
        runs = run_zoo(mutants, Path(scratch), jobs=args.jobs, examples=args.examples)
    survivors = []
    for mutant in mutants:
        run = runs[mutant.id]
        if killed(run):
            print(f"caught    {mutant.id}: {mutant.description}  <- {run.failed_tests()[0].test}")
        else:
            survivors.append(mutant)
            print(f"SURVIVED  {mutant.id}: {mutant.description}" + (f" ({run.crash})" if run.crash else ""))
    print(f"\n{len(mutants) - len(survivors)} of {len(mutants)} faulty variants caught.")
    return EXIT_OK if not survivors else EXIT_FAILED


def _readings(args: argparse.Namespace) -> int:
    from .readings import load_readings, passed, run_readings, verdict

    if args.jobs < 1:
        raise UserError("--jobs must be at least 1")
    names = [args.spec] if args.spec else list(registry.names())
    if args.spec and not kit(args.spec).declaration.readings:
        raise UserError("this kit carries no register of readings (a student bundle)")
    readings = [r for name in names if kit(name).declaration.readings for r in load_readings(name)]
    with tempfile.TemporaryDirectory(prefix="speckit-readings-") as scratch:
        runs = run_readings(readings, Path(scratch), sandbox=args.sandbox, jobs=args.jobs, whole_suite=args.whole_suite)
    width = max((len(r.key) for r in readings), default=0)
    failed = 0
    for reading in readings:
        failed += not passed(runs[reading.key])
        print(f"{reading.key:<{width}}  {reading.erratum:<4}  {verdict(runs[reading.key])}")
    mode = "in the grading sandbox" if args.sandbox else "in-process"
    tests = "the whole suite" if args.whole_suite else "the tests their patches can reach"
    print(f"\n{len(readings) - failed} of {len(readings)} readings passed {tests} ({mode}).")
    return EXIT_OK if not failed else EXIT_FAILED


def _zoo_blame(args: argparse.Namespace, mutants) -> int:
    from .blame import measure

    with tempfile.TemporaryDirectory(prefix="speckit-zoo-") as scratch:
        blames = measure(mutants, Path(scratch), jobs=args.jobs)
    exact = 0
    for mutant in mutants:
        blame = blames[mutant.id]
        exact += blame.exact
        print(f"{'exact' if blame.exact else 'INEXACT':<9} {mutant.id}: {blame.describe()}")
    print(f"\n{args.spec}: {exact} of {len(mutants)} members with exact blame.")
    return EXIT_OK if exact == len(mutants) else EXIT_FAILED


def _grade(args: argparse.Namespace) -> int:
    from .escape import terminal
    from .grading import GradeError, grade, merge
    from .rubric import RubricError

    if args.jobs < 1:
        raise UserError("--jobs must be at least 1")
    folders = args.submissions
    try:
        if folders[0] == "merge" and len(folders) > 1:
            if args.shard or args.rubric:
                raise UserError("speckit grade merge takes the shards' output folders and --out (the rubric comes from the shards)")
            merge(folders[1:], args.out, replace=args.replace)
            return EXIT_OK
        if len(folders) > 1:
            raise UserError(f"give one SUBMISSIONS folder (got {len(folders)}), or 'merge' and the shards' output folders")
        grade(folders[0], args.out, jobs=args.jobs, rubric=args.rubric, spec_name=args.spec, replace=args.replace,
              shard=args.shard, unconfined=args.unconfined)
    except (GradeError, RubricError) as e:
        print(f"speckit: {terminal(str(e))}", file=sys.stderr)
        return EXIT_USAGE
    return EXIT_OK


def _grade_report(args: argparse.Namespace) -> int:
    from .grading.charts import INSTALL_HINT, available
    from .grading.classrecord import RecordError
    from .grading.classreport import write_report

    try:
        path = write_report(Path(args.out))
    except RecordError as e:
        print(f"speckit: {e}", file=sys.stderr)
        return EXIT_USAGE
    print(f"speckit grade report: wrote {path}" + ("" if available() else f" (no charts: matplotlib is not installed; {INSTALL_HINT})"))
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
