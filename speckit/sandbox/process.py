"""The operation server process, seen from the test process.

:class:`Server` starts the server, exchanges length-prefixed frames with it (requests in
marshal, answers in JSON: :mod:`speckit.sandbox.protocol`),
watches its progress page and its time (:mod:`~speckit.sandbox.overrun`), kills it and
says why it ended (:func:`describe_exit`);
:func:`probe` starts one to say how it is confined.
"""

from __future__ import annotations

import contextlib
import json
import marshal
import mmap
import os
import select
import signal
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import attrs

from ..paths import REPO_ROOT
from . import bubblewrap
from .config import SandboxConfig, SandboxError, target_ids
from .isolation import BUBBLEWRAP, bwrap_path, probe_isolation
from .overrun import Overrun, first_child, process_cpu_seconds
from .protocol import HEADER, INDEX_BITS, MAX_MESSAGE, MAX_REPLY, PROGRESS

_JSON = json.JSONDecoder()
"""The answers' decoder (``raw_decode`` of the text: ``json.loads`` first guesses the encoding)."""

BUBBLEWRAP_WORK = "/tmp/speckit-work"
"""The server's working folder under bubblewrap, in its private /tmp."""


class ServerDied(Exception):
    """The server ended (or was killed) while answering: at which command, and why."""

    def __init__(self, index: int, reason: str, hung: bool = False):
        super().__init__(reason)
        self.index = index
        self.reason = reason
        self.hung = hung


class ProtocolViolation(Exception):
    """The server sent something that is not a valid answer."""


def bounded_text(value: Any) -> str:
    if not isinstance(value, str):
        raise ProtocolViolation("expected text")
    return value[:MAX_MESSAGE]


def server_environment(work: str) -> dict[str, str]:
    """The server's whole environment: nothing of the grader's, its home and temporary folder ``work``."""
    return {
        "PATH": "/usr/bin:/bin",
        "LANG": "C.UTF-8",
        "PYTHONHASHSEED": "0",
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONNOUSERSITE": "1",
        "PYTHONSAFEPATH": "1",
        "HOME": work,
        "TMPDIR": work,
    }


def decode_answer(frame: bytearray) -> Any:
    """An answer's JSON text (UTF-8, as the server writes it) as data; ProtocolViolation if it is not JSON."""
    try:
        text = frame.decode()
        answer, end = _JSON.raw_decode(text)
    except (ValueError, RecursionError):
        raise ProtocolViolation("not JSON") from None
    if end != len(text):
        raise ProtocolViolation("not JSON")
    return answer


