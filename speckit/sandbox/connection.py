"""The operation server's process as the test process sees it: started, exchanged with, found dead, restarted."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from ..core import ImplementationError, OperationFailed
from ..watchdog import wall_backstop
from .config import READ_LIMIT, SandboxConfig
from .process import ProtocolViolation, Server, ServerDied, bounded_text
from .protocol import IMPORTING, Command


class Connection:
    """One sandboxed implementation's server: the running process, and its replacements when it dies.

    ``on_lost`` is told (with the reason) each time a server is lost: its values are gone.
    """

    def __init__(self, path: Path, spec_name: str, config: SandboxConfig, on_lost: Callable[[str], None]):
        self.path = path
        self.spec_name = spec_name
        self.config = config
        self.on_lost = on_lost
        self.server = Server(path, spec_name, config)
        self.restarts = 0
        self.dead_reason = ""
        self.broken = ""
        """Why no more operations are run (the server cannot be started again), if so."""
        self.down = False
        """Whether the server was lost and not yet replaced."""
        self.seq = 0
        """The sequence number of the last message sent."""
        self.working: str | None = None
        """The server's view of the folder of the running ``working_folder()`` block, if any."""
        self.test_cpu: tuple[int | None, float | None] | None = None
        """(server pid, its processor time) when this test began."""

    def start(self, first: bool) -> str:
        try:
            reply = self.server.start()
        except ServerDied as e:
            code = self.server.exit_code
            if e.index != IMPORTING:
                said = self.server.errors()  # its folder is removed with it: the reason goes in the message
                message = f"the operation server did not start ({e.reason})" + (f"; it said: {said}" if said else "")
            elif e.hung:
                message = f"the package took more than {self.config.import_seconds:g} s to import"
            elif code is not None and code >= 0:
                message = "the program ended itself at import (os._exit)"
            else:
                message = f"the program was ended at import ({e.reason})"
            if first:
                self.server.close()
                raise ImplementationError(message) from None
            self.broken = message
            return ""
        if reply.get("error"):
            message = bounded_text(reply["error"])
            if first:
                self.server.close()
                raise ImplementationError(message)
            self.broken = message
            return ""
        return bounded_text(reply.get("isolation", ""))

    def ensure(self, running: bool = False) -> None:
        """Start a server if none runs. ``running``: :meth:`notice_death` just found it running."""
        if self.broken:
            raise OperationFailed(self.broken)
        if running or self.notice_death() or self.server.alive():
            return
        if self.restarts >= self.config.max_restarts:
            self.broken = (
                f"the implementation's process ended {self.restarts + 1} times ({self.dead_reason}); "
                "no more of its operations are run"
            )
            raise OperationFailed(self.broken)
        self.restarts += 1
        self.start(first=False)
        self.down = False
        if self.broken:
            raise OperationFailed(self.broken)
        if self.working is not None:  # a new server starts in its own folder: move it back in
            self.seq += 1
            message = {
                "seq": self.seq,
                "ops": [],
                "commands": [[Command.FOLDER, self.working]],
                "release": [],
                "twins": [],
            }
            try:
                self.server.exchange(message, [READ_LIMIT, READ_LIMIT])
            except (ServerDied, ProtocolViolation) as e:
                self.lost(str(e))
                raise OperationFailed(
                    f"the implementation's process could not enter its working folder ({e})"
                ) from None

    def notice_death(self) -> bool:
        """A server that died between calls (nothing was running) has lost its values all the same.

        Whether the server is running, asked just now: every message asks once (a poll is a
        system call, and a run sends some 14,000 messages)."""
        process = self.server.process
        if self.down or process is None:
            return False
        if process.poll() is None:
            return True
        self.lost(self.server._death())
        return False

    def lost(self, reason: str) -> None:
        """The server died: its values are gone."""
        self.server.kill()
        self.down = True
        self.dead_reason = reason
        self.on_lost(reason)

    def send(self, message: dict, limits: list[float], count: int) -> dict:
        """Send one message of ``count`` commands and read its answer; a dead or lying server is killed (ServerDied)."""
        try:
            return self.server.exchange(message, limits)
        except ServerDied as e:
            self.lost(e.reason)
            raise
        except ProtocolViolation as e:
            reason = f"it wrote into the grader's channel ({e})"
            index = min(self.server.progress_index(self.seq), count - 1)  # a forged answer is no release
            self.lost(reason)
            raise ServerDied(index, reason) from None

    def fresh(self) -> None:
        """Replace the server by a new one of its own (new process, scratch space and folders):
        the values of the old one are gone, as after a restart, and it does not count as one."""
        self.lost("replaced by a fresh server")
        self.server.close()
        self.server = Server(self.path, self.spec_name, self.config)
        self.start(first=False)
        self.down = False

    def close(self) -> None:
        self.server.close()

    def mark_test(self) -> None:
        """A test begins: its processor time counts from now."""
        self.test_cpu = (self.server.server_pid(), self.server.cpu_seconds()) if self.server.alive() else None

    def over_test_budget(self, used: float) -> bool:
        """Whether this test's operations used more than ``test_seconds`` of the server's processor
        time, or their wall-clock backstop; asked only once their wall-clock time (never less
        than their processor time) is over ``test_seconds``.

        A server started during the test counts from its start (the processor time of one
        that died is not counted: it is gone with it).
        """
        budget = self.config.test_seconds
        if used > wall_backstop(budget, self.config.wall_factor):
            return True
        pid, cpu = self.server.server_pid(), self.server.cpu_seconds()
        if cpu is None:
            return True  # cannot be measured: the wall clock, which is over, decides
        base = (
            self.test_cpu[1]
            if self.test_cpu is not None and self.test_cpu[0] == pid and self.test_cpu[1] is not None
            else 0.0
        )
        return cpu - base > budget
