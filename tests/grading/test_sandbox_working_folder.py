"""``impl.working_folder()``: the implementation reads and writes files by relative name in a
folder the test process made, in-process and through the operation server alike."""

from __future__ import annotations

from pathlib import Path

import pytest

import spec as spec_data
from speckit.core import OperationFailed
from speckit.impl import load
from speckit.sandbox import SandboxConfig, load_sandboxed, probe_isolation
from speckit.sandbox.isolation import MOUNT_NAMESPACE

from .conftest import patched_reference

CONNECT4 = spec_data.load("connect4")

READS_ITS_FOLDER = '''def lessThan(first: Index, second: Index) -> bool:
    """Whether the first index is numerically smaller than the second."""
    with open("question.txt") as question:
        answer = question.read() == "yes"
    with open("answer.txt", "w") as written:
        written.write(str(answer))
    return answer
'''


def _in_folder(implementation) -> None:
    before = Path.cwd()
    index = implementation.index.newIndexType()
    with implementation.working_folder() as folder:
        assert Path.cwd() == folder.resolve() and not any(folder.iterdir())
        Path("question.txt").write_text("yes")
        assert implementation.index.lessThan(index, index) is True
        assert (folder / "answer.txt").read_text() == "True"
        (folder / "answer.txt").write_text("overwritten by the test")  # both sides may rewrite the other's files
        assert implementation.index.lessThan(index, index) is True
    assert Path.cwd() == before and not folder.exists()


def test_an_implementation_reads_and_writes_files_in_its_working_folder_in_process(tmp_path):
    package = patched_reference(tmp_path / "folder_reader", "index", _LESS_THAN, READS_ITS_FOLDER)
    _in_folder(load(package, CONNECT4))


@pytest.mark.skipif(
    probe_isolation(SandboxConfig(uid=61520)).mechanism == MOUNT_NAMESPACE,
    reason="the root fallback's fresh /tmp hides the shared folders (docs/grading.rst)",
)
def test_an_implementation_reads_and_writes_files_in_its_working_folder_in_the_sandbox(tmp_path):
    package = patched_reference(tmp_path / "folder_reader", "index", _LESS_THAN, READS_ITS_FOLDER)
    implementation = load_sandboxed(package, CONNECT4, SandboxConfig(uid=61520))
    try:
        _in_folder(implementation)
        # Outside the block, the server is back in its own folder, which holds no question.txt.
        with pytest.raises(OperationFailed, match="FileNotFoundError"):
            implementation.index.lessThan(implementation.index.newIndexType(), implementation.index.newIndexType())
    finally:
        implementation.close()


_LESS_THAN = '''def lessThan(first: Index, second: Index) -> bool:
    """Whether the first index is numerically smaller than the second."""
    return first.number < second.number
'''
