"""The operation server's command line under bubblewrap, built from an allow-list.

The server sees a fresh root holding only: the system's programs and libraries (``/usr``
and the ``/lib`` links) and the Python installation, read-only; the kit's files that the
server imports (:func:`kit_files`: its own modules, the specification data, the
specification's declared supplied modules and what they import), read-only; the student's
package, read-only, as ``/submission``; a private ``/proc`` of its own PID namespace, a minimal,
read-only ``/dev`` with a small ``/dev/shm`` and a small private ``/tmp``, holding at
``/tmp/speckit-folders`` (:data:`FOLDERS`) the one host folder it may write, bind-mounted
read-write: the folders ``impl.working_folder()`` makes for it and the test process (a
per-server folder under the grader's own scratch). It has no network (only its own
loopback), its own IPC and UTS namespaces, an unprivileged uid (when the grader is root), and dies with the grader.
See "Threat model" in ``docs/grading.rst``.

When the grader runs as root, the Python installation may lie under a folder the
unprivileged user cannot enter (``/root``): :mod:`speckit.sandbox.launch` then makes it
reachable in a private mount namespace before it starts ``bwrap`` as that user.
"""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
from pathlib import Path

from ..paths import REPO_ROOT

SUBMISSION = "/submission"
"""Where the student's package is, for the server: a path that names neither the student nor the grader's folders."""

SYSTEM_LINKS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
"""Top-level folders that are links into ``/usr`` on a merged-/usr system, or folders otherwise."""


@functools.cache
def kit_files(spec_name: str) -> tuple[str, ...]:
    """The kit's files the server reads: the modules it imports for ``spec_name`` (its own, the
    specification's supplied modules and what they import) and the specification data folder.

    Found by importing them in a fresh interpreter, so the list follows the code.
    """
    probe = (
        "import importlib, json, sys\n"
        "import speckit.sandbox.server, spec\n"
        f"specification = spec.load({spec_name!r})\n"
        "for name in specification.kit.supplied: importlib.import_module(name)\n"
        "print(json.dumps(sorted({m.__file__ for m in list(sys.modules.values()) if getattr(m, '__file__', None)})))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=str(REPO_ROOT),
        env={**os.environ, "PYTHONSAFEPATH": "1", "PYTHONPATH": str(REPO_ROOT)},
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"the kit's own modules cannot be imported: {done.stderr.strip()[-500:]}")
    repo = REPO_ROOT.resolve()
    files = set()
    for name in json.loads(done.stdout):
        path = Path(name).resolve()
        if path.is_relative_to(repo) and not path.is_relative_to(repo / ".venv"):
            files.add(str(path))
            cached = _cached(path)
            if cached is not None:
                files.add(cached)
    import spec

    files.add(str(Path(spec.__file__).resolve().parent / spec_name))
    return tuple(sorted(files))


def _cached(source: Path) -> str | None:
    import importlib.util

    try:
        cached = Path(importlib.util.cache_from_source(str(source)))
    except (NotImplementedError, ValueError):
        return None
    return str(cached) if cached.is_file() else None


def python_roots() -> list[str]:
    """The folders of the Python installation the server runs: its prefixes (the interpreter and
    its standard library) and the site-packages folders on its path, outside the kit's checkout.

    Other entries of ``sys.path`` (a script's folder, ``/tmp`` say) are not the installation.
    """
    repo = REPO_ROOT.resolve()
    prefixes = {os.path.realpath(p) for p in (sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix)}
    roots = set(prefixes)
    for entry in sys.path:
        path = os.path.realpath(entry) if entry else ""
        if os.path.isdir(path) and os.path.basename(path) in ("site-packages", "dist-packages"):
            roots.add(path)
    kept = set()
    for root in roots:
        folder = Path(root)
        if folder == repo or (folder.is_relative_to(repo) and not folder.is_relative_to(repo / ".venv")):
            continue
        if root in ("/", "/usr") or root.startswith("/usr/") or not os.path.isdir(root):
            continue
        kept.add(root)
    return sorted(k for k in kept if not any(k != o and k.startswith(o.rstrip("/") + "/") for o in kept))


def unreachable_ancestors(paths: list[str]) -> list[str]:
    """The highest folders on the way to ``paths`` that others may not enter (``/root``, say)."""
    found = set()
    for path in paths:
        parts = path.split("/")
        for depth in range(2, len(parts)):
            ancestor = "/".join(parts[:depth])
            try:
                mode = os.stat(ancestor).st_mode
            except OSError:
                break
            if not mode & 0o001:
                found.add(ancestor)
                break
    return sorted(found)


FOLDERS = "/tmp/speckit-folders"
"""Where the server sees the host folder of its working folders (read-write, its only one)."""


def command(
    program: str,
    boot: list[str],
    *,
    package: str,
    spec_name: str,
    uid: int | None,
    gid: int | None,
    scratch_mb: int,
    work: str,
    folders: str | None = None,
    kit: tuple[str, ...] | None = None,
) -> list[str]:
    """The ``bwrap`` command line that runs ``boot`` (the server's own command line) confined.

    ``kit``: the kit's files to bind (default: :func:`kit_files` of ``spec_name``)."""
    args = [program, "--unshare-all", "--die-with-parent", "--new-session", "--as-pid-1", "--hostname", "sandbox"]
    if uid is not None:
        args += ["--uid", str(uid), "--gid", str(gid)]
    args += ["--ro-bind", "/usr", "/usr"]
    for link in SYSTEM_LINKS:
        if os.path.islink(link):
            args += ["--symlink", os.readlink(link), link]
        elif os.path.isdir(link):
            args += ["--ro-bind", link, link]
    args += ["--ro-bind-try", "/etc/ld.so.cache", "/etc/ld.so.cache"]
    # bwrap's /dev is a tmpfs sized at half the machine's memory, outside every limit: /dev/shm
    # gets one of the scratch size and /dev itself is made read-only (its devices still work).
    args += ["--proc", "/proc", "--dev", "/dev"]
    args += ["--perms", "1777", "--size", str(scratch_mb * 2**20), "--tmpfs", "/dev/shm", "--remount-ro", "/dev"]
    args += ["--perms", "1777", "--size", str(scratch_mb * 2**20), "--tmpfs", "/tmp"]
    args += ["--perms", "0700", "--dir", work]
    if folders is not None:  # the folders impl.working_folder() makes, shared with the test process
        args += ["--bind", folders, FOLDERS]
    for root in python_roots():
        args += ["--ro-bind", root, root]
    for path in kit if kit is not None else kit_files(spec_name):
        args += ["--ro-bind", path, path]
    args += ["--ro-bind", package, SUBMISSION]
    args += ["--remount-ro", "/", "--chdir", work, "--"]  # the folders made for the binds stay empty
    return args + boot
