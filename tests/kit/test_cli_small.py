"""The command line's smaller promises (issue 14): clear refusals, subcommand usage, descriptions,
a zoo that can be stopped without leaving anything behind, and a healthy kit's coverage."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from speckit.cli import main
from speckit.registry import names


def test_a_standard_library_module_name_is_not_taken_for_an_implementation(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["check", "json"]) == 2
    err = capsys.readouterr().err
    assert "json" in err and "Python's own module" in err


def test_an_installed_lone_module_is_not_taken_for_an_implementation(tmp_path, monkeypatch, capsys):
    """A module that is not a package (no folder of modules) is refused in one line, not with a traceback."""
    (tmp_path / "lone_module.py").write_text("", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    assert main(["check", "lone_module"]) == 2
    assert "lone_module: no such folder, and no importable package of that name" in capsys.readouterr().err


def test_a_folder_name_that_is_not_utf8_gets_a_message_not_a_traceback(tmp_path, capsys):
    folder = os.fsdecode(os.fsencode(str(tmp_path)) + b"/caf\xe9")
    os.mkdir(folder)
    for command in (["check", folder], ["skeleton", folder + "/pkg"]):
        assert main(command) == 2
        err = capsys.readouterr().err
        assert "caf\\xe9" in err and "not valid UTF-8" in err and "Traceback" not in err


@pytest.mark.parametrize(
    "command",
    [["check"], ["coverage"], ["skeleton", "pkg"], ["zoo"], ["readings"], ["grade", "subs"]],
    ids=lambda c: c[0],
)
def test_an_unknown_option_after_a_subcommand_shows_that_subcommands_usage(command, capsys):
    with pytest.raises(SystemExit) as exit:
        main([*command, "--no-such-option"])
    command = command[0]
    assert exit.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(f"usage: speckit {command}") and "--no-such-option" in err


@pytest.mark.parametrize("command", ["coverage", "zoo", "readings"])
def test_coverage_zoo_and_readings_help_describe_the_command(command, capsys):
    with pytest.raises(SystemExit):
        main([command, "--help"])
    out = capsys.readouterr().out
    assert "Exit status 0" in out


@pytest.mark.parametrize(
    "review, complaint",
    [
        ("reason = 'the reference''s'\n", "not valid TOML"),
        ("[[equivalent]]\nmodule = 'square'\n", "an equivalent mutant is malformed"),
    ],
)
def test_a_broken_review_of_equivalent_mutants_gets_a_message_naming_the_file(
    review, complaint, tmp_path, monkeypatch, capsys
):
    from speckit import mutants

    (tmp_path / "boardadt.toml").write_text(review)
    monkeypatch.setattr(mutants, "review_path", lambda spec_name: tmp_path / f"{spec_name}.toml")
    assert main(["mutants", "--report", "--spec", "boardadt"]) == 2
    err = capsys.readouterr().err
    assert complaint in err and "boardadt.toml" in err and "Traceback" not in err


def test_zoo_refuses_zero_jobs_as_grade_does(capsys):
    assert main(["zoo", "--jobs", "0"]) == 2
    assert "--jobs must be at least 1" in capsys.readouterr().err


@pytest.mark.parametrize("name", names())
def test_coverage_exits_0_on_the_healthy_kit(name, capsys):
    assert main(["coverage", "--spec", name]) == 0
    assert "[supplied by the kit]" in capsys.readouterr().out or name != "connect4"


def test_killing_the_zoo_leaves_no_temporary_folder_and_no_process(tmp_path):
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    child = subprocess.Popen(
        [sys.executable, "-m", "speckit.cli", "zoo"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(os.environ, TMPDIR=str(scratch), PYTHONFAULTHANDLER="1"),
    )
    deadline = time.monotonic() + 60
    while not any(scratch.glob("speckit-run*-*/output")):  # a run alone, or a batch of runs
        assert time.monotonic() < deadline and child.poll() is None, "the zoo never started a run"
        time.sleep(0.1)
    child.terminate()
    started = time.monotonic()
    try:
        _, err = child.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        # Still running: SIGABRT makes the fault handler print every thread's stack, so the failure
        # shows where the zoo was stuck.
        child.send_signal(signal.SIGABRT)
        _, err = child.communicate(timeout=30)
        pytest.fail(f"the zoo did not stop within 30 s of SIGTERM; its threads:\n{err[-6000:]}")
    assert time.monotonic() - started < 10
    assert child.returncode == 130 and "Traceback" not in err
    assert list(scratch.iterdir()) == []
    assert not [p for p in Path("/proc").glob("[0-9]*/cmdline") if _mentions(p, str(scratch))]


def _mentions(cmdline: Path, text: str) -> bool:
    try:
        return text.encode() in cmdline.read_bytes()
    except OSError:
        return False
