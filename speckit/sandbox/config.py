"""Settings and limits of the operation server, shared by the test process and the server.

:class:`SandboxConfig` (how the server is confined) and :class:`SandboxError` (the server
cannot be started at all). The protocol's constants are in :mod:`speckit.sandbox.protocol`.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import attrs

from ..core import DEFAULT_LIMITS, DEFAULT_TIME_LIMIT, KitError

NOBODY = 65534
"""The unprivileged user (and group) the server runs as by default when started by root."""

READ_LIMIT = DEFAULT_TIME_LIMIT
"""Seconds one read of a value (a field, a module constant, ==, dir, repr) may take in the server."""


class SandboxError(KitError, RuntimeError):
    """The operation server cannot be started at all (a problem of the machine, not of the implementation)."""


@attrs.frozen
class SandboxConfig:
    """How the operation server is confined. Every field has a safe default."""

    uid: int | None = None
    """The unprivileged user the server runs as when started by root (default: nobody)."""
    gid: int | None = None
    memory_mb: int = DEFAULT_LIMITS.memory_mb
    """Address-space limit of the server."""
    cpu_seconds: int = DEFAULT_LIMITS.cpu_seconds
    """Processor seconds one server process may use in all (a restart starts afresh)."""
    output_kb: int = DEFAULT_LIMITS.output_kb
    """Output the implementation may print per call, and the size of any file it writes."""
    scratch_mb: int = 32
    """Size of the server's fresh /tmp (namespaces only)."""
    open_files: int = 64
    import_seconds: float = DEFAULT_LIMITS.import_seconds
    """Time to import the package or one of its modules."""
    test_seconds: float = 0.0
    """Operation time one test may use in all; 0 for no limit."""
    max_restarts: int = 20
    """Server restarts in one run, after which every call fails."""
    grace: float = 1.5
    """Seconds past a call's limit before the test process kills a server that did not stop it."""
    wall_factor: float = 10.0
    """Time limits are processor time; a call that waits instead of working is stopped when it
    has taken this many times its limit by the wall clock (:func:`speckit.watchdog.wall_backstop`)."""
    hide: tuple[str, ...] = attrs.field(default=(), converter=tuple)
    """Folders and files the server must not see (hidden in its mount namespace)."""
    kit_files: tuple[str, ...] = attrs.field(default=(), converter=tuple)
    """The kit's files the server reads (:func:`speckit.sandbox.bubblewrap.kit_files`), when
    already known (the grader works them out once for all its runs); empty: worked out here."""
    namespace: bool = True
    """Without bubblewrap: use a private mount namespace when the kernel allows it."""
    bubblewrap: bool = True
    """Confine the server with bubblewrap when it is installed (False: the fallback, for tests)."""
    require_isolation: bool = False
    """Refuse to run (SandboxError) unless the server runs unprivileged in its own mount namespace."""

    @classmethod
    def from_file(cls, path: str | Path) -> SandboxConfig:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        known = {f.name for f in attrs.fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"{path}: unknown sandbox settings {unknown}")
        return cls(**data)

    def to_json(self) -> str:
        return json.dumps(attrs.asdict(self), sort_keys=True)


def target_ids(config: SandboxConfig) -> tuple[int | None, int | None]:
    """The uid and gid the server runs as (None when not started by root: it cannot change user)."""
    if os.geteuid() != 0:
        return None, None
    uid = NOBODY if config.uid is None else config.uid
    gid = (NOBODY if config.uid is None else uid) if config.gid is None else config.gid
    return uid, gid


def served_classes(specification) -> dict[str, tuple[type, Any]]:
    """The kit's classes whose objects a test hands to the implementation and the server mirrors,
    by their twin kind (the lower-cased class name, ``adt.display.Display`` is ``display``), each
    with how it travels (its ``[kit.mirrors]`` entry, :class:`spec.model.Mirror`): those the
    specification's ``[kit] served`` declares, in that order."""
    import importlib

    from spec.model import Mirror

    found = {}
    for dotted in specification.kit.served:
        module_name, _, class_name = dotted.rpartition(".")
        cls = getattr(importlib.import_module(module_name), class_name)
        found[class_name.lower()] = (cls, specification.kit.mirrors.get(dotted, Mirror()))
    return found
