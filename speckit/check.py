"""``speckit check``: a per-type, per-operation conformance table for one implementation.

Each documented operation gets one status from the tests that cover it:

* **passed** — every covering test that could run passed;
* **failed** — a covering test failed; the first failure's explanation is shown;
* **missing** — the implementation has no such function;
* **not implemented** — the function raises NotImplementedError (a fresh skeleton);
* **untested** — every covering test needed some other operation that is missing or
  not implemented, so this one could not be checked yet.
"""

from __future__ import annotations

from collections import Counter

import attrs

from spec import Specification

from .core import Outcome, Presence, TestRecord
from .runner import SuiteRun

BLOCKING = frozenset({Outcome.MISSING, Outcome.NOT_IMPLEMENTED})
"""Failure kinds that, when another operation's, leave a test unable to check this one."""
ORDER = (Outcome.PASSED, Outcome.FAILED, Outcome.MISSING, Outcome.NOT_IMPLEMENTED, Outcome.UNTESTED)
"""The statuses an operation can have, in the order the totals line gives them."""


@attrs.frozen
class OperationStatus:
    """One row of the table: a documented operation's status and why."""

    qualname: str
    status: Outcome
    tests: int
    """How many behavioural tests cover it."""
    explanation: str = ""
    extension: bool = False


def statuses(spec: Specification, run: SuiteRun) -> list[OperationStatus]:
    """The status of every operation (documented ones, then extensions the implementation has)."""
    result = []
    for op in spec.operations(extensions=True):
        if spec.type(op.type_name).supplied:
            continue  # the kit supplies these types (Display and Input); students do not write them
        presence = run.presence.get(op.qualname, Presence.PRESENT)
        if op.extension and presence is Presence.MISSING:
            continue
        covering = [t for t in run.tests if op.qualname in t.covers]
        result.append(_status(op.qualname, op.extension, presence, covering))
    return result


def _status(qualname: str, extension: bool, presence: Presence, covering: list[TestRecord]) -> OperationStatus:
    def status(outcome: Outcome, explanation: str = "") -> OperationStatus:
        return OperationStatus(qualname, outcome, count, explanation, extension)

    structural = [t for t in covering if t.structural]
    covering = [t for t in covering if not t.structural]
    count = len(covering)
    if presence is Presence.MISSING:
        return status(Outcome.MISSING, f"the implementation has no {qualname}")
    if presence is Presence.NOT_IMPLEMENTED:
        return status(Outcome.NOT_IMPLEMENTED, f"{qualname} is not implemented yet (it raises NotImplementedError)")
    for test in structural:
        if test.outcome is Outcome.FAILED:
            return status(Outcome.FAILED, f"{test.test}\n{test.message}")
    blocked = 0
    for test in covering:
        if test.outcome is not Outcome.FAILED:
            continue
        own = test.operation == qualname
        if own and test.kind is Outcome.NOT_IMPLEMENTED:
            return status(Outcome.NOT_IMPLEMENTED, test.message)
        if not own and test.kind in BLOCKING:
            blocked += 1
            continue
        return status(Outcome.FAILED, f"{test.test}\n{test.message}")
    if not covering:
        return status(Outcome.UNTESTED, "no test covers it yet")
    if blocked and not any(t.outcome is Outcome.PASSED for t in covering):
        return status(Outcome.UNTESTED, "its tests need operations that are missing or not implemented")
    return status(Outcome.PASSED)


def render(spec: Specification, rows: list[OperationStatus], *, origin: str, explain_lines: int = 30) -> str:
    """The table a student reads: one block per type, failures explained under their row."""
    by_type: dict[str, list[OperationStatus]] = {}
    for row in rows:
        by_type.setdefault(row.qualname.split(".")[0], []).append(row)
    width = max(len(row.qualname.split(".")[1]) for row in rows) + 2
    out = [f"Conformance of {origin} to {spec.title}", ""]
    for type_spec in spec.types:
        block = by_type.get(type_spec.name, [])
        if not block:
            continue
        tally = Counter(row.status for row in block)
        out.append(f"{type_spec.name} ({type_spec.module})  " + ", ".join(f"{n} {s}" for s, n in sorted(tally.items())))
        for row in block:
            name = row.qualname.split(".")[1] + (" [extension]" if row.extension else "")
            out.append(f"  {name:<{width + 12}} {row.status:<16} {row.tests} test{'s' if row.tests != 1 else ''}")
            if row.status is Outcome.FAILED and row.explanation:
                lines = row.explanation.strip().splitlines()
                shown = lines[:explain_lines] + (["..."] if len(lines) > explain_lines else [])
                out.extend(f"      | {line}" for line in shown)
        out.append("")
    totals = Counter(row.status for row in rows if not row.extension)
    documented = sum(totals.values())
    supplied = [t.name for t in spec.types if t.supplied]
    if supplied:
        out.append(f"Supplied by the kit, not checked: {', '.join(supplied)}.")
    out.append(f"{documented} operations to implement: " + ", ".join(f"{totals[s]} {s}" for s in ORDER if totals[s]))
    return "\n".join(out)


def ok(rows: list[OperationStatus]) -> bool:
    """Whether nothing failed, is missing or is unimplemented."""
    return all(row.status is Outcome.PASSED for row in rows)
