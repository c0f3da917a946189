"""The zoo: faulty variants of a reference implementation that the suite must fail.

Each mutant is a one-place textual patch of one reference module, kept as data in
``tests/zoo/<spec>/<module>.toml``; its ``find`` text must occur exactly once, so a
change to the reference that invalidates a mutant is reported instead of silently
making the mutant correct. A mutant is built as a student's package is (its supplied
modules re-export the kit's), as mutation analysis builds its own. A mutant is *killed*
when a test of the suite fails on it.
"""

from __future__ import annotations

from pathlib import Path

import attrs

import spec as spec_data

from . import patches
from .patches import Patch, PatchError
from .registry import kit
from .runner import PlannedRun, SuiteRun, run_batched
from .traceability import covering_tests


class ZooError(PatchError):
    """A mutant's data is wrong (unknown key or module, patch text not found exactly once)."""


@attrs.frozen
class Mutant:
    """One faulty variant: which module it patches and which documented behaviour it breaks."""

    id: str
    spec: str
    module: str
    breaks: str
    description: str
    find: str
    replace: str

    @property
    def patches(self) -> tuple[Patch, ...]:
        return (Patch(self.module, self.find, self.replace),)

    @property
    def broken_type(self) -> str:
        return self.breaks.split(".")[0]


MUTANT_KEYS = ("id", "module", "breaks", "description", "find", "replace")


def load_mutants(spec_name: str) -> list[Mutant]:
    """Every mutant of the specification's zoo, checked for well-formedness."""
    specification = spec_data.load(spec_name)
    mutants = []
    for file_name, entry in patches.read_entries(kit(spec_name).zoo_dir, "mutant"):
        patches.check_keys(f"{file_name}: mutant {entry.get('id', '?')}", entry, MUTANT_KEYS)
        mutant = Mutant(spec=spec_name, **entry)
        try:
            specification.operation(mutant.breaks)
        except KeyError:
            raise ZooError(
                f"{file_name}: mutant {mutant.id} breaks {mutant.breaks!r}, which is not specified"
            ) from None
        mutants.append(mutant)
    ids = [m.id for m in mutants]
    duplicated = sorted({i for i in ids if ids.count(i) > 1})
    if duplicated:
        raise ZooError(f"mutant ids used twice: {', '.join(duplicated)}")
    return mutants


def materialise(mutant: Mutant, destination: Path) -> Path:
    """Write the mutant as a package at ``destination`` (:func:`speckit.patches.materialise`)."""
    return patches.materialise(mutant.spec, f"mutant {mutant.id}", mutant.patches, destination)


def suite_files(mutant: Mutant) -> list[Path]:
    """The test modules that should catch the mutant: those of the patched and the broken type."""
    specification = spec_data.load(mutant.spec)
    modules = {mutant.module, specification.type(mutant.broken_type).module}
    suite = kit(mutant.spec).suite_dir
    return sorted(p for m in modules if (p := suite / f"test_{m}.py").is_file())


def run_zoo(mutants: list[Mutant], scratch: Path, *, jobs: int = 2, examples: int | None = None) -> dict[str, SuiteRun]:
    """Run each mutant's tests in a child process of its own (forked from a batch that collected
    the suite once: :func:`speckit.runner.run_batched`), ``jobs`` at a time.

    ``examples``, if given, is the number of examples per property test instead of the
    profile's: how few still catch every mutant.

    A mutant needs only one failing test, so each run stops at the first failure and
    does not shrink it (the ``zoo`` profile); the tests that cover the broken
    operation run first, and the rest of its type's tests only if those all pass.
    """
    extra = ("-x",) if examples is None else ("-x", f"--examples={examples}")
    # One cache of compiled modules for the whole zoo, and each specification's runs in
    # batches (one import and collection of the suite for many runs): a run stops at its
    # first failure, so starting pytest would otherwise be most of its cost.
    cache = scratch / "pycache"
    outcomes: dict[str, SuiteRun] = {}
    for spec_name in sorted({m.spec for m in mutants}):
        members = [m for m in mutants if m.spec == spec_name]
        coverage = covering_tests(spec_data.load(spec_name), suite_only=True)
        packages = {m.id: materialise(m, scratch / m.id.replace("-", "_")) for m in members}
        files = {m.id: suite_files(m) for m in members}
        for m in members:
            if not files[m.id]:
                outcomes[m.id] = SuiteRun((), {}, -1, crash="no test module for the broken type")
        first = {
            m.id: PlannedRun(packages[m.id], tuple(coverage[m.breaks]), extra)
            for m in members
            if files[m.id] and coverage.get(m.breaks)
        }
        outcomes |= {
            key: run
            for key, run in run_batched(spec_name, first, jobs=jobs, profile="zoo", bytecode_cache=cache).items()
            if killed(run)
        }
        rest = {m.id: PlannedRun(packages[m.id], tuple(files[m.id]), extra) for m in members if m.id not in outcomes}
        outcomes |= run_batched(spec_name, rest, jobs=jobs, profile="zoo", bytecode_cache=cache)
    return {m.id: outcomes[m.id] for m in mutants}


def killed(run: SuiteRun) -> bool:
    """Whether the suite failed the mutant with at least one conformance failure."""
    return not run.crash and bool(run.failed_tests())
