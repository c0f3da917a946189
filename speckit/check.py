"""``speckit check``: a per-type, per-operation conformance table for one implementation.

Each documented operation gets one status from the tests that cover it:

* **passed** — every covering test that could run passed;
* **failed** — a covering test failed; the first failure's explanation is shown;
* **missing** — the implementation has no such function;
* **not implemented** — the function raises NotImplementedError (a fresh skeleton);
* **suspect** — a covering test failed, but it cannot tell which of the operations it called
  broke, and nothing else does: this one is among those it names, with the calls;
* **blocked by X** — a covering test stopped when another operation, X, failed, so this
  one could not be checked (the failure is X's; this one may well be right);
* **untested** — every covering test needed some other operation that is missing or
  not implemented, or was skipped, or no test of the run covers it: the table says which.

Which operation a failed test blames is decided over the whole run (:func:`diagnose`): a test
that cannot tell which of the operations it called broke (a frame-rule test calls the update
and every observer) is explained by the operation that the fewest failures cannot do without.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable

import attrs

from spec import Specification

from .core import Outcome, Presence, TestRecord
from .runner import SuiteRun

BLOCKING = frozenset({Outcome.MISSING, Outcome.NOT_IMPLEMENTED})
"""Failure kinds that, when another operation's, leave a test unable to check this one."""
ORDER = (
    Outcome.PASSED,
    Outcome.FAILED,
    Outcome.SUSPECT,
    Outcome.BLOCKED,
    Outcome.MISSING,
    Outcome.NOT_IMPLEMENTED,
    Outcome.UNTESTED,
)
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


@attrs.frozen
class Diagnosis:
    """Which operations the failed tests of a run blame, all of them weighed together."""

    failed: dict[str, TestRecord]
    """The operations found to have failed, each with the failure that shows it best."""
    suspects: dict[str, tuple[tuple[str, ...], TestRecord]]
    """Operations that one of several broke, with the others and a failure they share."""
    causes: dict[str, tuple[str, ...]]
    """For each failed test (its node id), the failed or suspect operations it called: what it is blocked by."""


def diagnose(tests: Iterable[TestRecord], calls: dict[str, tuple[str, ...]] | None = None) -> Diagnosis:
    """Weigh every conformance failure of a run together.

    Each failed test could have been broken by any operation its failing example called.
    Operations are chosen one at a time until every failure is explained: first the one the
    most unexplained failures called, then the one the failed checks name most (a check
    naming one operation among few counts more), then the one most of them cover. A choice
    some check names, or the only one left, has *failed*; a tie that nothing tells apart makes
    every tied operation a *suspect*.

    ``calls`` gives, for an operation, the operations the specification documents it calls:
    those are suspects too wherever it was called (the trace sees only the test's own calls).
    """
    calls = calls or {}
    conflicts = []
    for test in tests:
        if test.outcome is not Outcome.FAILED or test.kind is not Outcome.FAILED or test.structural:
            continue
        called = set(test.suspects) | ({test.operation} if test.operation else set())
        conflicts.append((test, _with_callees(called, calls) or set(test.covers)))
    weight: dict[str, float] = {}
    covered: dict[str, int] = {}
    for test, called in conflicts:
        if test.operation:
            weight[test.operation] = weight.get(test.operation, 0.0) + 1 / len(called)
        for name in test.covers:
            covered[name] = covered.get(name, 0) + 1
    failed: dict[str, TestRecord] = {}
    suspects: dict[str, tuple[tuple[str, ...], TestRecord]] = {}
    causes: dict[str, tuple[str, ...]] = {}
    unexplained = list(conflicts)
    while unexplained:
        hits: dict[str, int] = {}
        for _, called in unexplained:
            for name in called:
                hits[name] = hits.get(name, 0) + 1
        score = {name: (n, round(weight.get(name, 0.0), 9), covered.get(name, 0)) for name, n in hits.items()}
        best = max(score.values())
        chosen = sorted(name for name, s in score.items() if s == best)
        explained = [(test, called) for test, called in unexplained if called & set(chosen)]
        if len(chosen) == 1 and (best[1] > 0 or best[2] > 0):
            name = chosen[0]
            failed[name] = _clearest(
                [test for test, called in explained if test.operation == name] or [t for t, _ in explained]
            )
        else:
            shared = _clearest([test for test, _ in explained])
            for name in chosen:
                suspects[name] = (tuple(n for n in chosen if n != name), shared)
        for test, called in explained:
            causes[test.test] = tuple(sorted(called & (set(failed) | set(suspects))))
        unexplained = [(test, called) for test, called in unexplained if not called & set(chosen)]
    return Diagnosis(failed, suspects, causes)


