"""Plain values (``str`` colours, ``int`` indexes) cross the sandbox as they are, and a forged Boolean does not.

The plain alternative (tests/fixtures/alt_connect4_plain.toml, patches of alt_connect4) is a
correct implementation whose values are plain
Python values where they can be, with value semantics where the reference changes its
arguments: under the sandbox its results come back by value, not as handles, so it
exercises the paths the reference (all records) never takes (issue 12, finding 1).
A submission that patches ``builtins.isinstance`` to pass the server's Boolean check
must still fail it: the test process checks again, on decoded data (finding 3).
"""

from __future__ import annotations

import pytest

import spec as spec_data
from speckit.core import OperationFailed
from speckit.readings import load_readings, materialise
from speckit.runner import run_suite
from speckit.sandbox import Handle, SandboxConfig, load_sandboxed

from .conftest import patched_reference

CONNECT4 = spec_data.load("connect4")

FORGED_BOOLEAN = '''

import builtins as _builtins

_real_isinstance = _builtins.isinstance


def _forged_isinstance(value, kinds):
    """Says an int is a bool, so the server's own Boolean check is fooled."""
    if kinds is bool and type(value) is int:
        return True
    return _real_isinstance(value, kinds)


_builtins.isinstance = _forged_isinstance


def lessThan(first: Index, second: Index) -> bool:
    return 1 if first.number < second.number else 0
'''


def test_a_plain_result_of_the_last_call_of_a_message_is_kept_under_its_handle(plain):
    """The last pipelined call of a flushed message returned a str: a later call must still find it."""
    implementation = load_sandboxed(plain, CONNECT4, SandboxConfig(uid=61520))
    try:
        colour = implementation.colour.newColourType()
        assert isinstance(colour, Handle)
        implementation.flush()  # the message ends with newColourType, whose result is "R"
        other = implementation.colour.invert(colour)
        assert implementation.colour.equals(colour, colour) is True
        assert implementation.colour.equals(colour, other) is False
        index = implementation.index.increment(implementation.index.newIndexType())
        implementation.flush()
        answers = implementation.batch(
            lambda: [implementation.index.lessThan(implementation.index.newIndexType(), index)]
        )
        assert answers == [True]
    finally:
        implementation.close()


@pytest.mark.parametrize(
    "sandboxed", [False, pytest.param(True, marks=pytest.mark.slow)], ids=["in-process", "sandbox"]
)
def test_the_whole_suite_passes_plain_values_with_value_semantics(sandboxed, plain):
    run = run_suite("connect4", plain, extra=("--sandbox",) if sandboxed else ())
    assert not run.crash, run.crash
    assert len(run.tests) > 200, "the suite ran too few tests"
    failures = [f"{t['test']}\n{t['message']}" for t in run.failed_tests()]
    assert not failures, f"{len(failures)} tests fail a correct implementation:\n\n" + "\n\n".join(failures[:5])


@pytest.mark.parametrize("batched", [False, True], ids=["called", "batched"])
def test_a_forged_boolean_fails_in_the_test_process(tmp_path, batched):
    package = patched_reference(
        tmp_path / "forger", "index", "\n\ndef greaterThan(", FORGED_BOOLEAN + "\n\ndef greaterThan("
    )
    implementation = load_sandboxed(package, CONNECT4, SandboxConfig(uid=61521))
    try:
        ops = implementation.index
        one, two = ops.newIndexType(), ops.increment(ops.newIndexType())
        with pytest.raises(
            OperationFailed, match=r"IndexType.lessThan returned 1 \(int\); a Boolean result must be True or False"
        ):
            if batched:
                implementation.batch(lambda: [ops.lessThan(one, two)])
            else:
                ops.lessThan(one, two)
    finally:
        implementation.close()


def test_a_result_a_reading_makes_plain_comes_back_as_it_is(tmp_path):
    """GridType.win is declared to return a symbol, but erratum E15 accepts a Boolean, so the
    specification names it in ``[kit] results_by_value``: a bool must reach the test as a bool,
    called or batched, as in-process (a pipelined handle hid it, and the suite read it as a symbol)."""
    (reading,) = [r for r in load_readings("connect4") if r.id == "E15-win-operations-return-booleans"]
    implementation = load_sandboxed(materialise(reading, tmp_path / "package"), CONNECT4, SandboxConfig(uid=61522))
    try:
        grid = implementation.grid.newGridType()
        assert implementation.grid.win(grid) is False
        answers = implementation.batch(lambda: [implementation.grid.horizWin(grid), implementation.grid.diagWin(grid)])
        assert answers == [False, False] and all(type(a) is bool for a in answers)
        assert isinstance(implementation.grid.getDimension(grid), Handle), "an operation not named is still pipelined"
    finally:
        implementation.close()
