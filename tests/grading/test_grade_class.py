"""Regrading as hybrids only the types a hybrid can win points back for changes no grade (issue 31).

A small class in the class benchmark's mix (correct, faulty, half written, empty, not
importing) is graded twice: regrading every type that lost points as a hybrid (the slower
way, as before) and only those that lost points to another type's failure. The gradebook,
results and JUnit files must hold the same bytes, and the feedback too but for the line
comparing a hybrid that earned no more, which only a hybrid that was run can give.
"""

from __future__ import annotations

import importlib.util
import io
import json

import pytest

from speckit.grading import Grader, grade
from speckit.grading.job import SubmissionJob
from speckit.paths import REPO_ROOT

from .conftest import INDEX_DIMENSION_RUBRIC, grade_files

RUBRIC = (
    INDEX_DIMENSION_RUBRIC.replace(
        'title = "Index and Dimension"', 'title = "Index, Dimension, Colour, Symbol, Location"'
    )
    + """
[types.ColourType]
points = 4
[types.SymbolType]
points = 6
[types.LocationType]
points = 5
"""
)


def _class_builder():
    """``build_class`` of the class benchmark (benchmarks/grade_class.py)."""
    spec = importlib.util.spec_from_file_location("grade_class_benchmark", REPO_ROOT / "benchmarks" / "grade_class.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.build_class


COMPARISON = "For comparison, with the reference's other modules: "
"""The feedback's line on a hybrid that did not earn more: written only when one was run."""


def _without_comparisons(feedback: bytes) -> str:
    """The feedback without the lines on hybrids that earned no more (and the blank lines they leave)."""
    lines = [line for line in feedback.decode().splitlines() if not line.startswith(COMPARISON)]
    return "\n".join(line for i, line in enumerate(lines) if line or (i and lines[i - 1]))


def _record_without_comparisons(record: bytes) -> dict:
    data = json.loads(record)
    for graded in data["types"]:
        graded.pop("other")
    return data


@pytest.mark.slow
def test_regrading_only_what_a_hybrid_can_win_changes_no_grade(tmp_path, monkeypatch):
    kinds = _class_builder()("connect4", tmp_path / "submissions", size=6)
    assert sorted(set(kinds.values())) == ["correct", "empty", "faulty", "half", "unimportable"]
    rubric = tmp_path / "rubric.toml"
    rubric.write_text(RUBRIC)
    calls = []
    hybrid = SubmissionJob.hybrid

    def counted(self, entry, *args):
        calls.append(entry.name)
        return hybrid(self, entry, *args)

    monkeypatch.setattr(SubmissionJob, "hybrid", counted)
    pruned = grade(tmp_path / "submissions", tmp_path / "pruned", jobs=2, rubric=rubric, stream=io.StringIO())
    hybrids_pruned, calls[:] = len(calls), []
    monkeypatch.setattr(Grader, "regrade_all", True)
    every = grade(tmp_path / "submissions", tmp_path / "every", jobs=2, rubric=rubric, stream=io.StringIO())
    assert [g.total for g in pruned] == [g.total for g in every]
    assert any(g.total < g.max_score for g in pruned) and any(g.total == g.max_score for g in pruned)
    first, second = grade_files(tmp_path / "pruned"), grade_files(tmp_path / "every")
    assert sorted(first) == sorted(second)
    for name, data in first.items():
        if name.startswith("feedback/"):
            # A hybrid that is not run has no comparison line: everything else is the same.
            assert _without_comparisons(second[name]) == _without_comparisons(data), (
                f"{name} differs beyond the comparison lines"
            )
        elif name.startswith("records/"):
            # The record keeps the comparison line of each type, as the feedback does.
            assert _record_without_comparisons(second[name]) == _record_without_comparisons(data), (
                f"{name} differs beyond the comparisons"
            )
        else:
            assert second[name] == data, f"{name} differs when every type that lost points is regraded"
    # It saved work: fewer hybrids were run (none for the empty skeleton's types, for one).
    assert hybrids_pruned < len(calls), (hybrids_pruned, calls)


@pytest.mark.slow
def test_the_hybrids_of_a_submission_run_in_one_batch_grade_as_each_run_alone(tmp_path, monkeypatch):
    """A half-written package's filled-in types are regraded as hybrids, several of them, graded in
    one batch (the kit's whole rubric): the same bytes as each hybrid run in a pytest process of its own."""
    kinds = _class_builder()("connect4", tmp_path / "class", size=6)
    submissions = tmp_path / "submissions"
    submissions.mkdir()
    for name in [name for name, kind in kinds.items() if kind == "half"]:
        (tmp_path / "class" / name).rename(submissions / name)
    batches = []
    run_each = Grader.run_each

    def recorded(self, runs, *args):
        batches.append(len(runs))
        return run_each(self, runs, *args)

    monkeypatch.setattr(Grader, "run_each", recorded)
    batched = grade(submissions, tmp_path / "batched", jobs=2, spec_name="connect4", stream=io.StringIO())
    assert batches and min(batches) >= 2, batches  # several hybrids a submission, each batch run as one

    def each_alone(self, runs, slot, budget):
        return [self.run(package, entries, slot, budget) for package, entries in runs]

    monkeypatch.setattr(Grader, "run_each", each_alone)
    alone = grade(submissions, tmp_path / "alone", jobs=2, spec_name="connect4", stream=io.StringIO())
    assert [g.total for g in batched] == [g.total for g in alone]
    assert grade_files(tmp_path / "batched") == grade_files(tmp_path / "alone")
