"""The specification data: every shipped specification loads, and malformed data is refused with a reason."""

from pathlib import Path

import pytest

import spec
from spec import loader

TYPE = """
[type]
name = "board_type"
module = "board_adt"
purpose = "A board."

[[constant]]
name = "number_of_columns"
{value}
meaning = "Columns."
"""


@pytest.mark.parametrize("name", spec.available())
def test_every_shipped_specification_loads(name):
    loaded = spec.load(name)
    assert loaded.types and all(t.operations or t.components or t.constants for t in loaded.types)


def test_boardadt_declares_its_board_size_as_constants():
    board = spec.load("boardadt").type("board_type")
    assert {c.name: c.value for c in board.constants} == {"number_of_columns": 7, "number_of_rows": 6}


def _type_file(tmp_path: Path, value: str) -> Path:
    path = tmp_path / "board_adt.toml"
    path.write_text(TYPE.format(value=value))
    return path


def test_a_constant_is_read_with_its_value_and_meaning(tmp_path):
    (constant,) = loader._load_type(_type_file(tmp_path, "value = 7")).constants
    assert (constant.name, constant.value, constant.meaning) == ("number_of_columns", 7, "Columns.")


@pytest.mark.parametrize(
    ("value", "reason"),
    [("value = 7.5", "the value must be a whole number, text or a Boolean, not float"), ("", "missing key 'value'")],
)
def test_a_malformed_constant_is_refused_naming_it(tmp_path, value, reason):
    with pytest.raises(loader.SpecDataError, match=f"board_adt.toml: constant 'number_of_columns': {reason}"):
        loader._load_type(_type_file(tmp_path, value))


@pytest.mark.parametrize("name", spec.available())
def test_the_kit_declaration_names_parts_that_exist(name):
    import importlib
    import tomllib

    from speckit.paths import kit_path
    from speckit.registry import kit

    parts = kit(name)
    declared = parts.declaration
    assert importlib.util.find_spec(declared.reference) is not None, (
        f"{name}: reference {declared.reference} is not importable"
    )
    for folder in (parts.suite_dir, parts.zoo_dir, parts.alternative_dir):
        assert folder.is_dir(), f"{name}: {folder} does not exist"
    assert parts.rubric_path.is_file(), f"{name}: no rubric at {parts.rubric_path}"
    for other in declared.other_tests:
        assert kit_path(other).exists(), f"{name}: other_tests names {other}, which does not exist"
    for module in declared.supplied:
        assert importlib.util.find_spec(module) is not None, f"{name}: supplied module {module} is not importable"
    for served in declared.served:
        module, _, cls = served.rpartition(".")
        assert module in declared.supplied and isinstance(getattr(importlib.import_module(module), cls), type), served
    scripts = tomllib.loads((parts.suite_dir.parents[1] / "pyproject.toml").read_text())["project"]["scripts"]
    for script in declared.scripts:
        assert script in scripts, f"{name}: console script {script} is not in pyproject.toml"
    for script, entry in declared.student_scripts.items():
        module, _, function = entry.partition(":")
        assert callable(getattr(importlib.import_module(module), function, None)), (
            f"{name}: student script {script} names {entry}, not a function"
        )


def test_exactly_one_specification_is_the_main_one():
    from speckit.registry import main_spec

    assert [n for n in spec.available() if spec.load(n).kit.main] == [main_spec()]


def test_a_kit_path_is_found_in_the_checkout_or_in_the_wheels_bundled_copy(tmp_path, monkeypatch):
    from speckit import paths

    bundled, packages = tmp_path / "speckit" / "_kit", tmp_path
    (bundled / "tests" / "demo").mkdir(parents=True)
    (packages / "speckit" / "rubrics").mkdir(parents=True)
    (packages / "speckit" / "rubrics" / "demo.toml").write_text("")
    monkeypatch.setattr(paths, "BUNDLED", bundled)
    monkeypatch.setattr(paths, "REPO_ROOT", packages)
    assert paths.kit_path("tests/demo") == bundled / "tests" / "demo"
    assert paths.kit_path("speckit/rubrics/demo.toml") == packages / "speckit" / "rubrics" / "demo.toml"
    assert paths.kit_path("tests/absent") == bundled / "tests" / "absent"


