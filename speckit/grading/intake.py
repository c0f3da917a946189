"""Reading submissions: the entries of the folder, safe extraction, finding the package.

Only regular ``.py`` files are taken, without following symbolic links; zip members with
unsafe paths are left out; counts and sizes are bounded. See "Submissions" in
``docs/grading.rst``.
"""

from __future__ import annotations

import base64
import hashlib
import json
import math
import os
import re
import shutil
import stat
import struct
import subprocess
import sys
import unicodedata
import zipfile
from pathlib import Path, PurePosixPath

import attrs

from ..core import KitError
from ..escape import terminal
from .records import Submission

MAX_FILE_BYTES = 256 * 2**10
"""A module larger than this is left out (the largest reference module is under 40 KB):
compiling some sources takes CPython time quadratic in their size."""
MAX_DEPTH = 6


class GradeError(KitError, RuntimeError):
    """Grading cannot start (no such folder, an output folder that would lose work, ...)."""


def safe_name(name: str) -> str:
    """A file name for ``name``: letters (any script), digits, ``.``, ``_`` and ``-``; the rest become ``_``."""
    name = unicodedata.normalize("NFC", name)
    return re.sub(r"[^\w.-]+", "_", name).strip("._-") or "student"


def discover(folder: Path, exclude: tuple[Path, ...] = ()) -> tuple[list[Submission], list[str]]:
    """The submissions in ``folder`` (sub-folders and .zip files), with unique safe names; and what was skipped.

    An entry's name is its safe name (:func:`safe_name`) when no other entry's maps to the
    same one (ignoring case); entries whose names collide all get a suffix made from their own
    name (:func:`suffixed`), so no entry takes another's name, whatever order they sort in:
    ``Alice_Smith`` beside ``Alice Smith`` cannot become the real student's id.
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
            skipped.append(f"{terminal(entry.name)}: a symbolic link, skipped")
            continue
        if entry.is_dir():
            stem = entry.name
        elif entry.is_file() and entry.suffix.lower() == ".zip":
            stem = entry.stem
        else:
            skipped.append(f"{terminal(entry.name)}: neither a folder nor a .zip file, skipped")
            continue
        entries.append((entry, safe_name(stem)))
    claims: dict[str, int] = {}
    for _, name in entries:
        claims[name.casefold()] = claims.get(name.casefold(), 0) + 1
    named = {entry: (name if claims[name.casefold()] == 1 else suffixed(name, entry.name)) for entry, name in entries}
    taken = {name.casefold() for name in named.values()}
    if len(taken) < len(named):  # a suffixed name equal to another entry's own: never in practice
        clashing = sorted(
            terminal(entry.name)
            for entry, name in named.items()
            if sum(n.casefold() == name.casefold() for n in named.values()) > 1
        )
        raise GradeError(f"the entries {', '.join(clashing)} of {folder} map to one name; rename one of them")
    found = [Submission(named[entry], entry, entry.name) for entry, _ in entries]
    return found, skipped


def suffixed(name: str, original: str) -> str:
    """``name`` with a suffix made from the entry's ``original`` name: the same for the same entry in every run."""
    digest = hashlib.sha256(unicodedata.normalize("NFC", original).encode("utf-8", "surrogateescape")).hexdigest()
    return f"{name}-{digest[:8]}"


class Unreadable(KitError):
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


CENTRAL_ENTRY_BYTES = 46 + 1024
"""The central directory's room per entry that a submission may take: its fixed part and
a kilobyte of name, extra field and comment."""


def central_directory(archive: Path) -> tuple[int, int] | None:
    """The entry count and the central directory's size that ``archive``'s end-of-central-directory
    record declares (its Zip64 record when it has one), read from the end of the file alone;
    None when there is no such record (not a zip file: :mod:`zipfile` says so)."""
    with open(archive, "rb") as f:
        f.seek(0, os.SEEK_END)
        size = f.tell()
        tail = min(size, 22 + 65535 + 20)
        f.seek(size - tail)
        data = f.read(tail)
        at = data.rfind(b"PK\x05\x06")
        if at < 0 or len(data) - at < 22:
            return None
        entries, directory = struct.unpack("<HI", data[at + 10 : at + 16])
        locator = at - 20
        if (
            (entries == 0xFFFF or directory == 0xFFFFFFFF)
            and locator >= 0
            and data[locator : locator + 4] == b"PK\x06\x07"
        ):
            (record,) = struct.unpack("<Q", data[locator + 8 : locator + 16])
            if record + 56 <= size:
                f.seek(record)
                zip64 = f.read(56)
                if zip64[:4] == b"PK\x06\x06":
                    entries, directory = struct.unpack("<QQ", zip64[32:48])
        return entries, directory


