"""The register of readings: correct variants of a reference implementation that the suite must pass.

The mirror of the zoo (:mod:`speckit.zoo`). Where an erratum accepts more than one
reading of the document, each reading the reference does not take is kept as data in
``tests/readings/<spec>/*.toml``: a ``[[reading]]`` naming the erratum it realises, and
the ``[[reading.patch]]``es of reference modules that take it, applied in order (each
``find`` text must occur exactly once at its turn). A reading is built as a student's
package is, and *passes* when the whole suite of its specification passes it.
"""

from __future__ import annotations

from pathlib import Path

import attrs

import spec as spec_data

from . import patches
from .patches import Patch, PatchError
from .registry import kit
from .runner import PlannedRun, SuiteRun, run_alone, run_batched, run_each

READING_KEYS = ("id", "erratum", "description", "patch")
PATCH_KEYS = ("module", "find", "replace")


@attrs.frozen
class Reading:
    """One reading an erratum accepts, as patches of the reference that take it."""

    id: str
    spec: str
    erratum: str
    description: str
    patches: tuple[Patch, ...]

    @property
    def key(self) -> str:
        """The reading's name among every specification's: ``spec/id``."""
        return f"{self.spec}/{self.id}"

    @property
    def label(self) -> str:
        return f"reading {self.id}"


def load_readings(spec_name: str) -> list[Reading]:
    """Every reading in the specification's register, checked for well-formedness: known keys, an
    erratum of the specification, and patches that apply (each find text once, at its turn)."""
    errata = {e.id for e in spec_data.load(spec_name).errata}
    readings = []
    for file_name, entry in patches.read_entries(readings_dir(spec_name), "reading"):
        where = f"{file_name}: reading {entry.get('id', '?')}"
        patches.check_keys(
            where, {k: v for k, v in entry.items() if k != "patch"}, ("id", "erratum", "description"), ("patch",)
        )
        if entry["erratum"] not in errata:
            raise PatchError(f"{where}: names the erratum {entry['erratum']!r}, which {spec_name}'s errata do not have")
        entries = entry.get("patch", [])
        if not isinstance(entries, list) or not entries:
            raise PatchError(f"{where}: no [[reading.patch]] (a reading patches the reference at least once)")
        for number, patch in enumerate(entries, 1):
            if not isinstance(patch, dict):
                raise PatchError(f"{where}: patch {number} is not a table")
            patches.check_keys(f"{where}: patch {number}", patch, PATCH_KEYS)
        reading = Reading(
            entry["id"], spec_name, entry["erratum"], entry["description"].strip(), tuple(Patch(**p) for p in entries)
        )
        patches.patched_sources(spec_name, f"{file_name}: {reading.label}", reading.patches)
        readings.append(reading)
    ids = [r.id for r in readings]
    duplicated = sorted({i for i in ids if ids.count(i) > 1})
    if duplicated:
        raise PatchError(f"reading ids used twice in {spec_name}'s register: {', '.join(duplicated)}")
    return readings


def readings_dir(spec_name: str) -> Path:
    """The folder of the specification's register of readings (its ``[kit]`` key ``readings``)."""
    folder = kit(spec_name).readings_dir
    if folder is None:
        raise PatchError(
            f"{spec_name} declares no register of readings (the [kit] key readings; a student bundle has none)"
        )
    return folder


def materialise(reading: Reading, destination: Path) -> Path:
    """Write the reading as a package at ``destination`` (:func:`speckit.patches.materialise`)."""
    return patches.materialise(reading.spec, reading.label, reading.patches, destination)


def reachable_tests(reading: Reading) -> list[Path] | None:
    """The suite's test modules a reading's patches can reach, or None for the whole suite.

    Tests reach an implementation only through documented operations, and a type's
    operations call only the types it uses, so a patch of a type's module can change
    what the tests of that type and of every type using it (directly or not) observe,
    and nothing else. The modules of no type (the structure tests, shared programs) are
    always run; a patch of a module that is no type's (a supplied or helper module)
    reaches the whole suite.
    """
    specification = spec_data.load(reading.spec)
    by_module = {t.module: t.name for t in specification.types}
    patched = {patch.module for patch in reading.patches}
    if not patched <= by_module.keys():
        return None
    reached = {by_module[module] for module in patched}
    grown = True
    while grown:
        users = {t.name for t in specification.types if reached & set(specification.uses(t.name))}
        grown = not users <= reached
        reached |= users
    files = sorted(kit(reading.spec).suite_dir.glob("test_*.py"))
    type_of_file = {f"test_{t.module}.py": t.name for t in specification.types}
    chosen = [f for f in files if type_of_file.get(f.name) in reached or f.name not in type_of_file]
    return None if len(chosen) == len(files) else chosen


def run_readings(
    readings: list[Reading],
    scratch: Path,
    *,
    sandbox: bool = False,
    jobs: int = 2,
    whole_suite: bool = False,
    examples: int | None = None,
) -> dict[str, SuiteRun]:
    """Run the suite of its specification on each reading in a child process of its own (in-process,
    forked from a batch that collected the suite once: :func:`speckit.runner.run_batched`), ``jobs`` at a time,
    the implementation in-process or, with ``sandbox``, in the grading sandbox; the runs by
    :attr:`Reading.key`. Only the tests a reading can reach run (:func:`reachable_tests`), unless
    ``whole_suite``; ``examples``, if given, is the number of examples per property test instead of
    the grading profile's."""
    cache = scratch / "pycache"
    extra = (*(("--sandbox",) if sandbox else ()), *((f"--examples={examples}",) if examples else ()))
    outcomes: dict[str, SuiteRun] = {}
    for spec_name in sorted({r.spec for r in readings}):
        runs = {}
        for reading in (r for r in readings if r.spec == spec_name):
            package = materialise(reading, scratch / reading.key.replace("/", "_").replace("-", "_"))
            tests = None if whole_suite else reachable_tests(reading)
            runs[reading.key] = PlannedRun(package, tuple(tests or (kit(spec_name).suite_dir,)), extra)
        if sandbox:
            # In the sandbox a batch was slower, not quicker (CI, 28 November 2026: 953 s against 603 s
            # for every reading run alone): each run's operation server costs more than pytest's start.
            def alone(item: tuple[str, PlannedRun], name: str = spec_name) -> tuple[str, SuiteRun]:
                return item[0], run_alone(name, item[1], bytecode_cache=cache)

            outcomes |= run_each(runs.items(), alone, jobs=jobs)
        else:
            outcomes |= run_batched(spec_name, runs, jobs=jobs, bytecode_cache=cache)
    return {r.key: outcomes[r.key] for r in readings}


def passed(run: SuiteRun) -> bool:
    """Whether the suite ran and passed the reading: no crash, some tests, none failed."""
    return not run.crash and bool(run.tests) and not run.failed_tests()


def verdict(run: SuiteRun) -> str:
    """One line: passed, or the first failing test and its message's first line."""
    if passed(run):
        return "passed"
    if run.crash:
        return f"failed: {run.crash}"
    if not run.tests:
        return "failed: the suite ran no test"
    first = run.failed_tests()[0]
    message = (first.message or "").strip().splitlines()
    return f"failed: {first.test}" + (f": {message[0]}" if message else "")
