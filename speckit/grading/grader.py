"""The grader: a private folder for the suite, one job slot per concurrent submission.

Student code runs only in the operation server (:mod:`speckit.sandbox`); the grader keeps
the suite, the rubric and the reports in a private folder of its own. What is enforced,
and what is not, is written once: "Threat model" in ``docs/grading.rst``. Each submission
is graded by a :class:`~speckit.grading.job.SubmissionJob` in a slot of its own (its own
uid, processors and sandbox settings).
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path
from typing import TYPE_CHECKING

import attrs

import spec as spec_data

from ..paths import REPO_ROOT
from ..registry import kit
from ..rubric import Rubric, TypeRubric, sandbox_settings
from ..runner import PlannedRun, SuiteRun, run_suite, run_suites
from .intake import GradeError, Unreadable
from .job import Budget, SubmissionJob
from .records import ZERO, GradedAs, StudentGrade, Submission, TypeGrade, points
from .slots import claim_uids, processors

if TYPE_CHECKING:
    from ..sandbox import Isolation


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
        self.isolation: Isolation | None = None
        """How the server is confined, once :meth:`check_sandbox` ran."""
        self.confinement = ""
        """What the server said is in force, once :meth:`check_sandbox` ran."""
        self._folders: list[Path] = []
        """The folders this grader made (removed on close)."""
        self._claims: list[int] = []
        """Open lock files of the uids this grader claimed (released on close)."""
        try:
            self.private = self._folder("speckit-grade-", 0o700)
            """Only the grader's: the suite, the sandbox settings, the compiled suite."""
            self.shared = self._folder("speckit-stage-", 0o711)
            """The staged packages and the runs' scratch folders, which the servers' users enter."""
            self.root = os.geteuid() == 0
            self.slots = claim_uids(self.jobs, self._claims) if self.root else [None] * self.jobs
            """The uid (and gid) each job slot's server runs as (None: the grader's own)."""
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

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        for folder in self._folders:
            shutil.rmtree(folder, ignore_errors=True)
        for fd in self._claims:
            os.close(fd)  # releases the uid's lock
        self._claims.clear()

    # -- set-up ----------------------------------------------------------------------------

    def _folder(self, prefix: str, mode: int) -> Path:
        folder = Path(tempfile.mkdtemp(prefix=prefix))
        self._folders.append(folder)
        os.chmod(folder, mode)
        return folder

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
        """The suite's test files that grade ``entries`` (and the rubric's common ones)."""
        names = sorted({f for e in entries for f in e.tests} | set(self.rubric.common))
        return [self.suite / n for n in names if (self.suite / n).is_file()]

    def check_sandbox(self) -> Isolation:
        """Start an operation server on the reference: how it is confined, or GradeError."""
        from ..sandbox import SandboxConfig, SandboxError, probe, probe_isolation

        config = SandboxConfig.from_file(self.sandbox_files[0])
        try:
            self.isolation = isolation = probe_isolation(config)
            self.confinement = probe(config, spec_name=self.rubric.spec)
        except SandboxError as e:
            raise GradeError(str(e)) from None
        return isolation

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
        """Grade one submission in job slot ``slot``; an unreadable one earns nothing, and says why."""
        started = time.monotonic()
        job = SubmissionJob(self, submission, slot)
        try:
            grade = job.grade()
        except Unreadable as e:
            grade = self.zero(submission.name, str(e))
        finally:
            job.remove_folders()
        return attrs.evolve(grade, original=submission.original, seconds=time.monotonic() - started)

    def zero(self, name: str, reason: str, notes: tuple[str, ...] = ()) -> StudentGrade:
        types = tuple(TypeGrade(e.name, ZERO, points(e.points), GradedAs.NONE, note=reason) for e in self.graded)
        return StudentGrade(name, types, reason=reason, notes=notes)

    def _extra(self, slot: int) -> tuple[str, ...]:
        """The arguments every run in job slot ``slot`` gives pytest: its sandbox settings and the hidden tests."""
        return (f"--sandbox-config={self.sandbox_files[slot]}", *(f"--hidden-tests={p}" for p in self.rubric.hidden))

    def _scratch(self, slot: int) -> Path:
        """A run's scratch folder (its TMPDIR), which the server's user enters."""
        scratch = Path(tempfile.mkdtemp(prefix=f"run-{slot}-", dir=self.shared))
        os.chmod(scratch, 0o711)
        return scratch

    def run(self, package: Path, entries: list[TypeRubric], slot: int, budget: Budget) -> SuiteRun:
        """One run of the suite grading ``entries`` on ``package`` in job slot ``slot``, within what is
        left of the submission's ``budget``; its scratch (the servers' folders) is removed after it,
        even when it was stopped."""
        timeout = max(1.0, round(min(self.rubric.limits.run_seconds, budget.left())))
        tests: list[str | Path] = list(self.files_for(entries))
        scratch = self._scratch(slot)
        started = time.monotonic()
        try:
            return run_suite(
                self.rubric.spec,
                package,
                tests=tests,
                timeout=timeout,
                extra=self._extra(slot),
                # The suite and the kit are compiled (assertions rewritten) once for the whole run,
                # not once per submission. Student code is never compiled here: it runs in the server.
                bytecode_cache=self.private / "pycache",
                cpus=self.cpus[slot],
                temporary_folder=scratch,
            )
        finally:
            budget.use(time.monotonic() - started)
            shutil.rmtree(scratch, ignore_errors=True)

    def run_each(self, runs: list[tuple[Path, list[TypeRubric]]], slot: int, budget: Budget) -> list[SuiteRun | None]:
        """Several runs of the suite (each grading its entries on its package) in job slot ``slot``,
        one after another in one batch (:func:`~speckit.runner.run_suites`: pytest and the suite are
        imported once for all of them), within what is left of the submission's ``budget``. Each
        run's outcome in order, or None for a run not started because the budget was used up."""
        if len(runs) == 1:
            return [self.run(*runs[0], slot, budget) if budget.left() > 0 else None]
        scratches = [self._scratch(slot) for _ in runs]
        planned = [
            PlannedRun(package, tuple(self.files_for(entries)), self._extra(slot), scratch)
            for (package, entries), scratch in zip(runs, scratches, strict=True)
        ]
        started = time.monotonic()
        try:
            results = run_suites(
                self.rubric.spec,
                planned,
                seconds=budget.left(),
                since=started,
                run_seconds=self.rubric.limits.run_seconds,
                bytecode_cache=self.private / "pycache",
                cpus=self.cpus[slot],
            )
        finally:
            budget.use(time.monotonic() - started)
            for scratch in scratches:
                shutil.rmtree(scratch, ignore_errors=True)
        outcomes: list[SuiteRun | None] = []
        for (package, entries), result in zip(runs, results, strict=True):
            if result is None:  # the batch ended before it reached this run: it runs alone
                outcomes.append(self.run(package, entries, slot, budget) if budget.left() > 0 else None)
            else:
                outcomes.append(result.run)
        return outcomes
