"""``speckit check``: run the conformance suite on an implementation and print a per-operation table."""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path

import spec as spec_data

from .. import registry
from ..core import ImplementationError, UserError
from ..impl import package_directory
from ..registry import kit
from . import EXIT_FAILED, EXIT_OK, EXIT_USAGE


def register(commands: argparse._SubParsersAction) -> None:
    """Add ``speckit check``."""
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
        help=f"the specification (default: the one whose modules the package has; without PATH, "
        f"{main}, the kit's main one)",
    )
    check.add_argument(
        "--profile",
        choices=["check", "grading", "dev"],
        default="check",
        help="Hypothesis profile: check (default: deterministic, fewer examples, quick), "
        "grading (exactly as the grader runs), dev",
    )
    check.add_argument(
        "--lines",
        type=int,
        default=30,
        metavar="N",
        help="lines of explanation shown per failing operation (default 30)",
    )
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
        help="keep watching the package and check again, the types whose modules changed, "
        "whenever a file of it is saved",
    )
    check.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    target = _implementation_path(args.path) if args.path else None
    if args.spec is None:
        args.spec = _spec_of(args.path, target) if target else registry.main_spec()
    if target is None and not kit(args.spec).reference:
        raise UserError(
            "this kit carries no reference implementation (a student bundle): "
            "give your package's folder, as in `speckit check mypackage`"
        )
    specification = spec_data.load(args.spec)
    types = _types(specification, args.types)
    origin = str(target) if target else f"the reference implementation ({kit(args.spec).reference})"
    if args.watch:
        from ..watch import watch

        if not isinstance(target, Path):
            raise UserError("--watch needs the folder of your package (speckit check --watch PATH)")
        return watch(
            lambda changed: _check_once(args, specification, target, origin, changed), target, specification, types
        )
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
    from .. import check
    from ..runner import run_suite, user_bytecode_cache
    from ..traceability import selected_tests

    what = f" ({', '.join(types)})" if types else ""
    print(f"Checking {origin}{what} against {specification.title} ...", file=sys.stderr, flush=True)
    tests = selected_tests(specification, types) if types else None
    if tests == []:
        print(f"speckit: no test covers {', '.join(types)}", file=sys.stderr)
        return EXIT_FAILED
    progress = _ProgressLine(sys.stderr)
    try:
        run = run_suite(
            args.spec,
            target,
            profile=args.profile,
            tests=tests,
            progress=progress if progress.live else None,
            bytecode_cache=user_bytecode_cache(),
            own_temporary_folder=True,
        )
    finally:
        progress.clear()
    if run.crash:
        print(f"speckit: {run.crash}", file=sys.stderr)
        return EXIT_FAILED if run.returncode != 4 else EXIT_USAGE
    if types:
        run = _with_suspects_tests(args, specification, target, run, types)
    rows = check.statuses(specification, run, types)
    print(
        check.render(specification, rows, origin=origin, explain_lines=args.lines, import_problems=run.import_problems)
    )
    return EXIT_OK if check.ok(rows) else EXIT_FAILED


def _with_suspects_tests(args: argparse.Namespace, specification, target, run, types: list[str]):
    """``run`` with the tests of the other types its failing examples called, when there are any:
    a failure of the checked types may be another type's, and only that type's tests can tell."""
    import attrs

    from ..runner import run_suite, user_bytecode_cache
    from ..traceability import selected_tests

    called = {name.split(".")[0] for test in run.failed_tests() for name in test.suspects}
    others = sorted(name for name in called - set(types) if not specification.type(name).supplied)
    if not others:
        return run
    done = {test.test for test in run.tests}
    tests = [
        path for path in selected_tests(specification, others) if not any(str(path).endswith(test) for test in done)
    ]
    if not tests:
        return run
    print(f"Checking {', '.join(others)} too: failing examples called them ...", file=sys.stderr, flush=True)
    more = run_suite(
        args.spec,
        target,
        profile=args.profile,
        tests=tests,
        bytecode_cache=user_bytecode_cache(),
        own_temporary_folder=True,
    )
    if more.crash:
        return run
    return attrs.evolve(
        run,
        tests=run.tests + more.tests,
        presence={**more.presence, **run.presence},
        import_problems={**more.import_problems, **run.import_problems},
    )


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
        raise ImplementationError(
            f"{text}: no such folder here (and {text} is Python's own module, not an implementation)"
        )
    if text.isidentifier() and _installed_package(text) is not None:
        return text
    raise ImplementationError(f"{text}: no such folder, and no importable package of that name")


def _installed_package(name: str) -> Path | None:
    """The folder of the importable package ``name``; None if there is none (or it is a lone module)."""
    found = importlib.util.find_spec(name)
    if found is None or not found.submodule_search_locations:
        return None
    return Path(found.submodule_search_locations[0])


def _spec_of(text: str, target: Path | str) -> str:
    """The specification a package follows, judged by its modules; a UserError asking for --spec if that is unclear."""
    folder = target if isinstance(target, Path) else _installed_package(target)
    assert folder is not None  # _implementation_path accepted only an installed package
    fits = registry.fitting(folder)
    if len(fits) == 1:
        return fits[0]
    which = f"its modules fit {' and '.join(fits)} equally" if fits else "it has no module of any specification"
    raise UserError(
        f"{text}: say which specification it follows with --spec ({which}; known: {', '.join(registry.names())})"
    )
