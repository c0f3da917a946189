"""The working folder a test shares with the operation server (``impl.working_folder()``)."""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from ..core import MissingOperation, OperationFailed
from .config import READ_LIMIT, target_ids
from .process import ProtocolViolation, ServerDied, bounded_text
from .protocol import Command

if TYPE_CHECKING:
    from .client import SandboxedImplementation

_GONE = (OperationFailed, MissingOperation, ServerDied, ProtocolViolation)
"""What leaving the folder may raise when the server is gone."""


@contextlib.contextmanager
def shared_folder(impl: SandboxedImplementation) -> Iterator[Path]:
    """A fresh folder both processes work in (see :meth:`speckit.impl.Implementation.working_folder`).

    It is made in the server's shared folders (bind-mounted read-write into the server
    under bubblewrap), owned by the server's user; files the test writes there during the
    block are made group-writable for it (umask 002 in a set-group-id folder)."""
    impl.flush()
    host = Path(tempfile.mkdtemp(prefix="folder-", dir=impl.connection.server.folders))
    uid, gid = target_ids(impl.config)
    mask = None
    if uid is not None:
        assert gid is not None  # target_ids gives both or neither
        os.chown(host, uid, gid)
        os.chmod(host, 0o2775)
        mask = os.umask(0o002)
    before = Path.cwd()
    try:
        _enter(impl, impl.connection.server.server_path(host))
        os.chdir(host)
        try:
            yield host
            impl.flush()  # the block's pipelined calls run in the folder
        finally:
            os.chdir(before)
            try:
                _enter(impl, None)
            except _GONE:
                impl.connection.working = None  # the server is gone: its next one starts in its own folder
    finally:
        if mask is not None:
            os.umask(mask)
        shutil.rmtree(host, ignore_errors=True)


def _enter(impl: SandboxedImplementation, path: str | None) -> None:
    """Have the server change its working folder to ``path`` (None: its own)."""
    impl.connection.working = path
    if path is None and (impl.connection.down or not impl.connection.server.alive()):
        return  # a new server starts in its own folder anyway
    answer = impl.exchange([[Command.FOLDER, path]], [READ_LIMIT, READ_LIMIT])
    problem = answer.get("result")
    if problem is not None:
        raise OperationFailed(
            f"the implementation's process could not enter its working folder: {bounded_text(problem)}"
        )
