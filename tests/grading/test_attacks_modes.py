"""The grader where confinement is weaker (issue 30, items 10, 11 and 13): a container
without ``CAP_SYS_ADMIN``, no bubblewrap as root, no bubblewrap without root.

Each mode grades with the strongest confinement that works there and says which; the one
that cannot confine at all (not root, no bubblewrap) refuses unless told ``--unconfined``.
"""

from __future__ import annotations

import csv
import json
import os
import shlex
import shutil
import subprocess
import sys
import uuid

import pytest

import spec as spec_data
from speckit.grading import GradeError, grade
from speckit.paths import REPO_ROOT
from speckit.sandbox import SandboxConfig, SandboxError, isolation, load_sandboxed, probe, probe_isolation
from speckit.sandbox.isolation import ANOTHER_USER, BUBBLEWRAP, MOUNT_NAMESPACE, RESOURCE_LIMITS

from .conftest import INDEX_RUBRIC, needs_root, reference_copy

CONNECT4 = spec_data.load("connect4")
CAPSH = shutil.which("capsh", path=os.environ.get("PATH", "") + ":/usr/sbin:/sbin")

without_cap_sys_admin = pytest.mark.skipif(
    os.geteuid() != 0 or CAPSH is None,
    reason="needs root and capsh (Debian's libcap2-bin) to drop CAP_SYS_ADMIN",
)


def _capsh(code: str, timeout: float = 600) -> subprocess.CompletedProcess:
    """Run Python ``code`` as root with CAP_SYS_ADMIN dropped (as in Docker's default container)."""
    command = f"exec {shlex.quote(sys.executable)} -c {shlex.quote(code)}"
    return subprocess.run(
        [CAPSH, "--drop=cap_sys_admin", "--", "-c", command],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=str(REPO_ROOT),
        check=False,
    )


@without_cap_sys_admin
@pytest.mark.slow
def test_grading_works_in_a_container_without_cap_sys_admin(tmp_path):
    """Before: every submission failed ("the operation server does not start ... see <a folder
    gone by then>") and no gradebook was written."""
    submissions = tmp_path / "submissions"
    reference_copy(submissions / "control")
    rubric = tmp_path / "rubric.toml"
    rubric.write_text(INDEX_RUBRIC, encoding="utf-8")
    out = tmp_path / "out"
    done = _capsh(
        "from speckit.cli import main; "
        f"raise SystemExit(main(['grade', {str(submissions)!r}, '--out', {str(out)!r}, '--rubric', {str(rubric)!r}]))"
    )
    assert done.returncode == 0, done.stderr
    with open(out / "grades.csv", encoding="utf-8") as gradebook:
        rows = list(csv.DictReader(gradebook))
    assert [(r["student"], r["total"], r["max"]) for r in rows] == [("control", "4.00", "4.00")]
    mechanism = probe_isolation(SandboxConfig(uid=61544, gid=61544)).mechanism
    assert f"({mechanism})" in done.stderr and f"sandbox: {mechanism}" in (out / "grading.log").read_text(
        encoding="utf-8"
    )
    results = json.loads((out / "results" / "control" / "results.json").read_text(encoding="utf-8"))
    assert results["extra_data"]["sandbox"] == mechanism


@without_cap_sys_admin
def test_without_cap_sys_admin_or_bubblewrap_the_fallback_is_another_user_and_says_so():
    """Before: the fallback claimed a mount namespace it could not make."""
    code = (
        "import json\n"
        "from speckit.sandbox import SandboxConfig, probe, probe_isolation\n"
        "config = SandboxConfig(uid=61546, gid=61546, bubblewrap=False)\n"
        "found = probe_isolation(config)\n"
        "print(json.dumps([found.mechanism, found.warning, probe(config, spec_name='connect4')]))\n"
    )
    done = _capsh(code, timeout=120)
    assert done.returncode == 0, done.stderr
    mechanism, warning, confinement = json.loads(done.stdout.splitlines()[-1])
    assert mechanism == ANOTHER_USER
    assert "unprivileged user" in warning and "use the network" in warning
    assert confinement.startswith("uid 61546, gid 61546") and "no mount namespace" in confinement


