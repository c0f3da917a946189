"""The operation server's limits on the implementation, and how it words a breach.

The processor watchdog every call and read runs under (:data:`WATCHDOG`, :func:`limited`),
the bounded standard output (:class:`BoundedOutput`), and the wording of a memory breach
and of a package or module that cannot be imported (:func:`import_failure`). Part of the
server's side: it imports nothing of the test process.
"""

from __future__ import annotations

import errno
import io
import os

from ..core import TimeLimitReached
from ..watchdog import ProcessorWatchdog

WATCHDOG = ProcessorWatchdog()
"""The server's one watchdog: its calls, reads and releases each arm it with their limit."""


class BoundedOutput(io.TextIOBase):
    """sys.stdout and sys.stderr of the server: printing is allowed, up to a limit per call.

    The allowance starts afresh with every call (:attr:`~speckit.watchdog.ProcessorWatchdog.calls`), counted here
    when something is printed rather than reset at every call."""

    def __init__(self, limit: int):
        self.limit = limit
        self.used = 0
        self.call = -1
        """The call the output so far was printed in."""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        if self.call != WATCHDOG.calls:
            self.call, self.used = WATCHDOG.calls, 0
        self.used += len(text)
        if self.used > self.limit:
            raise OSError(errno.EFBIG, f"the implementation printed more than {self.limit // 1024} KB")
        return len(text)


def limited(seconds: float, function, *args):
    """``function(*args)``, stopped after ``seconds``."""
    watchdog = WATCHDOG
    started = not watchdog.ticking
    if started:
        watchdog.start()
    watchdog.arm(seconds)
    try:
        return function(*args)
    finally:
        watchdog.clear()
        if started:
            watchdog.stop()


def near_memory_limit(config: dict) -> bool:
    """Whether the server's address space is within a quarter of its limit (a call that ran out
    of time while allocating is reported as the memory breach it was about to be)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024 >= 0.75 * int(config["memory_mb"]) * 2**20
    except (OSError, ValueError):
        pass
    return False


def over_memory(label: str, config: dict) -> str:
    return f"{label} went over the memory limit of {config['memory_mb']} MB"


def slow_import(module: str, config: dict) -> str:
    """Why ``module`` is missing when importing it ran past the import time limit."""
    return f"module {module} could not be imported: {module}.py took more than {config['import_seconds']:g} s to import"


def import_failure(error: BaseException, package: str, config: dict) -> str:
    """Why importing the package failed, naming the file that raised and its innermost line there:
    "grid.py raised NameError at import (line 22): ...", "grid.py went over the memory limit of
    N MB at import", or "the package took more than N s to import"."""
    if isinstance(error, TimeLimitReached):
        return f"the package took more than {config['import_seconds']:g} s to import"
    where, line = "the package", 0
    folder = os.path.realpath(package).rstrip("/") + "/"
    trace = error.__traceback__
    while trace is not None:
        filename = os.path.realpath(trace.tb_frame.f_code.co_filename)
        if filename.startswith(folder):
            where, line = filename[len(folder) :], trace.tb_lineno
        trace = trace.tb_next
    if isinstance(error, SyntaxError) and error.filename and os.path.realpath(error.filename).startswith(folder):
        where, line = os.path.realpath(error.filename)[len(folder) :], error.lineno or 0
    if isinstance(error, MemoryError):
        return f"{where} went over the memory limit of {config['memory_mb']} MB at import"
    at = f" (line {line})" if line else ""
    return f"{where} raised {type(error).__name__} at import{at}: {error}"
