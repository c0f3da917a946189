"""A GitHub Classroom starter repository: the skeleton, a README for students and an autograding workflow.

The workflow installs the student bundle (its wheel travels in the repository, under
``.speckit/``, with the rubric) and grades the student's package as ``speckit grade``
and the Gradescope autograder do (:mod:`.classroom_grade`: the grading profile, partial
credit per test), then reports the points of each type through GitHub Classroom's
``classroom-resources/autograding-grading-reporter``. A repository hides nothing from
its student, so the starter carries no hidden test and no reference: its grade counts
the visible tests only and has no hybrid to keep a fault in one type from costing
another. Its README tells students so, and that those points are feedback: the grade
is the instructor's ``speckit grade`` of the cloned repositories.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import spec as spec_data

from .. import registry
from .. import rubric as rubric_module
from ..skeleton import write_skeleton
from . import student
from .source import refuse_existing

RUBRIC = ".speckit/rubric.toml"
"""Where the starter holds the rubric its workflow grades with."""

WORKFLOW = """\
name: Autograding
on: [push, repository_dispatch]
permissions:
  checks: write
  actions: read
  contents: read
jobs:
  autograding:
    name: Autograding Tests  # the check run the reporter gives GitHub Classroom the points on
    runs-on: ubuntu-latest
    timeout-minutes: 60
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-python@v5
        with:
          python-version: "3.11"
      - name: Install the sandbox and the specification's kit
        run: |
          sudo apt-get update -qq && sudo apt-get install -y -qq bubblewrap > /dev/null
          python -m pip install .speckit/*.whl
      - name: Grade {package}
        id: speckit
        run: python -m speckit.bundle.classroom_grade --spec {spec} --rubric {rubric} {package} >> "$GITHUB_OUTPUT"
      - name: Autograding reporter
        uses: classroom-resources/autograding-grading-reporter@v1
        env:
          SPECKIT_RESULTS: "${{{{steps.speckit.outputs.result}}}}"
        with:
          runners: speckit
"""

README = """\
# {title}

Implement the specification in the package folder `{package}/`: every module and
operation is already there, each body raising `NotImplementedError` until you write it.
Modules marked as supplied by the kit are complete: do not change them. The
specification, with every operation's documented behaviour, is in the documents your
instructor handed out with this assignment, and each operation's docstring in
`{package}/` repeats what it must do.

## Check your work

    python -m venv .venv && .venv/bin/pip install .speckit/*.whl
    .venv/bin/speckit check --spec {spec} {package}

`speckit check --type {first} {package}` checks one type; `--watch` checks again each
time you save; `speckit check --help` lists the rest.

## Your grade

Every push grades `{package}/` on GitHub (the Actions tab) as your instructor's
`speckit grade` does: each type's points are shared among its operations, and an
operation earns the share of its tests that pass. The types and their points:

{points}

A repository can hide nothing from you, so two things differ from your instructor's
grading: this one counts only the tests you can run yourself (no hidden test), and,
having no reference implementation, it grades each type with your own other types, so
a fault in one type can also cost points in the types that use it. A package that
passes every test gets full marks here and there alike.

The points shown here are feedback. Your grade is your instructor's: they clone every
repository of the assignment and grade `{package}/` as you last pushed it with
`speckit grade`, which adds the hidden tests and grades a type that lost points only
to a fault in another type again beside the reference's other types, so that one fault
costs points only in its own type.
"""


def build(spec_name: str, out: Path, wheel: Path | None = None) -> Path:
    """Write the starter repository of ``spec_name`` into the new folder ``out``; returns ``out``.

    ``wheel`` is the specification's student wheel when one is already built (default: build it).
    """
    out = Path(out)
    refuse_existing(out, "an existing folder")
    specification = spec_data.load(spec_name)
    rubric = rubric_module.load(None, spec_name)
    package = spec_name
    with tempfile.TemporaryDirectory(prefix="speckit-classroom-") as scratch:
        if wheel is None:
            wheel = student.build(spec_name, Path(scratch) / "bundle", docs=False).wheel
        out.mkdir(parents=True)
        (out / ".speckit").mkdir()
        shutil.copy2(wheel, out / ".speckit" / Path(wheel).name)
    shutil.copy2(registry.kit(spec_name).rubric_path, out / RUBRIC)
    write_skeleton(specification, out / package)
    graded = [t for t in rubric.types if t.points > 0]
    (out / ".github" / "workflows").mkdir(parents=True)
    (out / ".github" / "workflows" / "classroom.yml").write_text(workflow(spec_name, package), encoding="utf-8")
    (out / "README.md").write_text(
        README.format(
            title=specification.title,
            package=package,
            spec=spec_name,
            first=graded[0].name if graded else specification.types[0].name,
            points="\n".join(f"- {t.name}: {t.points:g} points" for t in graded),
        ),
        encoding="utf-8",
    )
    (out / ".gitignore").write_text(".venv/\n__pycache__/\n", encoding="utf-8")
    return out


def workflow(spec_name: str, package: str) -> str:
    """The GitHub Actions workflow: install the kit, grade the package, report the points of each type."""
    return WORKFLOW.format(spec=spec_name, package=package, rubric=RUBRIC)
