"""``speckit grade``: grade a folder of untrusted student submissions against a rubric.

Each entry of the submissions folder (a folder, or a ``.zip`` file) is one student's
submission: a package following the contract, possibly nested one level
(``alice/mypkg/index.py``, ``bob.zip`` holding ``connect4/index.py``). Each is graded on
its own, ``--jobs`` at a time, and the output folder receives:

* ``grades.csv``: one row per student, a column per graded type, the total and a note;
* ``feedback/<student>.md``: every visible failure in the specification's terms (the
  documented behaviour, the failing sequence of operations, expected against actual);
  hidden tests appear only as counts;
* ``results/<student>/results.json``: Gradescope's autograder format;
* ``junit/<student>.xml``: JUnit XML, for CI dashboards.

The CSV, JSON and XML files hold no timestamps or durations and are sorted, and the suite
runs with the derandomized ``grading`` Hypothesis profile, so grading the same folder
twice writes the same bytes.

Grading a type without cascades (rubric ``mode``): every type is graded as submitted;
with ``best`` (the default), a type that lost points is graded again in a *hybrid*
package, a copy of the reference package holding the student's module for that type
(and the student's own helper modules), and the better result counts. A bug in a
student's Index then cannot zero their Grid. A submission whose package cannot even be
imported as a whole is still graded type by type this way.

Threat model and what is enforced
---------------------------------

Submissions are untrusted code, possibly written to attack the grader. The grader's
own code, the tests, the rubric and Hypothesis run in the grader's processes (root or
the instructor); the student's code runs only inside an operation server
(:mod:`speckit.sandbox`), one per run of the suite, which:

* runs as an unprivileged uid/gid of its own (one per concurrent job, so two
  submissions cannot signal or trace each other; never the grader's), with no
  supplementary groups and ``no_new_privs``; it cannot create processes or run programs
  (``RLIMIT_NPROC`` 0);
* sees the filesystem through a private mount namespace: the kit's checkout (hence the
  suite and its git history) is replaced by the reference packages alone; the grader's
  private folder (a root-only ``0700`` copy of the tests and the rubric, the reports),
  the submissions folder, the rubric and the output folder are hidden; ``/tmp``,
  ``/var/tmp`` and ``/dev/shm`` are fresh small tmpfs; its own package copy is readable
  by its group only and writable by nobody;
* has limits on memory, processor time, file size, open files and output, a time limit
  per call (an alarm inside the server, and a kill by the test process should the code
  defeat the alarm), a time budget per test and per run of the suite;
* talks to the test process over a validated JSON channel; whatever it writes there can
  only make the test process see values an implementation could return anyway.

So a submission that exits, calls ``sys.exit``, kills or signals its parent, forks,
loops forever, allocates without bound, prints without end, reads the hidden tests,
writes into the output folder, deletes the grader's files, patches pytest or Hypothesis
(its copies are not the grader's), or forges results, gets the grade its behaviour
earns: the affected operations fail the tests that use them, with the reason, and
nothing else is disturbed. Zip files are extracted safely: only regular ``.py`` files,
no absolute paths, no ``..``, no symlinks, bounded count and size; the extraction itself
stays in the grader's private folder.

What is *not* enforced: network access (the server has the machine's network unless
the machine denies it; run the grader offline or in a network namespace), timing
(a submission near a time limit may pass on a quiet machine and fail on a busy one), and
without root or without mount namespaces only the resource limits apply (``speckit
grade`` says which confinement is in force when it starts). ``docs/grading.rst`` has
the details.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import shutil
import stat
import sys
import tempfile
import threading
import time
import zipfile
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path, PurePosixPath
from typing import Callable, TextIO
from xml.etree import ElementTree as ET

import attrs

import spec as spec_data

from . import rubric as rubric_module
from .paths import REPO_ROOT
from .registry import kit
from .rubric import Rubric, TypeRubric
from .runner import SuiteRun, run_suite

UID_BASE = 61000
"""The unprivileged uids (and gids) of the operation servers: UID_BASE + job slot, skipping used ones."""

MAX_FILE_BYTES = 2 * 2**20
MAX_DEPTH = 6
FEEDBACK_LINES = 60


class GradeError(RuntimeError):
    """Grading cannot start (no such folder, the sandbox cannot be confined, ...)."""


# ----------------------------------------------------------------------------------------
# Results
# ----------------------------------------------------------------------------------------


@attrs.frozen
class TestGrade:
    """One test's part in one type's grade."""

    test: str
    outcome: str
    kind: str
    message: str
    covers: tuple[str, ...]
    """The operations of the type it counts for."""
    hidden: bool
    score: float
    max_score: float


@attrs.frozen
class OperationGrade:
    qualname: str
    points: float
    score: float
    passed: int
    counted: int


@attrs.frozen
class TypeGrade:
    name: str
    score: float
    max_score: float
    graded_as: str
    """``submitted``, ``hybrid``, or ``none`` (the submission could not be read)."""
    tests: tuple[TestGrade, ...] = ()
    operations: tuple[OperationGrade, ...] = ()
    note: str = ""
    other: str = ""
    """How the other way of grading it went, when both were tried."""


@attrs.frozen
class StudentGrade:
    name: str
    types: tuple[TypeGrade, ...]
    reason: str = ""
    """Why the submission earned nothing at all (unreadable), else empty."""
    notes: tuple[str, ...] = ()
    seconds: float = attrs.field(default=0.0, eq=False)
    """Wall time of grading it (never written to the grade files)."""

    @property
    def total(self) -> float:
        return sum(t.score for t in self.types)

    @property
    def max_score(self) -> float:
        return sum(t.max_score for t in self.types)


# ----------------------------------------------------------------------------------------
# Submissions: discovery, safe extraction, the package
# ----------------------------------------------------------------------------------------


@attrs.frozen
class Submission:
    name: str
    source: Path


def discover(folder: Path, exclude: tuple[Path, ...] = ()) -> tuple[list[Submission], list[str]]:
    """The submissions in ``folder`` (sub-folders and .zip files), with unique safe names; and what was skipped."""
    if not folder.is_dir():
        raise GradeError(f"{folder}: no such folder")
    excluded = {p.resolve() for p in exclude}
    found, skipped, used = [], [], set()
    for entry in sorted(folder.iterdir(), key=lambda p: p.name):
        if entry.name.startswith(".") or entry.name == "__MACOSX":
            continue
        if entry.resolve() in excluded:
            continue
        if entry.is_symlink():
            skipped.append(f"{entry.name}: a symbolic link, skipped")
            continue
        if entry.is_dir():
            stem = entry.name
        elif entry.is_file() and entry.suffix.lower() == ".zip":
            stem = entry.stem
        else:
            skipped.append(f"{entry.name}: neither a folder nor a .zip file, skipped")
            continue
        name = re.sub(r"[^A-Za-z0-9._-]+", "_", stem).strip("._-") or "student"
        base, n = name, 2
        while name.lower() in used:
            name, n = f"{base}-{n}", n + 1
        used.add(name.lower())
        found.append(Submission(name, entry))
    return found, skipped


class Unreadable(Exception):
    """The submission cannot be graded at all; the message says why, for the student."""


def _safe_parts(name: str) -> tuple[str, ...] | None:
    """The path of a zip member as safe parts, or None for one that must not be extracted."""
    name = name.replace("\\", "/")
    if name.startswith("/") or re.match(r"^[A-Za-z]:", name) or "\x00" in name:
        return None
    parts = tuple(p for p in PurePosixPath(name).parts if p not in ("", "."))
    if any(p == ".." for p in parts) or len(parts) > MAX_DEPTH:
        return None
    return parts


def _wanted(parts: tuple[str, ...]) -> bool:
    return (
        bool(parts)
        and parts[-1].endswith(".py")
        and not any(p.startswith(".") or p in ("__MACOSX", "__pycache__") for p in parts)
        and all(re.fullmatch(r"[A-Za-z0-9_.\- ]+", p) for p in parts)
    )


def _write_new(target: Path, chunks) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    with os.fdopen(fd, "wb") as out:
        for chunk in chunks:
            out.write(chunk)


def extract_zip(archive: Path, destination: Path, limits) -> list[str]:
    """Extract the Python files of ``archive`` safely; notes on what was left out."""
    notes = []
    budget = int(limits.max_megabytes * 2**20)
    try:
        with zipfile.ZipFile(archive) as z:
            members = z.infolist()
            if len(members) > limits.max_files:
                raise Unreadable(f"the zip file holds {len(members)} entries (at most {limits.max_files} are accepted)")
            for info in members:
                if info.is_dir():
                    continue
                parts = _safe_parts(info.filename)
                if parts is None:
                    notes.append(f"{info.filename!r}: an unsafe path, left out")
                    continue
                if not _wanted(parts):
                    continue
                mode = info.external_attr >> 16
                if stat.S_ISLNK(mode):
                    notes.append(f"{info.filename}: a symbolic link, left out")
                    continue
                if info.flag_bits & 0x1:
                    raise Unreadable("the zip file is encrypted")
                if info.file_size > MAX_FILE_BYTES:
                    notes.append(f"{info.filename}: larger than {MAX_FILE_BYTES // 2**20} MB, left out")
                    continue

                def chunks(info=info):
                    nonlocal budget
                    size = 0
                    with z.open(info) as member:
                        while chunk := member.read(65536):
                            size += len(chunk)
                            budget -= len(chunk)
                            if size > MAX_FILE_BYTES or budget < 0:
                                raise Unreadable(f"the zip file unpacks to more than {limits.max_megabytes:g} MB of Python files")
                            yield chunk

                target = destination.joinpath(*parts)
                if target.exists():
                    notes.append(f"{info.filename}: given twice, the first copy kept")
                    continue
                _write_new(target, chunks())
    except Unreadable:
        raise
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, NotImplementedError, ValueError, OSError, RuntimeError) as e:
        raise Unreadable(f"not a readable zip file ({type(e).__name__}: {e})") from None
    return notes


def copy_folder(folder: Path, destination: Path, limits) -> list[str]:
    """Copy the Python files of ``folder`` safely (no symlinks followed); notes on what was left out."""
    notes, count, budget = [], 0, int(limits.max_megabytes * 2**20)
    for root, dirs, files in os.walk(folder, followlinks=False):
        relative = Path(root).relative_to(folder)
        if len(relative.parts) >= MAX_DEPTH:
            dirs[:] = []
            continue
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in ("__pycache__", "__MACOSX"))
        for name in sorted(files):
            count += 1
            if count > limits.max_files:
                raise Unreadable(f"the submission holds more than {limits.max_files} files")
            parts = (*relative.parts, name)
            if not _wanted(parts):
                continue
            source = Path(root) / name
            try:
                fd = os.open(source, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
            except OSError:
                notes.append(f"{'/'.join(parts)}: a symbolic link or unreadable, left out")
                continue
            with os.fdopen(fd, "rb") as f:
                if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                    notes.append(f"{'/'.join(parts)}: not a regular file, left out")
                    continue
                data = f.read(MAX_FILE_BYTES + 1)
            if len(data) > MAX_FILE_BYTES:
                notes.append(f"{'/'.join(parts)}: larger than {MAX_FILE_BYTES // 2**20} MB, left out")
                continue
            budget -= len(data)
            if budget < 0:
                raise Unreadable(f"the submission holds more than {limits.max_megabytes:g} MB of Python files")
            _write_new(destination.joinpath(*parts), [data])
    return notes


def find_package(root: Path, specification) -> Path | None:
    """The folder (``root`` or below, up to two levels) holding the most of the contract's modules."""
    wanted = {f"{t.module}.py" for t in specification.types if not t.supplied}
    best: tuple | None = None
    for folder in [root, *sorted(p for p in root.rglob("*") if p.is_dir())]:
        depth = len(folder.relative_to(root).parts)
        if depth > 2:
            continue
        score = len(wanted & {p.name for p in folder.glob("*.py")})
        key = (-score, depth, str(folder))
        if score and (best is None or key < best[0]):
            best = (key, folder)
    return best[1] if best else None


