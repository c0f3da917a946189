"""Checks shared by the numeric types (IndexType, WorthType, LevelNumberType, DimensionType).

Each check builds fresh values from models for every comparison, so an update is
never followed by a look at its argument (erratum E01).
"""

from __future__ import annotations

from speckit.testing import expect, expect_equal


def check_comparisons(ops, build, a: int, b: int, noun: str) -> None:
    """lessThan, greaterThan and equals agree with the numbers, and exactly one holds."""
    less = ops.lessThan(build(a), build(b))
    greater = ops.greaterThan(build(a), build(b))
    same = ops.equals(build(a), build(b))
    expect_equal(less, a < b, f"lessThan({noun} {a}, {noun} {b})")
    expect_equal(greater, a > b, f"greaterThan({noun} {a}, {noun} {b})")
    expect_equal(same, a == b, f"equals({noun} {a}, {noun} {b})")


def check_equivalence(ops, build, a: int, b: int, c: int, noun: str) -> None:
    """equals is reflexive, symmetric and transitive on built values."""
    x, y, z = build(a), build(b), build(c)
    expect(ops.equals(x, x), f"equals({noun} {a}, itself) is reflexive")
    expect_equal(ops.equals(x, y), ops.equals(y, x), f"equals({noun} {a}, {noun} {b}) is symmetric")
    if ops.equals(x, y) and ops.equals(y, z):
        expect(ops.equals(x, z), f"equals is transitive: {noun} {a} = {b} = {c}")


def check_step(ops, build, step, n: int, delta: int, noun: str, name: str) -> None:
    """An increment or decrement gives the value ``delta`` away, as its result."""
    after = step(build(n))
    expect(ops.equals(after, build(n + delta)), f"{name}({noun} {n}) gives {noun} {n + delta}")
    if delta > 0:
        expect(ops.greaterThan(after, build(n)), f"{name}({noun} {n}) is greater than {noun} {n}")
    else:
        expect(ops.lessThan(after, build(n)), f"{name}({noun} {n}) is less than {noun} {n}")


def check_round_trip(ops, build, up, down, n: int, noun: str) -> None:
    """Decrementing an increment (and the other way round) gives back the same number."""
    expect(ops.equals(down(up(build(n))), build(n)), f"decrement(increment({noun} {n})) equals {noun} {n}")


def clone_fault(ops, build, update, n: int, noun: str) -> str | None:
    """The first claim of an equal, independent clone that does not hold, or None when all do.

    ``ops`` gives ``clone`` and the ``equals`` the copy is compared with; the source is
    ``build(n)``, and ``update`` changes one of them, after which the other must still hold n.
    """
    source = build(n)
    copy = ops.clone(source)
    if not ops.equals(copy, build(n)):
        return f"clone({noun} {n}) equals {noun} {n}"
    update(copy)
    if not ops.equals(source, build(n)):
        return f"updating a clone of {noun} {n} leaves the source at {n}"
    source = build(n)
    copy = ops.clone(source)
    update(source)
    if not ops.equals(copy, build(n)):
        return f"updating the source leaves its clone at {n}"
    return None


def check_clone(ops, build, update, n: int, noun: str) -> None:
    """A clone equals its source, and updating either never shows in the other."""
    fault = clone_fault(ops, build, update, n, noun)
    expect(fault is None, fault or "")
