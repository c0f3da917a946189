"""Attacks on what a submission may use (issue 30, items 5, 7, 9 and 12): memory outside the
limits, time across runs and regrades, folders left behind, and the hidden tests' inputs."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import spec as spec_data
from speckit.grading import grade
from speckit.paths import REPO_ROOT
from speckit.sandbox import SandboxConfig, load_sandboxed, probe_isolation
from speckit.sandbox.isolation import BUBBLEWRAP

from .conftest import INCREMENT, INDEX_RUBRIC, needs_root, patched_reference, reference_copy

CONNECT4 = spec_data.load("connect4")

FILLER = """

def _fill(folder, megabytes):
    # Many files of half a megabyte: each stays under the per-file limit (output_kb).
    written = 0
    try:
        for number in range(2 * megabytes):
            with open(f"{folder}/filler-{number}", "wb") as f:
                f.write(b"x" * 2**19)
            written += 1
    except OSError:
        pass
    return written // 2

SHM = _fill("/dev/shm", 48)
DEV = _fill("/dev", 48)
"""


@needs_root
def test_under_bubblewrap_dev_and_dev_shm_are_bounded(tmp_path):
    """Before: /dev/shm and /dev were tmpfs of half the machine's memory (1.5 GB and 0.5 GB written)."""
    config = SandboxConfig(uid=61549, gid=61549, scratch_mb=16)
    if probe_isolation(config).mechanism != BUBBLEWRAP:
        pytest.skip("bubblewrap does not work here")
    package = reference_copy(tmp_path / "filler")
    with open(package / "index.py", "a", encoding="utf-8") as f:
        f.write(FILLER)
    implementation = load_sandboxed(package, CONNECT4, config)
    try:
        module = implementation.module("index")
        shm, dev = module.SHM, module.DEV
    finally:
        implementation.close()
    assert shm <= 16 and dev == 0, (shm, dev)


SLEEPER = INCREMENT + "    import time\n    time.sleep(15)  # no processor time: under the call's wall-clock backstop\n"


def _mark_readable(folder: Path) -> None:
    for each in (folder, *folder.parents):
        if each in (Path("/tmp"), Path("/")):
            break
        os.chmod(each, 0o755)


@needs_root
@pytest.mark.slow
def test_a_submission_has_one_time_budget_and_leaves_no_folders(tmp_path):
    """Before: each run (as submitted, again, each hybrid) had run_seconds of its own (here
    three runs of 60 s; 300 s under a 25 s rubric with ten hybrids), and each run stopped at
    run_seconds left a /tmp/speckit-sandbox-*. Graded by the command, in a process whose
    temporary folder is the test's own, so what it leaves there is its alone."""
    _mark_readable(tmp_path)
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    os.chmod(scratch, 0o1777)
    submissions = tmp_path / "submissions"
    patched_reference(submissions / "sleeper", "index", INCREMENT, SLEEPER)
    # No correct control here: limits this tight are for the attack only (a loaded machine
    # takes a minute for one run); the other attack tests grade one beside theirs.
    rubric = tmp_path / "rubric.toml"
    rubric.write_text(
        INDEX_RUBRIC.replace('mode = "submitted"', 'mode = "hybrid"').replace(
            "run_seconds = 600", "run_seconds = 60\nsubmission_seconds = 90"
        ),
        encoding="utf-8",
    )
    out = tmp_path / "out"
    done = subprocess.run(
        [sys.executable, "-m", "speckit.cli", "grade", str(submissions), "--out", str(out), "--rubric", str(rubric)],
        capture_output=True,
        text=True,
        cwd=str(REPO_ROOT),
        env={**os.environ, "TMPDIR": str(scratch)},
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    log = (out / "grading.log").read_text(encoding="utf-8")
    seconds = float(re.search(r"graded sleeper: .* in ([0-9.]+) s", log).group(1))
    assert seconds <= 90 + 30, log  # the budget, and the start and end of its runs (three runs of 60 s before)
    assert "used up its time" in (out / "feedback" / "sleeper.md").read_text(encoding="utf-8")
    assert not list(scratch.rglob("speckit-sandbox-*")), "a run left its folder behind"


HIDDEN_RECORDER = '''
_SEEN_HIDDEN = []


def equals(first: Index, second: Index) -> bool:
    """Whether the two indexes are equal."""
    if first is second:  # only the hidden equivalence test asks equals(x, x)
        _SEEN_HIDDEN.append(first._value if hasattr(first, "_value") else 1)
        try:
            with open("/tmp/hidden-seen", "a") as f:
                f.write("x")
        except OSError:
            pass
    return _equals(first, second)


def _leak():
    import os
    if _SEEN_HIDDEN or os.path.exists("/tmp/hidden-seen"):
        raise RuntimeError("LEAK: the hidden test called equals(x, x)")
'''


@needs_root
@pytest.mark.slow
def test_hidden_tests_run_after_the_visible_ones_in_a_server_of_their_own(tmp_path):
    """Before: one server answered visible and hidden tests alike, in the suite's order, so a
    visible test's failure could repeat what a hidden test had shown the submission."""
    _mark_readable(tmp_path)
    submissions = tmp_path / "submissions"
    package = reference_copy(submissions / "recorder")
    text = (package / "index.py").read_text(encoding="utf-8")
    assert "\ndef equals(" in text and "\ndef clone(" in text
    text = text.replace("\ndef equals(", "\ndef _equals(", 1) + HIDDEN_RECORDER
    clone_body = text.index("\ndef clone(")
    body = text.index('"""', text.index('"""', clone_body) + 3) + 3  # after clone's docstring
    text = text[:body] + "\n    _leak()" + text[body:]
    (package / "index.py").write_text(text, encoding="utf-8")
    rubric = tmp_path / "rubric.toml"
    rubric.write_text(INDEX_RUBRIC, encoding="utf-8")
    out = tmp_path / "out"
    grade(submissions, out, jobs=1, rubric=rubric, stream=io.StringIO())
    feedback = (out / "feedback" / "recorder.md").read_text(encoding="utf-8")
    results = json.loads((out / "results" / "recorder" / "results.json").read_text(encoding="utf-8"))
    visible = json.dumps([t for t in results["tests"] if t["visibility"] == "visible"])
    assert "LEAK" not in feedback and "LEAK" not in visible
    with open(out / "grades.csv", encoding="utf-8") as gradebook:
        rows = list(csv.DictReader(gradebook))
    assert rows[0]["total"] == rows[0]["max"] == "4.00"