def syntax_errors(package: Path, specification) -> dict[str, str]:
    """The contract modules of ``package`` that do not compile, with the error (compiling runs nothing)."""
    errors = {}
    for type_spec in specification.types:
        path = package / f"{type_spec.module}.py"
        if type_spec.supplied or not path.is_file():
            continue
        try:
            compile(path.read_bytes(), path.name, "exec", dont_inherit=True)
        except SyntaxError as e:
            errors[path.name] = f"line {e.lineno}: {e.msg}"
        except (ValueError, MemoryError, RecursionError) as e:
            errors[path.name] = f"{type(e).__name__}: {e}"
    return errors


def _publish(source: Path, target: Path, gid: int | None) -> None:
    """Copy a package tree where the operation server of group ``gid`` (only) can read it."""
    shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    for root, dirs, files in os.walk(target):
        for name in dirs:
            _own(Path(root) / name, 0o750, gid)
        for name in files:
            _own(Path(root) / name, 0o640, gid)
    _own(target, 0o750, gid)


def _own(path: Path, mode: int, gid: int | None) -> None:
    if gid is not None:
        os.chown(path, 0, gid, follow_symlinks=False)
        os.chmod(path, mode)
    else:
        os.chmod(path, mode | (mode & 0o070) >> 3)


# ----------------------------------------------------------------------------------------
# Scoring
# ----------------------------------------------------------------------------------------