def _with_callees(called: set[str], calls: dict[str, tuple[str, ...]]) -> set[str]:
    """``called`` with every operation they are documented to call, and so on."""
    found, todo = set(called), list(called)
    while todo:
        for callee in calls.get(todo.pop(), ()):
            if callee not in found:
                found.add(callee)
                todo.append(callee)
    return found


def _clearest(tests: list[TestRecord]) -> TestRecord:
    """The failure that shows a fault best: a check of what the specification requires rather than
    an operation that raised (perhaps on a value another call got wrong), calling the fewest operations."""
    return min(
        tests,
        key=lambda test: ("The specification requires" not in test.message, len(test.suspects) or 1000, test.test),
    )


def statuses(
    spec: Specification, run: SuiteRun, types: Iterable[str] = (), *, supplied: bool = False
) -> list[OperationStatus]:
    """The status of every operation (documented ones, then extensions the implementation has);
    with ``types`` (names or modules), of those types' operations only; with ``supplied``, of the
    types the kit supplies too."""
    wanted = {spec.type(name).name for name in types}
    diagnosis = diagnose(run.tests, {op.qualname: op.calls for op in spec.operations(extensions=True) if op.calls})
    result = []
    for op in spec.operations(extensions=True):
        if (spec.type(op.type_name).supplied and not supplied) or (wanted and op.type_name not in wanted):
            continue  # the kit supplies these types (Display and Input); students do not write them
        presence = run.presence.get(op.qualname, Presence.PRESENT)
        if op.extension and presence is Presence.MISSING:
            continue
        covering = [t for t in run.tests if op.qualname in t.covers or t.operation == op.qualname]
        problem = run.import_problems.get(spec.type(op.type_name).module, "")
        result.append(_status(op.qualname, op.extension, presence, covering, problem, diagnosis))
    return result


def _status(
    qualname: str,
    extension: bool,
    presence: Presence,
    covering: list[TestRecord],
    import_problem: str = "",
    diagnosis: Diagnosis | None = None,
) -> OperationStatus:
    def status(outcome: Outcome, explanation: str = "", blocked_by: tuple[str, ...] = ()) -> OperationStatus:
        return OperationStatus(qualname, outcome, count, explanation, extension, blocked_by)

    diagnosis = diagnosis or diagnose(covering)

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
        if test.kind in BLOCKING:
            needs.setdefault(
                test.operation if test.operation and test.operation != qualname else "another operation", test.kind
            )
            continue
        if qualname in diagnosis.failed:
            shown = diagnosis.failed[qualname]
            return status(Outcome.FAILED, f"{shown.test}\n{shown.message}")
        if qualname in diagnosis.suspects:
            others, shown = diagnosis.suspects[qualname]
            return status(
                Outcome.SUSPECT,
                f"{shown.test}\nIt cannot tell which of these broke: "
                f"{', '.join((qualname, *others))}.\n{shown.message}",
                others,
            )
        for cause in diagnosis.causes.get(test.test, ()):
            if cause != qualname:
                needs.setdefault(cause, Outcome.FAILED)
    return _without_own_failure(covering, needs, status)


