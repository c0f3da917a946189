"""Load an implementation under test and reach its operations safely.

An implementation is a package directory (or an importable module name) following a
specification's contract. It is imported under a name unique to its path, so it can
never collide with a reference package or with another submission. Each operation
is reached through :class:`~speckit.operations.TracedOperation`, which

* records the call in the current :class:`~speckit.trace.Trace` (for failure messages),
* stops a call that runs too long, and refuses to call it again in this run
  (so a hanging operation fails each test that needs it quickly, and Hypothesis
  cannot get stuck retrying it),
* turns anything the operation raises into a test failure that names it,
* checks that results of a type the specification makes ``bool`` (its ``[primitives]``) are Python bools.

A missing module or function fails only the tests that use it.

This module imports the implementation into the test process. Untrusted code runs
instead in a separate, unprivileged operation server (:func:`speckit.sandbox.load_sandboxed`,
``pytest --sandbox``), whose implementation extends the classes here: the tests then hold
opaque handles to its values, and every call crosses the process boundary. The sandbox
builds on this module, never the other way round; both provide
:class:`~speckit.interface.TestedImplementation`.
"""

from __future__ import annotations

import ast
import contextlib
import hashlib
import importlib
import importlib.util
import inspect
import os
import signal
import sys
import tempfile
import textwrap
import traceback
import types
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from spec import Specification

from .core import (  # noqa: F401 - re-exported: the names the suite and the sandbox use
    DEFAULT_LIMITS,
    DEFAULT_TIME_LIMIT,
    FailureKind,
    ImplementationError,
    MissingOperation,
    NotImplementedOperation,
    OperationFailed,
    Presence,
    SuiteFailure,
    TimeLimitReached,
)
from .operations import ModuleFacade, TracedOperation, module_facade
from .watchdog import WallClockAlarm as _Alarm
from .watchdog import on_wall_alarm


def load(target: str | Path, spec: Specification) -> Implementation:
    """Import the implementation at ``target``, a package directory or an importable module name,
    into this process."""
    if Path(target).exists():
        return Implementation(_import_directory(package_directory(target)), spec, origin=str(target))
    text = str(target)
    if not all(part.isidentifier() for part in text.split(".")):
        raise ImplementationError(f"{target}: no such folder")
    try:
        package = importlib.import_module(text)
    except ModuleNotFoundError as e:
        if e.name and text.startswith(e.name):
            raise ImplementationError(f"{target}: no such folder, and no importable module of that name") from None
        raise ImplementationError(f"{target}: importing it failed: {e}") from None
    except Exception as e:  # noqa: BLE001 - any import-time failure is the implementation's
        raise ImplementationError(f"{target}: importing it failed: {type(e).__name__}: {e}") from None
    return Implementation(package, spec, origin=text)


def package_directory(target: str | os.PathLike[str]) -> Path:
    """``target`` as an implementation's package directory, resolved: a folder holding Python
    modules (``__init__.py`` optional). The one check of a package folder, worded once."""
    path = Path(target)
    if not path.exists():
        raise ImplementationError(f"{target}: no such folder")
    if not path.is_dir():
        raise ImplementationError(
            f"{target}: not a package directory (it is a file; expected a folder of Python modules)"
        )
    if not any(path.glob("*.py")):
        raise ImplementationError(f"{target}: not a package directory (the folder has no Python modules)")
    return path.resolve()


def _import_directory(path: Path) -> types.ModuleType:
    """Import a package directory under a unique name; a folder without __init__.py works too."""
    digest = hashlib.sha1(str(path).encode()).hexdigest()[:12]
    name = f"speckit_impl_{digest}"
    if name in sys.modules:
        return sys.modules[name]
    init = path / "__init__.py"
    if init.is_file():
        module_spec = importlib.util.spec_from_file_location(name, init, submodule_search_locations=[str(path)])
        # a .py file always has a spec with a loader (the source file loader)
        assert module_spec is not None and module_spec.loader is not None
        loader = module_spec.loader
        package = importlib.util.module_from_spec(module_spec)
        sys.modules[name] = package
        try:
            _with_import_limit(lambda: loader.exec_module(package))
        except TimeLimitReached as e:
            sys.modules.pop(name, None)
            raise ImplementationError(
                f"{path}/__init__.py did not finish importing within {IMPORT_SECONDS:g} s"
                f"{_where(e, path)} (an endless loop at import time?)"
            ) from None
        except SyntaxError as e:
            sys.modules.pop(name, None)
            file = Path(e.filename).name if e.filename and not e.filename.startswith("<") else "__init__.py"
            if file == "__init__.py":
                raise ImplementationError(
                    f"{path}/__init__.py has a syntax error at line {e.lineno}: {e.msg}"
                ) from None
            raise ImplementationError(
                f"{path}/__init__.py could not be imported: {file} has a syntax error at line {e.lineno}: {e.msg}"
            ) from None
        except KeyboardInterrupt:
            sys.modules.pop(name, None)
            raise
        except BaseException as e:  # noqa: BLE001 - report, don't crash the suite
            sys.modules.pop(name, None)
            raise ImplementationError(
                f"{path}/__init__.py could not be imported{_where(e, path)}: {type(e).__name__}: {e}"
            ) from None
    else:
        package = types.ModuleType(name)
        package.__path__ = [str(path)]
        package.__file__ = None
        sys.modules[name] = package
    return package


