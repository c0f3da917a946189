"""The BoardADT suite in the sandbox: reading fields, comparing colours, module constants.

The suite reads the implementation's values as attributes (``value.empty``), compares
colours with ``==`` and reads module constants; in the sandbox each read runs in the
operation server. The reference and an alternative correct package pass, mutants fail
exactly the tests they fail in-process, a read of student code that loops forever
fails with the time limit, and ``speckit grade`` grades BoardADT submissions.
"""

from __future__ import annotations

import io
import shutil
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import spec as spec_data
from speckit import rubric as rubric_module
from speckit.core import MissingOperation, OperationFailed
from speckit.grading import grade
from speckit.paths import REPO_ROOT
from speckit.registry import kit
from speckit.runner import run_suite
from speckit.sandbox import Handle, SandboxConfig, load_sandboxed, shown
from speckit.zoo import load_mutants

from .conftest import needs_root

BOARDADT = spec_data.load("boardadt")
REFERENCE = kit("boardadt").reference_dir
SUITE = kit("boardadt").suite_dir
ALTERNATIVE = REPO_ROOT / "tests" / "fixtures" / "alt_boardadt"
CONFORMANCE = [SUITE / f"test_{name}.py" for name in ("board_adt", "color", "player", "square", "value")]
"""The tests of student operations (the kit's programs and solver have tests of their own)."""
MUTANTS = {
    "boardadt-blue-is-red": ["test_color.py"],
    "boardadt-square-row-first": ["test_square.py"],
    "boardadt-value-empty-is-an-int": ["test_value.py"],
}


