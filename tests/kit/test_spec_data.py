"""The specification data: every shipped specification loads, and malformed data is refused with a reason."""

from pathlib import Path

import pytest

import spec
from spec import loader

TYPE = '''
[type]
name = "board_type"
module = "board_adt"
purpose = "A board."

[[constant]]
name = "number_of_columns"
{value}
meaning = "Columns."
'''


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
    assert importlib.util.find_spec(declared.reference) is not None, f"{name}: reference {declared.reference} is not importable"
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
        assert callable(getattr(importlib.import_module(module), function, None)), f"{name}: student script {script} names {entry}, not a function"


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
    with pytest.raises(loader.SpecDataError, match=r"\[kit\] results_by_value names 'GridType.vertwin', which is not specified"):
        loader.load.__wrapped__("connect4")  # not the cached specification