def _without_own_failure(
    covering: list[TestRecord],
    needs: dict[str, Outcome],
    status: Callable[..., OperationStatus],
) -> OperationStatus:
    """The status of an operation none of whose tests failed by its own fault: blocked, untested or passed."""
    if not covering:
        return status(Outcome.UNTESTED, "no test of this run covers it")
    named = tuple(name for name in needs if name != "another operation")
    failed = tuple(name for name in named if needs[name] not in BLOCKING)
    if failed:
        return status(Outcome.BLOCKED, f"blocked by {', '.join(failed)}: a test of it failed because that did", failed)
    if needs and not any(t.outcome is Outcome.PASSED for t in covering):
        causes = ", ".join(f"{name} ({needs[name]})" for name in needs)
        return status(Outcome.UNTESTED, f"untested: every test of it needs {causes} first", named)
    if all(t.outcome is Outcome.SKIPPED for t in covering):
        reasons = sorted({t.message for t in covering if t.message})
        return status(
            Outcome.UNTESTED, "untested: its tests were skipped" + (f" ({'; '.join(reasons)[:200]})" if reasons else "")
        )
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
            blockers = (o.split(".")[-1] if o.split(".")[0] == type_spec.name else o for o in row.blocked_by)
            label = f"blocked by {', '.join(blockers)}" if row.status is Outcome.BLOCKED else str(row.status)
            out.append(f"  {name:<{width + 12}} {label:<22} {row.tests} test{'s' if row.tests != 1 else ''}")
            if row.status in (Outcome.FAILED, Outcome.SUSPECT) and row.explanation:
                out.extend(f"      | {line}" for line in clipped(row.explanation, explain_lines))
            elif row.status is Outcome.UNTESTED and row.explanation:
                out.append(f"      ({row.explanation})")
        out.append("")
    totals = Counter(row.status for row in rows if not row.extension)
    documented = sum(totals.values())
    supplied = [t.name for t in spec.types if t.supplied]
    if supplied:
        out.append(f"Supplied by the kit, not checked: {', '.join(supplied)}.")
        out.extend(f"  ! {problem}" for problem in _supplied_problems(spec, problems))
    out.append(f"{documented} operations to implement: " + ", ".join(f"{totals[s]} {s}" for s in ORDER if totals[s]))
    return "\n".join(out)


VERDICT = ("The last call returned", "The call returned", "The specification requires")
"""How the lines of a failure's explanation that say what was wrong begin (see :func:`speckit.testing.explain`)."""


def clipped(explanation: str, lines: int) -> list[str]:
    """At most about ``lines`` lines of a failure's explanation: when it is longer, calls are left
    out from the middle of the trace, never what the specification requires."""
    rows = explanation.strip().splitlines()
    if len(rows) <= lines:
        return rows
    verdict = next((i for i, row in enumerate(rows) if row.startswith(VERDICT)), None)
    if verdict is None:
        return rows[:lines] + ["..."]
    tail = rows[verdict:]
    room = max(lines - len(tail) - 1, 3)
    head = rows[: (room + 1) // 2]
    before = rows[len(head) : verdict][-(room // 2) :] if room // 2 else []
    left = verdict - len(head) - len(before)
    return head + ([f"  ... {left} more lines of calls ..."] if left else []) + before + tail


def _supplied_problems(spec: Specification, problems: dict[str, str]) -> list[str]:
    """Why the package's copy of a supplied module cannot be imported, once per module: the
    supplied types have no block of their own, so the broken file is named here."""
    found = []
    for type_spec in spec.types:
        if not type_spec.supplied:
            continue
        file = f"{type_spec.module}.py"
        own = problems.get(type_spec.module)
        if own:
            found.append(own)
            continue
        named = next(
            (p.split(": ", 1)[1] for p in problems.values() if f": {file} has " in p or f": {file} could not" in p), ""
        )
        if named:
            found.append(
                f"{file} ({type_spec.name}) is the kit's, but your copy of it cannot be imported: {named} "
                "(keep the file as the skeleton wrote it)"
            )
    return found


def ok(rows: list[OperationStatus]) -> bool:
    """Whether nothing failed, is missing or is unimplemented."""
    return all(row.status is Outcome.PASSED for row in rows)
