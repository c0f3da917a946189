"""Stopping code that runs past its time limit: one module for both clocks.

Both watchdogs turn ``SIGALRM`` into :class:`~speckit.core.TimeLimitReached` raised in the
running code once its deadline is past, and both keep the per-call cost to no system call.
They differ in the clock a limit is counted on:

* :class:`WallClockAlarm` (in-process implementations, :mod:`speckit.impl`): wall-clock
  time, one one-shot timer shared by every call, set again only when needed;
* :class:`ProcessorWatchdog` (the operation server, :mod:`speckit.sandbox.server_limits`):
  processor time, read on a periodic tick, with a wall-clock backstop
  (:func:`wall_backstop`) for code that waits instead of working.
"""

from __future__ import annotations

import _signal  # getsignal without the enum conversion of signal.getsignal: it runs on every call
import atexit
import signal
import threading
import time

from .core import TimeLimitReached

NO_LIMIT = float("inf")
"""The processor watchdog's limit while no code of the implementation runs."""


def wall_backstop(limit: float, factor: float) -> float:
    """Wall-clock seconds a code with ``limit`` seconds of processor time may take at most.

    Limits are processor time, so a busy machine cannot make a correct call late; this
    backstop only stops code that waits (a sleep, a blocking read) instead of working.
    """
    return limit * max(factor, 1.0)


def on_wall_alarm(signum, frame):
    """The timer went off: stop the running call if it is overdue, else wait for its deadline."""
    WallClockAlarm.pending = False
    deadline = WallClockAlarm.deadline
    if deadline is None:  # between calls: the timer lapses
        return
    left = deadline - time.monotonic()
    if left <= 0:
        raise TimeLimitReached()
    WallClockAlarm.set_timer(left)


class WallClockAlarm:
    """Interrupts a call that runs past its time limit (main thread only; elsewhere there is no limit).

    One timer serves every call, so that a traced call makes no system call: arming a call
    records its deadline, and the timer is set only when none is pending or the pending one
    would go off after that deadline. When the timer goes off it stops the running call if
    that call is overdue, sets itself for the running call's deadline if not, and lapses
    between calls. A handler someone else installed meanwhile is put back in place when
    the next call is armed.
    """

    deadline: float | None = None
    """When the running call is overdue (:func:`time.monotonic`); None between calls."""
    pending = False
    """Whether the timer is set."""
    expiry = 0.0
    """When the pending timer goes off."""
    _main = threading.main_thread().ident
    _available = hasattr(signal, "setitimer")

    @classmethod
    def usable(cls) -> bool:
        return cls.deadline is None and cls._available and threading.get_ident() == cls._main

    @classmethod
    def arm(cls, seconds: float) -> None:
        now = time.monotonic()
        cls.deadline = now + seconds
        if not cls.pending or cls.expiry > cls.deadline or _signal.getsignal(signal.SIGALRM) is not on_wall_alarm:
            if _signal.getsignal(signal.SIGALRM) is not on_wall_alarm:
                signal.signal(signal.SIGALRM, on_wall_alarm)
            cls.set_timer(seconds, now)

    @classmethod
    def set_timer(cls, seconds: float, now: float | None = None) -> None:
        cls.expiry = (time.monotonic() if now is None else now) + seconds
        cls.pending = True
        signal.setitimer(signal.ITIMER_REAL, seconds)

    @classmethod
    def disarm(cls) -> None:
        """The call is over (the timer, if pending, lapses when it goes off)."""
        cls.deadline = None

    @classmethod
    def cancel(cls) -> None:
        """Stop the timer too: before the alarm's handler is handed back to someone else, and at exit."""
        cls.deadline = None
        if cls.pending:
            signal.setitimer(signal.ITIMER_REAL, 0)
            cls.pending = False


# A timer still pending at exit would go off after Python has put back the default
# handler, which kills the process ("Alarm clock") with its work done.
atexit.register(WallClockAlarm.cancel)


class ProcessorWatchdog:
    """Stops an implementation's code at its deadline, counted in processor time.

    A call's limit is processor time (the process CPU clock), not wall-clock time: the
    work a call does costs the same however busy the machine is, so a correct
    implementation earns the same grade on a loaded machine (grading is deterministic).
    A call that waits without working (a sleep, a blocking read) uses no processor time:
    a wall-clock *backstop*, ``wall_factor`` times its limit
    (:func:`wall_backstop`), stops it.

    While the server works on a message, a periodic timer ticks every :attr:`TICK`
    seconds. Arming a call only numbers it; the first tick that sees a new number reads
    both clocks as the call's start, and a later tick past either deadline raises
    ``TimeLimitReached`` in it. So a call costs no clock read and no timer system call
    (the server makes hundreds of thousands), and a limit is kept to within a tick. Code
    that blocks the tick (``SIGALRM`` masked, a long computation in C) is stopped by the
    test process, which watches the server's processor time in ``/proc`` and kills it.
    """

    TICK = 0.05

    def __init__(self) -> None:
        self.limit = NO_LIMIT
        """The running code's limit in seconds of processor time (infinite: none)."""
        self.serial = 0
        """Bumped by every :meth:`arm`: the number of the running code."""
        self.calls = 0
        """Bumped by every call of an operation: the number of the running call."""
        self.wall_factor = 10.0
        self.ticking = False
        self.fired = False
        """Whether the deadline was reached since this was last cleared (even if the code swallowed it)."""
        self._seen = -1
        self._cpu_start = self._wall_start = 0.0

    def start(self) -> None:
        self.ticking = True
        signal.setitimer(signal.ITIMER_REAL, self.TICK, self.TICK)

    def stop(self) -> None:
        signal.setitimer(signal.ITIMER_REAL, 0)
        self.ticking = False
        self.limit = NO_LIMIT

    def arm(self, seconds: float) -> None:
        """Give the code about to run ``seconds`` of processor time (and its wall-clock backstop)."""
        self.serial += 1
        self.limit = seconds

    def clear(self) -> None:
        self.limit = NO_LIMIT

    def on_alarm(self, signum, frame) -> None:
        limit = self.limit
        if limit == NO_LIMIT:
            return
        cpu, wall = time.process_time(), time.monotonic()
        if self._seen != self.serial:
            self._seen, self._cpu_start, self._wall_start = self.serial, cpu, wall
            return
        if cpu - self._cpu_start >= limit or wall - self._wall_start >= wall_backstop(limit, self.wall_factor):
            self.limit = NO_LIMIT
            self.fired = True
            raise TimeLimitReached()
