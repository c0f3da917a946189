"""A plain-text progress bar on stderr: redrawn in place on a terminal, a line per submission otherwise."""

from __future__ import annotations

import time
from typing import TextIO

from ..escape import terminal
from .records import StudentGrade


class Progress:
    """Called with (done, total, grade) as each submission finishes."""

    def __init__(self, stream: TextIO, total: int):
        self.stream = stream
        self.total = total
        self.tty = stream.isatty()
        self.started = time.monotonic()

    def __call__(self, done: int, total: int, grade: StudentGrade) -> None:
        width = 24
        filled = width * done // max(1, total)
        bar = "#" * filled + "." * (width - filled)
        elapsed = time.monotonic() - self.started
        status = f"{grade.total}/{grade.max_score}" + (f" ({terminal(grade.reason[:60])})" if grade.reason else "")
        line = (
            f"[{bar}] {done}/{total} {terminal(grade.name)}: {status} in {grade.seconds:.1f} s, {elapsed:.0f} s so far"
        )
        if self.tty:
            self.stream.write("\r\x1b[K" + line + ("\n" if done == total else ""))
        else:
            self.stream.write(line + "\n")
        self.stream.flush()
