"""How long the operation server takes, watched from the test process.

The server's processor time, read by the test process from ``/proc`` so that the server
cannot misreport it (:func:`process_cpu_seconds`), and when a request's commands are
overdue (:class:`Overrun`): the backstop for a server whose own watchdog was defeated.
"""

from __future__ import annotations

import os
import time

from ..watchdog import wall_backstop

CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
"""Units of the processor times in ``/proc/PID/stat``, per second."""


def process_cpu_seconds(pid: int) -> float | None:
    """Processor time (user and system) process ``pid`` has used, from ``/proc``; None if unknown.

    Read by the test process from the kernel, so the server cannot misreport it.
    """
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            data = stat.read()
        fields = data[data.rindex(b")") + 2 :].split()
        return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS
    except (OSError, ValueError, IndexError):
        return None


def first_child(pid: int) -> int | None:
    """The first child process of ``pid`` (bubblewrap's one child is the server), or None."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children", "rb") as children:
            found = children.read().split()
        return int(found[0]) if found else None
    except (OSError, ValueError):
        pass
    for entry in os.listdir("/proc"):  # kernels without the children file
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", "rb") as stat:
                    data = stat.read()
            except OSError:
                continue
            if int(data[data.rindex(b")") + 2 :].split()[1]) == pid:
                return int(entry)
    return None


class Overrun:
    """The time a request's commands take, watched from the test process: a command is overdue past
    its limit in processor time plus the grace, or past its wall-clock backstop plus the grace,
    and the whole request past the sum of their backstops."""

    def __init__(self, limits: list[float], grace: float, factor: float):
        self.limits, self.grace, self.factor = limits, grace, factor
        self.started = time.monotonic()
        self.hard_deadline: float | None = None  # worked out once the answer is late: most come within 0.1 s
        self.current: int | None = None
        self.since = self.started
        self.cpu_since: float | None = None

    def overrun(self, index: int, cpu: float | None) -> float | None:
        """The limit of command ``index`` if it (or the request) is overdue, the server having
        used ``cpu`` seconds of processor time; else None."""
        now = time.monotonic()
        limits, grace, factor = self.limits, self.grace, self.factor
        if self.hard_deadline is None:
            self.hard_deadline = self.started + wall_backstop(sum(limits), factor) + grace + 2.0
        if index != self.current:
            self.current, self.since, self.cpu_since = index, now, cpu
        elif self.cpu_since is None:
            self.cpu_since = cpu
        limit = limits[index] if index < len(limits) else limits[-1]
        cpu_since = self.cpu_since
        worked = cpu - cpu_since if cpu is not None and cpu_since is not None else 0.0
        if (
            worked > limit + grace
            or now - self.since > wall_backstop(limit, factor) + grace
            or now > self.hard_deadline
        ):
            return limit
        return None
