"""The student bundle: no solution and no hidden test, and a kit that checks and writes skeletons."""

from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import pytest

import spec as spec_data
from speckit.bundle.source import BundleError
from speckit.bundle.student import (
    _copy_supplied,
    build,
    refuse_solution,
    solution_modules,
    without_hidden_tests,
    without_solution,
)
from speckit.paths import REPO_ROOT
from speckit.registry import kit

MODULE = textwrap.dedent(
    """\
    import helpers


    class Machine:
        LIMIT = 3

        def step(self):
            return Machine.LIMIT + oracle()


    def oracle():
        return 1


    def shared():
        return 2


    def test_visible():
        assert shared() == 2


    @helpers.slow
    def test_hidden_machine():
        Machine().step()
        shared()
    """
)


def test_a_hidden_test_goes_with_the_helpers_only_it_used():
    text, cut = without_hidden_tests(MODULE, "tests/x/test_m.py", lambda test_id: "machine" in test_id)
    assert cut == ["tests/x/test_m.py::test_hidden_machine"]
    assert "Machine" not in text and "oracle" not in text and "@helpers.slow" not in text
    assert "def shared" in text and "def test_visible" in text
    compile(text, "test_m.py", "exec")


def test_the_bundled_kit_table_names_no_solution():
    text = (REPO_ROOT / "spec" / "boardadt" / "spec.toml").read_text(encoding="utf-8")
    bundled = without_solution(text)
    import tomllib

    kit = tomllib.loads(bundled)["kit"]
    assert kit["reference"] == kit["zoo"] == kit["alternative"] == kit["rubric"] == ""
    assert kit["main"] is True and "scripts" not in kit
    assert kit["supplied"] == tomllib.loads(text)["kit"]["supplied"]


@pytest.mark.slow
def test_a_student_installs_the_bundle_and_checks_a_type(tmp_path):
    bundle = build("connect4", tmp_path / "bundle")
    names = zipfile.ZipFile(bundle.wheel).namelist()
    assert "adt/display.py" in names and "adt/input.py" in names and "adt/play_package.py" in names
    assert not any(
        n.startswith(("adt/grid", "adt/index", "adt/driver", "reference_games/", "speckit/rubrics/")) for n in names
    )
    assert solution_modules(names) == []
    assert "connect4 = adt.play_package:main" in _entry_points(bundle.wheel)
    assert not any("/zoo/" in n or "/fixtures/" in n for n in names)
    assert "tests/connect4/test_grid.py::test_grid_state_machine" in bundle.hidden_tests
    suite = zipfile.ZipFile(bundle.wheel).read("speckit/_kit/tests/connect4/test_grid.py").decode()
    assert "state_machine" not in suite.replace("run_state_machine_as_test", "") and "class GridMachine" not in suite
    assert (bundle.docs / "specification.html").is_file() and not (bundle.docs / "api.html").exists()

    venv = _installed_without_the_solution(bundle, tmp_path)
    work = tmp_path / "work"
    work.mkdir()
    _skeleton_checks_a_type(venv, work)
    _plays_on_a_finished_package(venv, work, tmp_path)


