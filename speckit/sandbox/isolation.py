"""Which mechanism confines the operation server on this machine, and whether it is complete.

Bubblewrap (``bwrap``, Debian's ``bubblewrap``) is the mechanism: the server sees only an
allow-list of files, in its own PID, IPC, UTS, network and mount namespaces, as an
unprivileged user. Without it the server falls back to what the kit can do by itself
(a private mount namespace that hides known paths, when started by root; an unprivileged
user alone, when root may not make one; resource limits only, otherwise), which cannot be
complete; :func:`probe_isolation` then says so in one
loud line. The threat model is written once, in ``docs/grading.rst`` ("Threat model").
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess

import attrs

BUBBLEWRAP = "bubblewrap"
MOUNT_NAMESPACE = "mount namespace"
"""Fallback when started by root: a private mount namespace hiding known paths, and an unprivileged uid."""
ANOTHER_USER = "another user"
"""Fallback when started by root where no mount namespace can be made (a container without
``CAP_SYS_ADMIN`` whose seccomp profile refuses user namespaces too): an unprivileged uid and the limits."""
RESOURCE_LIMITS = "resource limits"
"""Fallback otherwise: a separate process with resource limits, as the same user (unconfined)."""

EXPOSED = {
    MOUNT_NAMESPACE: (
        "a private mount namespace hiding the kit's checkout, the grader's folders and /tmp, /var/tmp, "
        "/dev/shm and /run/lock, and an unprivileged user; it may read other world-readable files, "
        "use the network and see the machine's processes"
    ),
    ANOTHER_USER: (
        "an unprivileged user and resource limits only (no mount namespace can be made here); it may read "
        "every world-readable file (the kit's checkout and its visible tests among them), write into the "
        "world-writable folders (/tmp, /var/tmp, /dev/shm, /run/lock), use the network and see the machine's processes"
    ),
    RESOURCE_LIMITS: (
        "resource limits only, as your own user: it may read every file you can (the grader's environment "
        "in /proc/<pid>/environ, the suite and its hidden tests, other submissions), write wherever you can "
        "(/tmp, /var/tmp, /dev/shm, /run/lock, your home), use the network, and signal or trace your "
        "processes, the grader's and other submissions' among them"
    ),
}
"""What a submission can still do under each fallback (measured: ``tests/grading/test_attacks_modes.py``)."""

INSTALL = "apt-get install -y bubblewrap"


@attrs.frozen
class Isolation:
    """How the operation server is confined on this machine."""

    mechanism: str
    """:data:`BUBBLEWRAP`, or the name of the fallback (:data:`MOUNT_NAMESPACE`, :data:`RESOURCE_LIMITS`)."""
    complete: bool
    """Whether the server sees only its allow-list and has no network (true of bubblewrap only)."""
    warning: str | None = None
    """One line to show loudly, once, in the run's output and its results, when not complete."""


def bwrap_path() -> str | None:
    """The ``bwrap`` program, or None when it is not installed."""
    return shutil.which("bwrap", path=os.environ.get("PATH", "") + ":/usr/bin:/bin")


@functools.cache
def bwrap_works(program: str, uid: int | None) -> str | None:
    """None when ``bwrap`` can build a sandbox here (as ``uid``, when given); else why not."""
    command = [program, "--ro-bind", "/", "/", "--unshare-all", "--die-with-parent", "--new-session", "/bin/true"]
    try:
        done = subprocess.run(
            command,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=20,
            user=uid,
            group=uid,
            extra_groups=[] if uid is not None else None,
        )
    except (OSError, subprocess.SubprocessError) as e:
        return str(e)
    if done.returncode != 0:
        return (
            done.stderr.decode(errors="replace").strip().splitlines()[-1:][0]
            if done.stderr.strip()
            else f"status {done.returncode}"
        )
    return None


def probe_isolation(config=None) -> Isolation:
    """How the operation server will be confined with ``config`` (a :class:`~speckit.sandbox.SandboxConfig`)."""
    from .config import SandboxConfig, target_ids

    config = config or SandboxConfig()
    program = bwrap_path() if config.bubblewrap else None
    problem = None
    if program is not None:
        uid, _ = target_ids(config)
        problem = bwrap_works(program, uid)
        if problem is None:
            return Isolation(BUBBLEWRAP, True)
    if os.geteuid() != 0:
        fallback = RESOURCE_LIMITS
    elif config.namespace and mount_namespace_works():
        fallback = MOUNT_NAMESPACE
    else:
        fallback = ANOTHER_USER
    if not config.bubblewrap:
        why = "bubblewrap is turned off in the sandbox settings"
    elif program is None:
        why = f"bubblewrap (bwrap) is not installed; install it with `{INSTALL}`"
    else:
        why = f"bubblewrap (bwrap) cannot build a sandbox here ({problem})"
    warning = (
        f"WARNING: {why}: student code is confined by {EXPOSED[fallback]} (see 'Threat model' in docs/grading.rst)"
    )
    return Isolation(fallback, False, warning)


@functools.cache
def mount_namespace_works() -> bool:
    """Whether a process of this user may make a private mount namespace (root without
    ``CAP_SYS_ADMIN`` may not), tried in a child process."""
    import sys

    probe = "import ctypes, sys; sys.exit(0 if ctypes.CDLL(None, use_errno=True).unshare(0x00020000) == 0 else 1)"
    try:
        return (
            subprocess.run(
                [sys.executable, "-c", probe], stdin=subprocess.DEVNULL, capture_output=True, timeout=20
            ).returncode
            == 0
        )
    except (OSError, subprocess.SubprocessError):
        return False
