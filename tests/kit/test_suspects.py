"""A failing test that a narrower failure earlier in the run explains is not shrunk (speckit.suspects).

Its examples and its verdict are those it has alone; only its failing example is reported as
found, with a note naming the earlier test. A test checking an operation the earlier one does
not check is shrunk as usual, and so is every test of a run where nothing failed before it.
"""

import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree

import pytest

from speckit import patches
from speckit.registry import kit
from speckit.suspects import Suspects, in_type_order, note
from speckit.zoo import load_mutants

pytest_plugins = ["pytester"]

MODULE = """
from pathlib import Path

from hypothesis import given, settings, strategies as st
from hypothesis.stateful import RuleBasedStateMachine, rule, run_state_machine_as_test

from speckit.testing import covers


def log(name, example):
    with Path(name + ".txt").open("a") as examples:
        examples.write(repr(example) + "\\n")


@covers("T.a")
def test_a_narrow_one():
    assert {narrow_passes}


@covers("T.a", "T.b")
@given(st.lists(st.integers(0, 1000), min_size=1))
def test_b_wide_one(numbers):
    log("wide", numbers)
    assert sum(numbers) < 50


@covers("T.b", "T.c")
@given(st.lists(st.integers(0, 1000), min_size=1))
def test_c_another(numbers):
    log("another", numbers)
    assert sum(numbers) < 50


class Machine(RuleBasedStateMachine):
    total = 0

    @rule(n=st.integers(0, 1000))
    def add(self, n):
        self.total += n
        log("machine", n)
        assert self.total < 50


@covers("T.a", "T.d")
def test_d_state_machine():
    run_state_machine_as_test(Machine, settings=settings(settings(), stateful_step_count=5))
"""


def run(pytester, narrow_passes: bool, *options: str) -> tuple[dict[str, list[str]], str]:
    pytester.makepyfile(test_module=MODULE.format(narrow_passes=narrow_passes))
    # -rN: no short summary, which repeats each failure's message in full when CI is set.
    result = pytester.runpytest_subprocess(
        "-p", "speckit.pytest_plugin", "-p", "no:cacheprovider", "-p", "no:randomly", "-rN", *options
    )
    result.assert_outcomes(passed=int(narrow_passes), failed=4 - int(narrow_passes))
    examples = {n: (pytester.path / f"{n}.txt").read_text().splitlines() for n in ("wide", "another", "machine")}
    return examples, result.stdout.str()


def test_a_test_an_earlier_narrower_failure_explains_is_reported_as_found_with_the_same_verdict(pytester):
    shrunk, shrunk_output = run(pytester, narrow_passes=True)
    for name in ("wide", "another", "machine"):
        (pytester.path / f"{name}.txt").unlink()
    found, found_output = run(pytester, narrow_passes=False)
    # The wide test and the state machine cover T.a, which failed first: their examples stop at
    # the first failing one, the examples before it being those of the run where nothing failed.
    for name in ("wide", "machine"):
        assert len(found[name]) < len(shrunk[name])
        assert found[name] == shrunk[name][: len(found[name])]
    assert found_output.count("not reduced to its smallest: test_a_narrow_one") == 2
    # The other test does not cover T.a: it is shrunk as before, to the smallest failing list.
    assert found["another"] == shrunk["another"]
    assert "not reduced" not in shrunk_output


def test_a_hidden_failure_explains_nothing(pytester):
    # A visible test's message would name the hidden test: its failure is not remembered.
    _, output = run(pytester, False, "--hidden-tests=*::test_a_narrow_one")
    assert "not reduced" not in output


def test_a_suspect_is_explained_by_the_first_failure_whose_operations_it_all_checks():
    suspects = Suspects()
    suspects.record_failure("t.py::test_nothing", frozenset())
    suspects.record_failure("t.py::test_b", frozenset({"T.b"}))
    suspects.record_failure("t.py::test_a", frozenset({"T.a"}))
    assert suspects.explained_by(frozenset({"T.a", "T.b"})) == "t.py::test_b"
    assert suspects.explained_by(frozenset({"T.a", "T.c"})) == "t.py::test_a"
    assert suspects.explained_by(frozenset({"T.c"})) is None
    assert "test_b, which checks only operations this test checks too" in note("t.py::test_b")


def test_an_operation_of_another_type_a_failed_test_checks_explains_a_failure_that_called_it():
    suspects = Suspects()
    suspects.record_failure("t.py::test_dimension", frozenset({"D.new", "D.equals"}))
    own = frozenset({"G.new", "G.equals"})
    assert suspects.called_and_failed(["I.new", "D.equals", "G.new"], own) == ("D.equals", "t.py::test_dimension")
    assert suspects.called_and_failed(["I.new", "G.new"], own) is None
    # An operation of the test's own type is left to the narrower-test rule.
    assert suspects.called_and_failed(["D.equals"], frozenset({"D.lessThan"})) is None


class _Item:
    def __init__(self, path: str):
        self.path = Path(path)


def test_each_folders_tests_run_in_the_order_of_their_types_and_the_others_last():
    names = ["a/test_grid.py", "a/test_index.py", "a/test_structure.py", "a/test_index.py", "b/test_x.py"]
    items = [_Item(n) for n in names]
    rank = {"test_index.py": 0, "test_grid.py": 1}
    ordered = in_type_order(items, lambda item: rank.get(item.path.name))
    assert ordered == [items[1], items[3], items[0], items[2], items[4]]


def _outcomes(junit: Path) -> dict[str, str]:
    outcomes = {}
    for case in ElementTree.parse(junit).iter("testcase"):
        failed = case.find("failure") is not None or case.find("error") is not None
        outcomes[f"{case.get('classname')}::{case.get('name')}"] = "failed" if failed else "passed"
    return outcomes


@pytest.mark.slow
def test_suspects_change_no_verdict_of_a_faulty_package(tmp_path):
    # A fault in a type others use (DimensionType) and one in the grid's win (a state machine's suspect).
    chosen = {m.id: m for m in load_mutants("connect4")}
    faults = [*chosen["dimension-ignores-index"].patches, *chosen["grid-win-ignores-diagonals"].patches]
    package = patches.materialise("connect4", "two faults", faults, tmp_path / "package" / "adt")

    def run(name: str, *options: str) -> tuple[dict[str, str], str]:
        junit = tmp_path / f"{name}.xml"
        done = subprocess.run(
            [
                *(sys.executable, "-m", "pytest", str(kit("connect4").suite_dir), "-p", "speckit.pytest_plugin"),
                *("--spec=connect4", "-m", "not slow", "-q", "-p", "no:cacheprovider", f"--impl={package}"),
                *(f"--junitxml={junit}", f"--basetemp={tmp_path / name}", *options),
            ],
            capture_output=True,
            text=True,
            cwd=tmp_path,
        )
        return _outcomes(junit), done.stdout

    every, every_output = run("every", "--shrink-every-failure")
    suspected, output = run("suspects")
    assert suspected == every
    assert "not reduced to its smallest" not in every_output
    assert "not reduced to its smallest: it calls DimensionType." in output
    assert "which checks only operations this test checks too" in output
