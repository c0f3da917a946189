"""Attacks on reading submissions (issue 30, items 6 and 8): a zip whose central directory
is a bomb, a module whose compiling is the attack."""

from __future__ import annotations

import importlib.util
import resource
import struct
import sys
import zipfile

import pytest

import spec as spec_data
from speckit.grading import intake
from speckit.grading.intake import (
    Unreadable,
    central_directory,
    check_modules,
    copy_folder,
    extract_zip,
    install_bytecode,
    syntax_errors,
)
from speckit.rubric import Limits

from .conftest import reference_copy

CONNECT4 = spec_data.load("connect4")

LIMITS = Limits(max_files=50, max_megabytes=1)


def _crowd(path, count: int):
    with zipfile.ZipFile(path, "w") as z:
        for i in range(count):
            z.writestr(f"pkg/m{i}.py", b"")
    return path


def test_a_central_directory_bomb_is_refused_before_its_directory_is_parsed(tmp_path, monkeypatch):
    """Before: the whole directory was parsed first (a million entries: 6.6 s and 525 MB)."""
    bomb = _crowd(tmp_path / "crowd.zip", 2000)

    def parses(*args, **kwargs):
        raise AssertionError("the central directory was parsed")

    monkeypatch.setattr(intake.zipfile, "ZipFile", parses)
    with pytest.raises(Unreadable, match="2000 entries"):
        extract_zip(bomb, tmp_path / "out", LIMITS)


def test_a_directory_larger_than_its_entries_need_is_refused(tmp_path, monkeypatch):
    small = _crowd(tmp_path / "small.zip", 3)
    data = bytearray(small.read_bytes())
    at = data.rfind(b"PK\x05\x06")
    data[at + 12 : at + 16] = struct.pack("<I", 400_000_000)  # declares a 400 MB directory
    (tmp_path / "liar.zip").write_bytes(bytes(data))
    monkeypatch.setattr(intake.zipfile, "ZipFile", lambda *a, **k: pytest.fail("the central directory was parsed"))
    with pytest.raises(Unreadable, match="directory takes 400000000 bytes"):
        extract_zip(tmp_path / "liar.zip", tmp_path / "out", LIMITS)


def test_the_end_record_is_read_as_zipfile_reads_it(tmp_path):
    assert central_directory(_crowd(tmp_path / "ten.zip", 10))[0] == 10
    (tmp_path / "not.zip").write_bytes(b"no end record here")
    assert central_directory(tmp_path / "not.zip") is None


SLOW_TO_COMPILE = "x = f'" + "{1}" * 40_000 + "'\n"
"""One valid f-string: CPython 3.11 compiles it in time quadratic in its length (seconds here)."""


def test_modules_are_compiled_outside_the_grader_once(tmp_path):
    """Before: the grader compiled every module itself, holding the interpreter lock (a 750 KB
    f-string froze every job for 34 s), and each server restart compiled it again."""
    package = reference_copy(tmp_path / "slow", index=SLOW_TO_COMPILE)
    before = resource.getrusage(resource.RUSAGE_SELF)
    errors = syntax_errors(package, CONNECT4)
    after = resource.getrusage(resource.RUSAGE_SELF)
    assert errors == {}
    assert (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime) < 0.5, (
        "the grader compiled the module itself"
    )
    checked = check_modules(package, CONNECT4)
    pyc = checked.bytecode["index.py"]
    assert (
        pyc[:4] == importlib.util.MAGIC_NUMBER and int.from_bytes(pyc[4:8], "little") == 3
    )  # a checked hash-based .pyc
    install_bytecode(package, checked.bytecode, {"index.py"}, None)
    assert (package / "__pycache__" / f"index.{sys.implementation.cache_tag}.pyc").read_bytes() == pyc


def test_a_module_that_takes_too_long_to_compile_is_an_error_of_its_own(tmp_path):
    package = reference_copy(tmp_path / "slow", index="x = f'" + "{1}" * 80_000 + "'\n")
    checked = check_modules(package, CONNECT4, seconds=1)
    assert set(checked.errors) == {"index.py"} and "to compile" in checked.errors["index.py"]
    assert "grid.py" in checked.bytecode, "the modules after it are still checked"


def test_a_module_too_large_to_compile_safely_is_left_out(tmp_path):
    folder = tmp_path / "alice"
    folder.mkdir()
    (folder / "index.py").write_text("x = f'" + "{1}" * 250_000 + "'\n")  # 750 KB
    notes = copy_folder(folder, tmp_path / "out", LIMITS)
    assert notes == ["index.py: larger than 256 KB, left out"] and not (tmp_path / "out" / "index.py").exists()
