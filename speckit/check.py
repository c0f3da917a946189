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

from .runner import SuiteRun

PASSED, FAILED, MISSING, NOT_IMPLEMENTED, UNTESTED = "passed", "failed", "missing", "not implemented", "untested"
BAD = frozenset({FAILED, MISSING, NOT_IMPLEMENTED})


@attrs.frozen
class OperationStatus:
    qualname: str
    status: str
    tests: int
    explanation: str = ""
    extension: bool = False


def statuses(spec: Specification, run: SuiteRun) -> list[OperationStatus]:
    """The status of every operation (documented ones, then extensions the implementation has)."""
    result = []
    for op in spec.operations(extensions=True):
        if spec.type(op.type_name).supplied:
            continue  # the kit supplies Display and Input; students do not write them
        state = run.presence.get(op.qualname, "present")
        if op.extension and state == "missing":
            continue
        covering = [t for t in run.tests if op.qualname in t["covers"]]
        result.append(_status(op.qualname, op.extension, state, covering))
    return result


def _status(qualname: str, extension: bool, state: str, covering: list[dict]) -> OperationStatus:
    structural = [t for t in covering if t.get("structural")]
    covering = [t for t in covering if not t.get("structural")]
    count = len(covering)
    if state == "missing":
        return OperationStatus(qualname, MISSING, count, f"the implementation has no {qualname}", extension)
    if state == "not implemented":
        return OperationStatus(qualname, NOT_IMPLEMENTED, count, f"{qualname} is not implemented yet (it raises NotImplementedError)", extension)
    for test in structural:
        if test["outcome"] == "failed":
            return OperationStatus(qualname, FAILED, count, f"{test['test']}\n{test['message']}", extension)
    blocked = 0
    for test in covering:
        if test["outcome"] != "failed":
            continue
        own = qualname in test["message"].split("\n", 1)[0]
        if test["kind"] == "not implemented" and own:
            return OperationStatus(qualname, NOT_IMPLEMENTED, count, test["message"], extension)
        if test["kind"] in ("missing", "not implemented") and not own:
            blocked += 1
            continue
        return OperationStatus(qualname, FAILED, count, f"{test['test']}\n{test['message']}", extension)
    ran = [t for t in covering if t["outcome"] == "passed"]
    if not covering:
        return OperationStatus(qualname, UNTESTED, 0, "no test covers it yet", extension)
    if not ran and blocked:
        return OperationStatus(qualname, UNTESTED, count, "its tests need operations that are missing or not implemented", extension)
    return OperationStatus(qualname, PASSED, count, extension=extension)


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
            if row.status in BAD and row.explanation and row.status not in (MISSING, NOT_IMPLEMENTED):
                lines = row.explanation.strip().splitlines()
                shown = lines[:explain_lines] + (["..."] if len(lines) > explain_lines else [])
                out.extend(f"      | {line}" for line in shown)
        out.append("")
    totals = Counter(row.status for row in rows if not row.extension)
    documented = sum(totals.values())
    supplied = [t.name for t in spec.types if t.supplied]
    if supplied:
        out.append(f"Supplied by the kit, not checked: {', '.join(supplied)}.")
    out.append(f"{documented} operations to implement: " + ", ".join(f"{totals[s]} {s}" for s in (PASSED, FAILED, MISSING, NOT_IMPLEMENTED, UNTESTED) if totals[s]))
    return "\n".join(out)


def ok(rows: list[OperationStatus]) -> bool:
    """Whether nothing failed, is missing or is unimplemented."""
    return not any(row.status in BAD or row.status == UNTESTED for row in rows)
