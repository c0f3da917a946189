"""Hybrids: a type graded in a copy of the reference holding the student's module for it.

Grading a type without cascades (rubric ``mode``): with ``best`` (the default) a type that
lost points is graded again in a *hybrid* package, a copy of the reference shaped as a
student's package (its supplied modules re-export the kit's) holding the student's module
for that type (and the student's helper modules), and the better result counts. With
``hybrid`` the hybrid's result counts; with ``submitted`` a type is graded as a hybrid only
when its own module could not be run. A kit without a reference (a student bundle, as a
Classroom starter grades with) has no hybrid to offer: every type is graded as submitted.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import attrs

from spec import Specification

from ..rubric import TypeRubric
from ..runner import SuiteRun
from ..skeleton import reference_copy
from .losses import hybrid_can_win
from .records import TypeGrade, join_notes, points
from .scoring import summary


def wants_hybrid(
    mode: str,
    entry: TypeRubric,
    grade: TypeGrade,
    run: SuiteRun,
    lost: tuple[str, ...],
    *,
    module_broken: bool,
    every_loss: bool,
) -> bool:
    """Whether ``entry``, graded as submitted in ``run``, is graded again as a hybrid: always when
    its module could not be run or in the ``hybrid`` mode; in the ``best`` mode when it lost points
    a hybrid can win back (:func:`~speckit.grading.losses.hybrid_can_win`, which ``lost`` names),
    or any points with ``every_loss``."""
    if module_broken or mode == "hybrid":
        return True
    if mode != "best" or grade.score >= points(entry.points):
        return False
    # A hybrid holds the same module: it can only win back what another type's failure cost.
    return every_loss or hybrid_can_win(run, grade, lost, entry.module)


def hybrid_source(spec_name: str, specification: Specification, found: Path, module: Path, target: Path) -> set[str]:
    """Write the hybrid's source into ``target``: a copy of the reference shaped as a student's
    package, holding the student's ``module`` and helper modules (those of ``found`` that are not
    the contract's). The names of the student's files in it."""
    contract = {t.module for t in specification.types}
    reference_copy(spec_name, target)
    helpers = {h.name for h in found.glob("*.py") if h.stem not in contract and h.name != "__init__.py"}
    for helper in helpers:
        shutil.copy2(found / helper, target / helper)
    shutil.copy2(module, target / module.name)
    return {module.name, *helpers}


def better_grade(mode: str, submitted: TypeGrade, hybrid: TypeGrade) -> TypeGrade:
    """The grade that counts, as submitted or as a hybrid, with a line on the other way for comparison."""
    # When the package as submitted did not run, the hybrid's tests at least say why the module fails.
    unrun = not submitted.tests and bool(hybrid.tests)
    if mode == "hybrid" or hybrid.score > submitted.score or (unrun and hybrid.score == submitted.score):
        # A package that did not run as submitted has no comparison to offer, only its reason (the note).
        other = summary("as submitted", submitted) if submitted.tests else ""
        return attrs.evolve(
            hybrid, other=other, note=join_notes(hybrid.note, submitted.note if not submitted.tests else "")
        )
    return attrs.evolve(submitted, other=summary("with the reference's other modules", hybrid))
