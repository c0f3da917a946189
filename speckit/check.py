"""``speckit check``: a per-type, per-operation conformance table for one implementation.

Each documented operation gets one status from the tests that cover it:

* **passed** — every covering test that could run passed;
* **failed** — a covering test failed; the first failure's explanation is shown;
* **missing** — the implementation has no such function;
* **not implemented** — the function raises NotImplementedError (a fresh skeleton);
* **blocked by X** — a covering test stopped when another operation, X, failed, so this
  one could not be checked (the failure is X's; this one may well be right);
* **untested** — every covering test needed some other operation that is missing or
  not implemented, or was skipped, or no test of the run covers it: the table says which.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

import attrs

from spec import Specification

from .core import Outcome, Presence, TestRecord
from .runner import SuiteRun

BLOCKING = frozenset({Outcome.MISSING, Outcome.NOT_IMPLEMENTED})
"""Failure kinds that, when another operation's, leave a test unable to check this one."""
ORDER = (Outcome.PASSED, Outcome.FAILED, Outcome.BLOCKED, Outcome.MISSING, Outcome.NOT_IMPLEMENTED, Outcome.UNTESTED)
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
    blocked_by: tuple[str, ...] = ()
    """The other operations whose failures stopped this one's tests (for the blocked and untested)."""


def statuses(spec: Specification, run: SuiteRun, types: Iterable[str] = ()) -> list[OperationStatus]:
    """The status of every operation (documented ones, then extensions the implementation has);
    with ``types`` (names or modules), of those types' operations only."""
    wanted = {spec.type(name).name for name in types}
    result = []
    for op in spec.operations(extensions=True):
        if spec.type(op.type_name).supplied or (wanted and op.type_name not in wanted):
            continue  # the kit supplies these types (Display and Input); students do not write them
        presence = run.presence.get(op.qualname, Presence.PRESENT)
        if op.extension and presence is Presence.MISSING:
            continue
        covering = [t for t in run.tests if op.qualname in t.covers or t.operation == op.qualname]
        problem = run.import_problems.get(spec.type(op.type_name).module, "")
        result.append(_status(op.qualname, op.extension, presence, covering, problem))
    return result


def _status(
    qualname: str, extension: bool, presence: Presence, covering: list[TestRecord], import_problem: str = ""
) -> OperationStatus:
    def status(outcome: Outcome, explanation: str = "", blocked_by: tuple[str, ...] = ()) -> OperationStatus:
        return OperationStatus(qualname, outcome, count, explanation, extension, blocked_by)

    structural = [t for t in covering if t.structural]
    covering = [t for t in covering if not t.structural]
    count = len(covering)
    if presence is Presence.MISSING:
        return status(Outcome.MISSING, import_problem or f"the implementation has no {qualname}")
    if presence is Presence.NOT_IMPLEMENTED:
        return status(Outcome.NOT_IMPLEMENTED, f"{qualname} is not implemented yet (it raises NotImplementedError)")
    for test in structural:
        if test.outcome is Outcome.FAILED:
            return status(Outcome.FAILED, f"{test.test}\n{test.message}")
    needs: dict[str, Outcome] = {}  # the other operations whose failures stopped a test, and how they failed
    for test in covering:
        if test.outcome is not Outcome.FAILED:
            continue
        if test.operation == qualname and test.kind is Outcome.NOT_IMPLEMENTED:
            return status(Outcome.NOT_IMPLEMENTED, test.message)
        if test.operation and test.operation != qualname:
            needs.setdefault(test.operation, test.kind)
            continue
        if not test.operation and test.kind in BLOCKING:
            needs.setdefault("another operation", test.kind)
            continue
        return status(Outcome.FAILED, f"{test.test}\n{test.message}")
    if not covering:
        return status(Outcome.UNTESTED, "no test of this run covers it")
    named = tuple(name for name in needs if name != "another operation")
    failed = tuple(name for name in named if needs[name] not in BLOCKING)
    if failed:
        return status(Outcome.BLOCKED, f"blocked by {', '.join(failed)}: a test of it stopped when that failed", failed)
    if needs and not any(t.outcome is Outcome.PASSED for t in covering):
        causes = ", ".join(f"{name} ({needs[name]})" for name in needs)
        return status(Outcome.UNTESTED, f"untested: every test of it needs {causes} first", named)
    if all(t.outcome is Outcome.SKIPPED for t in covering):
        reasons = sorted({t.message for t in covering if t.message})
        return status(Outcome.UNTESTED, "untested: its tests were skipped" + (f" ({'; '.join(reasons)[:200]})" if reasons else ""))
    return status(Outcome.PASSED)


def render(
    spec: Specification,
    rows: list[OperationStatus],
    *,
    origin: str,
    explain_lines: int = 30,
    import_problems: dict[str, str] | None = None,
) -> str:
    """The table a student reads: one block per type, each module that could not be imported
    named with its reason, failures explained under their row, and why anything is untested."""
    by_type: dict[str, list[OperationStatus]] = {}
    for row in rows:
        by_type.setdefault(row.qualname.split(".")[0], []).append(row)
    if not rows:
        return f"Conformance of {origin} to {spec.title}: no operation to check"
    width = max(len(row.qualname.split(".")[1]) for row in rows) + 2
    out = [f"Conformance of {origin} to {spec.title}", ""]
    problems = import_problems or {}
    for type_spec in spec.types:
        block = by_type.get(type_spec.name, [])
        if not block:
            continue
        tally = Counter(row.status for row in block)
        out.append(f"{type_spec.name} ({type_spec.module})  " + ", ".join(f"{n} {s}" for s, n in sorted(tally.items())))
        problem = problems.get(type_spec.module)
        if problem:
            out.append(f"  ! {problem}")
        for row in block:
            name = row.qualname.split(".")[1] + (" [extension]" if row.extension else "")
            label = f"blocked by {', '.join(o.split('.')[-1] if o.split('.')[0] == type_spec.name else o for o in row.blocked_by)}" if row.status is Outcome.BLOCKED else str(row.status)
            out.append(f"  {name:<{width + 12}} {label:<22} {row.tests} test{'s' if row.tests != 1 else ''}")
            if row.status is Outcome.FAILED and row.explanation:
                lines = row.explanation.strip().splitlines()
                shown = lines[:explain_lines] + (["..."] if len(lines) > explain_lines else [])
                out.extend(f"      | {line}" for line in shown)
            elif row.status is Outcome.UNTESTED and row.explanation:
                out.append(f"      ({row.explanation})")
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
