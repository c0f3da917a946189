"""A virtual X display (Xvfb) for the tests of the kit's windows, and the photographs taken of it.

A window is drawn by a script run in a child process on the display; the screen is
photographed with ImageMagick's ``import`` as a binary PPM, read here into pixels.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from speckit.paths import REPO_ROOT


def missing() -> str:
    """Why a window cannot be drawn and photographed here, or "" when it can."""
    if importlib.util.find_spec("tkinter") is None:
        return f"this Python ({sys.executable}) has no tkinter"
    for program, package in (("Xvfb", "xvfb"), ("import", "imagemagick")):
        if shutil.which(program) is None:
            return f"{program} is not installed (apt-get install {package})"
    return ""


def display(screen: str, cannot: str) -> Iterator[str]:
    """For a fixture: a virtual X display of ``screen`` ("800x700"), its name such as ":5", until
    the fixture ends. Skips, saying ``cannot`` and what is missing, where there is none to be had."""
    reason = missing()
    if reason:
        pytest.skip(f"{cannot}: {reason}")
    read, write = os.pipe()
    server = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", f"{screen}x24", "-nolisten", "tcp"],
        pass_fds=(write,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    with os.fdopen(read) as pipe:
        number = pipe.readline().strip()
    if not number:
        server.kill()
        pytest.skip("Xvfb did not start")
    yield f":{number}"
    server.terminate()
    server.wait(timeout=10)


def photograph(display: str, script: Path, *args: str) -> dict:
    """Run ``script ARGS`` (which draws a window and photographs it) on ``display``; what it
    printed last, as JSON (where the window is, its state)."""
    done = subprocess.run(
        [sys.executable, str(script), *args],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=REPO_ROOT,
        env=dict(os.environ, DISPLAY=display, PYTHONPATH=str(REPO_ROOT)),
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def read_ppm(path: Path):
    """A binary PPM (P6, 8 bits) as (width, height, bytes)."""
    data = path.read_bytes()
    fields, position = [], 0
    while len(fields) < 4:
        while data[position : position + 1].isspace():
            position += 1
        if data[position : position + 1] == b"#":
            position = data.index(b"\n", position) + 1
            continue
        end = position
        while not data[end : end + 1].isspace():
            end += 1
        fields.append(data[position:end])
        position = end
    assert fields[0] == b"P6" and fields[3] == b"255", fields
    return int(fields[1]), int(fields[2]), data[position + 1 :]


def pixel(image, x: int, y: int) -> tuple[int, int, int]:
    """The colour of the screen's pixel (x, y), from the top left."""
    width, height, pixels = image
    assert 0 <= x < width and 0 <= y < height, f"({x}, {y}) is off the screen"
    offset = 3 * (y * width + x)
    return tuple(pixels[offset : offset + 3])


def near(colour, wanted, tolerance: int) -> bool:
    """Each of the colour's red, green and blue within ``tolerance`` of the wanted one's."""
    return all(abs(a - b) <= tolerance for a, b in zip(colour, wanted, strict=True))
