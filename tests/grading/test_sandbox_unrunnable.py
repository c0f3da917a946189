"""Under the sandbox too, a test whose operation is missing or not implemented stops at its first example.

In-process the plugin carries such a failure past Hypothesis (tests/kit/test_unrunnable_examples.py).
In the sandbox a call is pipelined: its failure may come back only when the example's
calls are run, at the end of the example, where it must stop the test all the same, or an
empty skeleton costs every example of every test (issue 31).
"""

from __future__ import annotations

import pytest

import spec as spec_data
from speckit.sandbox import SandboxConfig
from speckit.skeleton import write_skeleton

from .conftest import needs_root

pytest_plugins = ["pytester"]

MODULE = """
from pathlib import Path

from hypothesis import given, settings, strategies as st


@settings(max_examples=20, database=None)
@given(st.integers(min_value=0, max_value=5))
def test_calls_the_operation(impl, steps):
    with Path(r"{log}").open("a") as examples:
        examples.write(repr(steps) + "\\n")
    index = impl.index.newIndexType()
    for _ in range(steps):
        index = impl.index.increment(index)
"""


@needs_root
@pytest.mark.parametrize("kind", ["NotImplementedOperation", "MissingOperation"])
def test_a_sandboxed_test_stops_at_its_first_example(pytester, tmp_path, kind):
    package = tmp_path / "skeleton" / "connect4"
    write_skeleton(spec_data.load("connect4"), package)
    if kind == "MissingOperation":
        (package / "index.py").write_text('"""IndexType, not written yet."""\n', encoding="utf-8")
    settings = tmp_path / "sandbox.json"
    settings.write_text(SandboxConfig(uid=61544, gid=61544).to_json(), encoding="utf-8")
    log = tmp_path / "examples.txt"
    pytester.makepyfile(test_unrunnable=MODULE.format(log=log))
    result = pytester.runpytest_subprocess(
        "-p",
        "speckit.pytest_plugin",
        "-p",
        "no:cacheprovider",
        "--spec=connect4",
        f"--impl={package}",
        f"--sandbox-config={settings}",
    )
    result.assert_outcomes(failed=1)
    assert f"{kind}: " in result.stdout.str()
    # Before: the failure came back at the end of the example and Hypothesis tried it again.
    assert len(log.read_text().splitlines()) == 1, log.read_text()