IMPORT_SECONDS = DEFAULT_LIMITS.import_seconds
"""Time importing the package or one of its modules may take (an import that loops is stopped)."""


def _with_import_limit(load: Callable[[], Any]) -> Any:
    """``load()``, stopped by :class:`TimeLimitReached` after :data:`IMPORT_SECONDS` (main thread only).

    Where a timer is already running (the operation server's watchdog keeps its own), it is
    left alone: that timer limits the import instead.
    """
    if not _Alarm.usable() or not _Alarm.pending and signal.getitimer(signal.ITIMER_REAL) != (0.0, 0.0):
        return load()
    previous = signal.getsignal(signal.SIGALRM)
    _Alarm.arm(IMPORT_SECONDS)
    try:
        return load()
    finally:
        _Alarm.disarm()
        if previous is not None and previous is not on_wall_alarm:
            _Alarm.cancel()
            signal.signal(signal.SIGALRM, previous)  # whoever had the alarm before has it back


def syntax_problem(module_name: str, error: SyntaxError) -> str:
    """Why ``module_name`` could not be imported, naming the file that holds the syntax error and its
    line: the module's own file, or another module of the package it imports (``display.py``)."""
    where = f"line {error.lineno}" if error.lineno else "a line Python could not tell"
    own = f"{module_name}.py"
    file = Path(error.filename).name if error.filename and not error.filename.startswith("<") else own
    if file == own:
        return f"module {module_name} has a syntax error at {where} of {own}: {error.msg}"
    return f"module {module_name} could not be imported: {file} has a syntax error at {where}: {error.msg}"


def _where(error: BaseException, folder: str | Path) -> str:
    """`` (line N of file.py)``: the innermost line of the implementation's own code in the error's traceback."""
    folder = Path(folder).resolve()
    frames = [f for f in traceback.extract_tb(error.__traceback__) if Path(f.filename).resolve().is_relative_to(folder)]
    return f" (line {frames[-1].lineno} of {Path(frames[-1].filename).name})" if frames else ""


