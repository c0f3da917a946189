"""Grading rubrics: how many points each type and operation is worth, and which tests are hidden.

A rubric is a TOML file (the kit ships one per specification in ``speckit/rubrics/``)::

    spec = "connect4"
    title = "Connect-4 ADTs"

    [grading]
    mode = "best"          # how a type is graded: "submitted", "hybrid" or "best"
    common = ["test_structure.py"]
    hidden = ["*state_machine*"]
    hidden_visibility = "hidden"

    [limits]
    memory_mb = 1024

    [types.IndexType]      # or [types.index]: the type's name or its module
    points = 4
    tests = ["test_index.py"]            # default: test_<module>.py
    operations = { increment = 2 }       # weights; default 1 (extensions 0)

Scoring, per type: the type's points are shared among its operations by weight, counting
only operations some graded test covers; an operation earns the share of its covering
tests that pass (partial credit by behaviour; skipped tests do not count), in exact
hundredths of a point. Structure tests (marker ``structure``: the operation exists with
its documented parameters) carry no points: they gate, an operation failing one earns
nothing. The graded tests of a type are those of its own test modules (``tests``) and
of the ``common`` modules, each counting for the operations of the type it covers.

``mode``: ``submitted`` grades the package as it is. ``hybrid`` grades each type in a
copy of the reference package holding the student's module for that type (and the
student's helper modules), so a fault in another type cannot cost it anything.
``best`` (the default) grades as submitted and, for a type that lost points, also as a
hybrid, and keeps the better of the two.

``hidden`` lists test-id patterns (``fnmatch``, matched against ids like
``tests/connect4/test_grid.py::test_grid_state_machine``, or a bare module name like
``test_grid.py``); hidden tests count towards the grade but students see only how many
there are and how many failed.
"""

from __future__ import annotations

import fnmatch
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

import attrs

import spec as spec_data

from . import core
from .registry import kit, main_spec
from .sandbox import SandboxConfig

MODES = ("best", "submitted", "hybrid")
VISIBILITIES = ("hidden", "after_published", "visible", "after_due_date")


class RubricError(core.UserError, ValueError):
    """The rubric is malformed; the message names the file and the entry."""


@attrs.frozen
class Limits(core.Limits):
    """What one submission may use: the limits of :class:`speckit.core.Limits` (written once, there),
    and the bounds of reading a submission."""

    max_files: int = 500
    """Files in a submission (zip members or folder entries) at most."""
    max_megabytes: float = 20.0
    """Uncompressed size of a submission's Python files at most."""
    submission_seconds: float = 0.0
    """Time all the runs of one submission may take together (as submitted, again, and its
    hybrids); 0 for twice ``run_seconds``. A submission that used it up is not graded again."""

    def budget(self) -> float:
        """Seconds all the runs of one submission may take together."""
        return self.submission_seconds if self.submission_seconds > 0 else 2 * self.run_seconds


NOT_IN_RUBRIC = frozenset({"call_seconds"})
"""Limits a rubric cannot set: each operation's time limit is its specification's (``[kit] time_limits``)."""


def sandbox_settings(limits: core.Limits) -> dict[str, Any]:
    """The settings of :class:`speckit.sandbox.SandboxConfig` that ``limits`` give."""
    known = attrs.fields_dict(SandboxConfig)
    return {name: getattr(limits, name) for name in attrs.fields_dict(core.Limits) if name in known}


@attrs.frozen
class TypeRubric:
    """The points of one type and the weights of its operations."""

    name: str
    module: str
    points: float
    tests: tuple[str, ...]
    weights: dict[str, float]

    def weight(self, operation: str) -> float:
        return self.weights.get(operation, 0.0)


@attrs.frozen
class Rubric:
    spec: str
    title: str
    mode: str
    common: tuple[str, ...]
    hidden: tuple[str, ...]
    hidden_visibility: str
    types: tuple[TypeRubric, ...]
    limits: Limits
    source: str

    def is_hidden(self, test_id: str) -> bool:
        module = test_id.split("::", 1)[0].rsplit("/", 1)[-1]
        return any(fnmatch.fnmatchcase(test_id, p) or fnmatch.fnmatchcase(module, p) for p in self.hidden)

    @property
    def total(self) -> float:
        return sum(t.points for t in self.types)


def default_path(spec_name: str) -> Path:
    """The rubric a specification declares as its default."""
    return kit(spec_name).rubric_path


def load(path: str | Path | None = None, spec_name: str | None = None) -> Rubric:
    """Read and check a rubric (default: the kit's rubric of ``spec_name``)."""
    if path is None:
        spec_name = spec_name or main_spec()
        path = default_path(spec_name)
        if not path.is_file():
            raise RubricError(
                f"the kit has no rubric for {spec_name!r}: "
                f"grading is the instructor's work (give the rubric with --rubric);"
                " to see how your own package does, run `speckit check`"
            )
    path = Path(path)
    try:
        with path.open("rb") as f:
            data = tomllib.load(f)
    except tomllib.TOMLDecodeError as e:
        raise RubricError(f"{path}: not valid TOML: {e}") from None
    except OSError as e:
        raise RubricError(f"{path}: cannot be read: {e.strerror}") from None
    return parse(data, str(path), spec_name)