def test_file(test_id: str) -> str:
    return test_id.split("::", 1)[0].rsplit("/", 1)[-1]


def score_type(entry: TypeRubric, rubric: Rubric, specification, tests: tuple[dict, ...], graded_as: str, clean) -> TypeGrade:
    """A type's grade from the records of one run (partial credit by behaviour)."""
    files = set(entry.tests) | set(rubric.common)
    mine = {op.qualname for op in specification.type(entry.name).operations if entry.weight(op.name) > 0}
    relevant = []
    for record in tests:
        if test_file(record["test"]) not in files:
            continue
        covers = tuple(q for q in record["covers"] if q in mine)
        if covers:
            relevant.append((record, covers))
    covering: dict[str, list[dict]] = {}
    for record, covers in relevant:
        for qualname in covers:
            covering.setdefault(qualname, []).append(record)
    weights = {q: entry.weight(q.split(".", 1)[1]) for q in covering}
    total_weight = sum(weights.values())
    operations, share = [], {}
    for op in specification.type(entry.name).operations:
        qualname = op.qualname
        if qualname not in covering:
            continue
        points = entry.points * weights[qualname] / total_weight
        counted = [r for r in covering[qualname] if r["outcome"] in ("passed", "failed")]
        passed = sum(1 for r in counted if r["outcome"] == "passed")
        score = points * passed / len(counted) if counted else 0.0
        share[qualname] = points / len(counted) if counted else 0.0
        operations.append(OperationGrade(qualname, points, score, passed, len(counted)))
    grades = []
    for record, covers in sorted(relevant, key=lambda rc: rc[0]["test"]):
        counted = record["outcome"] in ("passed", "failed")
        maximum = sum(share[q] for q in covers) if counted else 0.0
        grades.append(
            TestGrade(
                test=record["test"],
                outcome=record["outcome"],
                kind=record.get("kind", record["outcome"]),
                message=clean(record.get("message", "")),
                covers=covers,
                hidden=rubric.is_hidden(record["test"]),
                score=maximum if record["outcome"] == "passed" else 0.0,
                max_score=maximum,
            )
        )
    uncovered = [op.qualname for op in specification.type(entry.name).operations if op.qualname in mine and op.qualname not in covering]
    note = ""
    if not covering:
        note = "no graded test covers its operations"
    elif uncovered:
        note = f"not graded (no test covers them): {', '.join(uncovered)}"
    return TypeGrade(
        name=entry.name,
        score=sum(o.score for o in operations),
        max_score=entry.points if covering else 0.0,
        graded_as=graded_as,
        tests=tuple(grades),
        operations=tuple(operations),
        note=note,
    )


