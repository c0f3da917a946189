"""Module exceptions: a class for each exception name of the MIS (errata F12, F13, F14)."""

import pytest

from speckit.testing import MissingOperation, covers, expect

NAMES = (
    "InvalidIndex",
    "StackEmpty",
    "IsEmpty",
    "OccupiedCell",
    "UnoccupiedCell",
    "NotAlternatingColour",
    "NotDecendingRank",
    "NotDecreasingRank",
    "NotSameSuit",
    "NotAscendingRank",
)
ONE_CLASS = (("NotDecendingRank", "NotDecreasingRank"),)
"""Two spellings of one name (erratum F13): one class."""
GROUPS = (
    ("InvalidIndex",),
    ("StackEmpty", "IsEmpty"),
    ("OccupiedCell", "UnoccupiedCell"),
    ("NotAlternatingColour",),
    ("NotDecendingRank", "NotDecreasingRank"),
    ("NotSameSuit",),
    ("NotAscendingRank",),
)
"""Names of different conditions are different classes. Within a group the MIS gives two names
to one condition (errata F12, F14): one class or two, as the implementation chooses."""


def classes(impl) -> dict:
    module = impl.module("exceptions")
    found = {}
    for name in NAMES:
        if not hasattr(module, name):
            raise MissingOperation(f"module exceptions has no class {name}")
        found[name] = getattr(module, name)
    return found


@covers("BoardT.moveColToCol", "BoardT.moveFreeToCol", "StackT.peek")
def test_every_exception_name_of_the_mis_is_defined(impl):
    found = classes(impl)
    for one, other in ONE_CLASS:
        expect(
            found[one] == found[other],
            f"{one} and {other} are two spellings of one class (erratum F13)",
            expected="the same class",
            actual="two different values",
        )
    for i, group in enumerate(GROUPS):
        for other_group in GROUPS[i + 1 :]:
            for name in group:
                for other in other_group:
                    expect(
                        found[name] != found[other],
                        f"{name} and {other} are different exceptions",
                        expected="two classes",
                        actual="the same value",
                    )


@covers("BoardT.moveColToFree")
def test_every_exception_is_an_exception_class(impl):
    found = classes(impl)
    local = [value for value in found.values() if isinstance(value, type)]
    if len(local) != len(found):
        pytest.skip("the implementation runs in the sandbox: its classes are seen through the exceptions they raise")
    for name, value in found.items():
        expect(
            issubclass(value, Exception),
            f"exceptions.{name} is a class deriving from Exception",
            expected="a subclass of Exception",
            actual=value.__mro__,
        )
