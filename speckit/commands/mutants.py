"""``speckit mutants``: mutation analysis of a specification's reference (see :mod:`speckit.mutants`)."""

from __future__ import annotations

import argparse
import importlib.util
import sys
import threading
import time

from .. import registry
from ..core import UserError
from ..mutants import Mutant, Review, generate, load_review
from ..mutants import run as run_mutants
from ..mutation_results import load_results, module_digest, report, save_results, targets_met
from ..registry import kit


def register(commands: argparse._SubParsersAction) -> None:
    """Add ``speckit mutants``."""
    parser = commands.add_parser(
        "mutants", help="mutation analysis: how many generated faults of the reference the suite catches"
    )
    parser.description = (
        "Mutation analysis of a specification's reference: generate mutants with Cosmic Ray, run each "
        "against the tests covering the function it changes, and report per type how many were killed, "
        "against the targets and the reviewed equivalent mutants of the register the specification's [kit] "
        "mutants names (tests/mutants/SPEC.toml). Results are stored per module beside it, in "
        "tests/mutants/SPEC-results.json, so modules can be run one at a time."
    )
    parser.add_argument(
        "--spec",
        default=registry.main_spec(),
        choices=registry.names(),
        help="the specification (default: the main one)",
    )
    parser.add_argument(
        "--module", action="append", metavar="NAME", help="mutate only this module (repeatable; default: all)"
    )
    parser.add_argument("--jobs", type=int, default=2, metavar="N", help="mutants tested at once (default 2)")
    parser.add_argument("--list", action="store_true", help="only list the mutants that would be run")
    parser.add_argument("--report", action="store_true", help="only print the report of the stored results")
    parser.add_argument(
        "--fresh", action="store_true", help="run every mutant again, not only those without a stored result"
    )
    parser.add_argument(
        "--survivors",
        action="store_true",
        help="also run again the survivors not reviewed as equivalent (after new tests)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run ``speckit mutants``: exit 0 when every type meets its target and no survivor is unreviewed."""
    if not kit(args.spec).reference:
        raise UserError(
            "this kit carries no reference to mutate (a student bundle): "
            "mutation analysis is for the kit's maintainers; students check their package with `speckit check`"
        )
    if not args.report and importlib.util.find_spec("cosmic_ray") is None:
        raise UserError(
            "mutation analysis needs Cosmic Ray, which is not installed: pip install -e '.[dev]' in the kit's checkout"
        )
    review = load_review(args.spec)
    if not args.report:
        mutants = generate(args.spec, args.module)
        if args.list:
            for m in mutants:
                print(f"{m.module}.py:{m.line} {m.function} {m.operator}: {m.before}  ->  {m.after}")
            print(f"{len(mutants)} mutants")
            return 0
        _run_pending(args, mutants, review)
    stored = load_results(args.spec)
    print(report(args.spec, stored, review))
    return 0 if targets_met(args.spec, stored, review) else 1


def _run_pending(args: argparse.Namespace, mutants: list[Mutant], review: Review) -> None:
    """Run the mutants without a result for their module's current source, saving results as they come."""
    stored = load_results(args.spec)
    digests = {m: module_digest(args.spec, m) for m in {m.module for m in mutants}}
    kept = {
        m: dict(entry["results"]) if entry["source"] == digests.get(m) and not args.fresh else {}
        for m, entry in stored["modules"].items()
        if m in digests
    }
    by_module: dict[str, dict] = {m: kept.get(m, {}) for m in digests}

    def wanted(m: Mutant) -> bool:
        result = by_module[m.module].get(f"{m.key} #{m.occurrence}")
        return result is None or (args.survivors and not result["killed"] and not review.equivalent(m))

    pending = [m for m in mutants if wanted(m)]
    if len(pending) < len(mutants):
        print(
            f"{len(mutants) - len(pending)} mutants already have results; "
            f"running the other {len(pending)} (--fresh runs all)",
            file=sys.stderr,
        )
    started, done, lock = time.perf_counter(), [], threading.Lock()

    def progress(mutant: Mutant, result: dict) -> None:
        with lock:
            done.append(result)
            by_module[mutant.module][f"{mutant.key} #{mutant.occurrence}"] = result
            if len(done) % 10 == 0 or len(done) == len(pending):
                save_results(args.spec, by_module)
            mark = "killed " if result["killed"] else "SURVIVED"
            print(
                f"[{len(done)}/{len(pending)}] {mark} "
                f"{mutant.module}.{mutant.function}: {mutant.before} -> {mutant.after}",
                file=sys.stderr,
                flush=True,
            )

    run_mutants(pending, jobs=args.jobs, progress=progress)
    save_results(args.spec, by_module)
    print(f"{len(pending)} mutants run in {time.perf_counter() - started:.0f} s", file=sys.stderr)