class Implementation:
    """An implementation under test: its modules, reached through the specification."""

    operation_class: type[TracedOperation]
    """The class of its traced operations (set below; the sandbox uses its own)."""

    def __init__(self, package: types.ModuleType, spec: Specification, origin: str):
        self.package = package
        self.spec = spec
        self.origin = origin
        self._modules: dict[str, types.ModuleType | SuiteFailure] = {}
        self.hung: dict[str, str] = {}

    def __repr__(self) -> str:
        return f"<Implementation {self.origin}>"

    def module(self, module_name: str, operation: str = "") -> types.ModuleType:
        """The implementation's module for a type, or :class:`MissingOperation` saying why not
        (charged to ``operation``, the operation that needed the module, if given)."""
        cached = self._modules.get(module_name)
        if cached is None:
            cached = self._modules[module_name] = self._import(module_name)
        if isinstance(cached, SuiteFailure):
            raise type(cached)(str(cached), operation)
        return cached

    def _import(self, module_name: str) -> types.ModuleType | SuiteFailure:
        full = f"{self.package.__name__}.{module_name}"
        try:
            return _with_import_limit(lambda: importlib.import_module(full))
        except ModuleNotFoundError as e:
            if e.name == full:
                return MissingOperation(f"the implementation has no module {module_name} (expected {module_name}.py)")
            hint = ""
            if e.name in {t.module for t in self.spec.types}:
                hint = f" (import sibling modules relatively: from . import {e.name})"
            return MissingOperation(f"module {module_name} could not be imported{_where(e, self._folder())}: {e}{hint}")
        except SyntaxError as e:
            return MissingOperation(syntax_problem(module_name, e))
        except TimeLimitReached as e:
            return MissingOperation(
                f"module {module_name} did not finish importing within {IMPORT_SECONDS:g} s"
                f"{_where(e, self._folder())} (an endless loop at import time?)"
            )
        except BaseException as e:  # any failure while importing is the module's (Ctrl-C re-raised)
            if isinstance(e, KeyboardInterrupt):
                raise
            return MissingOperation(
                f"module {module_name} could not be imported{_where(e, self._folder())}: {type(e).__name__}: {e}"
            )

    def _folder(self) -> str:
        """The folder of the implementation's package (its first search location)."""
        return next(iter(getattr(self.package, "__path__", ())), "") or "."

    def import_problems(self) -> dict[str, str]:
        """Why each module that was tried and could not be imported failed, by module name."""
        return {name: str(problem) for name, problem in self._modules.items() if isinstance(problem, SuiteFailure)}

    def __getattr__(self, module_name: str) -> ModuleFacade:
        """``impl.grid`` is the grid module's operations, traced: ``impl.grid.occupySquare(g, l, s)``."""
        return module_facade(self, module_name)

    def batch(self, queries: Callable[[], Any]) -> Any:
        """Call ``queries`` and return what it returns, with every operation result in it filled in.

        A test asks many independent questions at once this way, for example::

            empties = impl.batch(lambda: [impl.symbol.isEmpty(s) for s in symbols])

        ``queries`` only makes calls and collects their results (in lists, tuples or dicts);
        it must not look at them. In-process that changes nothing; in the sandbox the
        calls travel to the operation server together, in one round trip. A failing call
        fails the test as if it had failed where it was made.
        """
        return queries()

    @contextlib.contextmanager
    def working_folder(self) -> Iterator[Path]:
        """Run the ``with`` block in a fresh empty folder that is also the implementation's working folder.

        For operations that read or write files by a relative name (a saved game, say)::

            with impl.working_folder() as folder:
                (folder / "Saved_Game.txt").write_text(text)
                controller = impl.controller.Controller(view)   # reads ./Saved_Game.txt

        It yields the folder's path as the test process sees it; the test process's working
        folder is that folder too, so relative paths work on both sides. Afterwards both go
        back to where they were and the folder is removed. In-process this is a temporary
        folder; in the sandbox it is made where the operation server can read and write it
        too, and the server changes into it.
        """
        before = Path.cwd()
        with tempfile.TemporaryDirectory(prefix="speckit-folder-") as folder:
            os.chdir(folder)
            try:
                yield Path(folder)
            finally:
                os.chdir(before)

    def state(self, qualname: str) -> Presence:
        """Whether the implementation has the operation, read from the source without calling anything."""
        definition = self._definition(qualname)
        if definition is None:
            return Presence.MISSING
        return Presence.NOT_IMPLEMENTED if _only_raises_not_implemented(definition) else Presence.PRESENT

    def has(self, qualname: str) -> bool:
        """Whether the implementation provides the operation (used for optional extensions)."""
        return self._definition(qualname) is not None

    def _definition(self, qualname: str) -> Any:
        """What implements an operation: the module's function, or the class's method (for a
        constructor, the class's ``__init__``); None when the implementation has none."""
        op = self.spec.operation(qualname)
        type_spec = self.spec.type(op.type_name)
        try:
            module = self.module(type_spec.module)
        except SuiteFailure:
            return None
        owner: object = module
        name = op.name
        if type_spec.class_name:
            owner = getattr(module, type_spec.class_name, None)
            if not isinstance(owner, type):
                return None
            name = "__init__" if op.kind == "constructor" else op.name
        member = getattr(owner, name, None)
        return member if callable(member) else None


def _only_raises_not_implemented(function: Any) -> bool:
    """Whether a function's or method's body (its docstring aside) is just ``raise NotImplementedError(...)``.

    Anything whose source cannot be read (a builtin, a generated ``__init__``) counts as implemented.
    """
    try:
        source = textwrap.dedent(inspect.getsource(function))
        tree = ast.parse(source)
    except (OSError, TypeError, SyntaxError, IndentationError):
        return False
    definition = tree.body[0] if tree.body else None
    if not isinstance(definition, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    body = definition.body
    if (
        body
        and isinstance(body[0], ast.Expr)
        and isinstance(body[0].value, ast.Constant)
        and isinstance(body[0].value.value, str)
    ):
        body = body[1:]
    if len(body) != 1 or not isinstance(body[0], ast.Raise) or body[0].exc is None:
        return False
    raised = body[0].exc.func if isinstance(body[0].exc, ast.Call) else body[0].exc
    return isinstance(raised, ast.Name) and raised.id == "NotImplementedError"


Implementation.operation_class = TracedOperation
