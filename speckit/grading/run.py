"""``speckit grade``: the output folder made safe, the grader run, the files and the log written."""

from __future__ import annotations

import datetime
import os
import sys
import time
from pathlib import Path
from typing import TextIO

import attrs

from .. import rubric as rubric_module
from ..escape import terminal
from ..registry import kit
from ..rubric import Rubric
from ..sandbox.isolation import EXPOSED, INSTALL, RESOURCE_LIMITS, Isolation
from .classrecord import RecordError, run_facts
from .classreport import REPORT, merge_class_report, write_class_report
from .grader import Grader
from .intake import GradeError, discover
from .progress import Progress
from .records import StudentGrade, Submission
from .reports import LOG, RESULTS, write_outputs
from .shards import Shard, read_shards, rubric_text, write_shard


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or path.is_relative_to(folder)


def check_output(submissions: Path, out: Path, replace: bool) -> Path | None:
    """Refuse an output folder that would lose or mix up work; with ``replace``, where the earlier run goes.

    An earlier run is never deleted: :func:`move_aside` renames it.
    """
    folder, target = submissions.resolve(), out.resolve()
    if _inside(target, folder):
        raise GradeError(
            f"--out {out} is inside the submissions folder {submissions}: "
            "the next run would grade its files as submissions; choose a folder outside it"
        )
    if _inside(folder, target):
        raise GradeError(f"the submissions folder {submissions} is inside --out {out}; choose another output folder")
    return check_earlier_run(out, replace)


def check_earlier_run(out: Path, replace: bool) -> Path | None:
    """Refuse an output folder that holds other files or, without ``replace``, an earlier run;
    with ``replace``, where the earlier run goes."""
    target = out.resolve()
    if not target.exists():
        return None
    if not target.is_dir():
        raise GradeError(f"--out {out} is not a folder")
    present = sorted(p.name for p in target.iterdir())
    if not present:
        return None
    earlier = [name for name in present if name in (*RESULTS, LOG)]
    if not earlier:
        raise GradeError(f"--out {out} is not empty and holds no earlier grading run; choose an empty or new folder")
    aside = _aside(target)
    if not replace:
        raise GradeError(
            f"--out {out} holds an earlier run ({', '.join(earlier)}); "
            f"give --replace to move it aside to {aside.name}, or choose another folder"
        )
    return aside


def _aside(target: Path) -> Path:
    candidate, n = target.with_name(f"{target.name}.previous"), 2
    while candidate.exists() or candidate.is_symlink():
        candidate, n = target.with_name(f"{target.name}.previous-{n}"), n + 1
    return candidate


class GradingLog:
    """The run's log beside the gradebook: limits, sandbox, per-submission time, fallbacks applied."""

    def __init__(self, path: Path):
        self.path = path
        self.started = time.monotonic()
        self.file = open(path, "w", encoding="utf-8")  # noqa: SIM115 -- open while the run lasts: close() closes it

    def write(self, text: str) -> None:
        """One line: control characters (a newline, an escape sequence) in it are written as escapes."""
        self.file.write(terminal(text.rstrip("\n")) + "\n")
        self.file.flush()

    def graded(self, done: int, total: int, grade: StudentGrade) -> None:
        entry = f" (submitted as {grade.original!r})" if grade.original and grade.original != grade.name else ""
        self.write(f"graded {grade.name}{entry}: {grade.total} of {grade.max_score} in {grade.seconds:.1f} s")
        if grade.reason:
            self.write(f"  not readable: {grade.reason}")
        for fallback in grade.fallbacks:
            self.write(f"  fallback: {fallback}")

    def close(self) -> None:
        now = datetime.datetime.now(datetime.UTC)
        self.write(f"finished: {now:%Y-%m-%d %H:%M:%S} UTC, {time.monotonic() - self.started:.1f} s in all")
        self.file.close()


