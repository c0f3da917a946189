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
