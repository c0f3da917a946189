"""What every implementation under test offers the suites, in-process or sandboxed.

:class:`TestedImplementation` is the one interface the suites, the plugin and the grader
rely on. :class:`speckit.impl.Implementation` (the package imported into the test
process) and :class:`speckit.sandbox.client.SandboxedImplementation` (the package run in
an operation server) both provide it; neither derives from the other.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from spec import Specification

from .core import Presence


@runtime_checkable
class TestedImplementation(Protocol):
    """An implementation under test, reached through its specification.

    ``impl.grid`` is the grid module's traced operations (``impl.grid.occupySquare(g, l, s)``);
    ``impl.module(name)`` the module itself, for reading its constants.
    """

    spec: Specification
    origin: str
    """Where the implementation comes from (its folder or module name), for messages."""
    hung: dict[str, str]
    """Why each operation that hung (or ended the server) is not called again, by qualified name."""

    def module(self, module_name: str, operation: str = "") -> Any:
        """The implementation's module for a type (read-only in the sandbox), or
        :class:`~speckit.core.MissingOperation` charged to ``operation`` saying why not."""
        ...

    def state(self, qualname: str) -> Presence:
        """Whether the implementation has the operation, read without calling anything."""
        ...

    def has(self, qualname: str) -> bool:
        """Whether the implementation provides the operation (used for optional extensions)."""
        ...

    def import_problems(self) -> dict[str, str]:
        """Why each module that could not be imported failed, by module name."""
        ...

    def batch(self, queries: Callable[[], Any]) -> Any:
        """``queries()``, with every operation result in what it returns filled in."""
        ...

    def working_folder(self) -> contextlib.AbstractContextManager[Path]:
        """A fresh folder that is both the test's and the implementation's working folder."""
        ...

    def __getattr__(self, module_name: str) -> Any:
        """The traced operations of the type whose module is ``module_name``."""
        ...


__all__ = ["TestedImplementation"]
