"""A sixth specification is added as CONTRIBUTING's walkthrough says, touching nothing else.

A toy specification (a counter) is written in a folder of its own: its data under
``spec/toy/``, its reference, its suite, all declared by its ``[kit]`` table relative to
that folder, which ``SPECKIT_KITS`` names. ``speckit check``, ``coverage`` and ``skeleton``
then work on it as on the kit's own, and no file of the kit changes.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

import spec
from spec.loader import KITS_VARIABLE
from speckit.cli import main
from speckit.paths import REPO_ROOT

FILES = {
    "spec/toy/spec.toml": """
        title = "A counter"
        source = "a toy written for the kit's own test"
        summary = "A counter that starts at zero and counts up."
        contract = "A package with the module counter, whose functions are the operations."
        types = ["counter"]

        [primitives]
        int = "a whole number"

        [kit]
        reference = "toy_reference"
        suite = "toy_tests/counter"
        zoo = ""
        readings = ""
        alternative = ""
        rubric = ""
    """,
    "spec/toy/counter.toml": """
        [type]
        name = "CounterType"
        purpose = "A count of events, from zero."
        components = []
        range = "0 and up"
        default = "0"
        imports = []

        [[operation]]
        name = "newCounterType"
        signatures = ["newCounterType() -> CounterType"]
        params = []
        kind = "constructor"
        behaviour = "A counter at zero."

        [[operation]]
        name = "increment"
        signatures = ["increment(CounterType) -> CounterType"]
        params = ["counter"]
        kind = "update"
        behaviour = "The counter one more than the given one."

        [[operation]]
        name = "count"
        signatures = ["count(CounterType) -> int"]
        params = ["counter"]
        kind = "accessor"
        behaviour = "The events counted."
    """,
    "spec/toy/errata.toml": """
        [[erratum]]
        id = "T01"
        title = "increment's result is not said to be new"
        kind = "silence"
        operations = ["CounterType.increment"]
        sides = [{ where = "increment", says = "the counter one more than the given one" }]
        ruling = "increment returns the counter one more; whether it changes its argument is open."
        reason = "The document does not say."
        accepts = "A new counter, or the argument changed and returned."
    """,
    "toy_reference/__init__.py": '''
        """The toy counter's reference."""
    ''',
    "toy_reference/counter.py": '''
        """CounterType: a count from zero."""


        def newCounterType() -> int:
            return 0


        def increment(counter: int) -> int:
            return counter + 1


        def count(counter: int) -> int:
            return counter
    ''',
    "toy_tests/counter/test_counter.py": """
        from hypothesis import given, strategies as st

        from speckit.testing import covers, expect_equal


        @covers("CounterType.newCounterType", "CounterType.count")
        def test_a_new_counter_is_at_zero(impl):
            expect_equal(impl.counter.count(impl.counter.newCounterType()), 0, "a new counter counts 0")


        @covers("CounterType.increment", "CounterType.count")
        @given(times=st.integers(0, 20))
        def test_increment_counts_one_more(impl, times):
            counter = impl.counter.newCounterType()
            for _ in range(times):
                counter = impl.counter.increment(counter)
            expect_equal(impl.counter.count(counter), times, "each increment counts one more")
    """,
}


@pytest.fixture
def toy(tmp_path, monkeypatch) -> Path:
    for name, text in FILES.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    monkeypatch.setenv(KITS_VARIABLE, str(tmp_path))
    return tmp_path


def _kit_files() -> dict[str, int]:
    """The kit's spec data and suites, each file with its modification time."""
    return {
        str(p): p.stat().st_mtime_ns
        for base in ("spec", "tests")
        for p in (REPO_ROOT / base).rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    }


def test_a_toy_sixth_specification_is_checked_from_its_own_folder(toy, capsys):
    before = _kit_files()
    assert "toy" in spec.available()
    assert main(["coverage", "--spec", "toy"]) == 0
    assert "3 of 3 documented operations to implement are covered" in capsys.readouterr().out
    assert main(["check", "--spec", "toy"]) == 0
    table = capsys.readouterr().out
    for operation in ("newCounterType", "increment", "count"):
        assert operation in table
    assert "3 operations to implement: 3 passed" in table
    assert main(["skeleton", "--spec", "toy", str(toy / "student")]) == 0
    assert "def increment(counter)" in (toy / "student" / "counter.py").read_text(encoding="utf-8")
    assert main(["check", "--spec", "toy", str(toy / "student")]) == 1, "a fresh skeleton implements nothing"
    capsys.readouterr()
    assert _kit_files() == before, "adding a specification changed a file of the kit"


def test_without_its_root_the_toy_is_unknown(toy, monkeypatch, capsys):
    monkeypatch.delenv(KITS_VARIABLE)
    assert "toy" not in spec.available()
    with pytest.raises(SystemExit):
        main(["check", "--spec", "toy"])
    assert "invalid choice: 'toy'" in capsys.readouterr().err