def test_results_by_value_must_name_specified_operations(tmp_path, monkeypatch):
    """The sandbox hands back as they are the results of the operations ``[kit] results_by_value``
    names; a name that is no operation (a typo) would silently leave one pipelined."""
    import shutil

    shutil.copytree(loader.DATA_ROOT / "connect4", tmp_path / "connect4")
    meta = tmp_path / "connect4" / "spec.toml"
    text = meta.read_text(encoding="utf-8")
    assert text.count('"GridType.vertWin"]') == 1
    meta.write_text(text.replace('"GridType.vertWin"]', '"GridType.vertwin"]'), encoding="utf-8")
    monkeypatch.setattr(loader, "DATA_ROOT", tmp_path)
    with pytest.raises(
        loader.SpecDataError, match=r"\[kit\] results_by_value names 'GridType.vertwin', which is not specified"
    ):
        loader.load.__wrapped__("connect4")  # not the cached specification


# A misspelt key is refused in every kind of table, never read as absent ---------------------------------

TYPOS = [
    # (specification, file, text the typo follows or replaces, the text with the typo, the message's start)
    ("boardadt", "spec.toml", "title = ", "titel = ", "spec.toml: unknown keys ['titel']"),
    ("boardadt", "spec.toml", "[kit]\n", "[kit]\nzoos = 'x'\n", "spec.toml: [kit] has unknown keys ['zoos']"),
    (
        "connect4",
        "spec.toml",
        'lines = "lines"',
        'line = "lines"',
        "spec.toml: [kit.mirrors] 'adt.input.Input': unknown keys ['line']",
    ),
    (
        "xplus",
        "spec.toml",
        "[[rule]]\n",
        "[[rule]]\nforbid_name = ['dict']\n",
        "spec.toml: rule ?: unknown keys ['forbid_name']",
    ),
    (
        "boardadt",
        "board_adt.toml",
        "[[constant]]\n",
        "[[constants]]\nname = 'x'\n[[constant]]\n",
        "board_adt.toml: unknown keys ['constants']",
    ),
    (
        "boardadt",
        "board_adt.toml",
        "[type]\n",
        "[type]\npurpose_ = 'x'\n",
        "board_adt.toml: [type]: unknown keys ['purpose_']",
    ),
    (
        "boardadt",
        "board_adt.toml",
        "[[operation]]\n",
        "[[operation]]\nprecondition = ['x']\n",
        "board_adt.toml: operation ?: unknown keys ['precondition']",
    ),
    (
        "boardadt",
        "board_adt.toml",
        "[[constant]]\n",
        "[[constant]]\nmeening = 'x'\n",
        "board_adt.toml: constant ?: unknown keys ['meening']",
    ),
    (
        "freecell",
        "card_adt.toml",
        "[[enumeration]]\n",
        "[[enumeration]]\nmember = ['x']\n",
        "card_adt.toml: enumeration ?: unknown keys ['member']",
    ),
    (
        "freecell",
        "exceptions.toml",
        "[[exception]]\n",
        "[[exception]]\nalias = ['x']\n",
        "exceptions.toml: exception ?: unknown keys ['alias']",
    ),
    (
        "boardadt",
        "errata.toml",
        "[[erratum]]\n",
        "[[errata]]\nid = 'x'\n[[erratum]]\n",
        "errata.toml: unknown keys ['errata']",
    ),
    (
        "boardadt",
        "errata.toml",
        "[[erratum]]\n",
        "[[erratum]]\nruled = 'x'\n",
        "errata.toml: erratum ?: unknown keys ['ruled']",
    ),
    (
        "boardadt",
        "errata.toml",
        '{ where = "the interface", says',
        '{ where = "the interface", said',
        "errata.toml: erratum ?: side: unknown keys ['said']",
    ),
]


def _load_with(tmp_path: Path, monkeypatch, name: str, filename: str, anchor: str, typo: str) -> spec.Specification:
    """Load a copy of the specification ``name`` whose ``filename`` has ``typo`` in place of the first ``anchor``."""
    import shutil

    shutil.copytree(loader.DATA_ROOT / name, tmp_path / name)
    path = tmp_path / name / filename
    text = path.read_text(encoding="utf-8")
    assert anchor in text, f"{filename} of {name} no longer holds {anchor!r}: choose another place for the typo"
    path.write_text(text.replace(anchor, typo, 1), encoding="utf-8")
    monkeypatch.setattr(loader, "DATA_ROOT", tmp_path)
    return loader.load.__wrapped__(name)  # not the cached specification


