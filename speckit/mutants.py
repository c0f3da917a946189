"""Mutation analysis: how many small faults of a reference does its suite catch?

The zoo (:mod:`speckit.zoo`) holds the faults someone thought of; mutation analysis
makes them mechanically. Cosmic Ray generates the mutants (its ``init`` records every
place each of its operators applies; its ``mutate_code`` applies one), and this
module runs each one as the zoo runs a mutant: a copy of the reference with one
module mutated, tested in a child pytest run that stops at the first failure and does
not shrink (the ``zoo`` profile). Each mutant is tested only by the tests that cover
the function it changes (the ``covers`` markers, as ``speckit coverage`` lists them);
a private helper, by the tests of every operation of its type.

Mutants no black-box test could tell apart from the reference (a removed cache, a
changed type annotation) are *equivalent*. Annotations are never mutated; the other
equivalent mutants are listed, each with the reason, in the register the specification's
``[kit] mutants`` names (``tests/mutants/<spec>.toml``), which also sets each type's target:
the share of its other mutants the suite must kill. Results are kept beside it
(``tests/mutants/<spec>-results.json``), module by module, so the analysis can be run one
module at a time (:mod:`speckit.mutation_results`).
"""

from __future__ import annotations

import ast
import shutil
import tempfile
import tomllib
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import attrs

import spec as spec_data

from .core import UserError
from .registry import kit
from .runner import run_suite
from .skeleton import reference_copy
from .traceability import covering_tests

BINARY_SWAPS = {
    "Add": ("Sub",),
    "Sub": ("Add",),
    "Mul": ("Add",),
    "Div": ("Mul",),
    "FloorDiv": ("Mul",),
    "Mod": ("FloorDiv",),
    "Pow": ("Mul",),
    "LShift": ("RShift",),
    "RShift": ("LShift",),
    "BitOr": ("BitAnd",),
    "BitAnd": ("BitOr",),
    "BitXor": ("BitOr",),
}
"""The one replacement kept for each binary operator (as mutmut makes): Cosmic Ray makes all eleven,
most of which only repeat what the first shows, at eleven times the cost."""

COMPARISON_SKIPS = {"Is", "IsNot", "In", "NotIn"}
"""Comparisons not put in place of an ordering or an equality (they fail at once, showing nothing)."""

TIME_LIMIT = 600.0
"""Seconds one mutant's test run may take; a mutant that makes the suite hang is killed by it."""


@attrs.frozen
class Mutant:
    """One mutation of one reference module: where it is, what it changes, and which tests judge it."""

    spec: str
    module: str
    function: str
    operator: str
    occurrence: int
    line: int
    before: str
    after: str
    type_name: str
    operation: str  # "Type.operation", or "" for a helper
    callers: tuple = ()  # for a helper: the operations of its module that reach it

    @property
    def key(self) -> str:
        """An identity that survives edits elsewhere in the module (line numbers are left out)."""
        return f"{self.module}.{self.function} | {self.operator} | {self.before} -> {self.after}"


@attrs.frozen
class Equivalent:
    module: str
    function: str
    operator: str
    before: str
    after: str
    reason: str

    def matches(self, mutant: Mutant) -> bool:
        return (self.module, self.function, self.operator, self.before, self.after) == (
            mutant.module,
            mutant.function,
            mutant.operator,
            mutant.before,
            mutant.after,
        )


@attrs.frozen
class Review:
    """The reviewed data of a specification: equivalent mutants and each type's target (a percentage)."""

    equivalents: tuple[Equivalent, ...]
    targets: dict[str, float]

    def equivalent(self, mutant: Mutant) -> Equivalent | None:
        return next((e for e in self.equivalents if e.matches(mutant)), None)


def review_path(spec_name: str) -> Path:
    """The register of reviewed equivalent mutants and targets that ``[kit] mutants`` names; a UserError
    when the specification declares none."""
    path = kit(spec_name).mutants_path
    if path is None:
        raise UserError(
            f"{spec_name}: its spec.toml's [kit] table names no register of mutants "
            f'(mutants = "tests/mutants/{spec_name}.toml")'
        )
    return path


def load_review(spec_name: str) -> Review:
    """The reviewed equivalent mutants and targets of the register (none if the file is missing)."""
    path = review_path(spec_name)
    if not path.is_file():
        return Review((), {})
    try:
        with path.open("rb") as f:
            data = tomllib.load(f)
    except tomllib.TOMLDecodeError as e:
        raise UserError(f"{path}: not valid TOML ({e})") from None
    try:
        equivalents = tuple(Equivalent(**entry) for entry in data.get("equivalent", []))
    except TypeError as e:
        raise UserError(f"{path}: an equivalent mutant is malformed: {e}") from None
    return Review(equivalents, {name: float(v) for name, v in data.get("targets", {}).items()})