@needs_root
def test_a_sandbox_that_cannot_start_says_why_in_its_message(tmp_path):
    """Before: the message pointed to the server's folder, removed by then."""
    config = SandboxConfig(uid=61547, gid=61547, kit_files=(str(tmp_path / "no-such-kit-file.py"),))
    if probe_isolation(config).mechanism != BUBBLEWRAP:
        pytest.skip("bubblewrap does not work here")
    with pytest.raises(SandboxError) as caught:
        probe(config, spec_name="connect4")
    message = str(caught.value)
    assert "no-such-kit-file.py" in message, message
    assert "/tmp/speckit-sandbox-" not in message


LOCK_WRITER = """

def _fill(folder):
    import os
    try:
        with open(os.path.join(folder, "speckit-attack-{token}"), "wb") as f:
            f.write(b"x" * 4096)
    except OSError:
        pass

for _folder in ("/run/lock", "/var/lock", "/tmp", "/var/tmp", "/dev/shm"):
    _fill(_folder)
"""


@needs_root
def test_the_root_fallback_masks_every_world_writable_folder(tmp_path):
    """Before: /run/lock was the host's, shared between submissions: what was written stayed."""
    config = SandboxConfig(uid=61548, gid=61548, bubblewrap=False)
    if probe_isolation(config).mechanism != MOUNT_NAMESPACE:
        pytest.skip("no mount namespace here")
    token = uuid.uuid4().hex
    package = reference_copy(tmp_path / "writer")
    with open(package / "index.py", "a", encoding="utf-8") as f:
        f.write(LOCK_WRITER.replace("{token}", token))
    implementation = load_sandboxed(package, CONNECT4, config)
    try:
        implementation.index.increment(implementation.index.newIndexType())
        implementation.flush()
    finally:
        implementation.close()
    left = [
        folder
        for folder in ("/run/lock", "/tmp", "/var/tmp", "/dev/shm")
        if os.path.exists(f"{folder}/speckit-attack-{token}")
    ]
    for folder in left:
        os.unlink(f"{folder}/speckit-attack-{token}")
    assert left == []


def _as_an_ordinary_user_without_bubblewrap(monkeypatch):
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    monkeypatch.setattr(isolation, "bwrap_path", lambda: None)
    assert probe_isolation(SandboxConfig()).mechanism == RESOURCE_LIMITS


def test_unconfined_grading_is_refused_unless_asked_for_and_says_what_it_exposes(tmp_path, monkeypatch):
    """Before: it graded with a warning that said only "may read files and use the network"."""
    submissions = tmp_path / "submissions"
    (submissions / "nothing").mkdir(parents=True)
    _as_an_ordinary_user_without_bubblewrap(monkeypatch)
    with pytest.raises(GradeError) as caught, open(os.devnull, "w") as nowhere:
        grade(submissions, tmp_path / "out", jobs=2, spec_name="connect4", stream=nowhere)
    message = str(caught.value)
    for exposed in ("--unconfined", "/proc/<pid>/environ", "hidden tests", "/run/lock", "network", "signal"):
        assert exposed in message, exposed
    assert not (tmp_path / "out" / "grades.csv").exists()


def test_unconfined_grading_runs_one_job_at_a_time(tmp_path, monkeypatch):
    submissions = tmp_path / "submissions"
    for name in ("a", "b"):
        (submissions / name).mkdir(parents=True)
    _as_an_ordinary_user_without_bubblewrap(monkeypatch)
    printed = tmp_path / "printed.txt"
    with open(printed, "w") as stream:
        grade(submissions, tmp_path / "out", jobs=2, spec_name="connect4", stream=stream, unconfined=True)
    text = printed.read_text()
    assert "1 at a time" in text and "resource limits only, as your own user" in text
    assert "resource limits only, as your own user" in (tmp_path / "out" / "grades.csv").read_text()
