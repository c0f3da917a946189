"""StackT: a pile of cards, last in, first out (errata F09 to F11)."""

from hypothesis import given
from hypothesis import strategies as st

from speckit.testing import covers, expect, expect_equal

from . import paths
from .adapter import Build, Read, expect_raises, raised
from .model import STACK_EMPTY, shown
from .strategies import real_cards

operations = st.lists(st.one_of(real_cards, st.none(), st.just("remove")), max_size=30)
"""A sequence of stack operations: add a card (a real card, or the placeholder None), or remove the top."""


@covers("StackT.StackT", "StackT.size", "StackT.peek", "StackT.remCard")
def test_a_new_stack_holds_no_card(impl):
    stack = impl.stack_adt.StackT()
    expect_equal(impl.stack_adt.size(stack), 0, "size() of a new stack")
    expect_raises(
        impl, lambda: impl.stack_adt.peek(stack), STACK_EMPTY, "peek() of a new stack raises is_empty (errata F11, F12)"
    )
    expect_raises(
        impl,
        lambda: impl.stack_adt.remCard(stack),
        STACK_EMPTY,
        "remCard() of a new stack raises is_empty (errata F11, F12)",
    )
    expect_equal(impl.stack_adt.size(stack), 0, "size() of a new stack after the refused calls")


@covers("StackT.addCard", "StackT.remCard", "StackT.peek", "StackT.size")
@given(steps=operations)
def test_the_card_added_last_is_on_top(impl, steps):
    build = Build(impl)
    read = Read(impl, build)
    stack = impl.stack_adt.StackT()
    model = []
    for step in steps:
        if step == "remove":
            if not model:
                expect_raises(
                    impl,
                    lambda: impl.stack_adt.remCard(stack),
                    STACK_EMPTY,
                    "remCard() of a stack with no card raises is_empty",
                )
                continue
            name = raised(impl, lambda: impl.stack_adt.remCard(stack))
            if name is None:
                model.pop()
            else:  # a stack holding only the placeholder may be considered empty (erratum F11)
                expect(
                    model == [None] and name in STACK_EMPTY,
                    f"remCard() of a stack of {len(model)} cards, {shown(model[-1])} on top, removes it",
                    expected="no exception" + (", or is_empty" if model == [None] else ""),
                    actual=f"raised {name}",
                )
        else:
            card = build.card(step)
            impl.stack_adt.addCard(stack, card)
            expect_equal(
                read.card(card, "the card added"), step, f"addCard leaves its argument {shown(step)} unchanged"
            )
            model.append(step)
        expect_equal(impl.stack_adt.size(stack), len(model), f"size() after {len(model)} cards remain")
        if model:
            expect_equal(
                read.card(impl.stack_adt.peek(stack), "peek()"),
                model[-1],
                "peek() shows the card added last (erratum F09)",
            )
            expect_equal(impl.stack_adt.size(stack), len(model), "peek() changes nothing")
    expect_equal(read.stack(stack, "the stack"), model, "the stack holds its cards in the order added, bottom first")


@covers("StackT.peek", "StackT.remCard", "StackT.addCard")
def test_a_stack_of_only_the_placeholder_shows_it_and_gives_it_up_or_counts_as_empty(impl):
    build = Build(impl)
    read = Read(impl, build)
    stack = build.stack([])
    expect_equal(
        read.card(impl.stack_adt.peek(stack), "peek()"),
        None,
        "peek() of a stack holding only the placeholder shows it (erratum F11)",
    )
    name = raised(impl, lambda: impl.stack_adt.remCard(stack))
    expect(
        name is None or name in STACK_EMPTY,
        "remCard() of a stack holding only the placeholder removes it or raises is_empty (erratum F11)",
        expected="no exception, or " + " or ".join(STACK_EMPTY),
        actual=f"raised {name}",
    )
    expect_equal(
        impl.stack_adt.size(stack),
        0 if name is None else 1,
        f"size() after remCard() {'removed' if name is None else 'refused'} the placeholder (erratum F11)",
    )


@covers("StackT.StackT", "StackT.addCard", "StackT.remCard", "StackT.peek", "StackT.size", "BoardT.getStack")
@paths.few()
@given(path=paths.any_path("stack"))
def test_a_stack_reached_by_any_path_holds_its_cards(impl, path):
    """A stack made by StackT() or got out of a board (getStack), then any addCard and remCard."""
    read = Read(impl)
    stack, model = paths.make(impl, path), list(path.model)
    expect_equal(impl.stack_adt.size(stack), len(model), f"size() of {path!r}")
    if model:
        expect_equal(read.card(impl.stack_adt.peek(stack), "peek()"), model[-1], f"peek() of {path!r} (erratum F09)")
    expect_equal(read.stack(stack, repr(path)), model, f"{path!r} holds its cards in the order added, bottom first")


@covers("StackT.addCard")
@paths.few()
@given(case=paths.frame_cases("StackT.addCard"))
def test_addcard_changes_its_own_stack_only(impl, case):
    paths.check_frame_case(impl, case)


@covers("StackT.remCard")
@paths.few()
@given(case=paths.frame_cases("StackT.remCard"))
def test_remcard_changes_its_own_stack_only(impl, case):
    paths.check_frame_case(impl, case)
