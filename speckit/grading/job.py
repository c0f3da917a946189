"""One submission's grading: read it, run it as submitted, score each of its types.

A run that fails for the machine's sake (a start or an import past its time on a loaded
machine) is tried once more. A package that cannot be run as a whole is run with its broken
parts replaced (:mod:`~speckit.grading.repair`); a type that lost points may be graded again
as a hybrid (:mod:`~speckit.grading.hybrid`), and the better result counts. All the runs of
one submission share its time budget.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import TYPE_CHECKING

import attrs

from ..rubric import TypeRubric
from ..runner import SuiteRun
from ..skeleton import reference_copy
from .hybrid import better_grade, hybrid_source, wants_hybrid
from .intake import Unreadable, check_modules, copy_folder, extract_zip, find_package, install_bytecode, own, publish
from .losses import failing_operations, loss_note, lost_to
from .records import GradedAs, StudentGrade, Submission, TestRecord, TypeGrade, join_notes
from .repair import broken_modules, culprits, raised_at_import, repaired_notes, repaired_source, unrepaired_notes
from .reports import Cleaner
from .scoring import failed_run, score_type

if TYPE_CHECKING:
    from .grader import Grader

REPAIR_ATTEMPTS = 3
"""Runs of a repaired package, each replacing the modules the one before found failing at import."""


class Budget:
    """The time all the runs of one submission may still take (processor and wall clock: a run's
    processes cannot use more processor time than the wall-clock time it was given)."""

    def __init__(self, seconds: float):
        self.seconds = seconds
        self.used = 0.0

    def use(self, seconds: float) -> None:
        self.used += seconds

    def left(self) -> float:
        return max(0.0, self.seconds - self.used)

    def spent(self) -> str:
        return f"the submission used up its time ({self.seconds:g} s for all its runs)"


@attrs.frozen
class Staged:
    """A submission read and staged for the servers."""

    found: Path
    """The student's package as read (the folder holding the contract's modules)."""
    package: Path
    """Its copy the servers load."""
    syntax: frozenset[str]
    """Its contract modules that do not compile (file names)."""
    bytecode: dict[str, bytes]
    """Each module that compiles, compiled once (by file name)."""


class SubmissionJob:
    """Grades one submission in one of the grader's job slots, within the submission's time budget."""

    def __init__(self, grader: Grader, submission: Submission, slot: int):
        self.grader = grader
        self.rubric = grader.rubric
        self.spec = grader.spec
        self.submission = submission
        self.slot = slot
        self.gid = grader.slots[slot]
        self.raw = grader.private / "raw" / submission.name
        """Where the submission is read (the grader's alone)."""
        self.stage = grader.shared / f"{slot}-{submission.name}"
        """Where its packages are staged for the servers."""
        self.clean = Cleaner([self.stage, self.raw, grader.private, grader.shared, submission.source.resolve()])
        self.budget = Budget(self.rubric.limits.budget())
        self.notes: list[str] = []
        """What the student is told about how the submission was graded, in the order it arose."""
        self.fallbacks: list[str] = []
        """What grading it took beyond one run as submitted (for the log, never the grade files)."""

    def remove_folders(self) -> None:
        shutil.rmtree(self.raw, ignore_errors=True)
        shutil.rmtree(self.stage, ignore_errors=True)

    def grade(self) -> StudentGrade:
        """The submission's grade; Unreadable when it holds no package the suite can run."""
        staged = self._stage()
        submitted = self._run_as_submitted(staged.package)
        reason = ""
        broken: frozenset[str] = frozenset()  # the contract modules the run the grade comes from replaced
        if submitted.crash:
            reason = self.clean(submitted.crash)
            reference = bool(self.grader.kit.reference)
            repaired = self._repair(staged, submitted.crash) if reference and self.budget.left() > 0 else None
            if repaired is None:
                note, fallback = unrepaired_notes(reason, reference)
            else:
                submitted, broken = repaired
                note, fallback = repaired_notes(reason, broken)
            self.notes.append(note)
            self.fallbacks.append(fallback)
        types = self._score_types(submitted, staged, broken, reason)
        return StudentGrade(self.submission.name, types, notes=tuple(self.notes), fallbacks=tuple(self.fallbacks))

    def _run(self, package: Path, entries: list[TypeRubric]) -> SuiteRun:
        return self.grader.run(package, entries, self.slot, self.budget)

    def _stage(self) -> Staged:
        """Read the submission and stage its package for the servers, compiled once; Unreadable
        when it holds no package with the contract's modules, or only modules that do not compile."""
        self.raw.mkdir(parents=True)
        limits = self.rubric.limits
        source = self.submission.source
        read = copy_folder(source, self.raw, limits) if source.is_dir() else extract_zip(source, self.raw, limits)
        found = find_package(self.raw, self.spec)
        if found is None:
            expected = ", ".join(f"{t.module}.py" for t in self.spec.types if not t.supplied)
            raise Unreadable(f"no package with the contract's modules found (expected a folder holding {expected})")
        self.stage.mkdir()
        own(self.stage, 0o750, self.gid)
        package = self.stage / "package"
        publish(found, package, self.gid)
        # Compiled once, in a confined process of its own: the grader never compiles student
        # code, and neither does any server (each restart would): they load this bytecode.
        checked = check_modules(
            package, self.spec, seconds=limits.import_seconds, memory_mb=limits.memory_mb, uid=self.gid
        )
        install_bytecode(package, checked.bytecode, set(checked.bytecode), self.gid)
        present = [t for t in self.spec.types if not t.supplied and (package / f"{t.module}.py").is_file()]
        if present and len(checked.errors) == len(present):
            listed = "; ".join(f"{name} {error}" for name, error in sorted(checked.errors.items()))
            raise Unreadable(f"every module has a syntax error ({listed})")
        self.notes += read
        if found != self.raw:
            self.notes.append(f"graded the package in {found.relative_to(self.raw).as_posix()}/")
        return Staged(found, package, frozenset(checked.errors), checked.bytecode)

    def _publish(self, source: Path, name: str, students: set[str], bytecode: dict[str, bytes]) -> Path:
        """Publish ``source`` as the package ``name`` in the stage (removing ``source``), with the
        bytecode of the ``students``' modules it holds."""
        package = self.stage / name
        publish(source, package, self.gid)
        shutil.rmtree(source, ignore_errors=True)
        install_bytecode(package, bytecode, students, self.gid)
        return package

    def _run_as_submitted(self, package: Path) -> SuiteRun:
        """The run of the package as submitted, tried once more if it failed for the machine's sake."""
        submitted = self._run(package, self.grader.graded)
        if submitted.crash and self.budget.left() > 0 and not raised_at_import(submitted.crash):
            # A run can fail for the machine's sake (a start or an import past its time on a
            # loaded machine): before repairing the package, the run is tried again. An
            # exception raised at import is the package's own, and would be raised again.
            again = self._run(package, self.grader.graded)
            if not again.crash:
                self.fallbacks.append(
                    f"the first run of the package as submitted failed ({self.clean(submitted.crash)}); "
                    "it was run again"
                )
            submitted = again
        return submitted

    def _repair(self, staged: Staged, crash: str) -> tuple[SuiteRun, frozenset[str]] | None:
        """Run the package that could not be run whole with only its broken parts replaced by the
        reference's: the kit's ``__init__.py``, and each contract module that does not compile or
        raised at import (named by the ``crash`` or by the run's import problems). Its other modules
        stay the student's, so a type that does not need a broken module is graded as if nothing
        were broken. The run and the modules replaced, or None if even that run fails or the
        submission's budget is spent."""
        contract = {t.module for t in self.spec.types}
        broken = {name.removesuffix(".py") for name in staged.syntax} | (culprits(crash) & contract)
        shaped = self.stage / "reference-shaped"
        if not shaped.exists():
            reference_copy(self.rubric.spec, shaped)
        for attempt in range(REPAIR_ATTEMPTS):
            if self.budget.left() <= 0:
                return None
            source = self.stage / f"repaired-src-{attempt}"
            kept = repaired_source(staged.found, shaped, broken, source)
            run = self._run(self._publish(source, f"repaired-{attempt}", kept, staged.bytecode), self.grader.graded)
            if run.crash:
                return None
            more = broken_modules(run) & contract
            if more <= broken:
                return run, frozenset(broken)
            broken |= more
        return None

    def _score_types(
        self, submitted: SuiteRun, staged: Staged, broken: frozenset[str], reason: str
    ) -> tuple[TypeGrade, ...]:
        """Each type's grade from the run as submitted (or repaired, without its ``broken`` modules),
        graded again as a hybrid where that is wanted; ``reason``: why the package as submitted
        could not be run, if it could not."""
        records = tuple(TestRecord.from_report(r) for r in submitted.tests)
        failing = {} if submitted.crash else failing_operations(self.spec, submitted)
        scored = []
        for entry in self.grader.graded:
            module_broken = bool(submitted.crash) or entry.module in broken
            lost: tuple[str, ...] = ()
            if module_broken:
                why = f"the package as submitted could not be run: {reason}"
                grade = attrs.evolve(failed_run(entry, None, why), graded_as=GradedAs.SUBMITTED)
            else:
                grade = score_type(entry, self.rubric, self.spec, records, GradedAs.SUBMITTED, self.clean)
                lost = lost_to(self.spec, submitted, failing, grade)
            wanted = bool(self.grader.kit.reference) and wants_hybrid(
                self.rubric.mode,
                entry,
                grade,
                submitted,
                lost,
                module_broken=module_broken,
                every_loss=self.grader.regrade_all,
            )
            scored.append(_Scored(entry, grade, lost, module_broken, wanted))
        hybrids = self._hybrid_runs([s.entry for s in scored if s.wanted], staged)
        types = []
        for s in scored:
            grade = self._regrade(s.entry, s.grade, s.module_broken, hybrids) if s.wanted else s.grade
            if s.lost and s.grade.score < grade.max_score:
                grade = attrs.evolve(grade, note=join_notes(grade.note, loss_note(s.lost, failing)))
            types.append(grade)
        return tuple(types)

    def _hybrid_runs(self, entries: list[TypeRubric], staged: Staged) -> dict[str, SuiteRun | None]:
        """The run of each of ``entries`` as a hybrid, by module, all in one batch (pytest and the suite
        imported once for all of them); None for a run not started, the submission's time being used
        up. A type whose module the submission lacks has no hybrid, and no entry; nor has any type when
        no time is left before the batch."""
        planned: list[tuple[str, Path, list[TypeRubric]]] = []
        if self.budget.left() <= 0:
            return {}  # no hybrid is built when none can run
        for entry in entries:
            module = staged.found / f"{entry.module}.py"
            if not module.is_file():
                continue
            source = self.stage / f"hybrid-src-{entry.module}"
            students = hybrid_source(self.rubric.spec, self.spec, staged.found, module, source)
            package = self._publish(source, f"hybrid-{entry.module}", students, staged.bytecode)
            planned.append((entry.module, package, [entry]))
        if not planned:
            return {}
        runs = self.grader.run_each([(package, graded) for _, package, graded in planned], self.slot, self.budget)
        return {module: run for (module, _, _), run in zip(planned, runs, strict=True)}

    def _regrade(
        self,
        entry: TypeRubric,
        grade: TypeGrade,
        module_broken: bool,
        hybrids: dict[str, SuiteRun | None],
    ) -> TypeGrade:
        """``grade`` after grading its type again as a hybrid (its run in ``hybrids``), or with a note
        that no time was left for it or that the submission has no module for it."""
        run = hybrids.get(entry.module)
        if entry.module not in hybrids and self.budget.left() > 0:
            return attrs.evolve(grade, note=join_notes(grade.note, f"the submission has no {entry.module}.py"))
        if run is None:
            spent = self.budget.spent()
            if spent not in self.notes:
                self.notes.append(spent)
            return attrs.evolve(grade, note=join_notes(grade.note, f"not graded again: {spent}"))
        regraded = self.hybrid(entry, grade, run)
        if regraded.graded_as is GradedAs.HYBRID and not module_broken:
            self.fallbacks.append(f"{entry.name} graded as a hybrid")
        return regraded

    def hybrid(self, entry: TypeRubric, submitted: TypeGrade, run: SuiteRun) -> TypeGrade:
        """``entry`` graded by ``run``, the run of a copy of the reference holding the student's module
        (and helpers): the better of that and its grade as ``submitted``, by the rubric's mode."""
        if run.crash:
            why = self.clean(f"the suite could not run: {run.crash}")
            hybrid = failed_run(entry, submitted if submitted.tests else None, why)
            hybrid = attrs.evolve(hybrid, graded_as=GradedAs.HYBRID)
        else:
            records = tuple(TestRecord.from_report(r) for r in run.tests)
            hybrid = score_type(entry, self.rubric, self.spec, records, GradedAs.HYBRID, self.clean)
        return better_grade(self.rubric.mode, submitted, hybrid)


@attrs.frozen
class _Scored:
    """A type scored from the run as submitted, before any hybrid."""

    entry: TypeRubric
    grade: TypeGrade
    lost: tuple[str, ...]
    """The other types' failing operations its failed tests may have lost to."""
    module_broken: bool
    wanted: bool
    """Whether it is graded again as a hybrid."""
