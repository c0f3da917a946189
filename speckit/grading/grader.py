"""The grader: each submission read, run through the suite in the sandbox, and scored.

Student code runs only in the operation server (:mod:`speckit.sandbox`); the grader keeps
the suite, the rubric and the reports in a private folder of its own. What is enforced,
and what is not, is written once: "Threat model" in ``docs/grading.rst``.

Grading a type without cascades (rubric ``mode``): with ``best`` (the default) a type that
lost points is graded again in a *hybrid* package, a copy of the reference shaped as a
student's package (its supplied modules re-export the kit's) holding the student's module
for that type (and the student's helper modules), and the better result counts.

A package that cannot be run as a whole (an import that raises, ends the process or takes
too long) is run again with only its broken parts replaced by the reference's: the kit's
``__init__.py`` and each module that fails at import. Its other modules stay the
student's, so a type that needs no broken module scores as if nothing were broken; the
types of the replaced modules are graded as hybrids, which say why they fail. A kit
without a reference (a student bundle, as a Classroom starter grades with) has no hybrid
to offer: every type is graded as submitted.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

import attrs

import spec as spec_data

from ..paths import REPO_ROOT
from ..registry import kit
from ..rubric import Rubric, TypeRubric, sandbox_settings
from ..runner import SuiteRun, run_suite
from ..skeleton import reference_copy
from .intake import (
    GradeError,
    Unreadable,
    check_modules,
    copy_folder,
    extract_zip,
    find_package,
    install_bytecode,
    own,
    publish,
)
from .losses import failing_operations, hybrid_can_win, import_problems, loss_note, lost_to
from .records import ZERO, GradedAs, StudentGrade, Submission, TestRecord, TypeGrade, points
from .reports import Cleaner
from .scoring import failed_run, score_type, summary
from .slots import claim_uids, processors


class Grader:
    """Grades submissions: one private folder of its own, one uid per concurrent job.

    A context manager: leaving it removes its folders (so does a failure while it is made).
    """

    regrade_all = False
    """Regrade every type that lost points as a hybrid (in the ``best`` mode), not only those a
    hybrid can win points back for: the slower way, kept to check that both grade alike."""

    def __init__(
        self, rubric: Rubric, *, out: Path, submissions: Path, jobs: int = 2, extra_hidden: tuple[Path, ...] = ()
    ):
        self.rubric = rubric
        self.spec = spec_data.load(rubric.spec)
        self.kit = kit(rubric.spec)
        self.jobs = max(1, jobs)
        self.out = out.resolve()
        self.submissions = submissions.resolve()
        self.isolation = None
        """How the server is confined (:class:`speckit.sandbox.Isolation`), once :meth:`check_sandbox` ran."""
        self.confinement = ""
        """What the server said is in force, once :meth:`check_sandbox` ran."""
        self.private = self.shared = None
        self._claims: list[int] = []
        """Open lock files of the uids this grader claimed (released on close)."""
        try:
            self.private = Path(tempfile.mkdtemp(prefix="speckit-grade-"))
            os.chmod(self.private, 0o700)
            self.shared = Path(tempfile.mkdtemp(prefix="speckit-stage-"))
            os.chmod(self.shared, 0o711)
            self.root = os.geteuid() == 0
            self.slots = claim_uids(self.jobs, self._claims) if self.root else [None] * self.jobs
            self.suite = self._copy_suite()
            self.graded, self.skipped = self._graded_types()
            hide = [
                str(self.private),
                str(self.out),
                str(self.submissions),
                str(Path(rubric.source).resolve()),
                *map(str, extra_hidden),
            ]
            kit_files = self._kit_files()
            self.sandbox_files = [self._sandbox_file(slot, hide, kit_files) for slot in range(self.jobs)]
        except BaseException:
            self.close()
            raise
        self._free = list(range(self.jobs))
        self._lock = threading.Lock()
        self.cpus = processors(self.jobs)
        """The processors each job slot's runs use (None: any)."""

    def __enter__(self) -> Grader:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    def close(self) -> None:
        for folder in (self.private, self.shared):
            if folder is not None:
                shutil.rmtree(folder, ignore_errors=True)
        for fd in self._claims:
            os.close(fd)  # releases the uid's lock
        self._claims.clear()

    # -- set-up ----------------------------------------------------------------------------

    def _copy_suite(self) -> Path:
        """A root-only copy of the suite (and the pytest settings) that the sandbox cannot see."""
        tests = self.private / "suite" / "tests"
        source = self.kit.suite_dir
        shutil.copytree(source, tests / source.name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", ".*"))
        for name in ("__init__.py", "conftest.py"):
            if (source.parent / name).is_file():
                shutil.copy2(source.parent / name, tests / name)
        if (REPO_ROOT / "pyproject.toml").is_file():
            shutil.copy2(REPO_ROOT / "pyproject.toml", tests.parent / "pyproject.toml")
        return tests / source.name

    def _graded_types(self) -> tuple[list[TypeRubric], list[str]]:
        graded, skipped = [], []
        for entry in self.rubric.types:
            files = [f for f in entry.tests if (self.suite / f).is_file()]
            if entry.points <= 0:
                skipped.append(f"{entry.name}: 0 points in the rubric, not graded")
            elif not files:
                skipped.append(f"{entry.name}: not graded, its tests ({', '.join(entry.tests)}) do not exist")
            else:
                graded.append(entry)
        if not graded:
            raise GradeError("no type of the rubric has tests: nothing to grade")
        return graded, skipped

    def _sandbox_file(self, slot: int, hide: list[str], kit_files: list[str]) -> Path:
        uid = self.slots[slot]
        settings = {
            "uid": uid,
            "gid": uid,
            **sandbox_settings(self.rubric.limits),
            "hide": hide,
            "kit_files": kit_files,
        }
        path = self.private / f"sandbox-{slot}.json"
        path.write_text(json.dumps(settings, indent=1, sort_keys=True), encoding="utf-8")
        return path

    def _kit_files(self) -> list[str]:
        """The kit's files the sandbox binds, worked out once per grader (a probe in a fresh
        interpreter) rather than in every suite run or for every job."""
        from ..sandbox.bubblewrap import kit_files

        return list(kit_files(self.rubric.spec))

    def files_for(self, entries: list[TypeRubric]) -> list[Path]:
        names = sorted({f for e in entries for f in e.tests} | set(self.rubric.common))
        return [self.suite / n for n in names if (self.suite / n).is_file()]

    def check_sandbox(self):
        """Start an operation server on the reference: how it is confined (an Isolation), or GradeError."""
        from ..sandbox import SandboxConfig, SandboxError, probe, probe_isolation

        config = SandboxConfig.from_file(self.sandbox_files[0])
        try:
            self.isolation = probe_isolation(config)
            self.confinement = probe(config, spec_name=self.rubric.spec)
        except SandboxError as e:
            raise GradeError(str(e)) from None
        return self.isolation

    def one_job_at_a_time(self) -> None:
        """Grade one submission at a time (unconfined, two jobs' servers could reach each other)."""
        self.jobs = 1
        self._free = [0]
        self.cpus = processors(1)

    # -- grading -----------------------------------------------------------------------------

    def grade_all(
        self, submissions: list[Submission], graded: Callable[[int, int, StudentGrade], None] | None = None
    ) -> list[StudentGrade]:
        """Grade every submission, ``jobs`` at a time; ``graded`` hears of each as it finishes."""
        results: dict[str, StudentGrade] = {}

        def work(submission: Submission) -> StudentGrade:
            with self._lock:
                slot = self._free.pop()
            try:
                return self.grade_one(submission, slot)
            finally:
                with self._lock:
                    self._free.append(slot)

        with ThreadPoolExecutor(max_workers=self.jobs) as pool:
            for finished in as_completed([pool.submit(work, s) for s in submissions]):
                grade = finished.result()
                results[grade.name] = grade
                if graded:
                    graded(len(results), len(submissions), grade)
        return [results[name] for name in sorted(results)]

    def grade_one(self, submission: Submission, slot: int) -> StudentGrade:
        started = time.monotonic()
        raw = self.private / "raw" / submission.name
        stage = self.shared / f"{slot}-{submission.name}"
        clean = Cleaner([stage, raw, self.private, self.shared, submission.source.resolve()])
        try:
            grade = self._grade(submission, raw, stage, slot, clean)
        except Unreadable as e:
            grade = self.zero(submission.name, str(e))
        finally:
            shutil.rmtree(raw, ignore_errors=True)
            shutil.rmtree(stage, ignore_errors=True)
        return attrs.evolve(grade, original=submission.original, seconds=time.monotonic() - started)

    def zero(self, name: str, reason: str, notes: tuple[str, ...] = ()) -> StudentGrade:
        types = tuple(TypeGrade(e.name, ZERO, points(e.points), GradedAs.NONE, note=reason) for e in self.graded)
        return StudentGrade(name, types, reason=reason, notes=notes)

    def _grade(self, submission: Submission, raw: Path, stage: Path, slot: int, clean: Cleaner) -> StudentGrade:
        raw.mkdir(parents=True)
        gid = self.slots[slot]
        limits = self.rubric.limits
        if submission.source.is_dir():
            notes = copy_folder(submission.source, raw, limits)
        else:
            notes = extract_zip(submission.source, raw, limits)
        found = find_package(raw, self.spec)
        if found is None:
            expected = ", ".join(f"{t.module}.py" for t in self.spec.types if not t.supplied)
            raise Unreadable(f"no package with the contract's modules found (expected a folder holding {expected})")
        stage.mkdir()
        own(stage, 0o750, gid)
        package = stage / "package"
        publish(found, package, gid)
        # Compiled once, in a confined process of its own: the grader never compiles student
        # code, and neither does any server (each restart would): they load this bytecode.
        checked = check_modules(package, self.spec, seconds=limits.import_seconds, memory_mb=limits.memory_mb, uid=gid)
        errors = checked.errors
        install_bytecode(package, checked.bytecode, set(checked.bytecode), gid)
        present = [t for t in self.spec.types if not t.supplied and (package / f"{t.module}.py").is_file()]
        if present and len(errors) == len(present):
            listed = "; ".join(f"{name} {error}" for name, error in sorted(errors.items()))
            raise Unreadable(f"every module has a syntax error ({listed})")
        notes = tuple(notes)
        if found != raw:
            notes += (f"graded the package in {found.relative_to(raw).as_posix()}/",)

        budget = Budget(self.rubric.limits.budget())
        submitted = self._run(package, self.graded, slot, budget)
        fallbacks = []
        if submitted.crash and budget.left() > 0 and not _RAISED_AT_IMPORT.search(submitted.crash):
            # A run can fail for the machine's sake (a start or an import past its time on a
            # loaded machine): before repairing the package, the run is tried again. An
            # exception raised at import is the package's own, and would be raised again.
            again = self._run(package, self.graded, slot, budget)
            if not again.crash:
                fallbacks.append(
                    f"the first run of the package as submitted failed ({clean(submitted.crash)}); it was run again"
                )
            submitted = again
        broken: frozenset[str] = frozenset()
        """Modules of contract types replaced by the reference's in the run the grade comes from."""
        if submitted.crash:
            reason = clean(submitted.crash)
            repair = (
                self._repair(found, stage, gid, slot, set(errors), submitted.crash, budget, checked.bytecode)
                if self.kit.reference and budget.left() > 0
                else None
            )
            if repair is None:
                notes += (
                    f"the package as submitted could not be run ({reason})"
                    + (
                        ": each type was graded in a copy of the reference holding its module"
                        if self.kit.reference
                        else ""
                    ),
                )
                fallbacks.append(f"the package could not be run as submitted ({reason}): every type graded as a hybrid")
            else:
                submitted, broken = repair
                replaced = ", ".join(sorted(f"{m}.py" for m in broken)) or "none of your modules"
                notes += (
                    f"the package as submitted could not be run ({reason}): it was graded with the kit's __init__.py"
                    + (f" and the reference's {replaced} in place of yours" if broken else "")
                    + "; every other module is yours",
                )
                fallbacks.append(
                    f"the package could not be run as submitted ({reason}): graded with the kit's __init__.py, modules replaced: {replaced}"
                )
        records = tuple(TestRecord.from_report(r) for r in submitted.tests)
        failing = {} if submitted.crash else failing_operations(self.spec, submitted)
        types = []
        for entry in self.graded:
            own_module_broken = submitted.crash or entry.module in broken
            lost_points: tuple[str, ...] = ()
            if own_module_broken:
                why = f"the package as submitted could not be run: {reason}"
                grade = attrs.evolve(failed_run(entry, None, why), graded_as=GradedAs.SUBMITTED)
            else:
                grade = score_type(entry, self.rubric, self.spec, records, GradedAs.SUBMITTED, clean)
                lost_points = lost_to(self.spec, submitted, failing, grade)
            submitted_score = grade.score
            lost = grade.score < points(entry.points)
            if lost and self.rubric.mode == "best" and not own_module_broken and not self.regrade_all:
                # A hybrid holds the same module: it can only win back what another type's failure cost.
                lost = hybrid_can_win(submitted, grade, lost_points, entry.module)
            regrade = self.kit.reference and (
                own_module_broken or self.rubric.mode == "hybrid" or (self.rubric.mode == "best" and lost)
            )
            if regrade and budget.left() <= 0:
                grade = attrs.evolve(grade, note=_join(grade.note, f"not graded again: {budget.spent()}"))
                if budget.spent() not in notes:
                    notes += (budget.spent(),)
            elif regrade:
                grade = self._hybrid(entry, grade, found, stage, gid, slot, clean, budget, checked.bytecode)
                if grade.graded_as is GradedAs.HYBRID and not own_module_broken:
                    fallbacks.append(f"{entry.name} graded as a hybrid")
            if lost_points and submitted_score < grade.max_score:
                grade = attrs.evolve(grade, note=_join(grade.note, loss_note(lost_points, failing)))
            types.append(grade)
        return StudentGrade(submission.name, tuple(types), notes=notes, fallbacks=tuple(fallbacks))

    def _repair(
        self,
        found: Path,
        stage: Path,
        gid,
        slot: int,
        syntax: set[str],
        crash: str,
        budget: Budget,
        bytecode: dict[str, bytes],
    ) -> tuple[SuiteRun, frozenset[str]] | None:
        """Run the package that could not be run whole with only its broken parts replaced by the
        reference's: the kit's ``__init__.py``, and each contract module that does not compile or
        raised at import (named by the crash or by the run's import problems). Its other modules
        stay the student's (with their ``bytecode``, compiled once), so a type that does not need a
        broken module is graded as if nothing were broken. The run and the modules replaced, or
        None if even that run fails or the submission's budget is spent."""
        contract = {t.module for t in self.spec.types}
        broken = {name.removesuffix(".py") for name in syntax} | (_culprits(crash) & contract)
        shaped = stage / "reference-shaped"
        if not shaped.exists():
            reference_copy(self.rubric.spec, shaped)
        for attempt in range(3):
            if budget.left() <= 0:
                return None
            source = stage / f"repaired-src-{attempt}"
            shutil.copytree(found, source, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
            for name in ("__init__", *sorted(broken)):
                if (shaped / f"{name}.py").is_file():
                    shutil.copy2(shaped / f"{name}.py", source / f"{name}.py")
            package = stage / f"repaired-{attempt}"
            publish(source, package, gid)
            shutil.rmtree(source, ignore_errors=True)
            kept = {p.name for p in found.glob("*.py")} - {"__init__.py", *(f"{m}.py" for m in broken)}
            install_bytecode(package, bytecode, kept, gid)
            run = self._run(package, self.graded, slot, budget)
            if run.crash:
                return None
            more = _broken_modules(run) & contract
            if more <= broken:
                return run, frozenset(broken)
            broken |= more
        return None

    def _run(self, package: Path, entries: list[TypeRubric], slot: int, budget: Budget) -> SuiteRun:
        """One run of the suite, within what is left of the submission's ``budget``; its scratch
        (the servers' folders) is removed after it, even when it was stopped."""
        timeout = max(1.0, round(min(self.rubric.limits.run_seconds, budget.left())))
        scratch = Path(tempfile.mkdtemp(prefix=f"run-{slot}-", dir=self.shared))
        os.chmod(scratch, 0o711)  # the server's user enters its folder in it
        started = time.monotonic()
        try:
            return run_suite(
                self.rubric.spec,
                package,
                tests=self.files_for(entries),
                timeout=timeout,
                extra=(
                    f"--sandbox-config={self.sandbox_files[slot]}",
                    *(f"--hidden-tests={p}" for p in self.rubric.hidden),
                ),
                # The suite and the kit are compiled (assertions rewritten) once for the whole run,
                # not once per submission. Student code is never compiled here: it runs in the server.
                bytecode_cache=self.private / "pycache",
                cpus=self.cpus[slot],
                temporary_folder=scratch,
            )
        finally:
            budget.use(time.monotonic() - started)
            shutil.rmtree(scratch, ignore_errors=True)

    def _hybrid(
        self,
        entry: TypeRubric,
        submitted: TypeGrade,
        found: Path,
        stage: Path,
        gid,
        slot: int,
        clean: Cleaner,
        budget: Budget,
        bytecode: dict[str, bytes],
    ) -> TypeGrade:
        """Grade ``entry`` in a copy of the reference holding the student's module (and helpers,
        with their ``bytecode``, compiled once)."""
        module = found / f"{entry.module}.py"
        if not module.is_file():
            return attrs.evolve(submitted, note=_join(submitted.note, f"the submission has no {entry.module}.py"))
        contract = {t.module for t in self.spec.types}
        hybrid_source = stage / f"hybrid-src-{entry.module}"
        reference_copy(
            self.rubric.spec, hybrid_source
        )  # shaped as a student's package: supplied modules re-export the kit's
        helpers = {h.name for h in found.glob("*.py") if h.stem not in contract and h.name != "__init__.py"}
        for helper in helpers:
            shutil.copy2(found / helper, hybrid_source / helper)
        shutil.copy2(module, hybrid_source / module.name)
        package = stage / f"hybrid-{entry.module}"
        publish(hybrid_source, package, gid)
        shutil.rmtree(hybrid_source, ignore_errors=True)
        install_bytecode(package, bytecode, {module.name, *helpers}, gid)
        run = self._run(package, [entry], slot, budget)
        if run.crash:
            hybrid = failed_run(
                entry, submitted if submitted.tests else None, clean(f"the suite could not run: {run.crash}")
            )
            hybrid = attrs.evolve(hybrid, graded_as=GradedAs.HYBRID)
        else:
            records = tuple(TestRecord.from_report(r) for r in run.tests)
            hybrid = score_type(entry, self.rubric, self.spec, records, GradedAs.HYBRID, clean)
        # When the package as submitted did not run, the hybrid's tests at least say why the module fails.
        unrun = not submitted.tests and bool(hybrid.tests)
        if (
            self.rubric.mode == "hybrid"
            or hybrid.score > submitted.score
            or (unrun and hybrid.score == submitted.score)
        ):
            # A package that did not run as submitted has no comparison to offer, only its reason (the note).
            other = summary("as submitted", submitted) if submitted.tests else ""
            return attrs.evolve(
                hybrid, other=other, note=_join(hybrid.note, submitted.note if not submitted.tests else "")
            )
        return attrs.evolve(submitted, other=summary("with the reference's other modules", hybrid))


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


_CULPRIT = re.compile(r"([\w.-]+)\.py (?:raised|went over|took more than|has a syntax error)")


_RAISED_AT_IMPORT = re.compile(r"\.py raised \w+ at import")


def _culprits(text: str) -> set[str]:
    """The modules a crash or import problem names as the file that failed at import (none when
    it names no file: an import that ended the process is the importing module's own)."""
    return {m.group(1) for m in _CULPRIT.finditer(text)}


def _broken_modules(run: SuiteRun) -> set[str]:
    """The modules a run found failing at import: the file each import problem names as the
    one that failed, else the module itself."""
    return set().union(*(_culprits(problem) or {module} for module, problem in import_problems(run).items()))


def _join(*parts: str) -> str:
    return "; ".join(p for p in parts if p)
