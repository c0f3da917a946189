"""The mutation analysis's results, kept beside its register, and its report.

Results are stored module by module (``<register>-results.json``) with a digest of each
reference module's source, so the analysis can be run one module at a time and results of
another version of a module are reported as stale. A type's score is the share of its
mutants killed, those reviewed as equivalent (:class:`~speckit.mutants.Review`) left out.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import attrs

import spec as spec_data

from .mutants import Mutant, Review, mutated_modules, review_path


def results_path(spec_name: str) -> Path:
    """Where the results are kept: beside the register, ``<register>-results.json``."""
    register = review_path(spec_name)
    return register.with_name(f"{register.stem}-results.json")


def module_digest(spec_name: str, module: str) -> str:
    """A digest of a reference module's source: results of another version are reported as stale."""
    return hashlib.sha256(mutated_modules(spec_name)[module].read_bytes()).hexdigest()[:16]


def save_results(spec_name: str, module_results: dict[str, dict], path: Path | None = None) -> Path:
    """Store the results of the modules just run, replacing earlier results of the same modules."""
    path = path or results_path(spec_name)
    stored: dict[str, Any] = (
        json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {"spec": spec_name, "modules": {}}
    )
    for module, results in module_results.items():
        stored["modules"][module] = {"source": module_digest(spec_name, module), "results": results}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(stored, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return path


def load_results(spec_name: str, path: Path | None = None) -> dict:
    path = path or results_path(spec_name)
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {"spec": spec_name, "modules": {}}


@attrs.frozen
class Score:
    """One type's figures."""

    type_name: str
    generated: int
    killed: int
    equivalent: int
    survivors: tuple[dict, ...]
    target: float | None

    @property
    def judged(self) -> int:
        return self.generated - self.equivalent

    @property
    def percent(self) -> float:
        return 100.0 * self.killed / self.judged if self.judged else 100.0

    @property
    def met(self) -> bool:
        return self.target is None or self.percent >= self.target


def scores(spec_name: str, stored: dict, review: Review) -> list[Score]:
    """The figures of each type with results, in the specification's order."""
    specification = spec_data.load(spec_name)
    by_type: dict[str, list[dict]] = {}
    for module, entry in stored["modules"].items():
        by_type.setdefault(specification.type(module).name, []).extend(entry["results"].values())
    found = []
    for t in specification.types:
        results = by_type.get(t.name)
        if results is None:
            continue
        killed = sum(1 for r in results if r["killed"])
        survivors = [r for r in results if not r["killed"]]
        equivalent = [r for r in survivors if review.equivalent(Mutant(**r["mutant"]))]
        live = tuple(r for r in survivors if not review.equivalent(Mutant(**r["mutant"])))
        found.append(Score(t.name, len(results), killed, len(equivalent), live, review.targets.get(t.name)))
    return found


def report(spec_name: str, stored: dict, review: Review) -> str:
    """The report: per type, mutants generated, killed, survived, reviewed equivalent, the score and its target."""
    rows = scores(spec_name, stored, review)
    stale = [m for m, entry in stored["modules"].items() if entry["source"] != module_digest(spec_name, m)]
    lines = [f"Mutation analysis of the {spec_name} reference (Cosmic Ray operators, tests chosen by coverage)", ""]
    header = (
        f"{'type':<18} {'generated':>9} {'killed':>7} {'survived':>8} {'equivalent':>10} {'score':>7} {'target':>7}"
    )
    lines += [header, "-" * len(header)]
    for s in rows:
        target = "" if s.target is None else f"{s.target:.0f} %"
        mark = "" if s.met else "  below target"
        lines.append(
            f"{s.type_name:<18} {s.generated:>9} {s.killed:>7} "
            f"{s.generated - s.killed:>8} {s.equivalent:>10} {s.percent:>6.1f}% {target:>7}{mark}"
        )
    total_generated = sum(s.generated for s in rows)
    total_killed = sum(s.killed for s in rows)
    total_equivalent = sum(s.equivalent for s in rows)
    judged = total_generated - total_equivalent
    lines.append(
        f"{'all':<18} {total_generated:>9} {total_killed:>7} "
        f"{total_generated - total_killed:>8} {total_equivalent:>10} "
        f"{(100.0 * total_killed / judged if judged else 100.0):>6.1f}%"
    )
    survivors = [r for s in rows for r in s.survivors]
    if survivors:
        lines += ["", "Surviving mutants not reviewed as equivalent:"]
        for r in survivors:
            m = r["mutant"]
            lines.append(
                f"  {m['module']}.py line {m['line']} in {m['function']} ({m['operator']}): "
                f"{m['before']}  ->  {m['after']}"
            )
    if stale:
        lines += ["", f"Stale: the reference changed since these modules were run: {', '.join(sorted(stale))}"]
    return "\n".join(lines)


def targets_met(spec_name: str, stored: dict, review: Review) -> bool:
    return all(s.met for s in scores(spec_name, stored, review))
