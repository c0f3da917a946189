"""The confinement of the operation server, done inside it before the implementation's code runs.

A private mount namespace (the kit's checkout, hidden folders and scratch space
replaced by tmpfs, what the server needs bound back in), resource limits, standard
streams on ``/dev/null``, the drop to an unprivileged user and ``no_new_privs``.
"""

from __future__ import annotations

import ctypes
import os
import sys
import tempfile

from ..paths import REPO_ROOT
from .isolation import ANOTHER_USER, BUBBLEWRAP

_libc = None


def libc():
    global _libc
    if _libc is None:
        _libc = ctypes.CDLL(None, use_errno=True)
    return _libc


CLONE_NEWNS = 0x00020000
MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_BIND, MS_REC, MS_PRIVATE = 2, 4, 8, 4096, 16384, 1 << 18
PR_SET_NO_NEW_PRIVS = 38

SCRATCH = ("/tmp", "/var/tmp", "/dev/shm", "/run/lock", "/var/lock")
"""The machine's world-writable folders: each covered by a fresh tmpfs of the server's own
(a link among them, ``/var/lock`` to ``/run/lock`` say, is covered through its target)."""


def mount(source: str | None, target: str, fstype: str | None, flags: int, data: str | None = None) -> None:
    result = libc().mount(
        source.encode() if source else None,
        target.encode(),
        fstype.encode() if fstype else None,
        ctypes.c_ulong(flags),
        data.encode() if data else None,
    )
    if result != 0:
        number = ctypes.get_errno()
        raise OSError(number, f"mount {target}: {os.strerror(number)}")


def unshare_mounts() -> None:
    """Give this process a mount namespace of its own."""
    if libc().unshare(CLONE_NEWNS) != 0:
        number = ctypes.get_errno()
        raise OSError(number, f"unshare: {os.strerror(number)}")


def _inside(path: str, folder: str) -> bool:
    return path != folder and path.startswith(folder.rstrip("/") + "/")


def mask_folder(folder: str, keeps: list[str], mode: int, size: str) -> None:
    """Cover ``folder`` with an empty tmpfs, then bind the ``keeps`` (paths inside it) back in place."""
    keeps = sorted({k for k in keeps if not any(_inside(k, other) for other in keeps)})
    handles = []
    for keep in keeps:
        try:
            handles.append((keep, os.open(keep, os.O_PATH | os.O_CLOEXEC), os.path.isdir(keep)))
        except OSError:
            continue
    mount("tmpfs", folder, "tmpfs", MS_NOSUID | MS_NODEV, f"mode={mode:o},size={size}")
    for keep, fd, is_dir in handles:
        if is_dir:
            os.makedirs(keep, mode=0o755, exist_ok=True)
        else:
            os.makedirs(os.path.dirname(keep), mode=0o755, exist_ok=True)
            open(keep, "a").close()
        mount(f"/proc/self/fd/{fd}", keep, None, MS_BIND | MS_REC)
        os.close(fd)


def _isolate(package: str, kit: list[str], hide: list[str], scratch_mb: int) -> list[str]:
    """Give this process a private view of the filesystem (see the docstring of :mod:`speckit.sandbox`)."""
    unshare_mounts()
    mount(None, "/", None, MS_REC | MS_PRIVATE)
    repo = os.path.realpath(str(REPO_ROOT))
    needed = {os.path.realpath(p) for p in sys.path if p and os.path.isdir(p)}
    needed |= {os.path.realpath(p) for p in (sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix)}
    needed |= set(kit)
    needed.add(os.path.realpath(package))
    needed = {p for p in needed if os.path.exists(p)}
    masks: dict[str, tuple[int, str]] = {repo: (0o755, "64k")}
    for path in needed:
        parts = path.split("/")
        for depth in range(2, len(parts)):
            ancestor = "/".join(parts[:depth])
            if ancestor and not os.stat(ancestor).st_mode & 0o001:
                masks.setdefault(ancestor, (0o711, "64k"))
                break
    for folder in SCRATCH:
        if os.path.isdir(folder) and not os.path.islink(folder):
            masks[os.path.realpath(folder)] = (0o1777, f"{scratch_mb}m")
    done: list[str] = []
    for folder in sorted(masks, key=lambda f: f.count("/")):
        mode, size = masks[folder]
        keeps = [p for p in needed if _inside(p, folder)]
        mask_folder(folder, keeps, mode, size)
        done.append(folder)
    hidden = []
    for path in sorted({os.path.realpath(h) for h in hide}):
        if not os.path.exists(path):
            continue
        if os.path.isdir(path):
            mount("tmpfs", path, "tmpfs", MS_NOSUID | MS_NODEV, "mode=0,size=4k")
        else:
            mount("/dev/null", path, None, MS_BIND)
        hidden.append(path)
    return done + hidden


