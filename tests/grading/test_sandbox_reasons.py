"""Failures in the sandbox are reported with deterministic, named reasons (issue 12, finding 7).

A memory breach names the memory limit, every time; a time-out names the time limit; a
finalizer that loops when a value is released is stopped under the same limit and reported
as such, not blamed on the next call; a package that cannot be imported says which file
raised what, or that it took too long, or that it ended the program.
"""

from __future__ import annotations

import gc

import pytest

import spec as spec_data
from speckit.core import ImplementationError, MissingOperation, OperationFailed
from speckit.sandbox import SandboxConfig, load_sandboxed
from speckit.trace import TRACE

from .conftest import INCREMENT, patched_reference, reference_copy

CONNECT4 = spec_data.load("connect4")


def failure_of_increment(package, config=None) -> str:
    implementation = load_sandboxed(package, CONNECT4, config or SandboxConfig(uid=61560))
    try:
        with pytest.raises(OperationFailed) as caught:
            implementation.index.increment(implementation.index.newIndexType())
            implementation.flush()
        return str(caught.value)
    finally:
        implementation.close()


@pytest.mark.parametrize(
    "bomb",
    ["    hoard = bytearray(10 * 2**30)\n", "    hoard = [bytearray(2**20) for _ in range(20000)]\n"],
    ids=["at once", "step by step"],
)
def test_a_memory_breach_names_the_limit_every_time(tmp_path, bomb):
    package = patched_reference(tmp_path / "bomb", "index", INCREMENT, INCREMENT + bomb)
    messages = {failure_of_increment(package, SandboxConfig(uid=61561, memory_mb=512)) for _ in range(3)}
    assert messages == {"IndexType.increment went over the memory limit of 512 MB"}


def test_a_time_out_names_the_limit(tmp_path):
    package = patched_reference(tmp_path / "loop", "index", INCREMENT, INCREMENT + "    while True:\n        pass\n")
    assert failure_of_increment(package).startswith("IndexType.increment did not return within 2 s")


def test_a_finalizer_that_loops_is_reported_as_releasing_a_value(tmp_path):
    finalizer = "    number: int = 1\n\n    def __del__(self):\n        while self.number == 3:\n            pass\n"
    package = patched_reference(tmp_path / "finalizer", "index", "    number: int = 1\n", finalizer)
    implementation = load_sandboxed(package, CONNECT4, SandboxConfig(uid=61562))
    try:
        ops = implementation.index
        three = ops.increment(ops.increment(ops.newIndexType()))  # the reference updates in place: one value
        assert ops.lessThan(three, three) is False
        del three  # its __del__ runs when the server releases it, and never returns
        TRACE.reset()  # the trace of the calls so far holds the handles too
        gc.collect()
        with pytest.raises(OperationFailed) as caught:
            ops.lessThan(ops.newIndexType(), ops.newIndexType())
        assert str(caught.value) == "releasing a value (Index) took more than 2 s"
        assert ops.lessThan(ops.newIndexType(), ops.increment(ops.newIndexType())) is True, (
            "the next call is not blamed"
        )
    finally:
        implementation.close()


def test_a_module_that_raises_at_import_is_named(tmp_path):
    package = reference_copy(tmp_path / "raises")
    grid = package / "grid.py"
    grid.write_text(grid.read_text(encoding="utf-8") + "\nundefined_name\n", encoding="utf-8")
    line = len(grid.read_text(encoding="utf-8").splitlines())
    implementation = load_sandboxed(package, CONNECT4, SandboxConfig(uid=61563))
    try:
        with pytest.raises(
            MissingOperation,
            match=rf"module grid could not be imported: grid.py raised NameError at import \(line {line}\): "
            r"name 'undefined_name' is not defined",
        ) as caught:
            implementation.grid.newGridType(implementation.dimension.newDimensionType())
        assert caught.value.operation == "GridType.newGridType", "charged to the operation, as in process"
        assert (
            implementation.index.lessThan(implementation.index.newIndexType(), implementation.index.newIndexType())
            is False
        )
    finally:
        implementation.close()
    (package / "__init__.py").write_text("from . import grid\n", encoding="utf-8")
    with pytest.raises(
        ImplementationError,
        match=rf"^grid.py raised NameError at import \(line {line}\): name 'undefined_name' is not defined$",
    ):
        load_sandboxed(package, CONNECT4, SandboxConfig(uid=61563))


@pytest.mark.parametrize(
    ("code", "reason"),
    [
        ("import os\nos._exit(0)\n", "the program ended itself at import (os._exit)"),
        ("import time\ntime.sleep(60)\n", "the package took more than 1 s to import"),
        ("raise SystemExit(3)\n", "__init__.py raised SystemExit at import (line 1): 3"),
    ],
    ids=["os._exit", "too slow", "SystemExit"],
)
def test_a_package_that_cannot_be_imported_says_why(tmp_path, code, reason):
    package = reference_copy(tmp_path / "package")
    (package / "__init__.py").write_text(code, encoding="utf-8")
    with pytest.raises(ImplementationError) as caught:
        load_sandboxed(package, CONNECT4, SandboxConfig(uid=61564, import_seconds=1))
    assert str(caught.value) == reason