def extract_zip(archive: Path, destination: Path, limits) -> list[str]:
    """Extract the Python files of ``archive`` safely; notes on what was left out.

    An archive whose end record declares too many entries, or a central directory too large
    for them, is refused before its directory is read (a directory of a million entries
    would take the grader seconds and hundreds of megabytes to parse)."""
    notes: list[str] = []
    budget = int(limits.max_megabytes * 2**20)
    try:
        _refuse_large_directory(archive, limits)
        with zipfile.ZipFile(archive) as z:
            members = z.infolist()
            if len(members) > limits.max_files:
                raise Unreadable(f"the zip file holds {len(members)} entries (at most {limits.max_files} are accepted)")
            for info in members:
                parts = _member_parts(info, notes)
                if parts is None:
                    continue

                def chunks(info=info):
                    nonlocal budget
                    size = 0
                    with z.open(info) as member:
                        while chunk := member.read(65536):
                            size += len(chunk)
                            budget -= len(chunk)
                            if size > MAX_FILE_BYTES or budget < 0:
                                raise Unreadable(
                                    f"the zip file unpacks to more than {limits.max_megabytes:g} MB of Python files"
                                )
                            yield chunk

                target = destination.joinpath(*parts)
                if target.exists():
                    notes.append(f"{info.filename}: given twice, the first copy kept")
                    continue
                _write_new(target, chunks())
    except Unreadable:
        raise
    except (
        zipfile.BadZipFile,
        zipfile.LargeZipFile,
        EOFError,
        NotImplementedError,
        ValueError,
        OSError,
        RuntimeError,
    ) as e:
        raise Unreadable(f"not a readable zip file ({type(e).__name__}: {e})") from None
    return notes


def _refuse_large_directory(archive: Path, limits) -> None:
    """Refuse an archive whose end record declares too many entries or too large a directory."""
    declared = central_directory(archive)
    if declared is not None:
        entries, directory = declared
        if entries > limits.max_files:
            raise Unreadable(f"the zip file holds {entries} entries (at most {limits.max_files} are accepted)")
        if directory > limits.max_files * CENTRAL_ENTRY_BYTES:
            raise Unreadable(
                f"the zip file's directory takes {directory} bytes "
                f"(at most {limits.max_files * CENTRAL_ENTRY_BYTES} are accepted)"
            )


def _member_parts(info: zipfile.ZipInfo, notes: list[str]) -> tuple[str, ...] | None:
    """The path to extract a member to, or None to leave it out (with a note when the student should know)."""
    if info.is_dir():
        return None
    parts = _safe_parts(info.filename)
    if parts is None:
        notes.append(f"{info.filename!r}: an unsafe path, left out")
        return None
    if not _wanted(parts):
        return None
    mode = info.external_attr >> 16
    if stat.S_ISLNK(mode):
        notes.append(f"{info.filename}: a symbolic link, left out")
        return None
    if info.flag_bits & 0x1:
        raise Unreadable("the zip file is encrypted")
    if info.file_size > MAX_FILE_BYTES:
        notes.append(f"{info.filename}: larger than {MAX_FILE_BYTES // 2**10} KB, left out")
        return None
    return parts


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
                notes.append(f"{'/'.join(parts)}: larger than {MAX_FILE_BYTES // 2**10} KB, left out")
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


CHECKER = r"""
import resource, sys
seconds, memory = int(sys.argv[1]), int(sys.argv[2])
resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds))
resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
resource.setrlimit(resource.RLIMIT_NPROC, (0, 0))
resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
import base64, importlib.util, json
from importlib._bootstrap_external import _code_to_hash_pyc
for path in sys.argv[3:]:
    try:
        source = open(path, "rb").read()
        code = compile(source, path, "exec", dont_inherit=True)
        answer = {"pyc": base64.b64encode(_code_to_hash_pyc(code, importlib.util.source_hash(source), True)).decode()}
    except SyntaxError as e:
        answer = {"error": f"line {e.lineno}: {e.msg}"}
    except (ValueError, MemoryError, RecursionError, OSError) as e:
        answer = {"error": f"{type(e).__name__}: {e}"}
    print(json.dumps([path, answer]), flush=True)
"""
"""Compiles modules in a process of its own (as the sandbox's user, with limits on processor
time and memory, writing no file): one line of JSON per module, its bytecode or its error."""


