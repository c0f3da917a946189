"""The grader's machine-readable record of each submission: ``records/<student>.json``.

The class report (:mod:`~speckit.grading.classreport`) is built from these files alone,
so ``speckit grade report DIR`` rebuilds it from any output folder, and a class graded in
shards and merged (the shards' records side by side) gives the report a single run gives.

A record holds what the grade files hold (points by type and operation, failures) and
what they leave out: how the run went (the specification's and the rubric's digests, the
sandbox), the errata a failure cites, the limits reached, the import problems, and the
wall time of grading the submission. The time differs from run to run; everything else
is a function of the grade.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

import spec as spec_data

from .. import __version__
from ..core import Outcome, UserError
from ..rubric import Rubric
from .records import GradedAs, StudentGrade, TypeGrade
from .reports import _clip, write_file

RECORDS = "records"
"""The folder of the output folder holding one record per submission."""
FORMAT = 1
"""The records' format; a reader refuses another."""

LIMIT_PHRASES = re.compile(
    r"did not return within|did not finish (?:importing )?within|took more than [0-9.]+ s|"
    r"already took more than|went over the memory limit|printed more than|wrote more than"
)
"""How the kit words a limit reached (a call's, a test's, an import's, a run's, memory, output)."""
IMPORT_PHRASES = re.compile(r"could not be imported|could not be run|syntax error")
"""How the kit words a module or a package that could not be imported."""


def digest(data: bytes) -> str:
    """A short content digest: the first 16 hexadecimal digits of SHA-256."""
    return hashlib.sha256(data).hexdigest()[:16]


def folder_digest(folder: Path) -> str:
    """The digest of a folder's data files (names and bytes, in sorted order)."""
    h = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*.toml") if p.is_file()):
        h.update(path.relative_to(folder).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def run_facts(rubric: Rubric, isolation: Any, confinement: str, warning: str) -> dict[str, Any]:
    """What every record of one run shares: the specification, the rubric, the kit and the sandbox."""
    specification = spec_data.load(rubric.spec)
    try:
        rubric_bytes = Path(rubric.source).read_bytes()
    except OSError:
        rubric_bytes = rubric.source.encode()
    return {
        "spec": rubric.spec,
        "spec_title": specification.title,
        "spec_digest": folder_digest(spec_data.loader.folder(rubric.spec)),
        "kit_version": __version__,
        "rubric_title": rubric.title,
        "rubric_digest": digest(rubric_bytes),
        "mode": rubric.mode,
        "sandbox": getattr(isolation, "mechanism", "") or "",
        "sandbox_complete": bool(getattr(isolation, "complete", False)),
        # Which uid a run took depends on the runs beside it: the record says only that it had its own.
        "confinement": re.sub(r"\buid \d+, gid \d+", "a uid and gid of its own", confinement),
        "warning": warning,
    }


def _errata_cited(text: str, known: dict[str, str]) -> list[str]:
    return sorted({m for m in re.findall(r"\b[A-Z]{1,3}\d{1,3}\b", text) if m in known})


def _lines(texts: list[str], pattern: re.Pattern) -> list[str]:
    """The distinct lines of ``texts`` that match ``pattern``, each cut to 300 characters, in order of
    first appearance."""
    found: list[str] = []
    for text in texts:
        for line in text.splitlines():
            line = line.strip()[:300]
            if pattern.search(line) and line not in found:
                found.append(line)
    return found


def _type_record(t: TypeGrade, errata: dict[str, str], cited: set[str]) -> dict[str, Any]:
    failures = []
    for test in t.tests:
        if test.outcome is not Outcome.FAILED:
            continue
        ids = _errata_cited(test.message, errata)
        cited.update(ids)
        failures.append(
            {
                "test": test.test,
                "covers": list(test.covers),
                "kind": test.record.kind.value,
                "hidden": test.hidden,
                "structural": test.record.structural,
                "points": str(test.max_score),
                "message": _clip(test.message),
                "errata": ids,
            }
        )
    return {
        "name": t.name,
        "score": str(t.score),
        "max": str(t.max_score),
        "graded_as": t.graded_as.value,
        "note": t.note,
        "other": t.other,
        "operations": [
            {
                "qualname": o.qualname,
                "points": str(o.points),
                "score": str(o.score),
                "passed": o.passed,
                "counted": o.counted,
                "gated": o.gated,
            }
            for o in t.operations
        ],
        "failures": failures,
    }


def record(grade: StudentGrade, facts: dict[str, Any]) -> dict[str, Any]:
    """The record of one graded submission."""
    errata = {e.id: e.title for e in spec_data.load(facts["spec"]).errata}
    cited: set[str] = set()
    types = [_type_record(t, errata, cited) for t in grade.types]
    texts = [
        grade.reason,
        *grade.notes,
        *(t.note for t in grade.types),
        *(f["message"] for t in types for f in t["failures"]),
    ]
    return {
        "format": FORMAT,
        "student": grade.name,
        "submission": grade.original or grade.name,
        "run": facts,
        "total": str(grade.total),
        "max": str(grade.max_score),
        "reason": grade.reason,
        "notes": list(grade.notes),
        "fallbacks": list(grade.fallbacks),
        "hybrids": [t.name for t in grade.types if t.graded_as is GradedAs.HYBRID],
        "limits_reached": _lines(texts, LIMIT_PHRASES),
        "import_problems": _lines(texts, IMPORT_PHRASES),
        "errata": {i: errata[i] for i in sorted(cited)},
        "types": types,
        "seconds": round(grade.seconds, 1),
    }


def write_records(out: Path, grades: list[StudentGrade], facts: dict[str, Any]) -> None:
    """Write ``records/<student>.json`` for every grade."""
    folder = out / RECORDS
    folder.mkdir(exist_ok=True)
    for grade in grades:
        write_file(
            folder / f"{grade.name}.json",
            json.dumps(record(grade, facts), indent=1, sort_keys=True, ensure_ascii=False) + "\n",
        )


class RecordError(UserError, ValueError):
    """An output folder holds no records, or a record that cannot be read."""


def read_records(out: Path) -> list[dict[str, Any]]:
    """The records of an output folder, sorted by student; RecordError names what is wrong."""
    folder = out / RECORDS
    if not out.is_dir():
        raise RecordError(f"{out} is not a folder")
    if not folder.is_dir():
        raise RecordError(
            f"{out} holds no {RECORDS}/ folder: "
            "it is not the output folder of a grading run (or of one older than the class report)"
        )
    found = []
    for path in sorted(folder.glob("*.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
            raise RecordError(f"{path}: not a readable record ({e})") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise RecordError(f"{path}: not a record of format {FORMAT}")
        found.append(data)
    if not found:
        raise RecordError(f"{folder} holds no records")
    return sorted(found, key=lambda r: r["student"])
