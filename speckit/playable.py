"""``--impl PATH`` for the kit's games: a student's package, checked before anyone plays on it.

Every program that plays a specification's game (``connect4``, ``boardadt-connect``,
``freecell``, ...) can play on a student's package instead of the reference. It loads
the package with :func:`load_for_play`, which refuses it, naming the first operation
that fails, unless

1. the folder exists and holds Python modules;
2. every documented operation of the types the program uses, and of the types those
   use, is present and implemented (read from the source, at once);
3. the conformance suite's tests of those types pass (run as ``speckit check --type``
   runs them, in a child process, so a crash or an endless loop cannot take the
   program down).

So a game never stops halfway with a traceback from an operation not written yet. A
package that passed is remembered by the content of its files (in the user's cache
folder), and its next game starts at once.

A student bundle ships the programs its specification's ``[kit] student_scripts``
declares, with no reference: run without ``--impl`` they say so (:func:`needs_a_package`),
and a program reaches the reference only through :func:`reference_module`.
"""

from __future__ import annotations

import hashlib
import importlib
import os
import sys
from collections.abc import Iterable
from pathlib import Path
from types import ModuleType

import spec as spec_data

from . import __version__
from .core import ImplementationError, Outcome, Presence, SuiteFailure
from .impl import Implementation, load, package_directory

REFUSED_LINES = 24
"""Lines of a failing operation's explanation shown when a package is refused."""


class Refused(SystemExit):
    """A package the program will not play on; the message says why. Exit status 1."""

    def __init__(self, message: str) -> None:
        super().__init__(message)


def load_for_play(
    path: str | os.PathLike[str], spec_name: str, *, program: str, types: Iterable[str] = ()
) -> Implementation:
    """The package at ``path``, loaded, once it passes the check of the types ``program`` uses.

    ``types`` are type names or modules (default: every type students write). Raises
    :class:`Refused` (a :class:`SystemExit`) with a message that starts ``program: cannot play on PATH:``.
    """
    specification = spec_data.load(spec_name)
    where = f"{program}: cannot play on {path}"
    try:
        folder = package_directory(path)
        implementation = load(folder, specification)
    except ImplementationError as e:
        raise Refused(f"{program}: cannot play on {e}") from None
    needed = needed_types(specification, types)
    problem = first_absent(implementation, needed)
    if problem:
        raise Refused(f"{where}: {problem}\n{_advice(specification, folder)}")
    digest = _digest(folder, spec_name, needed)
    if not _remembered(digest):
        problem = first_failing(spec_name, folder, needed, program)
        if problem:
            raise Refused(f"{where}: {problem}\n{_advice(specification, folder)}")
        _remember(digest)
    return implementation


def needs_a_package(program: str) -> Refused:
    """The refusal of a program run without ``--impl`` in a kit that holds no reference (a student bundle)."""
    return Refused(
        f"{program}: give your package with --impl PATH (for instance: {program} --impl mypkg); "
        "this kit has no reference implementation to play on"
    )


def reference_module(spec_name: str, module: str, *, program: str) -> ModuleType:
    """The module ``module`` of the specification's reference; :func:`needs_a_package` where the kit has none."""
    reference = spec_data.load(spec_name).kit.reference
    if not reference:
        raise needs_a_package(program)
    return importlib.import_module(f"{reference}.{module}")


def needed_types(specification, types: Iterable[str]) -> list[str]:
    """The named types (all those students write, if none) and every type they use, in specification order."""
    wanted = [specification.type(name).name for name in types] or [t.name for t in specification.types]
    closure, queue = set(), list(wanted)
    while queue:
        name = queue.pop()
        if name not in closure:
            closure.add(name)
            queue += specification.uses(name)
    return [t.name for t in specification.types if t.name in closure and not t.supplied]


def first_absent(implementation: Implementation, types: list[str]) -> str:
    """Why the first documented operation of ``types`` that is missing or not written yet cannot run; "" if none."""
    specification = implementation.spec
    for type_name in types:
        type_spec = specification.type(type_name)
        try:
            implementation.module(type_spec.module)
        except SuiteFailure as e:
            return f"{type_name}: {e}"
        for op in type_spec.documented:
            state = implementation.state(op.qualname)
            if state is Presence.MISSING:
                return f"{op.qualname} is missing (the package has no {op.python_form(type_spec.class_name)})"
            if state is Presence.NOT_IMPLEMENTED:
                return f"{op.qualname} is not implemented yet (it raises NotImplementedError)"
    return ""