@pytest.mark.parametrize(
    ("name", "filename", "anchor", "typo", "message"), TYPOS, ids=[t[-1].split(": unknown")[0] for t in TYPOS]
)
def test_a_misspelt_key_is_refused_naming_the_file_the_table_and_the_key(
    name, filename, anchor, typo, message, tmp_path, monkeypatch
):
    head, _, keys = message.partition("?")
    with pytest.raises(spec.SpecDataError) as refused:
        _load_with(tmp_path, monkeypatch, name, filename, anchor, typo)
    text = str(refused.value)
    assert text.startswith(head) and keys in text and "(known: [" in text, text


def test_every_table_kind_has_a_typo_test():
    from spec import model

    table_kinds = {
        "spec.toml",
        "kit",
        "mirror",
        "rule",
        "type file",
        "type",
        "operation",
        "constant",
        "enumeration",
        "exception",
        "errata.toml",
        "erratum",
        "side",
    }
    described = {
        "spec.toml: unknown": "spec.toml",
        "[kit]": "kit",
        "[kit.mirrors]": "mirror",
        "rule": "rule",
        "board_adt.toml: unknown": "type file",
        "[type]": "type",
        "operation": "operation",
        "constant ": "constant",
        "enumeration": "enumeration",
        "exception ": "exception",
        "errata.toml: unknown": "errata.toml",
        "erratum ?: unknown": "erratum",
        "side": "side",
    }
    covered = {kind for fragment, kind in described.items() if any(fragment in t[-1] for t in TYPOS)}
    assert covered == table_kinds
    assert model.tables_of(model.TypeSpec) == {"operation", "constant", "enumeration", "exception"}


def test_a_mirror_must_name_a_served_class(tmp_path, monkeypatch):
    with pytest.raises(spec.SpecDataError, match=r"\[kit.mirrors\] 'adt.display.Displays': not a served class"):
        _load_with(tmp_path, monkeypatch, "connect4", "spec.toml", '"adt.display.Display"]', '"adt.display.Displays"]')


def test_kinds_are_enumerations_and_an_unknown_kind_is_refused(tmp_path, monkeypatch):
    from spec.model import ErratumKind, OperationKind

    boardadt = spec.load("boardadt")
    assert all(isinstance(op.kind, OperationKind) for op in boardadt.operations(extensions=True))
    assert all(isinstance(e.kind, ErratumKind) for e in boardadt.errata)
    assert OperationKind.CONSTRUCTOR == "constructor" and f"{OperationKind.CONSTRUCTOR}" == "constructor"
    with pytest.raises(spec.SpecDataError, match="board_adt.toml: operation .*: kind 'constructer' is not one of"):
        _load_with(tmp_path, monkeypatch, "boardadt", "board_adt.toml", 'kind = "constructor"', 'kind = "constructer"')


def test_the_mutants_register_is_declared_in_the_kit_table():
    from speckit import mutation_results
    from speckit.registry import kit

    for name in spec.available():
        register = kit(name).mutants_path
        assert register is not None and register.is_file(), f"{name}: [kit] mutants names no register"
        assert mutation_results.results_path(name) == register.with_name(f"{register.stem}-results.json")


@pytest.mark.parametrize(
    ("filename", "anchor", "typo", "message"),
    [
        (
            "board_adt.toml",
            "[[operation]]\n",
            "[[operation]]\npreconditions = 'the board is empty'\n",
            "preconditions must be a list",
        ),
        ("board_adt.toml", "[type]\n", "[type]\nsupplied = 'no'\n", r"\[type\]: supplied must be true or false"),
        (
            "spec.toml",
            'mutants = "tests/mutants/boardadt.toml"',
            "mutants = ['tests/mutants/boardadt.toml']",
            r"\[kit\] mutants must be text",
        ),
    ],
)
def test_a_value_of_the_wrong_type_is_refused_not_read_letter_by_letter(
    filename, anchor, typo, message, tmp_path, monkeypatch
):
    with pytest.raises(spec.SpecDataError, match=f"{filename}: .*{message}"):
        _load_with(tmp_path, monkeypatch, "boardadt", filename, anchor, typo)
