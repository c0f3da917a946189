"""How the reference programs leave: the exit statuses they share, and a quiet exit when their reader is gone."""

from __future__ import annotations

import os
import sys

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERRUPTED, EXIT_BROKEN_PIPE = 0, 1, 2, 130, 141
"""Success, a result that is not a success (no solution), bad arguments, Ctrl-C, output closed (``| head``)."""


def closed_output() -> int:
    """Leave quietly when the reader of the output has gone (``... | head``): no traceback.

    Standard output is pointed at the null device so that Python's own flush at exit
    cannot fail a second time.
    """
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return EXIT_BROKEN_PIPE
