"""A documented operation reached through the kit: traced, timed, its failures worded in the specification's terms.

:func:`module_facade` gives a loaded implementation's operations of one type as attributes
(``impl.grid.newGridType``); each is a :class:`TracedOperation`, which records the call in
the current :class:`~speckit.trace.Trace`, stops a call past its time limit (and refuses to
call that operation again in the run), turns what the operation raises into a test failure
naming it (:func:`failure_of`) and checks Boolean results (:func:`bool_problem`). The
operation server (:mod:`speckit.sandbox`) words its failures with the same two functions.
"""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Any

from spec import Operation

from .core import (
    DEFAULT_TIME_LIMIT,
    FailureKind,
    MissingOperation,
    NotImplementedOperation,
    OperationFailed,
    TimeLimitReached,
)
from .trace import TRACE
from .watchdog import WallClockAlarm as _Alarm


def module_facade(impl: Any, module_name: str) -> ModuleFacade:
    """The traced operations of the type whose module is ``module_name`` (``impl.grid``), kept as
    an attribute of ``impl`` so that later uses (every operation call) skip its ``__getattr__``."""
    if module_name.startswith("_"):
        raise AttributeError(module_name)
    try:
        type_spec = impl.spec.type(module_name)
    except KeyError:
        raise AttributeError(f"{impl.spec.name} has no type with module {module_name!r}") from None
    facade = impl.__dict__[module_name] = ModuleFacade(impl, type_spec.name, module_name)
    return facade


class ModuleFacade:
    """The traced operations of one type, as attributes named like the operations."""

    def __init__(self, impl: Any, type_name: str, module_name: str):
        self._impl = impl
        self._type_name = type_name
        self._module_name = module_name

    def __getattr__(self, name: str) -> TracedOperation:
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            operation = self._impl.spec.operation(f"{self._type_name}.{name}")
        except KeyError:
            raise AttributeError(f"{self._type_name} has no documented operation {name!r}") from None
        traced = self.__dict__[name] = self._impl.operation_class(self._impl, operation, self._module_name)
        return traced  # kept as an attribute: later uses skip this method


class TracedOperation:
    """One operation of the implementation, called with tracing, a time limit and result checks."""

    def __init__(self, impl: Any, operation: Operation, module_name: str):
        self.impl = impl
        self.operation = operation
        self.module_name = module_name
        self.label = f"{module_name}.{operation.name}"
        self.qualname = operation.qualname
        primitive = impl.spec.primitives.get(operation.result, "")
        self.expects_bool = primitive == "bool"
        self.time_limit = impl.spec.kit.time_limits.get(operation.qualname, DEFAULT_TIME_LIMIT)
        self._found: Callable[..., Any] | None = None
        """The implementation's function, once found."""

    def function(self) -> Callable[..., Any]:
        """The implementation's function, or :class:`MissingOperation`.

        For a type the contract makes a class, a constructor is the class itself and
        any other operation is a method, called on its first argument.
        """
        qualname = self.operation.qualname
        module = self.impl.module(self.module_name, qualname)
        class_name = self.impl.spec.type(self.operation.type_name).class_name
        if class_name:
            return self._method(module, class_name)
        function = getattr(module, self.operation.name, None)
        if function is None:
            raise MissingOperation(
                f"module {self.module_name} has no function {self.operation.name} ({qualname})", qualname
            )
        if not callable(function):
            raise MissingOperation(f"{self.label} is not a function", qualname)
        return function

    def _method(self, module: types.ModuleType, class_name: str) -> Callable[..., Any]:
        qualname = self.operation.qualname
        cls = getattr(module, class_name, None)
        if not isinstance(cls, type):
            raise MissingOperation(f"module {self.module_name} has no class {class_name}", qualname)
        name = self.operation.name
        if self.operation.kind == "constructor":
            return cls
        if not callable(getattr(cls, name, None)):
            raise MissingOperation(f"class {class_name} has no method {name} ({qualname})", qualname)

        def call_method(instance: Any, *args: Any, **kwargs: Any) -> Any:
            return getattr(instance, name)(*args, **kwargs)

        return call_method

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        __tracebackhide__ = True
        function = self._found
        if function is None:
            function = self._found = self.function()  # MissingOperation is not kept: it is raised each time
        entry = TRACE.call(self.label, args, kwargs)
        # An operation that hung once fails at once from now on, from the same line,
        # so Hypothesis sees one consistent failure and shrinks it quickly.
        hung = self.impl.hung
        problem = hung.get(self.qualname) if hung else None
        raised = None
        if problem is None:
            limited = _Alarm.usable()
            try:
                if limited:
                    _Alarm.arm(self.time_limit)
                try:
                    result = function(*args, **kwargs)
                finally:
                    if limited:
                        _Alarm.deadline = None
            except BaseException as e:  # classified below, the rest re-raised
                kind, problem = failure_of(self.qualname, e, self.time_limit)
                if kind is None:
                    raise
                if kind == NOT_IMPLEMENTED:
                    raise NotImplementedOperation(problem, self.qualname) from None
                if kind == HUNG:
                    hung[self.qualname] = problem
                elif kind == FAILED:
                    raised = type(e)
            else:
                if self.expects_bool and result is not True and result is not False:
                    problem = bool_problem(self.qualname, result)
        if problem is not None:
            entry.failed(problem)
            failure = OperationFailed(problem, self.qualname)
            failure.raised = raised
            raise failure
        entry.returned(result, self.expects_bool)
        return result


NOT_IMPLEMENTED, HUNG, FAILED = FailureKind.NOT_IMPLEMENTED, FailureKind.HUNG, FailureKind.FAILED


def failure_of(qualname: str, error: BaseException, time_limit: float) -> tuple[FailureKind | None, str]:
    """What an exception escaping an operation means, as ``(kind, problem)``.

    ``kind`` is :data:`NOT_IMPLEMENTED`, :data:`HUNG` (the time limit was reached; the
    operation is not called again), :data:`FAILED`, or None for an exception that is not
    the operation's to report (KeyboardInterrupt and the like), which propagates. The
    operation server (:mod:`speckit.sandbox`) words its failures with this function too.
    """
    if isinstance(error, NotImplementedError):
        return NOT_IMPLEMENTED, f"{qualname} is not implemented yet (it raises NotImplementedError)"
    if isinstance(error, TimeLimitReached):
        return (
            HUNG,
            f"{qualname} did not return within {time_limit:g} s (an endless loop?); it is not called again in this run",
        )
    if isinstance(error, RecursionError):
        return FAILED, f"{qualname} recursed without end (RecursionError)"
    if isinstance(error, SystemExit):
        return FAILED, f"{qualname} tried to end the program (SystemExit {error.code!r})"
    if isinstance(error, Exception):
        return FAILED, f"{qualname} raised {type(error).__name__}: {error}"
    return None, ""


def bool_problem(qualname: str, result: Any) -> str | None:
    """Why a Boolean operation's result is unacceptable (not a Python bool, as the contract requires), or None."""
    if isinstance(result, bool):
        return None
    return f"{qualname} returned {result!r} ({type(result).__name__}); a Boolean result must be True or False"
