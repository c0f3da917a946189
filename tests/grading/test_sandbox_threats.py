"""The threat model of docs/grading.rst ("Threat model"), one real attack per line.

Each attacker is the reference with an ``index.py`` that, when imported, tries one thing
a submission must not be able to do under the grading sandbox, and keeps what it saw;
``increment`` then fails with ``STOLEN <what it saw>`` if it saw anything, and otherwise
behaves as the reference. So an attack that sees nothing earns exactly the reference's
outcomes (every Index test passes), and anything it saw would reach its own feedback,
which is checked too. Each attack is shown to work without the sandbox, so the tests
have teeth; the fallback used without bubblewrap is tested for what it still promises.
"""

from __future__ import annotations

import json
import os
import socket
import threading
import time
from pathlib import Path

import pytest

import spec as spec_data
from speckit.core import OperationFailed
from speckit.impl import load
from speckit.paths import REPO_ROOT
from speckit.runner import run_suite
from speckit.sandbox import SandboxConfig, load_sandboxed, probe_isolation

from .conftest import INCREMENT, needs_root, patched_reference

CONNECT4 = spec_data.load("connect4")
INDEX_TESTS = [REPO_ROOT / "tests" / "connect4" / "test_index.py"]
SECRET = "TOPSECRET-7f3a"

ATTACKS = {
    "outside_file": """
def _attack():
    return open(TARGET["secret"]).read()
""",
    "other_checkout": """
def _attack():
    found = []
    for checkout in (TARGET["decoy"], TARGET["repo"]):
        try:
            found.append(open(checkout + "/tests/connect4/test_index.py").read().splitlines()[0])
        except OSError:
            pass
    return "; ".join(found)
""",
    "other_processes": """
def _attack():
    import os
    found = []
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                line = open(f"/proc/{pid}/cmdline", "rb").read().replace(b"\\0", b" ").decode(errors="replace")
            except OSError:
                continue
            if " -m pytest " in line or "bin/pytest " in line or int(pid) == TARGET["grader"]:
                found.append(f"{pid}: {line[:80]}")
    return "; ".join(found)
""",
    "network": """
def _attack():
    import socket
    with socket.create_connection(("127.0.0.1", TARGET["port"]), timeout=2) as connection:
        connection.sendall(b"STOLEN")
        return "connected to the grader's listener"
""",
}
"""Each attack: ``_attack()`` returns what it saw (nothing: an empty string, or it raises)."""

HARNESS = """

{attack}

try:
    SEEN += _attack{number}() or ""
except BaseException:  # noqa: BLE001 - an attack that fails saw nothing
    pass
"""


class Listener:
    """A TCP listener on 127.0.0.1 that records whether anything connected."""

    def __init__(self) -> None:
        self.socket = socket.create_server(("127.0.0.1", 0))
        self.socket.settimeout(0.2)
        self.port = self.socket.getsockname()[1]
        self.connections = 0
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def _accept(self) -> None:
        while not self.stopped.is_set():
            try:
                connection, _ = self.socket.accept()
            except (TimeoutError, OSError):
                continue
            self.connections += 1
            connection.close()

    def close(self) -> None:
        self.stopped.set()
        self.thread.join()
        self.socket.close()


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    """What the attackers go after: a secret file, another checkout of the kit, a listener."""
    base = tmp_path_factory.mktemp("threats")
    for folder in (base, *base.parents):
        if folder == Path("/tmp") or folder == Path("/"):
            break
        os.chmod(folder, 0o755)  # readable by every user, so only confinement can hide it
    secret = base / "secret.txt"
    secret.write_text(SECRET, encoding="utf-8")
    decoy = base / "other-checkout"
    (decoy / "tests" / "connect4").mkdir(parents=True)
    (decoy / "tests" / "connect4" / "test_index.py").write_text("HIDDEN-TEST-FIRST-LINE\n", encoding="utf-8")
    listener = Listener()
    target = {
        "secret": str(secret),
        "decoy": str(decoy),
        "repo": str(REPO_ROOT),
        "grader": os.getpid(),
        "port": listener.port,
    }
    yield {"base": base, "target": target, "listener": listener}
    listener.close()