def failed_run(entry: TypeRubric, reference: TypeGrade | None, reason: str) -> TypeGrade:
    """A type whose run produced no report: every test of it failed, for ``reason``."""
    if reference is None:
        return TypeGrade(entry.name, 0.0, entry.points, "none", note=reason)
    tests = tuple(
        attrs.evolve(t, outcome="failed", kind="failed", message=reason, score=0.0)
        for t in reference.tests
    )
    operations = tuple(attrs.evolve(o, score=0.0, passed=0) for o in reference.operations)
    return attrs.evolve(reference, score=0.0, tests=tests, operations=operations, note=reason, graded_as="submitted")


# ----------------------------------------------------------------------------------------
# The grader
# ----------------------------------------------------------------------------------------


class Grader:
    """Grades submissions: one private folder of its own, one uid per concurrent job."""

    def __init__(self, rubric: Rubric, *, out: Path, submissions: Path, jobs: int = 2, extra_hidden: tuple[Path, ...] = ()):
        self.rubric = rubric
        self.spec = spec_data.load(rubric.spec)
        self.kit = kit(rubric.spec)
        self.jobs = max(1, jobs)
        self.out = out.resolve()
        self.submissions = submissions.resolve()
        self.private = Path(tempfile.mkdtemp(prefix="speckit-grade-"))
        os.chmod(self.private, 0o700)
        self.shared = Path(tempfile.mkdtemp(prefix="speckit-stage-"))
        os.chmod(self.shared, 0o711)
        self.root = os.geteuid() == 0
        self.slots = self._slot_ids()
        self.suite = self._copy_suite()
        self.graded, self.skipped = self._graded_types()
        hide = [str(self.private), str(self.out), str(self.submissions), str(Path(rubric.source).resolve()), *map(str, extra_hidden)]
        self.sandbox_files = [self._sandbox_file(slot, hide) for slot in range(self.jobs)]
        self._free = list(range(self.jobs))
        self._lock = threading.Lock()
        self.isolation = ""

    # -- set-up ----------------------------------------------------------------------------

    def _slot_ids(self) -> list[int | None]:
        if not self.root:
            return [None] * self.jobs
        import pwd
        import grp

        used = {p.pw_uid for p in pwd.getpwall()} | {g.gr_gid for g in grp.getgrall()}
        ids, candidate = [], UID_BASE
        while len(ids) < self.jobs:
            if candidate not in used:
                ids.append(candidate)
            candidate += 1
        return ids

    def _copy_suite(self) -> Path:
        """A root-only copy of the suite (and the pytest settings) that the sandbox cannot see."""
        suite_root = self.private / "suite"
        tests = suite_root / "tests"
        source = self.kit.suite_dir
        shutil.copytree(source, tests / source.name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", ".*"))
        for name in ("__init__.py", "conftest.py"):
            if (source.parent / name).is_file():
                shutil.copy2(source.parent / name, tests / name)
        if (REPO_ROOT / "pyproject.toml").is_file():
            shutil.copy2(REPO_ROOT / "pyproject.toml", suite_root / "pyproject.toml")
        return tests / source.name

    def _graded_types(self) -> tuple[list[TypeRubric], list[str]]:
        graded, skipped = [], []
        for entry in self.rubric.types:
            files = [f for f in entry.tests if (self.suite / f).is_file()]
            if entry.points <= 0:
                skipped.append(f"{entry.name}: 0 points in the rubric, not graded")
            elif not files:
                skipped.append(f"{entry.name}: not graded, its tests ({', '.join(entry.tests)}) do not exist yet")
            else:
                graded.append(entry)
        if not graded:
            raise GradeError("no type of the rubric has tests: nothing to grade")
        return graded, skipped

    def _sandbox_file(self, slot: int, hide: list[str]) -> Path:
        limits = self.rubric.limits
        uid = self.slots[slot]
        settings = {
            "uid": uid,
            "gid": uid,
            "memory_mb": limits.memory_mb,
            "cpu_seconds": limits.cpu_seconds,
            "output_kb": limits.output_kb,
            "import_seconds": limits.import_seconds,
            "test_seconds": limits.test_seconds,
            "hide": hide,
        }
        path = self.private / f"sandbox-{slot}.json"
        path.write_text(json.dumps(settings, indent=1, sort_keys=True), encoding="utf-8")
        return path

    def files_for(self, entries: list[TypeRubric]) -> list[Path]:
        names = sorted({f for e in entries for f in e.tests} | set(self.rubric.common))
        return [self.suite / n for n in names if (self.suite / n).is_file()]

    def check_sandbox(self) -> str:
        """Start an operation server on the reference: how it is confined, or GradeError."""
        from .sandbox import SandboxConfig, SandboxError, probe

        config = SandboxConfig.from_file(self.sandbox_files[0])
        try:
            self.isolation = probe(config, spec_name=self.rubric.spec)
        except SandboxError as e:
            raise GradeError(str(e)) from None
        return self.isolation

    def close(self) -> None:
        shutil.rmtree(self.private, ignore_errors=True)
        shutil.rmtree(self.shared, ignore_errors=True)

    # -- one submission ----------------------------------------------------------------------

    def grade_all(self, submissions: list[Submission], progress: Callable | None = None) -> list[StudentGrade]:
        results: dict[str, StudentGrade] = {}
        done = 0

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
                done += 1
                if progress:
                    progress(done, len(submissions), grade)
        return [results[name] for name in sorted(results)]

    def grade_one(self, submission: Submission, slot: int) -> StudentGrade:
        started = time.monotonic()
        raw = self.private / "raw" / submission.name
        stage = self.shared / f"{slot}-{submission.name}"
        gid = self.slots[slot]
        clean = _Cleaner([stage, raw, self.private, self.shared, submission.source.resolve()])
        try:
            grade = self._grade(submission, raw, stage, gid, slot, clean)
        except Unreadable as e:
            grade = self.zero(submission.name, str(e))
        finally:
            shutil.rmtree(raw, ignore_errors=True)
            shutil.rmtree(stage, ignore_errors=True)
        return attrs.evolve(grade, seconds=time.monotonic() - started)

    def zero(self, name: str, reason: str, notes: tuple[str, ...] = ()) -> StudentGrade:
        types = tuple(TypeGrade(e.name, 0.0, e.points, "none", note=reason) for e in self.graded)
        return StudentGrade(name, types, reason=reason, notes=notes)

    def _grade(self, submission: Submission, raw: Path, stage: Path, gid, slot: int, clean) -> StudentGrade:
        raw.mkdir(parents=True)
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
        _own(stage, 0o750, gid)
        package = stage / "package"
        _publish(found, package, gid)
        errors = syntax_errors(package, self.spec)
        present = [t for t in self.spec.types if not t.supplied and (package / f"{t.module}.py").is_file()]
        if present and len(errors) == len(present):
            listed = "; ".join(f"{name} {error}" for name, error in sorted(errors.items()))
            raise Unreadable(f"every module has a syntax error ({listed})")
        notes = tuple(notes)
        if found != raw:
            notes += (f"graded the package in {found.relative_to(raw).as_posix()}/",)

        submitted = self._run(package, self.graded, slot)
        types = []
        for entry in self.graded:
            if submitted.crash:
                grade = failed_run(entry, None, clean(f"the suite could not run on the submission: {submitted.crash}"))
            else:
                grade = score_type(entry, self.rubric, self.spec, submitted.tests, "submitted", clean)
            if self.rubric.mode != "submitted" and (self.rubric.mode == "hybrid" or grade.score < grade.max_score - 1e-9):
                grade = self._hybrid(entry, grade, found, stage, gid, slot, clean)
            types.append(grade)
        return StudentGrade(submission.name, tuple(types), notes=notes)

    def _run(self, package: Path, entries: list[TypeRubric], slot: int) -> SuiteRun:
        files = self.files_for(entries)
        return run_suite(
            self.rubric.spec,
            package,
            tests=files,
            timeout=self.rubric.limits.run_seconds,
            extra=(f"--sandbox-config={self.sandbox_files[slot]}",),
        )

    def _hybrid(self, entry: TypeRubric, submitted: TypeGrade, found: Path, stage: Path, gid, slot: int, clean) -> TypeGrade:
        """Grade ``entry`` in a copy of the reference holding the student's module (and helpers)."""
        module = found / f"{entry.module}.py"
        if not module.is_file():
            return attrs.evolve(submitted, note=_join(submitted.note, f"the submission has no {entry.module}.py"))
        contract = {t.module for t in self.spec.types}
        hybrid_source = stage / f"hybrid-src-{entry.module}"
        shutil.copytree(self.kit.reference_dir, hybrid_source, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        for helper in found.glob("*.py"):
            if helper.stem not in contract and helper.name != "__init__.py":
                shutil.copy2(helper, hybrid_source / helper.name)
        shutil.copy2(module, hybrid_source / module.name)
        package = stage / f"hybrid-{entry.module}"
        _publish(hybrid_source, package, gid)
        shutil.rmtree(hybrid_source, ignore_errors=True)
        run = self._run(package, [entry], slot)
        if run.crash:
            hybrid = failed_run(entry, submitted if submitted.tests else None, clean(f"the suite could not run: {run.crash}"))
            hybrid = attrs.evolve(hybrid, graded_as="hybrid")
        else:
            hybrid = score_type(entry, self.rubric, self.spec, run.tests, "hybrid", clean)
        if self.rubric.mode == "hybrid" or hybrid.score > submitted.score + 1e-9:
            return attrs.evolve(hybrid, other=_summary("as submitted", submitted), note=_join(hybrid.note, submitted.note if not submitted.tests else ""))
        return attrs.evolve(submitted, other=_summary("with the reference's other modules", hybrid))


def _join(*parts: str) -> str:
    return "; ".join(p for p in parts if p)


def _summary(how: str, grade: TypeGrade) -> str:
    counted = [t for t in grade.tests if t.outcome in ("passed", "failed")]
    passed = sum(1 for t in counted if t.outcome == "passed")
    return f"{how}: {grade.score:.2f} of {grade.max_score:g} points ({passed} of {len(counted)} tests passed)"


class _Cleaner:
    """Makes text from a run fit to publish: no grader paths, no memory addresses, no control characters."""

    def __init__(self, paths: list[Path]):
        self.paths = sorted({str(p) for p in paths}, key=len, reverse=True)

    def __call__(self, text: str) -> str:
        for path in self.paths:
            text = text.replace(path, "<submission>")
        text = re.sub(r"/tmp/speckit-[A-Za-z0-9_.-]+", "<grader>", text)
        text = re.sub(r"\bspeckit_impl_[0-9a-f]{12}\b", "<package>", text)
        text = re.sub(r"0x[0-9a-fA-F]{6,}", "0x…", text)
        text = "".join(c for c in text if c in "\n\t" or (c.isprintable() and c not in "\ufeff"))
        return text[:20000]


# ----------------------------------------------------------------------------------------
# Output files
# ----------------------------------------------------------------------------------------


def _points(value: float) -> str:
    return f"{value:.2f}"


def write_outputs(out: Path, grades: list[StudentGrade], graded: list[TypeRubric], rubric: Rubric, skipped: list[str]) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for name in ("feedback", "results", "junit"):
        shutil.rmtree(out / name, ignore_errors=True)
        (out / name).mkdir()
    _write_file(out / "grades.csv", _csv(grades, graded))
    for grade in grades:
        _write_file(out / "feedback" / f"{grade.name}.md", feedback(grade, rubric, skipped))
        target = out / "results" / grade.name
        target.mkdir()
        _write_file(target / "results.json", gradescope(grade, rubric))
        _write_file(out / "junit" / f"{grade.name}.xml", junit(grade))


def _write_file(path: Path, text: str) -> None:
    """Write a fresh file, never through a symbolic link planted where it goes."""
    try:
        path.unlink()
    except FileNotFoundError:
        pass
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
    with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
        f.write(text)


def _csv(grades: list[StudentGrade], graded: list[TypeRubric]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["student", *[e.name for e in graded], "total", "max", "note"])
    for grade in grades:
        by_type = {t.name: t for t in grade.types}
        writer.writerow(
            [grade.name, *[_points(by_type[e.name].score) for e in graded], _points(grade.total), _points(grade.max_score), grade.reason]
        )
    return buffer.getvalue()


def _fence(text: str) -> str:
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}text\n{text}\n{fence}"


def _clip(text: str, lines: int = FEEDBACK_LINES) -> str:
    rows = text.strip().splitlines()
    return "\n".join(rows[:lines] + ([f"... ({len(rows) - lines} more lines)"] if len(rows) > lines else []))


def feedback(grade: StudentGrade, rubric: Rubric, skipped: list[str]) -> str:
    """The student's Markdown report: scores, then every visible failure; hidden tests as counts only."""
    out = [f"# {rubric.title}: feedback for {grade.name}", ""]
    out.append(f"**Total: {_points(grade.total)} of {grade.max_score:g} points.**")
    out.append("")
    if grade.reason:
        out += [f"Your submission could not be graded: {grade.reason}.", ""]
    for note in grade.notes:
        out.append(f"- {note}")
    for note in skipped:
        out.append(f"- {note}")
    if grade.notes or skipped:
        out.append("")
    out += ["| Type | Points | Out of | Tests passed | Graded |", "|---|---:|---:|---:|---|"]
    for t in grade.types:
        counted = [x for x in t.tests if x.outcome in ("passed", "failed")]
        passed = sum(1 for x in counted if x.outcome == "passed")
        how = {"submitted": "as submitted", "hybrid": "with the reference's other modules", "none": "not graded"}[t.graded_as]
        out.append(f"| {t.name} | {_points(t.score)} | {t.max_score:g} | {passed} of {len(counted)} | {how} |")
    out.append("")
    if grade.reason:
        return "\n".join(out) + "\n"
    for t in grade.types:
        out += [f"## {t.name}: {_points(t.score)} of {t.max_score:g}", ""]
        if t.graded_as == "hybrid":
            out.append(
                "Graded in a copy of the reference implementation holding your module for this type, "
                "because it earned more that way: faults in your other types cost this one nothing."
            )
        if t.other:
            out.append(f"For comparison, {t.other}.")
        if t.note:
            out.append(f"Note: {t.note}.")
        if t.graded_as == "hybrid" or t.other or t.note:
            out.append("")
        if t.operations:
            out += ["| Operation | Points | Out of | Tests passed |", "|---|---:|---:|---:|"]
            for op in t.operations:
                out.append(f"| {op.qualname.split('.', 1)[1]} | {_points(op.score)} | {_points(op.points)} | {op.passed} of {op.counted} |")
            out.append("")
        hidden = [x for x in t.tests if x.hidden and x.outcome in ("passed", "failed")]
        if hidden:
            failed_hidden = sum(1 for x in hidden if x.outcome == "failed")
            out += [f"Hidden tests: {len(hidden)}, of which {failed_hidden} failed.", ""]
        for test in t.tests:
            if test.hidden or test.outcome != "failed":
                continue
            label = {"missing": "missing operation", "not implemented": "not implemented"}.get(test.kind, "failed")
            out += [f"### {label}: `{test.test.split('::', 1)[-1]}`", ""]
            out.append(f"Checks: {', '.join(test.covers)} ({_points(test.max_score)} points)")
            out += ["", _fence(_clip(test.message)), ""]
    return "\n".join(out).rstrip() + "\n"


def gradescope(grade: StudentGrade, rubric: Rubric) -> str:
    """Gradescope's ``results.json``: the score, and one entry per test and type."""
    tests = []
    for t in grade.types:
        if not t.tests:
            tests.append(
                {
                    "name": f"{t.name}",
                    "score": round(t.score, 4),
                    "max_score": round(t.max_score, 4),
                    "status": "passed" if t.score >= t.max_score else "failed",
                    "output": t.note or grade.reason,
                    "visibility": "visible",
                }
            )
            continue
        for test in t.tests:
            visibility = rubric.hidden_visibility if test.hidden else "visible"
            entry = {
                "name": f"{t.name}: {test.test.split('::', 1)[-1]}",
                "score": round(test.score, 4),
                "max_score": round(test.max_score, 4),
                "status": "passed" if test.outcome in ("passed", "skipped") else "failed",
                "output": test.message if test.outcome != "passed" else "",
                "visibility": visibility,
                "tags": sorted(test.covers),
            }
            if t.graded_as == "hybrid":
                entry["tags"].append("hybrid")
            tests.append(entry)
    summary = [f"{t.name}: {_points(t.score)} of {t.max_score:g}" + (" (graded with the reference's other modules)" if t.graded_as == "hybrid" else "") for t in grade.types]
    if grade.reason:
        summary.insert(0, f"The submission could not be graded: {grade.reason}")
    result = {
        "score": round(grade.total, 4),
        "output": "\n".join(summary),
        "visibility": "visible",
        "stdout_visibility": "hidden",
        "tests": tests,
    }
    return json.dumps(result, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


_NOT_XML = re.compile("[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _x(text: str) -> str:
    """Text XML can hold."""
    return _NOT_XML.sub("\ufffd", text)


def junit(grade: StudentGrade) -> str:
    """JUnit XML: a test suite per type, a test case per test (hidden ones included: this file is the instructor's)."""
    root = ET.Element("testsuites", name=f"speckit grade: {grade.name}")
    total = failures = skipped = 0
    for t in grade.types:
        suite = ET.SubElement(root, "testsuite", name=t.name)
        properties = ET.SubElement(suite, "properties")
        for key, value in (("score", _points(t.score)), ("max_score", _points(t.max_score)), ("graded_as", t.graded_as)):
            ET.SubElement(properties, "property", name=key, value=value)
        counts = {"failed": 0, "skipped": 0}
        cases = t.tests or ()
        if not cases:
            case = ET.SubElement(suite, "testcase", classname=t.name, name=t.name)
            if t.score < t.max_score:
                ET.SubElement(case, "failure", message=_x((t.note or grade.reason)[:200])).text = _x(t.note or grade.reason)
                counts["failed"] += 1
        for test in cases:
            case = ET.SubElement(suite, "testcase", classname=t.name, name=_x(test.test))
            if test.hidden:
                ET.SubElement(ET.SubElement(case, "properties"), "property", name="visibility", value="hidden")
            if test.outcome == "failed":
                first = test.message.strip().splitlines()[0] if test.message.strip() else "failed"
                ET.SubElement(case, "failure", message=_x(first[:200]), type=test.kind).text = _x(test.message)
                counts["failed"] += 1
            elif test.outcome == "skipped":
                ET.SubElement(case, "skipped", message=_x(test.message[:200]))
                counts["skipped"] += 1
        n = max(1, len(cases))
        suite.set("tests", str(n))
        suite.set("failures", str(counts["failed"]))
        suite.set("errors", "0")
        suite.set("skipped", str(counts["skipped"]))
        total, failures, skipped = total + n, failures + counts["failed"], skipped + counts["skipped"]
    root.set("tests", str(total))
    root.set("failures", str(failures))
    root.set("errors", "0")
    root.set("skipped", str(skipped))
    ET.indent(root)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


# ----------------------------------------------------------------------------------------
# Entry point
# ----------------------------------------------------------------------------------------


class Progress:
    """A plain-text progress bar on stderr: redrawn in place on a terminal, a line per submission otherwise."""

    def __init__(self, stream: TextIO, total: int):
        self.stream = stream
        self.total = total
        self.tty = stream.isatty()
        self.started = time.monotonic()

    def __call__(self, done: int, total: int, grade: StudentGrade) -> None:
        width = 24
        filled = width * done // max(1, total)
        bar = "#" * filled + "." * (width - filled)
        elapsed = time.monotonic() - self.started
        status = f"{_points(grade.total)}/{grade.max_score:g}" + (f" ({grade.reason[:60]})" if grade.reason else "")
        line = f"[{bar}] {done}/{total} {grade.name}: {status} in {grade.seconds:.1f} s, {elapsed:.0f} s so far"
        if self.tty:
            self.stream.write("\r\x1b[K" + line + ("\n" if done == total else ""))
        else:
            self.stream.write(line + "\n")
        self.stream.flush()


def grade(
    submissions: str | Path,
    out: str | Path = "grades",
    *,
    jobs: int = 2,
    rubric: str | Path | None = None,
    spec_name: str | None = None,
    stream: TextIO | None = None,
) -> list[StudentGrade]:
    """Grade every submission in ``submissions`` and write the output files to ``out``."""
    stream = stream if stream is not None else sys.stderr
    chosen = rubric_module.load(rubric, spec_name)
    folder, target = Path(submissions), Path(out)
    found, skipped_entries = discover(folder, exclude=(target,))
    # The output folder exists before any student code runs, so the sandbox hides it and
    # nothing can be planted in it; only the grader writes there.
    target.mkdir(parents=True, exist_ok=True)
    if os.geteuid() == 0 and target.stat().st_uid == 0:
        os.chmod(target, 0o700)
    grader = Grader(chosen, out=target, submissions=folder, jobs=jobs)
    try:
        isolation = grader.check_sandbox()
        print(f"speckit grade: {len(found)} submission{'' if len(found) == 1 else 's'}, rubric {chosen.source}, {grader.jobs} at a time", file=stream)
        print(f"speckit grade: student code runs as {isolation}", file=stream)
        for note in skipped_entries + grader.skipped:
            print(f"speckit grade: {note}", file=stream)
        grades = grader.grade_all(found, Progress(stream, len(found)))
        write_outputs(target, grades, grader.graded, chosen, grader.skipped)
    finally:
        grader.close()
    print(f"speckit grade: wrote {target}/grades.csv, feedback/, results/ and junit/", file=stream)
    return grades
