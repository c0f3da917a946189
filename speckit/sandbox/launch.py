"""Starts ``bwrap`` as the unprivileged user, when the grader is root.

The Python installation may lie under a folder that user cannot enter (``/root``). This
program, started by the grader as root, enters a private mount namespace, covers each
such folder with an empty tmpfs that may be entered, binds the installation back in,
drops to the user (no supplementary groups) and runs ``bwrap``, which then finds the
installation where it always was. It changes nothing outside its own mount namespace.

Where root may not make a mount namespace (no ``CAP_SYS_ADMIN``: a container's default),
it makes a user namespace first, mapping root and the user to themselves (a helper process,
still root outside, writes the maps), and does the same inside it: there it owns its mount
namespace. The server still runs as the user, under bubblewrap.

Usage: ``python -m speckit.sandbox.launch JSON`` with ``{"uid", "gid", "masks":
{folder: [path, ...]}, "argv": [...]}``.
"""

from __future__ import annotations

import ctypes
import errno
import json
import os
import sys

from .confine import MS_PRIVATE, MS_REC, libc, mask_folder, mount, unshare_mounts

CLONE_NEWUSER = 0x10000000


def own_user_namespace(uid: int, gid: int) -> None:
    """Enter a new user namespace (with a mount namespace) where root and ``uid``/``gid`` are themselves."""
    ready_read, ready_write = os.pipe()
    done_read, done_write = os.pipe()
    helper = os.fork()
    if helper == 0:  # still root outside: writes the parent's maps once it has unshared
        os.close(ready_write)
        os.close(done_read)
        status = 1
        try:
            if os.read(ready_read, 1) == b"u":
                parent = os.getppid()
                for kind, other in (("uid", uid), ("gid", gid)):
                    lines = "0 0 1\n" + (f"{other} {other} 1\n" if other != 0 else "")
                    with open(f"/proc/{parent}/{kind}_map", "w") as f:
                        f.write(lines)
                status = 0
        except OSError as e:
            os.write(2, f"speckit launch: cannot map the user namespace: {e}\n".encode())
        os.write(done_write, bytes([status]))
        os._exit(status)
    os.close(ready_read)
    os.close(done_write)
    if libc().unshare(CLONE_NEWUSER | 0x00020000) != 0:
        number = ctypes.get_errno()
        os.write(ready_write, b"x")
        os.waitpid(helper, 0)
        raise OSError(number, f"unshare (user and mount namespaces): {os.strerror(number)}")
    os.write(ready_write, b"u")
    answer = os.read(done_read, 1)
    os.waitpid(helper, 0)
    if answer != b"\x00":
        raise OSError(errno.EPERM, "the user namespace could not be mapped")
    os.setgid(0)  # take the mapped root's capabilities in the new namespace
    os.setuid(0)


def as_user(argv: list[str], uid: int, gid: int, sources: list[str]) -> tuple[list[str], dict]:
    """``argv`` to be run as ``uid`` (no supplementary groups), able to reach ``sources`` even
    under a folder that user cannot enter: the command line, and how Popen starts it."""
    from ..paths import REPO_ROOT
    from .bubblewrap import unreachable_ancestors

    folders = unreachable_ancestors(sources)
    if not folders:
        return argv, {"user": uid, "group": gid, "extra_groups": []}
    masks = {folder: [s for s in sources if s.startswith(folder + "/")] for folder in folders}
    launch = f"import sys; sys.path.insert(0, {str(REPO_ROOT)!r}); from speckit.sandbox.launch import main; main()"
    request = json.dumps({"uid": uid, "gid": gid, "masks": masks, "argv": argv})
    return [sys.executable, "-c", launch, request], {}


def main() -> None:
    request = json.loads(sys.argv[1])
    try:
        unshare_mounts()
    except PermissionError:
        own_user_namespace(request["uid"], request["gid"])
    mount(None, "/", None, MS_REC | MS_PRIVATE)
    for folder, keeps in sorted(request["masks"].items()):
        mask_folder(folder, keeps, 0o711, "64k")
    os.setgroups([])
    os.setgid(request["gid"])
    os.setuid(request["uid"])
    argv = request["argv"]
    os.execv(argv[0], argv)


if __name__ == "__main__":
    main()
