"""A broken implementation fails only the tests that use the broken operation, quickly.

An operation that loops forever, raises, or returns a non-bool Boolean is reported in
the specification's terms, within a bounded time, and the rest of the suite still runs.
(This is the in-process path of ``pytest`` and ``speckit check``; ``speckit grade``'s
sandbox is tested in tests/grading.)
"""

import shutil
import time
from pathlib import Path

import pytest

from speckit.core import Outcome
from speckit.registry import kit
from speckit.runner import run_suite

BREAKAGES = {
    "loops": ("    index.number += 1\n    return index", "    while True:\n        pass"),
    "raises": ("    return first.number == second.number", "    return 1 / 0"),
    "not-a-bool": ("    return first.number < second.number", "    return int(first.number < second.number)"),
}


def _broken_reference(tmp_path: Path, name: str) -> Path:
    find, replace = BREAKAGES[name]
    package = tmp_path / name
    shutil.copytree(kit("connect4").reference_dir, package, ignore=shutil.ignore_patterns("__pycache__"))
    module = package / "index.py"
    text = module.read_text()
    assert text.count(find) == 1, f"the patch text for {name} no longer matches adt/index.py"
    module.write_text(text.replace(find, replace))
    return package


@pytest.mark.parametrize(
    "name, operation, words",
    [
        ("loops", "IndexType.increment", "did not return within"),
        ("raises", "IndexType.equals", "raised ZeroDivisionError"),
        ("not-a-bool", "IndexType.lessThan", "a Boolean result must be True or False"),
    ],
)
def test_a_broken_operation_fails_its_tests_quickly_and_the_rest_still_run(tmp_path, name, operation, words):
    tests = [kit("connect4").suite_dir / "test_index.py", kit("connect4").suite_dir / "test_worth.py"]
    started = time.monotonic()
    run = run_suite("connect4", _broken_reference(tmp_path, name), tests=tests)
    elapsed = time.monotonic() - started
    assert not run.crash, run.crash
    failed = run.failed_tests()
    assert failed, "the broken operation was not noticed"
    assert any(operation in t.message and words in t.message for t in failed), failed[0].message
    worth = [t for t in run.tests if "test_worth.py" in t.test]
    assert worth and all(t.outcome is Outcome.PASSED for t in worth), (
        "tests not using the broken operation were disturbed"
    )
    assert elapsed < 90, f"the run took {elapsed:.0f} s"
