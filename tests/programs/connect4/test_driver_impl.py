"""``connect4 --impl PATH``: a student's package plays once it passes the check; any other is refused in one message.

The check is :func:`speckit.playable.load_for_play`'s: the operations present and
written, then the conformance tests of the types the game uses. These run the
console script as a student does, on the alternative implementation (a finished
package), on copies of it with one fault, and on a fresh skeleton.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from speckit import playable
from tests.support.programs import environment, run_module

ROOT = Path(__file__).resolve().parents[3]
FINISHED = ROOT / "tests" / "fixtures" / "alt_connect4"


@pytest.fixture(scope="module")
def cache(tmp_path_factory) -> Path:
    """One cache folder for the module, so the finished package is checked once."""
    return tmp_path_factory.mktemp("cache")


def connect4(cache: Path, *options: str, answers=()) -> subprocess.CompletedProcess:
    return run_module("adt", *options, answers=answers, env=environment(XDG_CACHE_HOME=str(cache)), timeout=600)


def test_a_finished_package_plays_a_game(cache):
    done = connect4(cache, "--impl", str(FINISHED), answers=[4, "y", 1, "1 1"])
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    last_board = done.stdout.split("Row and column:")[-2]
    assert "1 R" in last_board and last_board.count("B") == 1  # the person's move at 1 1, then the computer's
    assert done.stdout.rstrip().endswith("Goodbye.")
    # The first game checks the package, and says how far the check has got, type by type. Progress is
    # sampled a few times a second, so which types are named depends on the machine's speed.
    assert re.search(r"^connect4: checking [A-Za-z0-9]+Type \(\d+ of 12 types, \d+ of \d+ tests\)$", done.stderr, re.M)


def test_the_checks_progress_is_one_line_per_type_off_a_terminal():
    import io

    import spec

    out = io.StringIO()
    progress = playable.CheckProgress(spec.load("connect4"), ["IndexType", "ColourType"], "connect4", stream=out)
    for done, test in enumerate(
        ["tests/connect4/test_index.py::a", "tests/connect4/test_index.py::b", "tests/connect4/test_colour.py::c"]
    ):
        progress(done + 1, 3, test)
    progress.close()
    assert out.getvalue().splitlines() == [
        "connect4: checking IndexType (1 of 2 types, 1 of 3 tests)",
        "connect4: checking ColourType (2 of 2 types, 3 of 3 tests)",
    ]


def test_a_package_with_a_fault_is_refused_naming_the_failing_operation(cache, tmp_path):
    broken = tmp_path / "broken"
    shutil.copytree(FINISHED, broken)
    index = broken / "index.py"
    index.write_text(index.read_text().replace("return first < second", "return first <= second"))
    done = connect4(cache, "--impl", str(broken))
    assert done.returncode == 1 and "Traceback" not in done.stderr and done.stdout == ""
    assert f"connect4: cannot play on {broken}: IndexType.lessThan failed" in done.stderr
    assert f"speckit check {broken}" in done.stderr


def test_a_skeleton_is_refused_at_once_naming_its_first_operation(cache, tmp_path):
    from speckit.cli import main as speckit

    assert speckit(["skeleton", str(tmp_path / "mine")]) == 0
    done = connect4(cache, "--impl", str(tmp_path / "mine"))
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith(
        f"connect4: cannot play on {tmp_path / 'mine'}: IndexType.newIndexType is not implemented yet"
    )
    assert "checking" not in done.stderr  # refused before any test ran


def test_a_missing_folder_gets_one_line(cache, tmp_path):
    done = connect4(cache, "--impl", str(tmp_path / "nowhere"))
    assert done.returncode == 1 and done.stderr == f"connect4: cannot play on {tmp_path / 'nowhere'}: no such folder\n"


def test_the_reference_only_options_are_refused_with_impl(cache):
    done = connect4(cache, "--impl", str(FINISHED), "--size", "5")
    assert done.returncode == 2 and "with --impl, the package's newConnect4Type asks them" in done.stderr


def test_a_package_that_passed_is_not_checked_again_until_it_changes(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    package = tmp_path / "mine"
    shutil.copytree(FINISHED, package)
    checks = []
    monkeypatch.setattr(playable, "first_failing", lambda *args: checks.append(args) or "")
    playable.load_for_play(package, "connect4", program="connect4")
    playable.load_for_play(package, "connect4", program="connect4")
    assert len(checks) == 1
    (package / "index.py").write_text((package / "index.py").read_text() + "\n# changed\n")
    playable.load_for_play(package, "connect4", program="connect4")
    assert len(checks) == 2


def test_a_failed_check_is_not_remembered(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(playable, "first_failing", lambda *args: "IndexType.lessThan failed")
    with pytest.raises(SystemExit, match="IndexType.lessThan failed"):
        playable.load_for_play(FINISHED, "connect4", program="connect4")
    assert not (tmp_path / "cache").exists() or not any((tmp_path / "cache").rglob("*"))


def test_the_types_checked_are_those_named_and_every_type_they_use():
    from spec import load

    connect4_spec = load("connect4")
    assert playable.needed_types(connect4_spec, ["IndexType"]) == ["IndexType"]
    assert set(playable.needed_types(connect4_spec, ["LocationType"])) == {"LocationType", "IndexType"}
    everything = playable.needed_types(connect4_spec, ["Connect4Type"])
    assert "DisplayType" not in everything and "InputType" not in everything  # supplied: not the student's
    assert everything == [t.name for t in connect4_spec.types if not t.supplied]


def test_the_student_bundles_connect4_plays_a_finished_package(cache):
    """``adt.play_package`` is the student bundle's ``connect4``: the same game, with no reference module loaded."""
    program = (
        "import sys; from adt.play_package import main; status = main(sys.argv[1:]); "
        "assert not {'adt.connect4', 'adt.grid', 'adt.driver'} & set(sys.modules), sorted(sys.modules); "
        "sys.exit(status)"
    )
    env = dict(os.environ, XDG_CACHE_HOME=str(cache), PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, "-c", program, "--impl", str(FINISHED)],
        input="4\ny\n1\n1 1\n",
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    last_board = done.stdout.split("Row and column:")[-2]
    assert "1 R" in last_board and last_board.count("B") == 1
    assert done.stdout.rstrip().endswith("Goodbye.")


def test_the_student_bundles_connect4_without_a_package_says_it_needs_one():
    from adt import play_package

    with pytest.raises(
        SystemExit, match=r"^connect4: give your package with --impl PATH .*no reference implementation to play on$"
    ):
        play_package.main([])


def test_a_program_asking_for_the_reference_of_a_kit_without_one_is_told_to_give_impl(monkeypatch):
    import attrs

    import spec as spec_data

    load = spec_data.load
    monkeypatch.setattr(
        playable.spec_data,
        "load",
        lambda name: attrs.evolve(load(name), kit=attrs.evolve(load(name).kit, reference="")),
    )
    with pytest.raises(playable.Refused, match=r"^boardadt-connect: give your package with --impl PATH"):
        playable.reference_module("boardadt", "board_adt", program="boardadt-connect")
    from reference_games.boardadt.pieces import chosen

    with pytest.raises(playable.Refused, match=r"^boardadt-play-two: give your package"):
        chosen(None, "boardadt-play-two")
