"""Children that a test interrupts with Ctrl-C (SIGINT)."""

import signal


def interruptible() -> None:
    """For ``preexec_fn``: the child takes Ctrl-C as a program normally does.

    Tests run as a background job (``pytest &`` in a script) ignore SIGINT, and their
    children would inherit that and never see the test's Ctrl-C.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)
