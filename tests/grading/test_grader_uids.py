"""Graders running at the same time never give their operation servers the same uid."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from speckit import rubric as rubric_module
from speckit.grading import Grader, slots
from speckit.paths import REPO_ROOT

from .conftest import needs_root


def _uids(grader: Grader) -> list[int]:
    return [json.loads(path.read_text(encoding="utf-8"))["uid"] for path in grader.sandbox_files]


@needs_root
def test_two_graders_at_once_claim_different_uids(tmp_path, monkeypatch):
    # A claims folder of this test's own: graders that other tests run at the same time (CI runs
    # two pytest sessions side by side) neither take nor free uids under its feet.
    locks = tmp_path / "locks"
    locks.mkdir(mode=0o755)
    monkeypatch.setattr(slots, "UID_LOCKS", (str(locks),))
    rubric = rubric_module.load(spec_name="connect4")
    with Grader(rubric, out=tmp_path / "a", submissions=tmp_path / "s", jobs=2) as first:
        with Grader(rubric, out=tmp_path / "b", submissions=tmp_path / "s", jobs=2) as second:
            assert not set(_uids(first)) & set(_uids(second)), (_uids(first), _uids(second))
        # A grader in another process (another `speckit grade`) sees the claims too.
        probe = (
            "import json, sys; from pathlib import Path; from speckit import rubric; "
            "from speckit.grading import Grader, slots\n"
            "slots.UID_LOCKS = (sys.argv[3],)\n"
            "with Grader(rubric.load(spec_name='connect4'), out=Path(sys.argv[1]), submissions=Path(sys.argv[2]), "
            "jobs=2) as g:\n"
            "    print(json.dumps([json.loads(p.read_text())['uid'] for p in g.sandbox_files]))\n"
        )
        done = subprocess.run(
            [sys.executable, "-c", probe, str(tmp_path / "c"), str(tmp_path / "s"), str(locks)],
            capture_output=True,
            text=True,
            cwd=REPO_ROOT,
            check=True,
        )
        assert not set(json.loads(done.stdout)) & set(_uids(first))
        held = _uids(first)
    # Released on close: each uid the first grader held can be claimed again.
    folder = slots._claims_folder()
    for uid in held:
        claim = slots._claim(folder, uid)
        assert claim is not None, f"uid {uid} is still locked after its grader closed"
        os.close(claim)
