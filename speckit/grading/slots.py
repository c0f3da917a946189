"""What each grading job slot runs with: an unprivileged uid no one else uses, and a processor of its own.

Graders running at once on one machine (two ``speckit grade``, the shards of one class)
claim their uids by locks in one root-only folder, so no two operation servers share a uid.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import stat
import tempfile
from pathlib import Path

from .intake import GradeError

UID_BASE = 61000
"""The unprivileged uids (and gids) of the operation servers: from UID_BASE up, skipping used ones."""
UID_SPAN = 4000
"""How many uids from UID_BASE the graders of one machine share."""
UID_LOCKS = ("/run/lock", "/run", tempfile.gettempdir())
"""Where the graders of one machine claim their uids (the first that exists): a root-only folder
``speckit-uids`` holding one lock file per uid, locked while a grader uses that uid."""


def claim_uids(jobs: int, claims: list[int]) -> list[int]:
    """One unprivileged uid per job, used by no account, no running process and no other
    grader: two graders running at once never share a uid (each claims its own by a lock).
    The open lock files are appended to ``claims``; closing one releases its uid. Root only."""
    import grp
    import pwd

    used = {p.pw_uid for p in pwd.getpwall()} | {g.gr_gid for g in grp.getgrall()} | _running_uids()
    folder = _claims_folder()
    ids: list[int] = []
    for candidate in range(UID_BASE, UID_BASE + UID_SPAN):
        if len(ids) == jobs:
            break
        if candidate not in used and (claim := _claim(folder, candidate)) is not None:
            claims.append(claim)
            ids.append(candidate)
    if len(ids) < jobs:
        raise GradeError(
            f"no free uid for the sandbox between {UID_BASE} and {UID_BASE + UID_SPAN - 1} (other graders hold them)"
        )
    return ids


def processors(jobs: int) -> list[frozenset[int] | None]:
    """One processor of its own for each job slot when there are enough, else None for each
    (and when the environment sets ``SPECKIT_NO_PINNING``).

    A job is a test process and its operation server, which take turns: kept on one
    processor, each hands over to the other without waking another processor.
    """
    available = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    if jobs < 2 or jobs > len(available) or os.environ.get("SPECKIT_NO_PINNING"):
        return [None] * jobs
    return [frozenset({available[slot]}) for slot in range(jobs)]


def _claims_folder() -> Path:
    """The root-only folder where graders claim uids; GradeError if it is not safe to use."""
    base = next(Path(p) for p in UID_LOCKS if os.path.isdir(p))
    folder = base / "speckit-uids"
    with contextlib.suppress(FileExistsError):
        folder.mkdir(mode=0o700)
    info = folder.lstat()
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != 0 or info.st_mode & 0o022:
        raise GradeError(f"{folder} is not a folder only root may write: uids cannot be claimed safely")
    return folder


def _claim(folder: Path, uid: int) -> int | None:
    """An open, locked lock file for ``uid``, or None if another grader holds it."""
    fd = os.open(folder / f"{uid}.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    return fd


def _running_uids() -> set[int]:
    """The real uids of the processes running now (a uid in use by a process is not free)."""
    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError):
                found.add(os.stat(f"/proc/{entry}").st_uid)
    return found