def grade(
    submissions: str | Path,
    out: str | Path = "grades",
    *,
    jobs: int = 2,
    rubric: str | Path | None = None,
    spec_name: str | None = None,
    stream: TextIO | None = None,
    replace: bool = False,
    unconfined: bool = False,
    shard: str | Shard | None = None,
) -> list[StudentGrade]:
    """Grade every submission in ``submissions`` and write the grade files and the log to ``out``.

    ``out`` must be new or empty, or hold an earlier run and ``replace`` be given: the
    earlier run is then moved aside (``DIR.previous``), never deleted. With ``shard``
    (``K/N``), only that slice of the submissions is graded, and ``out`` also receives
    ``shard.json`` for :func:`merge`.

    Where student code could run only as the grader's own user (no bubblewrap, not root),
    grading is refused unless ``unconfined`` is given; then it runs one job at a time.
    """
    stream = stream if stream is not None else sys.stderr
    chosen = rubric_module.load(rubric, spec_name)
    if isinstance(shard, str):
        shard = Shard.parse(shard)
    folder, target = Path(submissions), Path(out)
    found, skipped_entries = discover(folder, exclude=(target,))
    total = len(found)
    if shard is not None:
        found = shard.select(found)
    aside = check_output(folder, target, replace)
    if not kit(chosen.spec).reference and chosen.mode != "submitted":
        _say_no_hybrids(stream)
    with Grader(chosen, out=target, submissions=folder, jobs=jobs) as grader:
        isolation = _confinement(grader, unconfined)
        warning = isolation.warning or ""
        _prepare_output(target, aside, stream)
        log = GradingLog(target / LOG)
        try:
            _log_start(log, chosen, grader, isolation, folder, len(found), aside)
            _announce(stream, log, grader, len(found), total, shard, isolation.mechanism, warning, skipped_entries)
            grades = _grade_all(grader, found, log, stream)
            write_outputs(target, grades, grader.graded, chosen, grader.skipped, warning, isolation.mechanism)
            if shard is not None:
                _write_shard(target, shard, grader, warning, total, grades, isolation.mechanism)
        finally:
            log.close()
    write_class_report(target, grades, run_facts(chosen, grader.isolation, grader.confinement, warning))
    print(
        f"speckit grade: wrote {target}/grades.csv, feedback/, results/, junit/, records/, {REPORT} and {LOG}",
        file=stream,
    )
    return grades


def _say_no_hybrids(stream: TextIO) -> None:
    """Tell the grader that a kit without a reference grades every type as submitted."""
    print(
        "speckit grade: this kit carries no reference implementation (a student bundle): "
        "every type is graded as submitted, "
        "without the hybrids that keep a fault in one type from costing points in another",
        file=stream,
    )


def _grade_all(grader: Grader, found: list[Submission], log: GradingLog, stream: TextIO) -> list[StudentGrade]:
    """Grade the submissions found, logging each grade and showing the progress on ``stream``."""
    progress = Progress(stream, len(found))

    def graded(done: int, total: int, grade: StudentGrade) -> None:
        log.graded(done, total, grade)
        progress(done, total, grade)

    return grader.grade_all(found, graded)


def _write_shard(
    target: Path,
    shard: Shard,
    grader: Grader,
    warning: str,
    total: int,
    grades: list[StudentGrade],
    mechanism: str,
) -> None:
    """Write the shard's ``shard.json`` for :func:`merge`."""
    graded_names = [e.name for e in grader.graded]
    write_shard(
        target,
        shard,
        grader.rubric,
        rubric_text(grader.rubric),
        graded_names,
        grader.skipped,
        warning,
        total,
        grades,
        mechanism,
    )


def _confinement(grader: Grader, unconfined: bool) -> Isolation:
    """The sandbox grading will use; refused when student code would run as the grader's own user,
    unless ``unconfined`` (then one job at a time)."""
    isolation = grader.check_sandbox()
    if isolation.mechanism == RESOURCE_LIMITS:
        if not unconfined:
            raise GradeError(
                f"student code would run unconfined, as your own user: {EXPOSED[RESOURCE_LIMITS]}. "
                f"Install bubblewrap (`{INSTALL}`) or grade as root; to grade anyway, give --unconfined"
            )
        grader.one_job_at_a_time()
    return isolation


