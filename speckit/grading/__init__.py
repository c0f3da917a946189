"""``speckit grade``: grade a folder of untrusted student submissions against a rubric.

Each entry of the submissions folder (a folder, or a ``.zip`` file) is one student's
submission: a package following the contract, possibly nested one level. Each is graded
on its own, ``--jobs`` at a time, and the output folder receives ``grades.csv``,
``feedback/<student>.md``, ``results/<student>/results.json`` (Gradescope),
``junit/<student>.xml`` and the run's ``grading.log``.

The parts: :mod:`~speckit.grading.intake` (reading submissions safely),
:mod:`~speckit.grading.scoring` (points by the rubric, in exact hundredths),
:mod:`~speckit.grading.grader` (the sandboxed runs and the job slots, a context manager),
:mod:`~speckit.grading.job` (one submission's grading),
:mod:`~speckit.grading.repair` (a package that cannot be run whole),
:mod:`~speckit.grading.hybrid` (a type graded beside the reference's other modules),
:mod:`~speckit.grading.losses` (which types lost points to another type's failure),
:mod:`~speckit.grading.shards` (grading a class in slices and merging them),
:mod:`~speckit.grading.reports` (the grade files), :mod:`~speckit.grading.classrecord`
and :mod:`~speckit.grading.classreport` (the class report, with
:mod:`~speckit.grading.classdata`, :mod:`~speckit.grading.classsections` and
:mod:`~speckit.grading.charts`), :mod:`~speckit.grading.progress` and
:mod:`~speckit.grading.run` (the command). Student code runs only in the operation
server; the threat model is written once, in ``docs/grading.rst``.
"""

from __future__ import annotations

from .grader import Grader
from .intake import GradeError, Unreadable, discover
from .records import GradedAs, OperationGrade, StudentGrade, Submission, TestGrade, TestRecord, TypeGrade
from .run import grade, merge
from .shards import Shard

__all__ = [
    "GradeError",
    "GradedAs",
    "Grader",
    "OperationGrade",
    "Shard",
    "StudentGrade",
    "Submission",
    "TestGrade",
    "TestRecord",
    "TypeGrade",
    "Unreadable",
    "discover",
    "grade",
    "merge",
]
