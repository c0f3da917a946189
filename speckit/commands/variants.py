"""``speckit zoo`` and ``speckit readings``: run the suite on the variants of the reference it must fail, and on
those it must pass."""

from __future__ import annotations

import argparse
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from .. import registry
from ..core import UserError
from ..registry import kit
from . import EXIT_FAILED, EXIT_OK, spec_option

T = TypeVar("T")


def register(commands: argparse._SubParsersAction) -> None:
    """Add ``speckit zoo`` and ``speckit readings``."""
    _add_zoo(commands)
    _add_readings(commands)


def _add_zoo(commands: argparse._SubParsersAction) -> None:
    """Add ``speckit zoo``."""
    zoo = commands.add_parser(
        "zoo",
        help="run the suite on every faulty variant of the reference and report which it catches",
        description=(
            "Run the conformance suite on every faulty variant (mutant) of the reference implementation kept in "
            "the specification's zoo, and say for each whether a test caught it and which. A variant that "
            "survives is a behaviour the suite does not check. Exit status 0 when every variant is caught, 1 otherwise."
        ),
    )
    spec_option(zoo)
    zoo.add_argument("--jobs", type=int, default=2, metavar="N", help="mutants tested at once (default 2)")
    zoo.add_argument(
        "--examples",
        type=int,
        default=None,
        metavar="N",
        help="examples per property test instead of the grading profile's "
        "(does the suite still catch every variant with N?)",
    )
    zoo.add_argument(
        "--only",
        action="append",
        default=None,
        metavar="ID",
        help="only this member (repeat for several; `speckit zoo` lists every member's id)",
    )
    zoo.add_argument(
        "--blame",
        action="store_true",
        help="instead, check each variant as a student would (the tests of its types, the check profile) and say "
        "whether check blames exactly the operation it breaks: that one failed, no other",
    )
    zoo.set_defaults(run=_zoo)


def _add_readings(commands: argparse._SubParsersAction) -> None:
    """Add ``speckit readings``."""
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
        "--spec",
        default=None,
        choices=registry.names(),
        help="only this specification's readings (default: every specification's)",
    )
    readings.add_argument(
        "--sandbox", action="store_true", help="run each reading in the grading sandbox, as grading does"
    )
    readings.add_argument("--jobs", type=int, default=2, metavar="N", help="readings tested at once (default 2)")
    readings.add_argument(
        "--whole-suite",
        action="store_true",
        help="run the whole suite on each reading, not only the tests of the types its patches can reach",
    )
    readings.add_argument(
        "--only",
        action="append",
        default=None,
        metavar="ID",
        help="only this reading, by its id or SPEC/ID (repeat for several)",
    )
    readings.set_defaults(run=_readings)


def _zoo(args: argparse.Namespace) -> int:
    from ..zoo import killed, load_mutants, run_zoo

    if args.jobs < 1:
        raise UserError("--jobs must be at least 1")
    if args.examples is not None and args.examples < 1:
        raise UserError("--examples must be at least 1")
    if not kit(args.spec).declaration.zoo:
        raise UserError("this kit carries no zoo of faulty variants (a student bundle)")
    mutants = only(load_mutants(args.spec), args.only, lambda m: {m.id}, f"{args.spec}'s zoo")
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
    from ..readings import load_readings, passed, run_readings, verdict

    if args.jobs < 1:
        raise UserError("--jobs must be at least 1")
    names = [args.spec] if args.spec else list(registry.names())
    if args.spec and not kit(args.spec).declaration.readings:
        raise UserError("this kit carries no register of readings (a student bundle)")
    readings = [r for name in names if kit(name).declaration.readings for r in load_readings(name)]
    readings = only(readings, args.only, lambda r: {r.id, r.key}, "the register of readings")
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


def only(items: list[T], chosen: list[str] | None, names_of: Callable[[T], set[str]], where: str) -> list[T]:
    """The items ``--only`` chose (all when it was not given), in their register's order; an id no item has is
    a :class:`UserError` naming it."""
    if not chosen:
        return items
    wanted = set(chosen)
    unknown = sorted(wanted - {name for item in items for name in names_of(item)})
    if unknown:
        raise UserError(f"--only: {', '.join(unknown)} is not in {where}")
    return [item for item in items if names_of(item) & wanted]


def _zoo_blame(args: argparse.Namespace, mutants) -> int:
    from ..blame import measure

    with tempfile.TemporaryDirectory(prefix="speckit-zoo-") as scratch:
        blames = measure(mutants, Path(scratch), jobs=args.jobs)
    exact = 0
    for mutant in mutants:
        blame = blames[mutant.id]
        exact += blame.exact
        print(f"{'exact' if blame.exact else 'INEXACT':<9} {mutant.id}: {blame.describe()}")
    print(f"\n{args.spec}: {exact} of {len(mutants)} members with exact blame.")
    return EXIT_OK if exact == len(mutants) else EXIT_FAILED
