"""Starts ``bwrap`` as the unprivileged user, when the grader is root.

The Python installation may lie under a folder that user cannot enter (``/root``). This
program, started by the grader as root, enters a private mount namespace, covers each
such folder with an empty tmpfs that may be entered, binds the installation back in,
drops to the user (no supplementary groups) and runs ``bwrap``, which then finds the
installation where it always was. It changes nothing outside its own mount namespace.

Usage: ``python -m speckit.sandbox.launch JSON`` with ``{"uid", "gid", "masks":
{folder: [path, ...]}, "argv": [...]}``.
"""

from __future__ import annotations

import json
import os
import sys

from .confine import MS_PRIVATE, MS_REC, mask_folder, mount, unshare_mounts


def main() -> None:
    request = json.loads(sys.argv[1])
    unshare_mounts()
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