def _prepare_output(target: Path, aside: Path | None, stream: TextIO) -> None:
    """Move an earlier run aside and make the output folder, before any student code runs."""
    if aside is not None:
        target.rename(aside)
        print(f"speckit grade: the earlier run in {target} was moved to {aside}", file=stream)
    # The output folder exists before any student code runs, so the sandbox hides it and
    # nothing can be planted in it; only the grader writes there.
    target.mkdir(parents=True, exist_ok=True)
    if os.geteuid() == 0 and target.stat().st_uid == 0:
        os.chmod(target, 0o700)


def _announce(
    stream: TextIO,
    log: GradingLog,
    grader: Grader,
    found: int,
    total: int,
    shard: Shard | None,
    mechanism: str,
    warning: str,
    skipped_entries: list[str],
) -> None:
    """Say what is about to be graded, how, and what was left out, on ``stream`` and in the log."""
    part = f" (shard {shard} of the {total})" if shard is not None else ""
    if shard is not None:
        log.write(f"shard {shard}: {found} of the {total} submissions")
    print(
        f"speckit grade: {found} submission{'' if found == 1 else 's'}{part}, "
        f"rubric {grader.rubric.source}, {grader.jobs} at a time",
        file=stream,
    )
    print(f"speckit grade: student code runs as {grader.confinement} ({mechanism})", file=stream)
    if warning:
        print(f"speckit grade: {warning}", file=stream)
    for note in skipped_entries + grader.skipped:
        print(f"speckit grade: {terminal(note)}", file=stream)
        log.write(f"note: {note}")


def merge(
    shards: list[str | Path], out: str | Path, *, stream: TextIO | None = None, replace: bool = False
) -> list[StudentGrade]:
    """Merge the output folders of ``speckit grade --shard K/N`` (every K of one N) into ``out``:
    the grade files one run over all the submissions writes, and one log holding the shards' logs."""
    stream = stream if stream is not None else sys.stderr
    folders = [Path(s) for s in shards]
    target = Path(out)
    for folder in folders:
        if _inside(target.resolve(), folder.resolve()) or _inside(folder.resolve(), target.resolve()):
            raise GradeError(f"merge: --out {out} and the shard folder {folder} overlap; choose another output folder")
    merged = read_shards(folders)
    aside = check_earlier_run(target, replace)
    if aside is not None:
        target.rename(aside)
        print(f"speckit grade merge: the earlier run in {target} was moved to {aside}", file=stream)
    target.mkdir(parents=True, exist_ok=True)
    write_outputs(target, merged.grades, merged.graded, merged.rubric, merged.skipped, merged.warning, merged.sandbox)
    with open(target / LOG, "w", encoding="utf-8") as log:
        log.write(f"speckit grade merge of {len(folders)} shards: {len(merged.grades)} submissions\n")
        for folder, text in merged.logs:
            log.write(f"\n== shard output {folder.resolve()} ==\n{text}")
    try:
        merge_class_report(folders, target)
    except RecordError as e:
        raise GradeError(f"merge: the class report cannot be built: {e}") from None
    print(
        f"speckit grade merge: wrote {target}/grades.csv, feedback/, results/, junit/, records/, {REPORT} and {LOG} "
        f"for {len(merged.grades)} submissions",
        file=stream,
    )
    return merged.grades


def _log_start(
    log: GradingLog, rubric: Rubric, grader: Grader, isolation: Isolation, folder: Path, count: int, aside: Path | None
) -> None:
    now = datetime.datetime.now(datetime.UTC)
    log.write(f"speckit grade, started {now:%Y-%m-%d %H:%M:%S} UTC")
    log.write(f"submissions: {folder.resolve()} ({count} found)")
    log.write(f"rubric: {rubric.source} (specification {rubric.spec}, mode {rubric.mode}, {grader.jobs} at a time)")
    log.write("limits: " + ", ".join(f"{k} {v:g}" for k, v in attrs.asdict(rubric.limits).items()))
    log.write(
        f"sandbox: {isolation.mechanism} ({'complete' if isolation.complete else 'INCOMPLETE'}): {grader.confinement}"
    )
    if isolation.warning:
        log.write(isolation.warning)
    if aside is not None:
        log.write(f"the earlier run was moved to {aside}")