def confine(
    config: dict, uid: int | None, gid: int | None, work: str, package: str, *, kit: list[str], mechanism: str
) -> str:
    """Everything done before the implementation's code runs; says what is in force.

    Under bubblewrap the view of the files, the namespaces and the user are already in
    place: only the limits remain. Otherwise (the fallback), as root, the server hides
    what it can in a private mount namespace (``kit``: the kit's files it keeps) and drops
    to ``uid``.
    """
    settings = config
    work, notes = _mount_namespace(settings, uid, gid, work, package, kit, mechanism)
    os.chdir(work)
    os.environ["HOME"] = os.environ["TMPDIR"] = work
    tempfile.tempdir = work
    notes.append(_set_limits(settings))
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    os.close(devnull)
    notes.insert(0, _drop_privileges(uid, gid, mechanism))
    libc().prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
    if (
        settings.get("require_isolation")
        and mechanism != BUBBLEWRAP
        and (uid is None or "private mount namespace" not in notes)
    ):
        raise OSError("the operation server could not be isolated (it needs root and mount namespaces)")
    return "; ".join(notes)


def _mount_namespace(
    settings: dict, uid: int | None, gid: int | None, work: str, package: str, kit: list[str], mechanism: str
) -> tuple[str, list[str]]:
    """The fallback's private mount namespace, as root, when it can be made: the working folder, and what is in
    force (under bubblewrap, its own view of the files)."""
    if mechanism == BUBBLEWRAP:
        return work, ["bubblewrap: only its allow-list of files, no network, its own PID, IPC and UTS namespaces"]
    if uid is not None and mechanism == ANOTHER_USER:
        return work, ["no mount namespace (none can be made here)"]
    if uid is not None and settings.get("namespace", True):
        try:
            _isolate(package, kit, list(settings.get("hide", ())), int(settings["scratch_mb"]))
            work = "/tmp/speckit-work"
            os.makedirs(work, mode=0o700, exist_ok=True)
            assert gid is not None  # target_ids gives both or neither
            os.chown(work, uid, gid)
            return work, ["private mount namespace"]
        except OSError as e:
            if settings.get("require_isolation"):
                raise
            return work, [f"no mount namespace ({e.strerror or e})"]
    if uid is not None:
        return work, ["no mount namespace (disabled)"]
    return work, []


def _set_limits(settings: dict) -> str:
    """Set the resource limits (memory, processor time, file size, open files, no new processes); say which."""
    mb = 2**20
    limits = [
        ("RLIMIT_AS", int(settings["memory_mb"]) * mb, int(settings["memory_mb"]) * mb),
        ("RLIMIT_CPU", int(settings["cpu_seconds"]), int(settings["cpu_seconds"]) + 5),
        ("RLIMIT_FSIZE", int(settings["output_kb"]) * 1024, int(settings["output_kb"]) * 1024),
        ("RLIMIT_NOFILE", int(settings["open_files"]), int(settings["open_files"])),
        ("RLIMIT_NPROC", 0, 0),
        ("RLIMIT_CORE", 0, 0),
        ("RLIMIT_MEMLOCK", 0, 0),
        ("RLIMIT_MSGQUEUE", 0, 0),
    ]
    import resource

    for name, soft, hard in limits:
        which = getattr(resource, name, None)
        if which is None:
            continue
        try:
            resource.setrlimit(which, (soft, hard))
        except (ValueError, OSError) as e:
            if name in ("RLIMIT_AS", "RLIMIT_CPU", "RLIMIT_FSIZE"):
                raise OSError(f"setrlimit {name}: {e}") from None
    return (
        f"limits: {settings['memory_mb']} MB memory, {settings['cpu_seconds']} s CPU, "
        f"{settings['output_kb']} KB files and output per call, {settings['open_files']} open files, no new processes"
    )


def _drop_privileges(uid: int | None, gid: int | None, mechanism: str) -> str:
    """Become ``uid`` for good (when started as root); say which user the implementation runs as."""
    if uid is not None:
        assert gid is not None  # target_ids gives both or neither
        os.setgroups([])
        os.setgid(gid)
        os.setuid(uid)
        try:
            os.setuid(0)
        except PermissionError:
            pass
        else:
            raise OSError("privileges could not be dropped")
        return f"uid {uid}, gid {gid}"
    if mechanism == BUBBLEWRAP:
        return f"uid {os.getuid()}, gid {os.getgid()}"
    return f"same user as the tests (uid {os.getuid()}; not started by root)"