def parse(data: dict[str, Any], source: str = "<rubric>", spec_name: str | None = None) -> Rubric:
    def fail(message: str) -> NoReturn:
        raise RubricError(f"{source}: {message}")

    _known(data, {"spec", "title", "grading", "limits", "types"}, "top level", fail)
    name = data.get("spec", spec_name or main_spec())
    if spec_name and name != spec_name:
        fail(f"the rubric is for {name!r}, not {spec_name!r}")
    try:
        specification = spec_data.load(name)
    except Exception as e:  # noqa: BLE001 - a spec that does not load is the rubric's problem here
        fail(f"unknown specification {name!r} ({e})")
    mode, visibility, common, hidden = _grading(data.get("grading", {}), fail)
    limits = _limits(data.get("limits", {}), fail)
    types: list[TypeRubric] = []
    seen: set[str] = set()
    for key, entry in data.get("types", {}).items():
        types.append(_type_rubric(key, entry, specification, name, seen, fail))
    order = {t.name: i for i, t in enumerate(specification.types)}
    types.sort(key=lambda t: order[t.name])
    if not types:
        fail("no [types.*] entries: nothing would be graded")
    return Rubric(
        spec=name,
        title=str(data.get("title", specification.title)),
        mode=mode,
        common=common,
        hidden=hidden,
        hidden_visibility=visibility,
        types=tuple(types),
        limits=limits,
        source=source,
    )


def _grading(
    grading: dict[str, Any], fail: Callable[[str], NoReturn]
) -> tuple[str, str, tuple[str, ...], tuple[str, ...]]:
    """The ``[grading]`` table checked: its mode, hidden tests' visibility, common and hidden test files."""
    _known(grading, {"mode", "common", "hidden", "hidden_visibility"}, "[grading]", fail)
    mode = grading.get("mode", "best")
    if mode not in MODES:
        fail(f"[grading] mode must be one of {', '.join(MODES)} (got {mode!r})")
    visibility = grading.get("hidden_visibility", "hidden")
    if visibility not in VISIBILITIES:
        fail(f"[grading] hidden_visibility must be one of {', '.join(VISIBILITIES)} (got {visibility!r})")
    common = _strings(grading.get("common", []), "[grading] common", fail)
    hidden = _strings(grading.get("hidden", []), "[grading] hidden", fail)
    return mode, visibility, common, hidden


def _limits(limit_data: dict[str, Any], fail: Callable[[str], NoReturn]) -> Limits:
    """The ``[limits]`` table checked: positive numbers for known limits only."""
    # each limit's type, from its default: a whole number of files stays an int
    kinds: dict[str, Callable[[Any], Any]] = {
        f.name: type(f.default) for f in attrs.fields(Limits) if f.name not in NOT_IN_RUBRIC
    }
    _known(limit_data, set(kinds), "[limits]", fail)
    for key, value in limit_data.items():
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
            fail(f"[limits] {key} must be a positive number (got {value!r})")
    return Limits(**{k: kinds[k](v) for k, v in limit_data.items()})


def _type_rubric(
    key: str,
    entry: Any,
    specification: spec_data.Specification,
    name: str,
    seen: set[str],
    fail: Callable[[str], NoReturn],
) -> TypeRubric:
    """One ``[types.KEY]`` table checked against the specification (``seen``: the types given so far)."""
    try:
        type_spec = specification.type(key)
    except KeyError:
        fail(f"[types.{key}]: {name} has no such type (use a type name like IndexType, or its module)")
    if type_spec.name in seen:
        fail(f"[types.{key}]: {type_spec.name} is given twice")
    seen.add(type_spec.name)
    if not isinstance(entry, dict):
        fail(f"[types.{key}] must be a table")
    _known(entry, {"points", "tests", "operations"}, f"[types.{key}]", fail)
    points = entry.get("points", 0)
    if isinstance(points, bool) or not isinstance(points, (int, float)) or points < 0:
        fail(f"[types.{key}] points must be a number, 0 or more (got {points!r})")
    if round(points, 2) != points:
        fail(f"[types.{key}] points are counted in hundredths (got {points!r})")
    tests = _strings(entry.get("tests", [f"test_{type_spec.module}.py"]), f"[types.{key}] tests", fail)
    weights = {op.name: (0.0 if op.extension else 1.0) for op in type_spec.operations}
    for op_name, weight in entry.get("operations", {}).items():
        if op_name not in weights:
            fail(f"[types.{key}] operations: {type_spec.name} has no operation {op_name!r}")
        if isinstance(weight, bool) or not isinstance(weight, (int, float)) or weight < 0:
            fail(f"[types.{key}] operations: the weight of {op_name} must be a number, 0 or more")
        weights[op_name] = float(weight)
    return TypeRubric(type_spec.name, type_spec.module, float(points), tests, weights)


def _known(table: Any, allowed: set[str], where: str, fail: Callable[[str], NoReturn]) -> None:
    if not isinstance(table, dict):
        fail(f"{where} must be a table")
    unknown = sorted(set(table) - allowed)
    if unknown:
        fail(f"{where}: unknown key{'s' if len(unknown) > 1 else ''} {', '.join(unknown)}")


def _strings(value: Any, where: str, fail: Callable[[str], NoReturn]) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        fail(f"{where} must be a list of strings")
    return tuple(value)