# Generating ---------------------------------------------------------------------------------


def mutated_modules(spec_name: str) -> dict[str, Path]:
    """The reference's module of each type the students write (supplied types left out), by module name."""
    specification = spec_data.load(spec_name)
    folder = kit(spec_name).reference_dir
    return {
        t.module: folder / f"{t.module}.py"
        for t in specification.types
        if not t.supplied and (folder / f"{t.module}.py").is_file()
    }


def generate(spec_name: str, modules: Iterable[str] | None = None) -> list[Mutant]:
    """Every mutant of the chosen modules (default: all) that the operator policy keeps."""
    from cosmic_ray.commands.init import init
    from cosmic_ray.work_db import WorkDB, use_db

    specification = spec_data.load(spec_name)
    available = mutated_modules(spec_name)
    chosen = list(available) if modules is None else list(modules)
    unknown = [m for m in chosen if m not in available]
    if unknown:
        raise KeyError(f"{spec_name} has no mutated module {', '.join(unknown)} (known: {', '.join(available)})")
    mutants = []
    with tempfile.TemporaryDirectory(prefix="speckit-mutants-") as scratch:
        for module in chosen:
            path = available[module]
            source = path.read_text(encoding="utf-8")
            places = _places(source)
            with use_db(str(Path(scratch) / f"{module}.sqlite"), WorkDB.Mode.create) as db:
                init([path], db, {})
                items = list(db.work_items)
            for item in items:
                (mutation,) = item.mutations
                if not _kept(mutation.operator_name) or places.in_annotation(mutation.start_pos):
                    continue
                function = places.function_at(mutation.start_pos[0])
                mutated = _mutate(source, mutation.operator_name, mutation.occurrence)
                if mutated is None:
                    continue
                before, after = _changed_lines(source, mutated)
                type_spec = specification.type(module)
                operation = _operation(type_spec, function)
                callers = (
                    ()
                    if operation
                    else tuple(
                        op.qualname
                        for op in type_spec.operations
                        if function.split(".")[0] in places.reached_from(op.name)
                    )
                )
                mutants.append(
                    Mutant(
                        spec_name,
                        module,
                        function,
                        mutation.operator_name,
                        mutation.occurrence,
                        mutation.start_pos[0],
                        before,
                        after,
                        type_spec.name,
                        operation,
                        callers,
                    )
                )
    return mutants


def _kept(operator: str) -> bool:
    name = operator.removeprefix("core/")
    if name.startswith("ReplaceBinaryOperator_"):
        _, source, target = name.split("_")
        return target in BINARY_SWAPS.get(source, ())
    if name.startswith("ReplaceComparisonOperator_"):
        _, source, target = name.split("_")
        return target not in COMPARISON_SKIPS or source in COMPARISON_SKIPS
    return True


def _mutate(source: str, operator: str, occurrence: int) -> str | None:
    from cosmic_ray.mutating import mutate_code
    from cosmic_ray.plugins import get_operator

    return mutate_code(source, get_operator(operator)(), occurrence)


def _changed_lines(source: str, mutated: str) -> tuple[str, str]:
    old, new = source.splitlines(), mutated.splitlines()
    # The mutated source may have more or fewer lines: compared as far as the shorter goes.
    start = next((i for i, (a, b) in enumerate(zip(old, new, strict=False)) if a != b), min(len(old), len(new)))
    end_old, end_new = len(old), len(new)
    while end_old > start and end_new > start and old[end_old - 1] == new[end_new - 1]:
        end_old, end_new = end_old - 1, end_new - 1
    return (
        " / ".join(line.strip() for line in old[start:end_old] if line.strip()),
        " / ".join(line.strip() for line in new[start:end_new] if line.strip()),
    )


def _operation(type_spec, function: str) -> str:
    name = function.rsplit(".", 1)[-1]
    try:
        return type_spec.operation(name).qualname
    except KeyError:
        return ""


class _Places:
    """Which function each line belongs to, and where the annotations are, in one module."""

    def __init__(
        self,
        functions: list[tuple[int, int, str]],
        annotations: list[tuple[tuple[int, int], tuple[int, int]]],
        uses: dict[str, set[str]],
    ):
        self.functions, self.annotations, self.uses = functions, annotations, uses

    def reached_from(self, name: str) -> set[str]:
        """The module's functions and classes that ``name`` uses, directly or through others
        (methods by their own name)."""
        seen, todo = set(), [name]
        while todo:
            for used in self.uses.get(todo.pop(), ()):
                if used not in seen:
                    seen.add(used)
                    todo.append(used)
        return seen

    def function_at(self, line: int) -> str:
        inside = [(start, name) for start, end, name in self.functions if start <= line <= end]
        return max(inside)[1] if inside else "<module>"

    def in_annotation(self, position: tuple[int, int]) -> bool:
        return any(start <= tuple(position) < end for start, end in self.annotations)