_cannot_change_user: list[str] = []
"""Set once the launcher failed to run the check as the sandbox's user (why), for this process."""


@attrs.frozen
class ModuleCheck:
    """What compiling a package's modules found: the contract modules' errors, and the bytecode
    of each module that compiles (a checked ``.pyc``: the loader uses it only for that very source)."""

    errors: dict[str, str]
    bytecode: dict[str, bytes]


def check_modules(
    package: Path, specification, *, seconds: float = 10.0, memory_mb: int = 1024, uid: int | None = None
) -> ModuleCheck:
    """Compile the top-level modules of ``package`` (compiling runs nothing) in a confined process
    limited to ``seconds`` of processor time: a module that takes longer (CPython's compiler is
    quadratic in some sources) is an error, and the grader never compiles one itself."""
    modules = sorted(p for p in package.glob("*.py") if p.is_file())
    contract = {f"{t.module}.py" for t in specification.types if not t.supplied}
    answers: dict[str, dict] = {}
    limit = max(1, math.ceil(seconds))
    remaining = modules
    while remaining:  # a module that runs out of time is passed over, and the ones after it checked again
        argv = [sys.executable, "-I", "-S", "-c", CHECKER, str(limit), str(memory_mb * 2**20), *map(str, remaining)]
        user: dict = {}  # how Popen starts the check as the sandbox's user (nothing: as the grader's own)
        if uid is not None and not _cannot_change_user:
            from ..sandbox.bubblewrap import python_roots
            from ..sandbox.launch import as_user

            argv, user = as_user(argv, uid, uid, [*python_roots(), str(package)])
        try:
            done = subprocess.run(
                argv,
                stdin=subprocess.DEVNULL,
                capture_output=True,
                timeout=3 * limit + 5,
                cwd="/",
                env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"},
                **user,
            )
            printed = done.stdout
            if (
                uid is not None
                and not printed
                and b"speckit" in done.stderr
                and b"Traceback" in done.stderr
                and not _cannot_change_user
            ):
                # The launcher could not run it as the sandbox's user here (no namespace of any
                # kind for an interpreter under /root): it runs with its limits alone.
                _cannot_change_user.append(done.stderr.decode(errors="replace")[-300:])
                continue
        except subprocess.TimeoutExpired as e:
            printed = e.stdout or b""
        for line in printed.decode(errors="replace").splitlines():
            try:
                path, answer = json.loads(line)
                answers[Path(path).name] = answer
            except (ValueError, TypeError):
                continue
        unanswered = [p for p in remaining if p.name not in answers]
        remaining = unanswered[1:]
    errors, bytecode = {}, {}
    for path in modules:
        answer = answers.get(path.name) or {"error": f"it took more than {seconds:g} s or {memory_mb} MB to compile"}
        if "pyc" in answer:
            bytecode[path.name] = base64.b64decode(answer["pyc"])
        elif path.name in contract:
            errors[path.name] = str(answer.get("error", "it could not be compiled"))[:500]
    return ModuleCheck(errors, bytecode)


def syntax_errors(package: Path, specification, **limits) -> dict[str, str]:
    """The contract modules of ``package`` that do not compile, with the error (:func:`check_modules`)."""
    return check_modules(package, specification, **limits).errors


def install_bytecode(package: Path, bytecode: dict[str, bytes], names: set[str], gid: int | None) -> None:
    """Put the bytecode of the modules ``names`` of ``package`` where its imports find it, so no
    server compiles them again (each restart would)."""
    wanted = {name: data for name, data in bytecode.items() if name in names and (package / name).is_file()}
    if not wanted:
        return
    cache = package / "__pycache__"
    cache.mkdir(exist_ok=True)
    own(cache, 0o750, gid)
    tag = sys.implementation.cache_tag
    for name, data in wanted.items():
        target = cache / f"{name[:-3]}.{tag}.pyc"
        _write_new(target, [data])
        own(target, 0o640, gid)


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
