"""value_type: the record Value(empty, color) that Get_Value returns."""

import pytest

from speckit.testing import covers, expect, expect_equal

from .adapter import Build, Read
from .model import BLUE, RED


@pytest.mark.parametrize("colour", [RED, BLUE])
@covers("value_type.Value")
def test_a_checker_is_not_empty_and_has_its_colour(impl, colour):
    build, read = Build(impl), Read(impl)
    value = impl.value.Value(False, build.colours()[colour])
    expect(
        value.empty is False,
        f"Value(False, {colour}).empty is False (a Python bool: erratum B10)",
        expected=False,
        actual=value.empty,
    )
    expect_equal(read.colour(value.color), colour, f"Value(False, {colour}).color is {colour}")


@covers("value_type.Value")
def test_an_empty_value_is_empty(impl):
    value = impl.value.Value(True)
    expect(
        value.empty is True,
        "Value(True).empty is True (a Python bool: erratum B10); its colour means nothing (erratum B09)",
        expected=True,
        actual=value.empty,
    )
