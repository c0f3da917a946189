"""Blame you can act on: the operation that broke is failed, the others are blocked by it or suspects,
and a module that cannot be imported is named by the file and line that hold the error."""

from pathlib import Path

import pytest

import spec
from speckit import check
from speckit.blame import measure
from speckit.cli import main
from speckit.core import MissingOperation, Outcome, TestRecord
from speckit.impl import load
from speckit.skeleton import reference_copy
from speckit.zoo import load_mutants

CONNECT4 = spec.load("connect4")


def _failure(name: str, covers: tuple[str, ...], called: tuple[str, ...], operation: str = "") -> TestRecord:
    return TestRecord(
        f"tests/connect4/test_index.py::{name}",
        covers,
        Outcome.FAILED,
        Outcome.FAILED,
        message="The specification requires: ...",
        operation=operation,
        suspects=called,
    )


INDEX = ("IndexType.newIndexType", "IndexType.increment", "IndexType.equals")


def test_a_frame_rule_failure_is_blamed_on_the_operation_every_failure_called():
    """With decrement wrong above 5, increment's frame-rule test fails too (its argument was made
    with decrement): before, check reported "increment failed"."""
    tests = [
        _failure("test_decrement", ("IndexType.decrement",), (*INDEX, "IndexType.decrement"), "IndexType.decrement"),
        _failure(
            "test_increment_frame",
            ("IndexType.increment",),
            (*INDEX, "IndexType.decrement", "IndexType.clone"),
            "IndexType.increment",
        ),
    ]
    diagnosis = check.diagnose(tests)
    assert list(diagnosis.failed) == ["IndexType.decrement"] and not diagnosis.suspects
    assert diagnosis.causes["tests/connect4/test_index.py::test_increment_frame"] == ("IndexType.decrement",)


def test_failures_nothing_tells_apart_make_suspects_not_failures():
    tests = [
        _failure(
            "test_a", ("IndexType.increment", "IndexType.decrement"), ("IndexType.increment", "IndexType.decrement")
        )
    ]
    diagnosis = check.diagnose(tests)
    assert not diagnosis.failed
    assert set(diagnosis.suspects) == {"IndexType.increment", "IndexType.decrement"}


def test_an_operation_documented_to_call_another_makes_it_a_suspect():
    """The trace sees only the test's own calls: a documented callee is a suspect as well."""
    tests = [
        _failure("test_equals", ("IndexType.equals",), ("IndexType.equals",), "IndexType.equals"),
        _failure("test_show", ("DisplayType.showMarkAt",), ("DisplayType.showMarkAt",), "DisplayType.showMarkAt"),
        _failure("test_show_again", ("DisplayType.showMarkAt",), ("DisplayType.showMarkAt",)),
    ]
    calls = {"DisplayType.showMarkAt": ("IndexType.equals",)}
    assert list(check.diagnose(tests, calls).failed) == ["IndexType.equals"]
    assert set(check.diagnose(tests).failed) == {"IndexType.equals", "DisplayType.showMarkAt"}


def test_a_long_explanation_keeps_what_the_specification_requires():
    explanation = "\n".join(
        [
            "t::x",
            "Documented behaviour:",
            "Calls, in order:",
            *[f"  v{i} = index.increment(v)" for i in range(60)],
            "",
            "The last call returned: False",
            "The specification requires: decrement(index 6) gives index 5",
        ]
    )
    shown = check.clipped(explanation, 30)
    assert len(shown) <= 31 and shown[-1] == "The specification requires: decrement(index 6) gives index 5"
    assert any("more lines of calls" in line for line in shown)


MEMBERS = ("index-decrement-by-two", "index-clone-shares", "index-frame-increment-damages-its-argument")
"""Cheap zoo members of each kind: an update's result, a clone that shares, a frame-rule breach."""


def test_the_zoo_is_blamed_exactly_on_representative_members(tmp_path):
    """The measurement of docs/sensitivity.rst ("Blame"), on a few members: before, a shared
    clone made increment and decrement "fail" too."""
    mutants = [m for m in load_mutants("connect4") if m.id in MEMBERS]
    assert len(mutants) == len(MEMBERS)
    blames = measure(mutants, tmp_path, jobs=2)
    assert all(blames[m.id].exact for m in mutants), {m.id: blames[m.id].describe() for m in mutants}


def _decrement_wrong_above_five(folder: Path) -> Path:
    package = reference_copy("connect4", folder)
    index = package / "index.py"
    text = index.read_text(encoding="utf-8")
    assert text.count("index.number -= 1") == 1
    index.write_text(
        text.replace("index.number -= 1", "index.number -= 1 if index.number <= 5 else 2"), encoding="utf-8"
    )
    return package


def test_a_type_whose_failures_are_another_types_is_blocked_by_it(tmp_path, capsys):
    """Before: `check --type DimensionType` reported "DimensionType.clone failed" (correct code)."""
    package = _decrement_wrong_above_five(tmp_path / "pkg")
    assert main(["check", str(package), "--type", "DimensionType"]) == 1
    out = capsys.readouterr().out
    rows = [line.split() for line in out.splitlines() if line.startswith("  ") and not line.startswith("      ")]
    assert rows and all(row[1:4] == ["blocked", "by", "IndexType.decrement"] for row in rows), out


@pytest.mark.parametrize("broken, imported", [("display", "colour"), ("grid", "game_tree")])
def test_a_syntax_error_is_blamed_on_the_file_that_holds_it(tmp_path, broken, imported):
    """Before: "module colour has a syntax error at line 8" when the error was in display.py."""
    package = reference_copy("connect4", tmp_path / "pkg")
    lines = (package / f"{broken}.py").read_text(encoding="utf-8").splitlines()
    (package / f"{broken}.py").write_text("\n".join([*lines, "import .oops as _kit"]) + "\n", encoding="utf-8")
    line = len(lines) + 1
    implementation = load(package, CONNECT4)
    with pytest.raises(
        MissingOperation,
        match=rf"^module {imported} could not be imported: {broken}.py has a syntax error at line {line}: ",
    ):
        implementation.module(imported)
    with pytest.raises(MissingOperation, match=rf"^module {broken} has a syntax error at line {line} of {broken}.py: "):
        implementation.module(broken)


def test_a_broken_copy_of_a_supplied_module_is_named_under_the_supplied_types():
    problems = {
        "colour": "module colour could not be imported: display.py has a syntax error at line 8: invalid syntax"
    }
    (line,) = check._supplied_problems(CONNECT4, problems)
    assert (
        line.startswith("display.py (DisplayType) is the kit's") and "display.py has a syntax error at line 8" in line
    )
