"""The suites are fair: each passes every reading in its register, and the register is complete.

The register of readings (``tests/readings/<spec>/``) is the mirror of the zoo: each
reading is a patch of the reference taking a reading of the document that an erratum
accepts and the reference does not. The fast tests here check the data against the
errata; the slow one runs on every reading the tests it can reach (the whole suite for a patch of a
module no type owns), in-process and in the grading sandbox.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

import spec
from speckit import readings as readings_module
from speckit.cli import main
from speckit.core import Outcome, TestRecord
from speckit.patches import PatchError
from speckit.readings import load_readings, passed, run_readings, verdict
from speckit.registry import kit, names
from speckit.runner import SuiteRun

READINGS = {name: load_readings(name) for name in names()}


@pytest.mark.parametrize("name", names())
def test_the_register_is_declared_where_the_other_registers_are(name):
    assert kit(name).declaration.readings == f"tests/readings/{name}"


@pytest.mark.parametrize("name", names())
def test_every_erratum_accepting_several_readings_has_a_reading_in_the_register_or_says_why_not(name):
    realised = {r.erratum for r in READINGS[name]}
    missing = [e.id for e in spec.load(name).errata if e.several_readings and not e.no_patch and e.id not in realised]
    assert not missing, (
        f"{name}: errata accepting several readings with no reading in tests/readings/{name}/ "
        f"and no no_patch reason: {missing}"
    )


@pytest.mark.parametrize("name", names())
def test_every_reading_realises_an_erratum_that_accepts_several_readings(name):
    several = {e.id for e in spec.load(name).errata if e.several_readings}
    strays = [f"{r.id} ({r.erratum})" for r in READINGS[name] if r.erratum not in several]
    assert not strays, f"{name}: readings of errata that do not say several_readings = true: {strays}"


@pytest.mark.parametrize("name", names())
def test_an_erratum_says_why_no_patch_only_when_it_accepts_several_readings(name):
    stray = [e.id for e in spec.load(name).errata if e.no_patch and not e.several_readings]
    assert not stray, f"{name}: no_patch given on errata that accept one reading: {stray}"


@pytest.mark.parametrize("name", names())
def test_every_reading_is_described_and_changes_the_reference(name):
    for reading in READINGS[name]:
        assert reading.description, f"{reading.key}: no description"
        assert all(p.find != p.replace for p in reading.patches), f"{reading.key}: a patch that changes nothing"


def _register(tmp_path: Path, monkeypatch, text: str) -> None:
    (tmp_path / "board_adt.toml").write_text(text, encoding="utf-8")
    monkeypatch.setattr(readings_module, "readings_dir", lambda spec_name: tmp_path)


GOOD_PATCH = (
    '[[reading.patch]]\nmodule = "board_adt"\n'
    'find = "self._current_color = red"\nreplace = "self._current_color = red  # changed"\n'
)


@pytest.mark.parametrize(
    "text, complaint",
    [
        (
            '[[reading]]\nid = "x"\nerratum = "B99"\ndescription = "d"\n' + GOOD_PATCH,
            "names the erratum 'B99', which boardadt's errata do not have",
        ),
        (
            '[[reading]]\nid = "x"\nerratum = "B04"\ndescription = "d"\ncolour = "red"\n' + GOOD_PATCH,
            "unknown keys ['colour']",
        ),
        ('[[reading]]\nid = "x"\nerratum = "B04"\ndescription = "d"\n', "no [[reading.patch]]"),
        (
            '[[reading]]\nid = "x"\nerratum = "B04"\ndescription = "d"\n' + GOOD_PATCH.replace("board_adt", "boards"),
            "the reference has no module boards",
        ),
        (
            '[[reading]]\nid = "x"\nerratum = "B04"\ndescription = "d"\n'
            + GOOD_PATCH.replace("_current_color = red", "_current_color = green"),
            "the find text of patch 1 occurs 0 times in board_adt.py (must be once)",
        ),
        (
            '[[reading]]\nid = "x"\nerratum = "B04"\ndescription = "d"\n'
            + GOOD_PATCH.replace("self._current_color = red", "return"),
            "times in board_adt.py (must be once)",
        ),
        (
            '[[reading]]\nid = "x"\nerratum = "B04"\ndescription = "d"\n'
            + GOOD_PATCH
            + GOOD_PATCH.replace('= red"', '= red\\n"'),
            "the find text of patch 2 occurs 0 times",
        ),
        (
            '[[reading]]\nid = "x"\nerratum = "B04"\ndescription = "d"\n[[reading.patch]]\n'
            'module = "board_adt"\nfind = "x"\n',
            "patch 1: missing keys ['replace']",
        ),
        (
            '[[reading]]\nid = "x"\nerratum = "B04"\ndescription = "d"\n'
            + GOOD_PATCH
            + '[[reading]]\nid = "x"\nerratum = "B04"\ndescription = "d"\n'
            + GOOD_PATCH,
            "reading ids used twice in boardadt's register: x",
        ),
        ("[[reading]\n", "board_adt.toml: not valid TOML"),
    ],
    ids=[
        "unknown erratum",
        "unknown key",
        "no patch",
        "unknown module",
        "find absent",
        "find repeated",
        "patches in order",
        "patch key missing",
        "id twice",
        "not toml",
    ],
)
def test_bad_data_in_a_register_gets_one_line_naming_what_is_wrong(text, complaint, tmp_path, monkeypatch, capsys):
    _register(tmp_path, monkeypatch, text)
    with pytest.raises(PatchError) as error:
        load_readings("boardadt")
    assert complaint in str(error.value) and "\n" not in str(error.value)
    assert main(["readings", "--spec", "boardadt"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("speckit: ") and complaint in err and "Traceback" not in err and err.count("\n") == 1


def test_patches_apply_in_order_so_a_later_patch_may_rewrite_an_earlier_one(tmp_path, monkeypatch):
    second = '[[reading.patch]]\nmodule = "board_adt"\nfind = "red  # changed"\nreplace = "red  # twice"\n'
    _register(
        tmp_path, monkeypatch, '[[reading]]\nid = "x"\nerratum = "B04"\ndescription = "d"\n' + GOOD_PATCH + second
    )
    (reading,) = load_readings("boardadt")
    package = readings_module.materialise(reading, tmp_path / "pkg")
    text = (package / "board_adt.py").read_text()
    assert "self._current_color = red  # twice" in text and "# changed" not in text
    assert (package / "player.py").read_text() != (kit("boardadt").reference_dir / "player.py").read_text(), (
        "the supplied player must re-export the kit's"
    )


def test_a_verdict_names_the_first_failing_test_and_its_message():
    record = TestRecord(
        "tests/boardadt/test_board_adt.py::test_draw",
        (),
        Outcome.FAILED,
        Outcome.FAILED,
        message="Is_Draw answered False\nmore",
    )
    ok = TestRecord("tests/boardadt/test_board_adt.py::test_win", (), Outcome.PASSED, Outcome.PASSED)
    assert (
        verdict(SuiteRun((ok, record), {}, 1))
        == "failed: tests/boardadt/test_board_adt.py::test_draw: Is_Draw answered False"
    )
    assert verdict(SuiteRun((ok,), {}, 0)) == "passed" and passed(SuiteRun((ok,), {}, 0))
    assert not passed(SuiteRun((), {}, 5)) and verdict(SuiteRun((), {}, 5)) == "failed: the suite ran no test"
    assert (
        verdict(SuiteRun((), {}, -1, crash="the package cannot be imported"))
        == "failed: the package cannot be imported"
    )


def test_a_student_bundle_has_no_register(monkeypatch, capsys):
    from speckit.bundle.student import without_solution

    text = (Path(spec.__file__).parent / "boardadt" / "spec.toml").read_text()
    assert 'readings = ""' in without_solution(text)


SANDBOX_EXAMPLES = 2
"""Examples per property test in the sandbox pass. The in-process pass, with the grading profile's,
judges each reading's behaviour; the sandbox pass shows that carrying every call and value across
to the confined process refuses no reading (a representation, an identity, a class the transport
mishandles shows on any example). Starting each run costs most of it: on BoardADT's nine readings
two examples took 75 s of processor time, five 108 s."""


@pytest.mark.slow
@pytest.mark.parametrize("sandbox", [False, True], ids=["in-process", "sandbox"])
def test_every_reading_passes_the_suite_in_process_and_in_the_sandbox(tmp_path, sandbox):
    """Each reading against the tests it can reach: the implementation imported (the grading profile),
    or in the grading sandbox (:data:`SANDBOX_EXAMPLES` examples a test), two readings at a time."""
    every = [r for name in names() for r in READINGS[name]]
    assert every, "no reading in any register"
    start = time.monotonic()
    runs = run_readings(every, tmp_path, sandbox=sandbox, jobs=2, examples=SANDBOX_EXAMPLES if sandbox else None)
    print(f"{len(every)} readings {'in the sandbox' if sandbox else 'in-process'}: {time.monotonic() - start:.0f} s")
    failures = [f"{r.key}: {verdict(runs[r.key])}" for r in every if not passed(runs[r.key])]
    assert not failures, "the suite fails readings its errata accept:\n" + "\n".join(failures)


def test_readings_refuses_jobs_below_1(capsys):
    assert main(["readings", "--spec", "boardadt", "--jobs", "0"]) == 2
    assert capsys.readouterr().err == "speckit: --jobs must be at least 1\n"


def test_a_reading_runs_the_tests_of_every_type_its_patches_can_reach():
    from speckit.readings import reachable_tests

    reading = next(r for r in READINGS["connect4"] if {p.module for p in r.patches} == {"index"})
    names_run = {path.name for path in reachable_tests(reading)}
    assert {"test_index.py", "test_dimension.py", "test_grid.py", "test_connect4.py", "test_structure.py"} <= names_run
    assert {"test_worth.py", "test_level_number.py"}.isdisjoint(names_run), (
        "neither WorthType nor LevelNumberType uses IndexType"
    )


def test_only_runs_the_chosen_reading_by_its_id_or_key(capsys):
    first, second = READINGS["boardadt"][:2]
    assert main(["readings", "--spec", "boardadt", "--only", first.id, "--only", second.key, "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert f"{first.key} " in out and f"{second.key} " in out
    assert "2 of 2 readings passed" in out
    assert all(f"{r.key} " not in out for r in READINGS["boardadt"][2:])


@pytest.mark.parametrize("command", [["readings", "--spec", "boardadt"], ["zoo", "--spec", "boardadt"]])
def test_only_an_id_the_register_lacks_gets_one_line_naming_it(command, capsys):
    assert main([*command, "--only", "no-such-variant"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("speckit: --only: no-such-variant is not in") and err.count("\n") == 1
