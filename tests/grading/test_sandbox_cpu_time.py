"""A call's time limit is processor time: a busy machine cannot make a correct call late.

Grading is deterministic (principle 5): a correct submission whose calls take well under
their limit of work must never time out because other processes share the processor.
The server's watchdog counts processor time (with a much larger wall-clock backstop for
code that waits instead of working), and the test process kills a server whose watchdog
was defeated by its processor time too, read from ``/proc``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

import spec as spec_data
from speckit import watchdog as clock_watchdog
from speckit.core import OperationFailed, TimeLimitReached
from speckit.sandbox import SandboxConfig, load_sandboxed
from speckit.watchdog import wall_backstop

from .conftest import INCREMENT, patched_reference

CONNECT4 = spec_data.load("connect4")

WORK = 0.8
"""Seconds of processor time the patched ``increment`` works for: well under its 2 s limit."""

BUSY_INCREMENT = INCREMENT + (
    f"    import time\n    until = time.process_time() + {WORK}\n    while time.process_time() < until:\n        pass\n"
)


class FakeClocks:
    """The two clocks the server's watchdog reads, moved by hand."""

    def __init__(self, monkeypatch):
        self.cpu = 100.0
        self.wall = 5000.0
        monkeypatch.setattr(clock_watchdog.time, "process_time", lambda: self.cpu)
        monkeypatch.setattr(clock_watchdog.time, "monotonic", lambda: self.wall)


def test_the_watchdog_counts_processor_time_not_the_wall_clock(monkeypatch):
    clocks = FakeClocks(monkeypatch)
    watchdog = clock_watchdog.ProcessorWatchdog()
    watchdog.arm(2.0)
    watchdog.on_alarm(None, None)  # the first tick of a call reads its start
    clocks.wall += 9.0  # a loaded machine: 9 s pass, the call has worked 1.9 s
    clocks.cpu += 1.9
    watchdog.on_alarm(None, None)  # still within its limit: no time-out
    assert not watchdog.fired
    clocks.cpu += 0.2
    with pytest.raises(TimeLimitReached):
        watchdog.on_alarm(None, None)
    assert watchdog.fired


def test_a_call_that_waits_is_stopped_by_the_wall_clock_backstop(monkeypatch):
    clocks = FakeClocks(monkeypatch)
    watchdog = clock_watchdog.ProcessorWatchdog()
    watchdog.wall_factor = 10.0
    watchdog.arm(2.0)
    watchdog.on_alarm(None, None)
    clocks.wall += wall_backstop(2.0, 10.0) - 0.1  # asleep: no processor time used
    watchdog.on_alarm(None, None)
    clocks.wall += 0.2
    with pytest.raises(TimeLimitReached):
        watchdog.on_alarm(None, None)


def test_a_new_call_starts_its_own_count(monkeypatch):
    clocks = FakeClocks(monkeypatch)
    watchdog = clock_watchdog.ProcessorWatchdog()
    watchdog.arm(2.0)
    watchdog.on_alarm(None, None)
    clocks.cpu += 1.5
    watchdog.arm(2.0)  # the next call: 1.5 s more is within its own limit
    watchdog.on_alarm(None, None)
    clocks.cpu += 1.5
    watchdog.on_alarm(None, None)
    assert not watchdog.fired
    watchdog.clear()  # between calls nothing is limited
    clocks.cpu += 10
    watchdog.on_alarm(None, None)
    assert not watchdog.fired


def _hogs(cpu: int, count: int) -> list[subprocess.Popen]:
    """``count`` processes that only spin, each pinned to processor ``cpu``."""
    code = f"import os; os.sched_setaffinity(0, {{{cpu}}})\nwhile True: pass"
    return [subprocess.Popen([sys.executable, "-c", code]) for _ in range(count)]


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="needs processor affinity (Linux)")
def test_a_correct_call_keeps_its_result_on_a_crowded_processor(tmp_path):
    """A call working 0.8 s of its 2 s limit, on a processor shared with four spinning processes,
    takes far more than 2 s by the wall clock and still returns its result."""
    package = patched_reference(tmp_path / "busy", "index", INCREMENT, BUSY_INCREMENT)
    implementation = load_sandboxed(package, CONNECT4, SandboxConfig(uid=61590))
    cpu = min(os.sched_getaffinity(0))
    hogs = []
    try:
        os.sched_setaffinity(implementation.server.server_pid(), {cpu})
        hogs = _hogs(cpu, 4)
        time.sleep(0.2)
        ops = implementation.index
        started = time.monotonic()
        one = ops.increment(ops.newIndexType())
        assert ops.lessThan(ops.newIndexType(), one) is True
        took = time.monotonic() - started
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
        implementation.close()
    if took <= 2.0:
        pytest.skip(f"the processor was not crowded enough to show it ({took:.1f} s by the wall clock)")


def test_a_correct_call_over_its_limit_of_work_still_times_out(tmp_path):
    """The limit still holds: 3 s of work in a call limited to 2 s is stopped, on processor time."""
    package = patched_reference(tmp_path / "busy", "index", INCREMENT, BUSY_INCREMENT.replace(str(WORK), "3.0"))
    implementation = load_sandboxed(package, CONNECT4, SandboxConfig(uid=61591))
    try:
        with pytest.raises(OperationFailed, match=r"IndexType.increment did not return within 2 s"):
            implementation.index.increment(implementation.index.newIndexType())
            implementation.flush()
    finally:
        implementation.close()