def _places(source: str) -> _Places:
    tree = ast.parse(source)
    functions: list[tuple[int, int, str]] = []
    annotations: list[tuple[tuple[int, int], tuple[int, int]]] = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = f"{prefix}{child.name}"
                first = min([child.lineno] + [d.lineno for d in getattr(child, "decorator_list", [])])
                functions.append((first, child.end_lineno or child.lineno, name))
                visit(child, f"{name}.")
            else:
                visit(child, prefix)
            for annotation in _annotations_of(child):
                end = (annotation.end_lineno or annotation.lineno, annotation.end_col_offset or annotation.col_offset)
                annotations.append(((annotation.lineno, annotation.col_offset), end))

    visit(tree, "")
    defined = {name.rsplit(".", 1)[-1] for _, _, name in functions}
    uses: dict[str, set[str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)} | {
                n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)
            }
            uses.setdefault(node.name, set()).update((names & defined) - {node.name})
    return _Places(functions, annotations, uses)


def _annotations_of(node: ast.AST) -> list[ast.expr]:
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        arguments = (
            node.args.posonlyargs
            + node.args.args
            + node.args.kwonlyargs
            + [a for a in (node.args.vararg, node.args.kwarg) if a]
        )
        return [a.annotation for a in arguments if a.annotation] + ([node.returns] if node.returns else [])
    if isinstance(node, ast.AnnAssign):
        return [node.annotation]
    return []


# Running ------------------------------------------------------------------------------------


def tests_for(mutant: Mutant, coverage: dict[str, tuple[str, ...]], specification) -> list[str]:
    """The tests that judge a mutant: those covering its operation; for a helper, those covering the
    operations that reach it (every operation of its type when none does, as for module-level code)."""
    if mutant.operation and coverage.get(mutant.operation):
        return list(coverage[mutant.operation])
    operations = mutant.callers or tuple(op.qualname for op in specification.type(mutant.type_name).operations)
    found: list[str] = []
    for qualname in operations:
        found += [t for t in coverage.get(qualname, ()) if t not in found]
    return found


def run(
    mutants: list[Mutant], *, jobs: int = 2, progress: Callable[[Mutant, dict], None] | None = None
) -> dict[str, dict]:
    """Test every mutant; each result says whether it was killed, and by which test or why."""
    if not mutants:
        return {}
    spec_name = mutants[0].spec
    specification = spec_data.load(spec_name)
    coverage = covering_tests(specification)
    reference = kit(spec_name).reference_dir
    sources = {m: (reference / f"{m}.py").read_text(encoding="utf-8") for m in {m.module for m in mutants}}

    with tempfile.TemporaryDirectory(prefix="speckit-mutants-") as scratch:
        cache = Path(scratch) / "pycache"  # modules compiled once for every mutant

        def one(numbered: tuple[int, Mutant]) -> tuple[str, dict]:
            number, mutant = numbered
            package = reference_copy(spec_name, Path(scratch) / f"mutant_{number}")
            mutated = _mutate(sources[mutant.module], mutant.operator, mutant.occurrence)
            if mutated is None:
                raise UserError(f"{mutant.module}.py changed since its mutants were listed: list them again")
            (package / f"{mutant.module}.py").write_text(mutated, encoding="utf-8")
            tests = tests_for(mutant, coverage, specification)
            outcome = run_suite(
                spec_name,
                package,
                tests=tests,
                profile="zoo",
                extra=("-x",),
                timeout=TIME_LIMIT,
                bytecode_cache=cache,
            )
            shutil.rmtree(package, ignore_errors=True)
            failed = outcome.failed_tests()
            if failed:
                result = {"killed": True, "by": failed[0]["test"]}
            elif outcome.crash:
                result = {"killed": True, "by": f"the run failed: {outcome.crash.splitlines()[0]}"}
            else:
                result = {"killed": False, "by": "", "tests": len(outcome.tests)}
            result |= {"mutant": attrs.asdict(mutant)}
            if progress:
                progress(mutant, result)
            return mutant.key + f" #{mutant.occurrence}", result

        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            return dict(pool.map(one, enumerate(mutants)))