def attacker(world, *cases: str) -> Path:
    """The reference, with an index.py that runs the attacks of ``cases`` at import."""
    body = "\n\nTARGET = " + json.dumps(world["target"]) + '\nSEEN = ""\n'
    for number, case in enumerate(cases):
        body += HARNESS.format(attack=ATTACKS[case].replace("_attack", f"_attack{number}"), number=number)
    world["made"] = world.get("made", 0) + 1
    package = patched_reference(
        world["base"] / f"{'-'.join(cases)}-{world['made']}",
        "index",
        INCREMENT,
        INCREMENT + '    if SEEN:\n        raise RuntimeError("STOLEN " + SEEN)\n',
    )
    text = (package / "index.py").read_text(encoding="utf-8")
    (package / "index.py").write_text(
        text.replace("from spec import require\n", "from spec import require\n" + body, 1), encoding="utf-8"
    )
    return package


def seen(implementation) -> str:
    """What the attacker saw: the text after STOLEN in increment's failure, or ''."""
    try:
        implementation.index.increment(implementation.index.newIndexType())
        implementation.flush()
    except OperationFailed as e:
        assert "STOLEN " in str(e), str(e)
        return str(e).split("STOLEN ", 1)[1]
    finally:
        if hasattr(implementation, "close"):
            implementation.close()
    return ""


@pytest.mark.parametrize("case", sorted(ATTACKS))
def test_each_attack_works_without_the_sandbox(world, case):
    before = world["listener"].connections
    saw = seen(load(attacker(world, case), CONNECT4))
    assert saw, f"the {case} attack sees nothing even in-process: the test has no teeth"
    if case == "network":
        deadline = time.monotonic() + 5
        while world["listener"].connections == before and time.monotonic() < deadline:
            time.sleep(0.05)
        assert world["listener"].connections > before


@needs_root
@pytest.mark.parametrize("case", sorted(ATTACKS))
def test_under_bubblewrap_an_attack_sees_nothing(world, case):
    config = SandboxConfig(uid=61540, gid=61540)
    if not probe_isolation(config).complete:
        pytest.skip(probe_isolation(config).warning)
    before = world["listener"].connections
    assert seen(load_sandboxed(attacker(world, case), CONNECT4, config)) == ""
    assert world["listener"].connections == before, "the submission reached the grader's listener"


@needs_root
def test_under_bubblewrap_every_attack_together_earns_the_reference_grade(world, tmp_path):
    """All four attacks in one submission, graded on the Index tests: every test passes, as for the reference."""
    config = SandboxConfig(uid=61542, gid=61542)
    if not probe_isolation(config).complete:
        pytest.skip(probe_isolation(config).warning)
    before = world["listener"].connections
    settings = tmp_path / "sandbox.json"
    settings.write_text(config.to_json(), encoding="utf-8")
    run = run_suite("connect4", attacker(world, *ATTACKS), tests=INDEX_TESTS, extra=(f"--sandbox-config={settings}",))
    assert not run.crash, run.crash
    outcomes = {t["test"]: t["outcome"] for t in run.tests}
    assert outcomes and set(outcomes.values()) == {"passed"}, {k: v for k, v in outcomes.items() if v != "passed"}
    text = json.dumps([t.to_json() for t in run.tests])
    assert "STOLEN" not in text and SECRET not in text and "HIDDEN-TEST" not in text
    assert world["listener"].connections == before, "the submission reached the grader's listener"


@needs_root
def test_the_fallback_hides_the_checkout_and_says_what_it_does_not_hide(world):
    """Without bubblewrap (the fallback, root only): the checkout's tests and the private
    /tmp are hidden; other processes and the network are not, which the warning says."""
    config = SandboxConfig(uid=61541, gid=61541, bubblewrap=False)
    isolation = probe_isolation(config)
    assert not isolation.complete and "use the network" in isolation.warning and "/run/lock" in isolation.warning
    assert seen(load_sandboxed(attacker(world, "other_checkout"), CONNECT4, config)) == ""
    assert seen(load_sandboxed(attacker(world, "outside_file"), CONNECT4, config)) == ""
    assert seen(load_sandboxed(attacker(world, "other_processes"), CONNECT4, config)), (
        "the fallback has no PID namespace"
    )
