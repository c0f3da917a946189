"""A GitHub Classroom starter repository: the skeleton, a README for students and an autograding workflow.

The workflow installs the student bundle (its wheel travels in the repository, under
``.speckit/``) and runs ``speckit check --type T`` once per graded type, each worth the
rubric's points for that type, through GitHub Classroom's own autograding actions
(``classroom-resources/autograding-command-grader`` and ``-grading-reporter``).
"""

from __future__ import annotations

import re
import shutil
import tempfile
from pathlib import Path

import spec as spec_data

from .. import registry, rubric as rubric_module
from ..skeleton import write_skeleton
from . import student
from .source import refuse_existing

WORKFLOW = """\
name: Autograding
on: [push, repository_dispatch]
permissions:
  checks: write
  actions: read
  contents: read
jobs:
  autograding:
    runs-on: ubuntu-latest
    timeout-minutes: 30
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-python@v5
        with:
          python-version: "3.11"
      - name: Install the specification's kit
        run: python -m pip install .speckit/*.whl
{steps}
      - name: Autograding reporter
        uses: classroom-resources/autograding-grading-reporter@v1
        env:
{env}
        with:
          runners: {runners}
"""

STEP = """\
      - name: {name}
        id: {id}
        uses: classroom-resources/autograding-command-grader@v1
        with:
          test-name: {name}
          command: speckit check --spec {spec} --type {name} {package}
          timeout: 10
          max-score: {points}
"""

README = """\
# {title}

Implement the specification in the package folder `{package}/`: every module and
operation is already there, each body raising `NotImplementedError` until you write it.
The specification, with every operation's documented behaviour and the errata, is in
the docs that came with this assignment.

## Check your work

    python -m venv .venv && .venv/bin/pip install .speckit/*.whl
    .venv/bin/speckit check --spec {spec} {package}

`speckit check --type {first} {package}` checks one type; `--watch` checks again each
time you save. Every push runs the same checks on GitHub (the Actions tab), one per
type, each worth its points:

{points}
"""


def build(spec_name: str, out: Path) -> Path:
    """Write the starter repository of ``spec_name`` into the new folder ``out``; returns ``out``."""
    out = Path(out)
    refuse_existing(out, "an existing folder")
    specification = spec_data.load(spec_name)
    rubric = rubric_module.load(None, spec_name)
    package = spec_name
    with tempfile.TemporaryDirectory(prefix="speckit-classroom-") as scratch:
        built = student.build(spec_name, Path(scratch) / "bundle", docs=False)
        out.mkdir(parents=True)
        (out / ".speckit").mkdir()
        shutil.copy2(built.wheel, out / ".speckit" / built.wheel.name)
    write_skeleton(specification, out / package)
    graded = [t for t in rubric.types if t.points > 0]
    (out / ".github" / "workflows").mkdir(parents=True)
    (out / ".github" / "workflows" / "classroom.yml").write_text(workflow(spec_name, package, graded), encoding="utf-8")
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


def workflow(spec_name: str, package: str, types: list) -> str:
    """The GitHub Actions workflow: one command grader per type, then the reporter."""
    ids = [re.sub(r"[^a-z0-9]+", "-", t.name.lower()).strip("-") for t in types]
    steps = "".join(STEP.format(name=t.name, id=i, spec=spec_name, package=package, points=_points(t.points)) for t, i in zip(types, ids))
    env = "\n".join(f"          {i.upper().replace('-', '_')}_RESULTS: \"${{{{steps.{i}.outputs.result}}}}\"" for i in ids)
    return WORKFLOW.format(steps=steps.rstrip("\n"), env=env, runners=",".join(ids))


def _points(points: float) -> int:
    """GitHub Classroom's max-score is a whole number of points."""
    return round(points)