def first_failing(spec_name: str, folder: Path, types: list[str], program: str) -> str:
    """The first operation of ``types`` whose conformance tests fail, with why; "" when they all pass."""
    from .check import statuses
    from .runner import run_suite, user_bytecode_cache
    from .traceability import selected_tests

    specification = spec_data.load(spec_name)
    tests = selected_tests(specification, types)
    if not tests:
        return ""
    print(f"{program}: checking {folder} against {specification.title} before playing ...", file=sys.stderr, flush=True)
    progress = CheckProgress(specification, types, program)
    # -x: the first failing test is enough to refuse, and a broken package is refused sooner.
    run = run_suite(
        spec_name,
        folder,
        tests=tests,
        profile="check",
        extra=("-x",),
        own_temporary_folder=True,
        bytecode_cache=user_bytecode_cache(),
        progress=progress,
    )
    progress.close()
    if run.crash:
        return f"its conformance tests could not run: {run.crash}"
    rows = statuses(specification, run, types)
    for wanted in (Outcome.FAILED, Outcome.MISSING, Outcome.NOT_IMPLEMENTED, Outcome.BLOCKED):
        for row in rows:
            if row.status is wanted and not row.extension:
                lines = row.explanation.strip().splitlines()
                shown = "".join(f"\n  | {line}" for line in lines[:REFUSED_LINES]) + (
                    "\n  | ..." if len(lines) > REFUSED_LINES else ""
                )
                return f"{row.qualname} {row.status.value}{shown}"
    return ""


class CheckProgress:
    """Says which type the check has reached, "IndexType (1 of 9 types, 12 of 340 tests)": one line each on a
    terminal, rewritten in place; elsewhere a line for each type the samples of progress reach (a log keeps
    them all)."""

    def __init__(self, specification, types: list[str], program: str, stream=None) -> None:
        self.stream = stream or sys.stderr
        self.program = program
        self.types = types
        self.by_module = {specification.type(name).module: name for name in types}
        self.shown: set[str] = set()
        self.terminal = getattr(self.stream, "isatty", lambda: False)()

    def __call__(self, done: int, collected: int, latest: str) -> None:
        module = Path(latest.split("::")[0]).stem.removeprefix("test_")
        type_name = self.by_module.get(module)
        if type_name is None:
            return
        line = (
            f"{self.program}: checking {type_name} ({self.types.index(type_name) + 1} of {len(self.types)} types, "
            f"{done} of {collected} tests)"
        )
        if self.terminal:
            print(f"\r{line}\033[K", end="", file=self.stream, flush=True)
        elif type_name not in self.shown:
            print(line, file=self.stream, flush=True)
        self.shown.add(type_name)

    def close(self) -> None:
        if self.terminal and self.shown:
            print(file=self.stream, flush=True)


def _advice(specification, folder: Path) -> str:
    flag = "" if specification.kit.main else f" --spec {specification.name}"
    return f"See every operation's status with: speckit check{flag} {folder}"


def _digest(folder: Path, spec_name: str, types: list[str]) -> str:
    """A fingerprint of what the check judged: the package's files, the specification, the types, the kit."""
    h = hashlib.sha256(f"{__version__}\0{spec_name}\0{','.join(types)}".encode())
    for path in sorted(folder.rglob("*.py")):
        if "__pycache__" not in path.parts:
            h.update(b"\0" + path.relative_to(folder).as_posix().encode() + b"\0" + path.read_bytes())
    return h.hexdigest()


def _cache() -> Path:
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "speckit" / "playable"


def _remembered(digest: str) -> bool:
    return (_cache() / digest).is_file()


def _remember(digest: str) -> None:
    """Note that a package passed (best effort: a cache that cannot be written only costs time)."""
    try:
        _cache().mkdir(parents=True, exist_ok=True)
        (_cache() / digest).touch()
    except OSError:
        pass
