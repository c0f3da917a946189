"""Grading a class in shards on several machines, and merging their outputs into one run's.

``--shard K/N`` grades every Nth submission from the Kth (their safe names sorted, which
every machine works out alike) and writes, beside its grade files, ``shard.json``: the
grades themselves, the rubric's text and what every shard must agree on. ``merge``
reads the shards' ``shard.json`` and writes the grade files of all of them, the same
bytes one run over all submissions writes, and one log holding the shards' logs.
"""

from __future__ import annotations

import hashlib
import json
import tomllib
from decimal import Decimal
from pathlib import Path
from typing import Any

import attrs

from ..core import Outcome
from ..rubric import Rubric, parse
from .intake import GradeError
from .records import GradedAs, OperationGrade, StudentGrade, Submission, TestGrade, TestRecord, TypeGrade

SHARD_FILE = "shard.json"
FORMAT = 1
"""The version of ``shard.json``'s layout (merge refuses another)."""


@attrs.frozen
class Shard:
    """Which slice of the submissions one run grades: the ``index``-th (from 1) of ``count``."""

    index: int
    count: int

    @classmethod
    def parse(cls, text: str) -> Shard:
        """``K/N`` with 1 <= K <= N, or GradeError naming what is wrong."""
        parts = text.split("/")
        if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
            raise GradeError(f"--shard {text!r}: give K/N, two whole numbers (the Kth of N slices), for example 2/8")
        index, count = (int(p) for p in parts)
        if count < 1 or not 1 <= index <= count:
            raise GradeError(f"--shard {text!r}: K must be between 1 and N (N at least 1)")
        return cls(index, count)

    def select(self, submissions: list[Submission]) -> list[Submission]:
        """Its slice: every ``count``-th submission by safe name, from the ``index``-th."""
        return sorted(submissions, key=lambda s: s.name)[self.index - 1 :: self.count]

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"


def _plain(value: Any) -> Any:
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, (Outcome, GradedAs)):
        return value.value
    return value


def grades_to_json(grades: list[StudentGrade]) -> list[dict]:
    """The grades as JSON-ready data (points as exact decimal strings)."""
    return [attrs.asdict(g, value_serializer=lambda _, __, v: _plain(v)) for g in grades]


def grades_from_json(data: list[dict]) -> list[StudentGrade]:
    """The grades :func:`grades_to_json` wrote, exactly."""

    def test(t: dict) -> TestGrade:
        r = t["record"]
        record = TestRecord(
            r["test"], tuple(r["covers"]), Outcome(r["outcome"]), Outcome(r["kind"]), r["message"], r["structural"]
        )
        return TestGrade(record, tuple(t["covers"]), t["hidden"], Decimal(t["score"]), Decimal(t["max_score"]))

    def kind(t: dict) -> TypeGrade:
        operations = tuple(
            OperationGrade(
                o["qualname"], Decimal(o["points"]), Decimal(o["score"]), o["passed"], o["counted"], o["gated"]
            )
            for o in t["operations"]
        )
        return TypeGrade(
            t["name"],
            Decimal(t["score"]),
            Decimal(t["max_score"]),
            GradedAs(t["graded_as"]),
            tuple(test(x) for x in t["tests"]),
            operations,
            t["note"],
            t["other"],
        )

    return [
        StudentGrade(
            g["name"],
            tuple(kind(t) for t in g["types"]),
            g["reason"],
            tuple(g["notes"]),
            g["original"],
            tuple(g["fallbacks"]),
            g["seconds"],
        )
        for g in data
    ]


def rubric_text(rubric: Rubric) -> str:
    """The rubric's own TOML text, as graded."""
    return Path(rubric.source).read_text(encoding="utf-8")


def write_shard(
    out: Path,
    shard: Shard,
    rubric: Rubric,
    text: str,
    graded: list[str],
    skipped: list[str],
    warning: str,
    total: int,
    grades: list[StudentGrade],
    sandbox: str = "",
) -> None:
    """Write ``shard.json`` into a shard's output folder; ``sandbox``: the confinement its student code ran under."""
    data = {
        "format": FORMAT,
        "shard": [shard.index, shard.count],
        "submissions": total,
        "spec": rubric.spec,
        "rubric": {"source": rubric.source, "text": text, "sha256": hashlib.sha256(text.encode()).hexdigest()},
        "graded": graded,
        "skipped": skipped,
        "warning": warning,
        "sandbox": sandbox,
        "grades": grades_to_json(grades),
    }
    (out / SHARD_FILE).write_text(
        json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8"
    )


@attrs.frozen
class Merged:
    """The shards' grades and what they agreed on, ready to be written as one run's."""

    rubric: Rubric
    graded: list
    skipped: list[str]
    warning: str
    grades: list[StudentGrade]
    logs: list[tuple[Path, str]]
    sandbox: str = ""
    """The confinement the shards' student code ran under (each one named once)."""


def read_shards(folders: list[Path]) -> Merged:
    """Read the shards' outputs; GradeError if one is missing, repeated or graded otherwise."""
    if not folders:
        raise GradeError("merge: give the output folders of the shards to merge")
    found: dict[int, dict] = {}
    logs = []
    for folder in folders:
        path = folder / SHARD_FILE
        if not path.is_file():
            raise GradeError(f"merge: {folder} holds no {SHARD_FILE}: not the output of speckit grade --shard")
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as e:
            raise GradeError(f"merge: {path} cannot be read ({e})") from None
        if data.get("format") != FORMAT:
            raise GradeError(
                f"merge: {path} was written by another version of speckit "
                f"(format {data.get('format')!r}, expected {FORMAT})"
            )
        index, count = data["shard"]
        if index in found:
            raise GradeError(f"merge: shard {index}/{count} given twice ({folder})")
        first = next(iter(found.values()), data)
        for key, what in (("spec", "specification"), ("submissions", "number of submissions")):
            if data[key] != first[key]:
                raise GradeError(f"merge: {folder} graded another {what} ({data[key]!r}, not {first[key]!r})")
        if data["shard"][1] != first["shard"][1]:
            raise GradeError(f"merge: {folder} is a shard of {count}, the others of {first['shard'][1]}")
        if data["rubric"]["sha256"] != first["rubric"]["sha256"]:
            raise GradeError(f"merge: {folder} was graded with another rubric ({data['rubric']['source']})")
        found[index] = data
        log = folder / "grading.log"
        logs.append((folder, log.read_text(encoding="utf-8") if log.is_file() else ""))
    count = next(iter(found.values()))["shard"][1]
    missing = sorted(set(range(1, count + 1)) - set(found))
    if missing:
        named = ", ".join(f"{k}/{count}" for k in missing)
        raise GradeError(
            f"merge: shard{'s' if len(missing) > 1 else ''} {named} missing: every shard's output is needed"
        )
    first = found[min(found)]
    rubric = parse(tomllib.loads(first["rubric"]["text"]), first["rubric"]["source"], first["spec"])
    graded = [e for e in rubric.types if e.name in first["graded"]]
    warnings = sorted({d["warning"] for d in found.values() if d["warning"]})
    grades = sorted((g for d in found.values() for g in grades_from_json(d["grades"])), key=lambda g: g.name)
    sandboxes = sorted({d.get("sandbox", "") for d in found.values()} - {""})
    return Merged(rubric, graded, first["skipped"], "; ".join(warnings), grades, logs, ", ".join(sandboxes))