def package_copy(destination: Path, source: Path = REFERENCE, **replacements: tuple[str, str]) -> Path:
    """A copy of a package, each named module with one textual change (which must apply once)."""
    shutil.copytree(source, destination, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    for module, (find, replace) in replacements.items():
        path = destination / f"{module}.py"
        text = path.read_text(encoding="utf-8")
        assert text.count(find) == 1, f"{find!r} occurs {text.count(find)} times in {module}.py"
        path.write_text(text.replace(find, replace), encoding="utf-8")
    return destination


def outcomes(run) -> dict[str, str]:
    assert not run.crash, run.crash
    return {t["test"].split("/")[-1]: t["outcome"] for t in run.tests}


@pytest.mark.parametrize("package", [REFERENCE, ALTERNATIVE], ids=["reference", "alternative"])
def test_correct_packages_pass_the_whole_suite_in_the_sandbox(package, runs):
    found = outcomes(runs[package])
    assert found and all(o == "passed" for o in found.values()), {t: o for t, o in found.items() if o != "passed"}


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """The sandboxed runs of the correct packages, and of each mutant both ways, two at a time."""
    base = tmp_path_factory.mktemp("boardadt-runs")
    jobs = {package: (package, CONFORMANCE, ("--sandbox",)) for package in (REFERENCE, ALTERNATIVE)}
    for mutant in load_mutants("boardadt"):
        if mutant.id in MUTANTS:
            folder = package_copy(base / mutant.id, **{mutant.module: (mutant.find, mutant.replace)})
            tests = [SUITE / name for name in MUTANTS[mutant.id]]
            jobs[(mutant.id, "sandbox")] = (folder, tests, ("--sandbox",))
            jobs[(mutant.id, "in-process")] = (folder, tests, ())
    assert len(jobs) == 2 + 2 * len(MUTANTS), "a mutant the test names is no longer in the zoo"
    with ThreadPoolExecutor(2) as pool:
        futures = {
            key: pool.submit(run_suite, "boardadt", folder, tests=tests, extra=extra)
            for key, (folder, tests, extra) in jobs.items()
        }
        return {key: future.result() for key, future in futures.items()}


@pytest.mark.parametrize("mutant", sorted(MUTANTS))
def test_mutants_fail_the_same_tests_sandboxed_and_in_process(mutant, runs):
    sandboxed, in_process = outcomes(runs[(mutant, "sandbox")]), outcomes(runs[(mutant, "in-process")])
    assert sandboxed == in_process
    assert "failed" in sandboxed.values()


LOOPING_FIELD = (
    "    def __attrs_post_init__(self) -> None:",
    "    @property\n    def stuck(self) -> bool:\n        while True:\n            pass\n\n"
    "    def __attrs_post_init__(self) -> None:",
)


@pytest.fixture(scope="module")
def looping(tmp_path_factory):
    package = package_copy(tmp_path_factory.mktemp("looping") / "pkg", value=LOOPING_FIELD)
    implementation = load_sandboxed(package, BOARDADT, SandboxConfig(uid=61510))
    yield implementation
    implementation.close()


def test_fields_constants_and_colours_are_read_in_the_server(looping):
    colours = looping.module("color")
    red, blue = colours.red, colours.blue
    assert isinstance(red, Handle) and colours.red is red, "a module's attribute is read once per server"
    assert red == red and red != blue and not red == blue and red != "red"  # noqa: SIM201 -- == and != are two operations
    value = looping.value.Value(False, blue)
    assert value.empty is False and value.color == blue
    assert hasattr(value, "color") and not hasattr(value, "colour")
    assert "empty" in dir(value) and shown(value) == "Value(empty=False, color=Color.blue)"
    assert looping.module("board_adt").number_of_columns == 7
    assert not hasattr(looping.module("board_adt"), "number_of_columns_")
    with pytest.raises(MissingOperation, match="no module colour"):
        looping.module("colour")
    with pytest.raises(AttributeError, match="read-only"):
        colours.red = blue
    with pytest.raises(AttributeError, match="read-only"):
        del colours.red


def test_a_records_other_fields_come_with_the_first_read(looping):
    """Reading value.empty brings value.color along: the second read makes no round trip, until the next call."""
    blue = looping.module("color").blue
    value = looping.value.Value(False, blue)
    _ = value.empty
    trips = looping.connection.seq
    assert value.color == blue and looping.connection.seq == trips + 1, "only == went to the server"
    square = looping.square.Square(3, 4)
    _ = value.color
    assert looping.connection.seq > trips + 1, "after an operation call the field is read afresh"
    assert (square.column, square.row) == (3, 4)


def test_a_field_that_loops_forever_fails_with_the_time_limit(looping):
    value = looping.value.Value(True)
    started = time.monotonic()
    with pytest.raises(OperationFailed, match=r"Value\.stuck did not return within 2 s"):
        _ = value.stuck
    # Stopped by its 2 s of processor time, before the wall-clock backstop (20 s), however busy the machine.
    assert time.monotonic() - started < 20
    started = time.monotonic()
    with pytest.raises(OperationFailed, match="did not return within 2 s"):
        _ = value.stuck  # remembered: not run again in this run
    assert time.monotonic() - started < 1
    assert value.empty is True, "the server survived and still holds the value"


def test_the_default_rubric_grades_the_operations_of_the_unit():
    rubric = rubric_module.load(spec_name="boardadt")
    assert rubric.total == 100 and [t.name for t in rubric.types] == ["square_type", "value_type", "board_type"]
    graded = {f for t in rubric.types for f in t.tests}
    assert graded == {p.name for p in CONFORMANCE} and all((SUITE / f).is_file() for f in graded)


SMALL_RUBRIC = """
spec = "boardadt"
[grading]
mode = "best"
[types.square_type]
points = 5
tests = ["test_square.py"]
[types.value_type]
points = 5
tests = ["test_value.py"]
[types.board_type]
points = 10
tests = ["test_color.py"]
"""


@needs_root
def test_grade_gives_full_marks_to_a_correct_package_and_fewer_to_a_faulty_one(tmp_path):
    submissions = tmp_path / "submissions"
    package_copy(submissions / "alice", ALTERNATIVE)
    package_copy(submissions / "bob", value=("    empty: bool\n", "    empty: bool = attrs.field(converter=int)\n"))
    rubric = tmp_path / "rubric.toml"
    rubric.write_text(SMALL_RUBRIC)
    found = grade(submissions, tmp_path / "out", jobs=2, rubric=rubric, spec_name="boardadt", stream=io.StringIO())
    grades = {g.name: g for g in found}
    assert grades["alice"].total == grades["alice"].max_score == 20
    bob = {t.name: t.score for t in grades["bob"].types}
    assert bob["value_type"] < 5 and bob["square_type"] == 5 and bob["board_type"] == 10
    rows = (tmp_path / "out" / "grades.csv").read_text().splitlines()
    assert rows[0] == "student,submission,square_type,value_type,board_type,total,max,note"


WRITES_ITS_RECORDS = (
    "        squares[lowest_empty] = Value(empty=False, color=self._current_color)\n",
    "        record = squares[lowest_empty]\n        record.empty, record.color = False, self._current_color\n",
)
"""A board that keeps one record per square and writes its fields on a move, as a Pascal program would."""


@needs_root
@pytest.mark.slow
def test_a_board_that_writes_its_records_keeps_its_points_when_graded_as_a_hybrid(tmp_path):
    """No cascade: a faulty value_type costs only its own points, whatever the board does with records.

    Both boards below are correct and both packages have the same bug in value.py, so
    each board fails as submitted and is graded again beside the reference's value.py.
    The board that writes its records' fields must earn its points there as the board
    that makes new records does: the reference's Value is a record whose fields may be
    written, as the unit's is.
    """
    submissions = tmp_path / "submissions"
    bug = ("    empty: bool\n", "    empty: bool = attrs.field(converter=int)\n")
    package_copy(submissions / "carol", value=bug, board_adt=WRITES_ITS_RECORDS)
    package_copy(submissions / "dave", value=bug)
    rubric = tmp_path / "rubric.toml"
    rubric.write_text(SMALL_RUBRIC.replace('tests = ["test_color.py"]', 'tests = ["test_board_adt.py"]'))
    found = grade(submissions, tmp_path / "out", jobs=2, rubric=rubric, spec_name="boardadt", stream=io.StringIO())
    scores = {g.name: {t.name: t.score for t in g.types} for g in found}
    assert scores["carol"]["value_type"] < 5 and scores["dave"]["value_type"] < 5
    assert scores["carol"]["board_type"] == scores["dave"]["board_type"] == 10, scores


def test_keyword_arguments_cross_into_the_server():
    """``Computer_Move(board, level=...)``: keyword arguments reach the served call, in the
    sandbox as in process, and show in the trace of calls."""
    from speckit.impl import load
    from speckit.trace import TRACE

    moves = [4, 4, 3, 3, 2, 1]  # red (to move) wins at once in column 5: greedy sees it
    columns = {}
    for name, implementation in (
        ("in process", load(str(REFERENCE), BOARDADT)),
        ("sandbox", load_sandboxed(REFERENCE, BOARDADT, SandboxConfig(uid=61592))),
    ):
        try:
            board = implementation.board_adt.Board()
            implementation.board_adt.Initialize(board)
            for column in moves:
                implementation.board_adt.Make_Move(board, column)
            columns[name] = (
                implementation.player.Computer_Move(board, level="greedy"),
                implementation.player.Computer_Move(board, level="random", rng=None),
            )
            assert "level='greedy'" in TRACE.render()
            with pytest.raises(OperationFailed, match="level"):
                implementation.player.Computer_Move(board, level="no such level")
        finally:
            if hasattr(implementation, "close"):
                implementation.close()
    assert columns["sandbox"][0] == columns["in process"][0] == 5, columns
    assert all(1 <= c <= 7 for c in columns["sandbox"])
