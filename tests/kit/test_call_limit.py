"""The in-process time limit of one operation call (speckit.impl._Alarm).

One timer serves every call: arming records a deadline and sets the timer only when
needed. These tests pin down what that must still guarantee: an overdue call is
stopped at its own limit, a call within its limit is never stopped by a timer left
by an earlier call, the timer does nothing between calls, and a handler someone else
installed gets no alarm of ours, and a process that exits while the timer is pending
is not killed by it.
"""

import signal
import subprocess
import sys
import textwrap
import time

import pytest

from speckit.core import TimeLimitReached
from speckit.impl import _Alarm, _with_import_limit


def spin(seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass


@pytest.fixture(autouse=True)
def no_timer_left():
    yield
    _Alarm.cancel()


def call(limit: float, body) -> None:
    """Run ``body`` as a traced operation does: armed with ``limit``, disarmed after."""
    assert _Alarm.usable()
    _Alarm.arm(limit)
    try:
        body()
    finally:
        _Alarm.disarm()


def test_an_overdue_call_is_stopped_even_when_an_earlier_call_left_a_longer_timer():
    call(30.0, lambda: None)  # leaves the timer pending for about 30 s
    started = time.monotonic()
    with pytest.raises(TimeLimitReached):
        call(0.2, lambda: spin(10))
    assert time.monotonic() - started < 5


def test_a_call_within_its_limit_is_not_stopped_by_an_earlier_calls_timer():
    call(0.1, lambda: None)  # the timer goes off during the next call
    call(1.0, lambda: spin(0.3))  # no exception: this call still has time left


def test_between_calls_the_timer_goes_off_harmlessly():
    call(0.05, lambda: None)
    spin(0.2)  # the timer went off here, with no call running: nothing is raised
    assert not _Alarm.pending


def test_a_handler_installed_meanwhile_is_replaced_for_the_next_call():
    call(0.05, lambda: None)
    previous = signal.signal(signal.SIGALRM, signal.SIG_IGN)
    try:
        with pytest.raises(TimeLimitReached):
            call(0.2, lambda: spin(10))
    finally:
        signal.signal(signal.SIGALRM, previous)


def test_the_import_limit_hands_a_foreign_handler_back_with_no_timer_pending():
    received = []
    previous = signal.signal(signal.SIGALRM, lambda *_: received.append("alarm"))
    try:
        _with_import_limit(lambda: None)
        assert signal.getsignal(signal.SIGALRM) is not signal.SIG_DFL
        assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
        spin(0.1)
        assert received == []
    finally:
        signal.signal(signal.SIGALRM, previous)


def test_a_timer_pending_at_exit_does_not_kill_the_process():
    # Python puts the default SIGALRM handler back while it shuts down; a timer left by
    # the last call must not go off then (the slow shutdown stands in for a big session's).
    program = textwrap.dedent("""
        import time
        from speckit.impl import _Alarm

        class SlowToCollect:
            def __del__(self):
                time.sleep(0.6)

        left_for_shutdown = SlowToCollect()
        _Alarm.arm(0.3)
        _Alarm.disarm()
    """)
    finished = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=60)
    assert finished.returncode == 0, (finished.returncode, finished.stderr)