class Server:
    """One operation server process at a time: start, exchange messages, kill."""

    def __init__(self, package: Path, spec_name: str, config: SandboxConfig):
        self.package = package
        self.spec_name = spec_name
        self.config = config
        self.process: subprocess.Popen | None = None
        self.run_dir = Path(tempfile.mkdtemp(prefix="speckit-sandbox-"))
        os.chmod(self.run_dir, 0o711)
        self.folders = self.run_dir / "folders"
        """The host folder holding the working folders made by ``impl.working_folder()``."""
        self.folders.mkdir(mode=0o711)
        self.buffer = bytearray()
        self.progress: mmap.mmap | None = None
        self.killed_because = ""
        self.exit_code: int | None = None
        """How the last server ended: its exit status, or minus the signal that ended it."""
        self.isolation = probe_isolation(config)
        self._pid: int | None = None
        """The server's own process id, once known (under bubblewrap, bwrap's child)."""

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def start(self) -> dict:
        """Start a server (killing the one running) and return its greeting; ServerDied or
        SandboxError if it does not start."""
        self.kill()
        self._pid = None
        request_read, reply_write, progress_fd = self._open_channel()
        uid, gid = target_ids(self.config)
        wrapped = self.isolation.mechanism == BUBBLEWRAP
        work = BUBBLEWRAP_WORK if wrapped else self._work_folder(uid, gid)
        argument = {
            "request": request_read,
            "reply": reply_write,
            "progress": progress_fd,
            "package": bubblewrap.SUBMISSION if wrapped else str(self.package),
            "spec": self.spec_name,
            "config": attrs.asdict(self.config),
            "mechanism": self.isolation.mechanism,
            "uid": None if wrapped else uid,
            "gid": None if wrapped else gid,
            "work": work,
            "kit": list(self.kit_files()),
        }
        boot = f"import sys; sys.path.insert(0, {str(REPO_ROOT)!r}); from speckit.sandbox.server import main; main()"
        argv = [sys.executable, "-c", boot, json.dumps(argument)]
        user: dict[str, Any] = {}
        if wrapped:
            argv, user = self._wrapped(argv, uid, gid, work)
        try:
            with open(self.run_dir / "server-errors.txt", "ab") as errors:
                self.process = subprocess.Popen(
                    argv,
                    **user,
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    stderr=errors,
                    pass_fds=(request_read, reply_write, progress_fd),
                    env=server_environment(work),
                    cwd="/",
                    start_new_session=True,
                )
        finally:
            os.close(request_read)
            os.close(reply_write)
            os.close(progress_fd)
        self.buffer.clear()
        self.killed_because = ""
        return self._greeting()

    def _open_channel(self) -> tuple[int, int, int]:
        """Open the pipes and the progress page; the server's ends: request, reply, progress."""
        request_read, self.request = os.pipe()
        self.reply, reply_write = os.pipe()
        progress_fd = os.memfd_create("speckit-progress", 0)
        os.ftruncate(progress_fd, mmap.PAGESIZE)
        self.progress = mmap.mmap(progress_fd, mmap.PAGESIZE)
        PROGRESS.pack_into(self.progress, 0, -1)
        os.set_blocking(self.request, False)
        os.set_blocking(self.reply, False)  # an answer already there is read without a select
        return request_read, reply_write, progress_fd

    def _work_folder(self, uid: int | None, gid: int | None) -> str:
        """The server's working folder without bubblewrap, made and given to ``uid``."""
        work = str(self.run_dir / "work")
        os.makedirs(work, exist_ok=True)
        if uid is not None:
            assert gid is not None  # target_ids gives both or neither
            os.chown(work, uid, gid)
            os.chmod(work, 0o700)
        return work

    def _greeting(self) -> dict:
        """The server's first frame, checked: ServerDied if it dies or says nothing valid."""
        try:
            reply = self._read(0, [self.config.import_seconds + 20.0], startup=True)
        except ServerDied as e:
            e.index = self.progress_index(0)  # IMPORTING once the server imports the package (protocol.IMPORTING)
            raise
        except ProtocolViolation as e:
            self.kill()
            raise ServerDied(0, f"it wrote into the grader's channel ({e})") from None
        if not isinstance(reply, dict) or reply.get("seq") != 0:
            self.kill()
            raise ServerDied(0, "it wrote into the grader's channel (bad greeting)")
        if reply.get("fatal"):
            self.kill()
            raise SandboxError(f"the operation server could not be confined: {bounded_text(reply['fatal'])}")
        return reply

    def _wrapped(self, argv: list[str], uid: int | None, gid: int | None, work: str) -> tuple[list[str], dict]:
        """``argv`` run under bubblewrap as ``uid``: the command line, and how Popen starts it."""
        bwrap = bwrap_path()
        assert bwrap is not None  # wrapped only when bubblewrap is installed
        argv = bubblewrap.command(
            bwrap,
            argv,
            package=str(self.package),
            spec_name=self.spec_name,
            uid=uid,
            gid=gid,
            scratch_mb=self.config.scratch_mb,
            work=work,
            folders=str(self.folders),
            kit=self.kit_files(),
        )
        if uid is None:
            return argv, {}
        assert gid is not None  # target_ids gives both or neither
        from .launch import as_user

        return as_user(argv, uid, gid, [*bubblewrap.python_roots(), *self.kit_files(), str(self.package)])

    def kit_files(self) -> tuple[str, ...]:
        """The kit's files the server reads: as the settings give them, else worked out (once per process)."""
        return self.config.kit_files or bubblewrap.kit_files(self.spec_name)

    def server_pid(self) -> int | None:
        """The process that runs the implementation: the one started, or bubblewrap's child."""
        if self._pid is None and self.process is not None and self.process.poll() is None:
            self._pid = first_child(self.process.pid) if self.isolation.mechanism == BUBBLEWRAP else self.process.pid
        return self._pid

    def cpu_seconds(self) -> float | None:
        """Processor time the running server has used so far (None if it cannot be read)."""
        pid = self.server_pid()
        return None if pid is None else process_cpu_seconds(pid)

    def server_path(self, host: Path) -> str:
        """Where the server sees ``host``, a folder under :attr:`folders`."""
        if self.isolation.mechanism != BUBBLEWRAP:
            return str(host)
        return str(Path(bubblewrap.FOLDERS) / host.relative_to(self.folders))

    def progress_index(self, seq: int) -> int:
        if self.progress is None:
            return 0
        try:
            (word,) = PROGRESS.unpack_from(self.progress, 0)
        except (ValueError, struct.error):
            return 0
        at_seq, index = word >> INDEX_BITS, word & ((1 << INDEX_BITS) - 1)
        return index if at_seq == seq else 0

    def exchange(self, message: dict, limits: list[float]) -> dict:
        data = marshal.dumps(message)  # a request: the trusted direction (protocol.py)
        self._send(HEADER.pack(len(data)) + data, deadline=time.monotonic() + 10.0 + self.config.grace)
        reply = self._read(message["seq"], limits)
        if not isinstance(reply, dict) or reply.get("seq") != message["seq"]:
            raise ProtocolViolation("answer to another request")
        return reply

    def _send(self, data: bytes, deadline: float) -> None:
        view = memoryview(data)
        while view:
            try:
                written = os.write(self.request, view)
                view = view[written:]
                continue
            except BlockingIOError:
                pass
            except (BrokenPipeError, OSError):
                raise ServerDied(0, self._death()) from None
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not self.alive():
                self.kill()
                raise ServerDied(0, self._death() if not self.killed_because else self.killed_because)
            select.select([], [self.request], [], min(remaining, 0.25))

    def _read(self, seq: int, limits: list[float], startup: bool = False) -> Any:
        """The answer to request ``seq``; ServerDied if the server dies or overruns a limit.

        ``limits`` are the commands' limits in processor time, read from ``/proc`` (a server
        whose own watchdog was defeated is killed past its limit and the grace); a command
        that waits instead of working is killed past its wall-clock backstop.
        """
        clock = Overrun(limits, self.config.grace, self.config.wall_factor)
        readable: object = True  # try to read before waiting: the answer is often there already
        while True:
            frame = self._frame()
            if frame is not None:
                return decode_answer(frame)
            if not readable:
                readable, _, _ = select.select([self.reply], [], [], 0.1)
            if readable:
                try:
                    chunk = os.read(self.reply, 1 << 16)
                except BlockingIOError:
                    readable = False
                    continue
                except OSError:
                    chunk = b""
                if not chunk:
                    raise ServerDied(self.progress_index(seq), self._death())
                self.buffer += chunk
                if len(self.buffer) > MAX_REPLY + HEADER.size:
                    raise ProtocolViolation("answer too long")
                continue
            index = 0 if startup else self.progress_index(seq)
            limit = clock.overrun(index, self.cpu_seconds())
            if limit is not None:
                self.kill()
                raise ServerDied(index, f"it did not return within {limit:g} s", hung=True)

    def _frame(self) -> bytearray | None:
        if len(self.buffer) < HEADER.size:
            return None
        (length,) = HEADER.unpack_from(self.buffer, 0)
        if length > MAX_REPLY:
            raise ProtocolViolation("answer too long")
        end = HEADER.size + length
        if len(self.buffer) < end:
            return None
        frame = self.buffer[HEADER.size : end]
        del self.buffer[:end]
        return frame

    def _death(self) -> str:
        """Why the server ended, in words."""
        if self.process is None:
            return "it was not running"
        try:
            code = self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.kill()
            code = self.process.returncode
        if self.killed_because:
            return self.killed_because
        if self.isolation.mechanism == BUBBLEWRAP and code is not None and code > 128:
            code = 128 - code  # bwrap exits with 128 + the signal that ended the server
        self.exit_code = code
        return describe_exit(code, self.config)

    def kill(self) -> None:
        process = self.process
        if process is not None and process.poll() is None:
            for kill in (os.kill, os.killpg):
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    kill(process.pid, signal.SIGKILL)
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=10)
        for name in ("request", "reply"):
            fd = getattr(self, name, None)
            if fd is not None:
                with contextlib.suppress(OSError):
                    os.close(fd)
                setattr(self, name, None)
        if self.progress is not None:
            self.progress.close()
            self.progress = None

    def errors(self, limit: int = 2000) -> str:
        """The end of what the server (or bwrap, or the launcher) wrote to its standard error."""
        try:
            with open(self.run_dir / "server-errors.txt", "rb") as f:
                f.seek(0, os.SEEK_END)
                f.seek(max(0, f.tell() - limit))
                return f.read().decode(errors="replace").strip()
        except OSError:
            return ""

    def close(self) -> None:
        self.kill()
        import shutil

        shutil.rmtree(self.run_dir, ignore_errors=True)


