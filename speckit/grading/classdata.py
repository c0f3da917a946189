"""The class as the class report sees it: the records of a run, by student, type and operation.

Read from the output folder's records (:mod:`~speckit.grading.classrecord`) alone: types and
operations in the specification's order, each student's pass rate on each operation, the share
of the class that lost points on it, and the summary statistics the report's tables give.
"""

from __future__ import annotations

import statistics
from decimal import Decimal
from typing import Any


def _quartiles(values: list[float]) -> tuple[float, float, float]:
    if len(values) < 2:
        v = values[0] if values else 0.0
        return v, v, v
    q1, q2, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return q1, q2, q3


def summary(values: list[float]) -> dict[str, float]:
    """Mean, median, quartiles, lowest and highest (0 for no values)."""
    if not values:
        return {"mean": 0.0, "median": 0.0, "first quartile": 0.0, "third quartile": 0.0, "lowest": 0.0, "highest": 0.0}
    q1, median, q3 = _quartiles(values)
    return {
        "mean": statistics.fmean(values),
        "median": median,
        "first quartile": q1,
        "third quartile": q3,
        "lowest": min(values),
        "highest": max(values),
    }


class ClassData:
    """The class as the report sees it: students, types and operations in the specification's order."""

    def __init__(self, records: list[dict[str, Any]]):
        self.records = records
        self.by_student = {r["student"]: r for r in records}
        self.type_names: list[str] = []
        self.type_max: dict[str, float] = {}
        self.operations: list[tuple[str, str]] = []
        """(type, qualname) in the order the records give them (the specification's)."""
        for r in records:
            for t in r["types"]:
                if t["name"] not in self.type_max:
                    self.type_names.append(t["name"])
                    self.type_max[t["name"]] = float(t["max"])
        seen = set()
        for type_name in self.type_names:
            for r in records:
                for t in r["types"]:
                    if t["name"] != type_name:
                        continue
                    for op in t["operations"]:
                        if op["qualname"] not in seen:
                            seen.add(op["qualname"])
                            self.operations.append((type_name, op["qualname"]))
        self._rate_cache: dict[str, dict[tuple[str, str], float | None]] = {}
        self.order = sorted(records, key=lambda r: (-Decimal(r["total"]), r["student"]))
        """Students with the highest total first (then by name)."""

    def maximum(self) -> float:
        return max((float(r["max"]) for r in self.records), default=0.0)

    def pass_rate(self, record: dict[str, Any], type_name: str, qualname: str) -> float | None:
        """The share of the operation's points the student earned; None where it was not graded
        (0 when the whole type went ungraded and earned less than its maximum)."""
        return self._rates(record).get((type_name, qualname), self._ungraded(record, type_name))

    def lost(self, type_name: str, qualname: str) -> float:
        """The fraction of the class that lost points on the operation (ungraded in a type that lost
        points counts as lost)."""
        if not self.records:
            return 0.0
        count = 0
        for r in self.records:
            rate = self.pass_rate(r, type_name, qualname)
            if (rate is not None and rate < 1) or (rate is None and type_name in self._lost_types(r)):
                count += 1
        return count / len(self.records)

    def _rates(self, record: dict[str, Any]) -> dict[tuple[str, str], float | None]:
        key = record["student"]
        if key not in self._rate_cache:
            self._rate_cache[key] = {
                (t["name"], op["qualname"]): (
                    float(Decimal(op["score"]) / Decimal(op["points"])) if Decimal(op["points"]) else None
                )
                for t in record["types"]
                for op in t["operations"]
            }
        return self._rate_cache[key]

    @staticmethod
    def _lost_types(record: dict[str, Any]) -> set[str]:
        return {t["name"] for t in record["types"] if Decimal(t["score"]) < Decimal(t["max"])}

    def _ungraded(self, record: dict[str, Any], type_name: str) -> float | None:
        """A type graded without operations (the submission or its run failed) earned nothing of them."""
        for t in record["types"]:
            if t["name"] == type_name and not t["operations"] and type_name in self._lost_types(record):
                return 0.0
        return None
