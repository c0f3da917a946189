"""Running the checkout's programs as a user does: on scripted answers, or in a pseudo-terminal."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

from speckit.paths import REPO_ROOT

from .signals import interruptible


def environment(**extra: str) -> dict[str, str]:
    """This process's environment with the checkout importable (``PYTHONPATH``) and ``extra`` on top."""
    return dict(os.environ, PYTHONPATH=str(REPO_ROOT), **extra)


def run_module(
    module: str, *args: str, answers=(), cwd: Path = REPO_ROOT, env: dict[str, str] | None = None, timeout: float = 120
) -> subprocess.CompletedProcess:
    """``python -m MODULE ARGS`` with ``answers`` on its standard input, one a line; its output as text.

    ``env`` is the whole environment (default :func:`environment`)."""
    text = "".join(f"{answer}\n" for answer in answers)
    command = [sys.executable, "-m", module, *args]
    return subprocess.run(
        command,
        input=text,
        capture_output=True,
        text=True,
        cwd=cwd,
        env=environment() if env is None else env,
        timeout=timeout,
    )


def spawn_module(
    module: str, *args: str, cwd: Path = REPO_ROOT, env: dict[str, str] | None = None, timeout: float = 30, **options
):
    """``python -m MODULE ARGS`` in a pseudo-terminal (pexpect), able to take Ctrl-C; everything it
    printed is kept in ``child.logfile_read`` (a StringIO). ``options`` go to ``pexpect.spawn``."""
    import pexpect

    child = pexpect.spawn(
        sys.executable,
        ["-m", module, *args],
        cwd=str(cwd),
        env=environment() if env is None else env,
        encoding="utf-8",
        timeout=timeout,
        preexec_fn=interruptible,
        **options,
    )
    child.logfile_read = io.StringIO()
    return child


def first_line_then_close(
    module: str, *args: str, answers=(), cwd: Path = REPO_ROOT, env: dict[str, str] | None = None, timeout: float = 120
) -> subprocess.CompletedProcess:
    """``python -m MODULE ARGS`` read as ``... | head -1`` reads it: its first line of output, then no more
    (the reader has gone away); the whole of its standard error."""
    command = [sys.executable, "-m", module, *args]
    child = subprocess.Popen(
        command,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=cwd,
        env=environment() if env is None else env,
    )
    child.stdin.write("".join(f"{answer}\n" for answer in answers).encode())
    child.stdin.close()
    first = child.stdout.readline()
    child.stdout.close()
    error = child.stderr.read().decode()
    child.wait(timeout=timeout)
    return subprocess.CompletedProcess(command, child.returncode, first.decode(), error)