def describe_exit(code: int | None, config: SandboxConfig) -> str:
    if code is None:
        return "it ended"
    if code >= 0:
        return f"it exited with status {code}"
    number = -code
    if number == signal.SIGXCPU:
        return f"it used more than {config.cpu_seconds} s of processor time (SIGXCPU)"
    if number == signal.SIGXFSZ:
        return f"it wrote a file larger than {config.output_kb} KB (SIGXFSZ)"
    if number == signal.SIGKILL:
        return "it was killed (SIGKILL)"
    try:
        name = signal.Signals(number).name
    except ValueError:
        name = f"signal {number}"
    return f"it was ended by {name}"


def probe(config: SandboxConfig, package: Path | None = None, spec_name: str | None = None) -> str:
    """Start a server on a package (default: the reference, or the skeleton in a kit without
    one, a student bundle) and say how it is confined; SandboxError if it cannot be."""
    from ..registry import kit, main_spec

    spec_name = spec_name or main_spec()
    if package is None and not kit(spec_name).reference:
        import tempfile

        import spec as spec_data

        from ..skeleton import write_skeleton

        with tempfile.TemporaryDirectory(prefix="speckit-probe-") as scratch:
            os.chmod(scratch, 0o755)  # the server's unprivileged user reads the skeleton
            folder = Path(scratch) / "skeleton"
            write_skeleton(spec_data.load(spec_name), folder)
            for path in [folder, *folder.iterdir()]:
                os.chmod(path, 0o755 if path.is_dir() else 0o644)
            return probe(config, folder, spec_name)
    server = Server((package or kit(spec_name).reference_dir).resolve(), spec_name, config)
    try:
        reply = server.start()
        if reply.get("error"):
            raise SandboxError(f"the operation server cannot load the reference: {bounded_text(reply['error'])}")
        return bounded_text(reply.get("isolation", ""))
    except ServerDied as e:
        said = server.errors()
        raise SandboxError(
            f"the operation server does not start: {e.reason}" + (f"; it said: {said}" if said else "; it said nothing")
        ) from None
    finally:
        server.close()