def _installed_without_the_solution(bundle, tmp_path: Path) -> Path:
    """The bundle's wheel installed in a fresh environment (its folder): of the package adt only the
    kit's supplied modules are there, and the reference's modules cannot be imported."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "-q", str(bundle.wheel)], check=True, cwd=tmp_path)
    reference = [f"adt.{t.module}" for t in spec_data.load("connect4").types if not t.supplied] + [
        "adt.driver",
        "reference_games",
    ]
    probe = f"import importlib.util as u; print([m for m in {[*reference, 'adt.display']!r} if u.find_spec(m)])"
    found = subprocess.run([str(python), "-c", probe], capture_output=True, text=True, cwd=tmp_path, check=True).stdout
    assert found.strip() == "['adt.display']"
    imported = subprocess.run([str(python), "-c", "import adt.connect4"], capture_output=True, text=True, cwd=tmp_path)
    assert imported.returncode == 1 and "ModuleNotFoundError: No module named 'adt.connect4'" in imported.stderr
    return venv


def _skeleton_checks_a_type(venv: Path, work: Path) -> None:
    """A skeleton with one type filled in: speckit check passes that type; given no folder, it asks for one."""
    speckit = venv / "bin" / "speckit"
    subprocess.run([str(speckit), "skeleton", "mypkg"], check=True, cwd=work, capture_output=True)
    shutil.copy2(REPO_ROOT / "adt" / "index.py", work / "mypkg" / "index.py")
    done = subprocess.run([str(speckit), "check", "mypkg"], cwd=work, capture_output=True, text=True, timeout=900)
    assert "IndexType (index)  7 passed" in done.stdout, done.stdout
    refused = subprocess.run([str(speckit), "check"], cwd=work, capture_output=True, text=True)
    assert refused.returncode == 2 and "give your package's folder" in refused.stderr


def _plays_on_a_finished_package(venv: Path, work: Path, tmp_path: Path) -> None:
    """The connect4 program refuses to start without --impl, and plays a game on a finished package."""
    shutil.copytree(REPO_ROOT / "tests" / "fixtures" / "alt_connect4", work / "finished")
    connect4 = venv / "bin" / "connect4"
    env = {"PATH": f"{venv / 'bin'}:/usr/bin:/bin", "XDG_CACHE_HOME": str(tmp_path / "cache")}
    alone = subprocess.run([str(connect4)], cwd=work, capture_output=True, text=True, env=env)
    assert alone.returncode == 1 and alone.stdout == ""
    assert (
        alone.stderr == "connect4: give your package with --impl PATH (for instance: connect4 --impl mypkg); "
        "this kit has no reference implementation to play on\n"
    )
    played = subprocess.run(
        [str(connect4), "--impl", "finished"],
        input="4\ny\n1\n1 1\n",
        cwd=work,
        capture_output=True,
        text=True,
        env=env,
        timeout=900,
    )
    assert played.returncode == 0, played.stderr
    assert "Traceback" not in played.stdout + played.stderr
    last_board = played.stdout.split("Row and column:")[-2]
    assert "1 R" in last_board and last_board.count("B") == 1  # the student's move at 1 1, then the computer's
    assert played.stdout.rstrip().endswith("Goodbye.")


@pytest.mark.parametrize("spec_name", sorted(s for s in spec_data.available() if kit(s).reference))
def test_every_specifications_supplied_modules_carry_no_module_students_write(tmp_path, spec_name):
    supplied = _copy_supplied(tmp_path, kit(spec_name))
    programs = {entry.partition(":")[0] for entry in kit(spec_name).declaration.student_scripts.values()}
    assert set(supplied) >= set(kit(spec_name).declaration.supplied) | programs
    assert solution_modules(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*.py")) == []
    refuse_solution(tmp_path)  # nothing to refuse


@pytest.mark.parametrize("spec_name", sorted(s for s in spec_data.available() if kit(s).reference))
def test_a_staged_module_students_write_is_refused_whichever_specification_it_is_of(tmp_path, spec_name):
    written = next(t for t in spec_data.load(spec_name).types if not t.supplied)
    path = tmp_path.joinpath(*kit(spec_name).reference.split("."), f"{written.module}.py")
    path.parent.mkdir(parents=True)
    path.write_text("", encoding="utf-8")
    with pytest.raises(
        BundleError, match=rf"would carry the solution: .*{written.module}\.py \({spec_name}'s {written.name}\)"
    ):
        refuse_solution(tmp_path)


@pytest.mark.slow
def test_the_boardadt_bundles_player_plays_on_the_students_own_square(tmp_path):
    bundle = build("boardadt", tmp_path / "bundle", docs=False)
    names = zipfile.ZipFile(bundle.wheel).namelist()
    assert "reference_games/boardadt/player.py" in names and "reference_games/boardadt/connect.py" in names
    assert solution_modules(names) == [] and "reference_games/boardadt/square.py" not in names
    entry_points = _entry_points(bundle.wheel)
    assert "boardadt-connect = reference_games.boardadt.connect:main" in entry_points
    assert "boardadt-play-two = reference_games.boardadt.play_two:main" in entry_points
    unpacked = tmp_path / "unpacked"
    zipfile.ZipFile(bundle.wheel).extractall(unpacked)
    shutil.copytree(REPO_ROOT / "tests" / "fixtures" / "alt_boardadt", tmp_path / "mine")
    probe = textwrap.dedent(
        """\
        import importlib.util, sys
        assert importlib.util.find_spec("reference_games.boardadt.square") is None
        sys.path.insert(0, "."); from mine.board_adt import Board
        board = Board(); board.Initialize()
        for column in (1, 1, 2, 2, 3, 3):
            board.Make_Move(column)
        from reference_games.boardadt.player import Computer_Move
        print(Computer_Move(board, level="greedy"))
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(unpacked), "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 0 and done.stdout.strip() == "4", done.stderr
    for program in ("connect", "play_two"):
        alone = subprocess.run(
            [sys.executable, "-m", f"reference_games.boardadt.{program}"],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            env={"PYTHONPATH": str(unpacked), "PATH": "/usr/bin:/bin"},
        )
        assert alone.returncode == 1 and "Traceback" not in alone.stderr, alone.stderr
        assert "give your package with --impl PATH" in alone.stderr and "no reference implementation" in alone.stderr


def _entry_points(wheel) -> str:
    """The wheel's console scripts, as its entry_points.txt lists them."""
    archive = zipfile.ZipFile(wheel)
    return archive.read(next(n for n in archive.namelist() if n.endswith(".dist-info/entry_points.txt"))).decode()


@pytest.mark.slow
def test_the_xplus_bundles_program_plays_only_on_the_students_package(tmp_path):
    bundle = build("xplus", tmp_path / "bundle", docs=False)
    names = zipfile.ZipFile(bundle.wheel).namelist()
    assert "reference_games/xplus/program.py" in names and solution_modules(names) == []
    assert "xplus = reference_games.xplus.program:main" in _entry_points(bundle.wheel)
    unpacked = tmp_path / "unpacked"
    zipfile.ZipFile(bundle.wheel).extractall(unpacked)
    shutil.copytree(REPO_ROOT / "tests" / "fixtures" / "alt_xplus", tmp_path / "mine")
    env = {"PYTHONPATH": str(unpacked), "PATH": "/usr/bin:/bin", "XDG_CACHE_HOME": str(tmp_path / "cache")}
    program = [sys.executable, "-m", "reference_games.xplus.program", "3", "3", "1"]
    alone = subprocess.run(program, cwd=tmp_path, capture_output=True, text=True, env=env)
    assert alone.returncode == 1 and alone.stdout == ""
    assert (
        alone.stderr == "xplus: give your package with --impl PATH (for instance: xplus --impl mypkg); "
        "this kit has no reference implementation to play on\n"
    )
    played = subprocess.run(
        [*program, "--impl", "mine"], input="1 1\n", cwd=tmp_path, capture_output=True, text=True, env=env, timeout=900
    )
    assert played.returncode == 0 and "Traceback" not in played.stderr, played.stderr
    assert "The computer plays row" in played.stdout
