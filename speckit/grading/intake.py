"""Reading submissions: the entries of the folder, safe extraction, finding the package.

Only regular ``.py`` files are taken, without following symbolic links; zip members with
unsafe paths are left out; counts and sizes are bounded. See "Submissions" in
``docs/grading.rst``.
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import unicodedata
import zipfile
from pathlib import Path, PurePosixPath

from .records import Submission

MAX_FILE_BYTES = 2 * 2**20
MAX_DEPTH = 6


class GradeError(RuntimeError):
    """Grading cannot start (no such folder, an output folder that would lose work, ...)."""


def safe_name(name: str) -> str:
    """A file name for ``name``: letters (any script), digits, ``.``, ``_`` and ``-``; the rest become ``_``."""
    name = unicodedata.normalize("NFC", name)
    return re.sub(r"[^\w.-]+", "_", name).strip("._-") or "student"


def discover(folder: Path, exclude: tuple[Path, ...] = ()) -> tuple[list[Submission], list[str]]:
    """The submissions in ``folder`` (sub-folders and .zip files), with unique safe names; and what was skipped.

    An entry whose name is already safe keeps it; the others get theirs after, so
    ``a_b`` stays ``a_b`` and ``a b`` becomes ``a_b-2``.
    """
    if not folder.is_dir():
        raise GradeError(f"{folder}: no such folder")
    excluded = {p.resolve() for p in exclude}
    entries, skipped = [], []
    for entry in sorted(folder.iterdir(), key=lambda p: p.name):
        if entry.name.startswith(".") or entry.name == "__MACOSX":
            continue
        if entry.resolve() in excluded:
            continue
        if entry.is_symlink():
            skipped.append(f"{entry.name}: a symbolic link, skipped")
            continue
        if entry.is_dir():
            stem = entry.name
        elif entry.is_file() and entry.suffix.lower() == ".zip":
            stem = entry.stem
        else:
            skipped.append(f"{entry.name}: neither a folder nor a .zip file, skipped")
            continue
        entries.append((entry, stem, safe_name(stem)))
    used: set[str] = set()
    named: dict[Path, str] = {}
    for keeps_its_name in (True, False):
        for entry, stem, name in entries:
            if (name == stem) != keeps_its_name:
                continue
            base, n = name, 2
            while name.casefold() in used:
                name, n = f"{base}-{n}", n + 1
            used.add(name.casefold())
            named[entry] = name
    found = [Submission(named[entry], entry, entry.name) for entry, _, _ in entries]
    return found, skipped


class Unreadable(Exception):
    """The submission cannot be graded at all; the message says why, for the student."""


def _safe_parts(name: str) -> tuple[str, ...] | None:
    """The path of a zip member as safe parts, or None for one that must not be extracted."""
    name = name.replace("\\", "/")
    if name.startswith("/") or re.match(r"^[A-Za-z]:", name) or "\x00" in name:
        return None
    parts = tuple(p for p in PurePosixPath(name).parts if p not in ("", "."))
    if any(p == ".." for p in parts) or len(parts) > MAX_DEPTH:
        return None
    return parts


def _wanted(parts: tuple[str, ...]) -> bool:
    return (
        bool(parts)
        and parts[-1].endswith(".py")
        and not any(p.startswith(".") or p in ("__MACOSX", "__pycache__") for p in parts)
        and all(re.fullmatch(r"[A-Za-z0-9_.\- ]+", p) for p in parts)
    )


def _write_new(target: Path, chunks) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    with os.fdopen(fd, "wb") as out:
        for chunk in chunks:
            out.write(chunk)


def extract_zip(archive: Path, destination: Path, limits) -> list[str]:
    """Extract the Python files of ``archive`` safely; notes on what was left out."""
    notes = []
    budget = int(limits.max_megabytes * 2**20)
    try:
        with zipfile.ZipFile(archive) as z:
            members = z.infolist()
            if len(members) > limits.max_files:
                raise Unreadable(f"the zip file holds {len(members)} entries (at most {limits.max_files} are accepted)")
            for info in members:
                if info.is_dir():
                    continue
                parts = _safe_parts(info.filename)
                if parts is None:
                    notes.append(f"{info.filename!r}: an unsafe path, left out")
                    continue
                if not _wanted(parts):
                    continue
                mode = info.external_attr >> 16
                if stat.S_ISLNK(mode):
                    notes.append(f"{info.filename}: a symbolic link, left out")
                    continue
                if info.flag_bits & 0x1:
                    raise Unreadable("the zip file is encrypted")
                if info.file_size > MAX_FILE_BYTES:
                    notes.append(f"{info.filename}: larger than {MAX_FILE_BYTES // 2**20} MB, left out")
                    continue

                def chunks(info=info):
                    nonlocal budget
                    size = 0
                    with z.open(info) as member:
                        while chunk := member.read(65536):
                            size += len(chunk)
                            budget -= len(chunk)
                            if size > MAX_FILE_BYTES or budget < 0:
                                raise Unreadable(f"the zip file unpacks to more than {limits.max_megabytes:g} MB of Python files")
                            yield chunk

                target = destination.joinpath(*parts)
                if target.exists():
                    notes.append(f"{info.filename}: given twice, the first copy kept")
                    continue
                _write_new(target, chunks())
    except Unreadable:
        raise
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, NotImplementedError, ValueError, OSError, RuntimeError) as e:
        raise Unreadable(f"not a readable zip file ({type(e).__name__}: {e})") from None
    return notes


def copy_folder(folder: Path, destination: Path, limits) -> list[str]:
    """Copy the Python files of ``folder`` safely (no symlinks followed); notes on what was left out."""
    notes, count, budget = [], 0, int(limits.max_megabytes * 2**20)
    for root, dirs, files in os.walk(folder, followlinks=False):
        relative = Path(root).relative_to(folder)
        if len(relative.parts) >= MAX_DEPTH:
            dirs[:] = []
            continue
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in ("__pycache__", "__MACOSX"))
        for name in sorted(files):
            count += 1
            if count > limits.max_files:
                raise Unreadable(f"the submission holds more than {limits.max_files} files")
            parts = (*relative.parts, name)
            if not _wanted(parts):
                continue
            source = Path(root) / name
            try:
                fd = os.open(source, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
            except OSError:
                notes.append(f"{'/'.join(parts)}: a symbolic link or unreadable, left out")
                continue
            with os.fdopen(fd, "rb") as f:
                if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                    notes.append(f"{'/'.join(parts)}: not a regular file, left out")
                    continue
                data = f.read(MAX_FILE_BYTES + 1)
            if len(data) > MAX_FILE_BYTES:
                notes.append(f"{'/'.join(parts)}: larger than {MAX_FILE_BYTES // 2**20} MB, left out")
                continue
            budget -= len(data)
            if budget < 0:
                raise Unreadable(f"the submission holds more than {limits.max_megabytes:g} MB of Python files")
            _write_new(destination.joinpath(*parts), [data])
    return notes


def find_package(root: Path, specification) -> Path | None:
    """The folder (``root`` or below, as deep as a submission may go) holding the most of the
    contract's modules, the shallowest of those; None when none holds any. Two such folders
    equally deep are ambiguous: an Unreadable naming them, since grading either could be wrong."""
    wanted = {f"{t.module}.py" for t in specification.types if not t.supplied}
    found: dict[tuple[int, int], list[Path]] = {}
    for folder in [root, *sorted(p for p in root.rglob("*") if p.is_dir())]:
        depth = len(folder.relative_to(root).parts)
        score = len(wanted & {p.name for p in folder.glob("*.py")})
        if score and depth < MAX_DEPTH:
            found.setdefault((-score, depth), []).append(folder)
    if not found:
        return None
    best = found[min(found)]
    if len(best) > 1:
        names = ", ".join(f"{folder.relative_to(root).as_posix()}/" for folder in best)
        raise Unreadable(f"several folders hold the package's modules ({names}): submit only one copy of your package")
    return best[0]


def syntax_errors(package: Path, specification) -> dict[str, str]:
    """The contract modules of ``package`` that do not compile, with the error (compiling runs nothing)."""
    errors = {}
    for type_spec in specification.types:
        path = package / f"{type_spec.module}.py"
        if type_spec.supplied or not path.is_file():
            continue
        try:
            compile(path.read_bytes(), path.name, "exec", dont_inherit=True)
        except SyntaxError as e:
            errors[path.name] = f"line {e.lineno}: {e.msg}"
        except (ValueError, MemoryError, RecursionError) as e:
            errors[path.name] = f"{type(e).__name__}: {e}"
    return errors


def publish(source: Path, target: Path, gid: int | None) -> None:
    """Copy a package tree where the operation server of group ``gid`` (only) can read it."""
    shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    for root, dirs, files in os.walk(target):
        for name in dirs:
            own(Path(root) / name, 0o750, gid)
        for name in files:
            own(Path(root) / name, 0o640, gid)
    own(target, 0o750, gid)


def own(path: Path, mode: int, gid: int | None) -> None:
    """Give ``path`` to group ``gid`` with ``mode`` (without root: readable by all, as the server is the same user)."""
    if gid is not None:
        os.chown(path, 0, gid, follow_symlinks=False)
        os.chmod(path, mode)
    else:
        os.chmod(path, mode | (mode & 0o070) >> 3)
