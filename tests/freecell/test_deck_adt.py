"""DeckT: the pack of 52 cards (errata F04 to F08)."""

from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from speckit.testing import covers, expect, expect_equal

from . import paths
from .adapter import Read, expect_raises
from .model import PACK, STACK_EMPTY, shown


def empty_out(read: Read, deck, where: str) -> list:
    """Every card of the deck, by draw then remCard until it is empty."""
    impl = read.impl
    cards = []
    for _ in range(impl.deck_adt.size(deck)):
        cards.append(read.card(impl.deck_adt.draw(deck), f"draw() of {where}"))
        impl.deck_adt.remCard(deck)
    return cards


def expect_full_pack(cards: list, claim: str) -> None:
    counts = Counter(cards)
    missing = [shown(c) for c in PACK if c not in counts]
    twice = [shown(c) for c, n in counts.items() if n > 1]
    expect(
        len(cards) == 52 and not missing and not twice,
        claim,
        expected="the 52 cards, each once, in any order",
        actual=f"{len(cards)} cards; missing {missing}; more than once {twice}",
    )


@covers("DeckT.DeckT", "DeckT.size", "DeckT.draw", "DeckT.remCard")
def test_a_new_deck_is_the_52_cards_each_once(impl):
    read = Read(impl)
    deck = impl.deck_adt.DeckT()
    expect_equal(impl.deck_adt.size(deck), 52, "size() of a new deck (erratum F04)")
    expect_full_pack(
        empty_out(read, deck, "a new deck"),
        "drawing and removing every card of a new deck gives each card once (erratum F04)",
    )
    expect_equal(impl.deck_adt.size(deck), 0, "size() after removing all 52 cards")


@covers("DeckT.draw", "DeckT.remCard")
def test_an_empty_deck_has_no_card_to_draw_or_remove(impl):
    read = Read(impl)
    deck = impl.deck_adt.DeckT()
    empty_out(read, deck, "a new deck")
    expect_raises(
        impl,
        lambda: impl.deck_adt.draw(deck),
        STACK_EMPTY,
        "draw() of an empty deck raises stack_empty (errata F06, F12)",
    )
    expect_raises(
        impl,
        lambda: impl.deck_adt.remCard(deck),
        STACK_EMPTY,
        "remCard() of an empty deck raises stack_empty (errata F06, F12)",
    )
    expect_equal(impl.deck_adt.size(deck), 0, "size() of an empty deck after the refused calls")


@covers("DeckT.draw", "DeckT.remCard", "DeckT.size")
@given(removed=st.integers(0, 51))
def test_draw_shows_the_card_remcard_removes_and_changes_nothing(impl, removed):
    read = Read(impl)
    deck = impl.deck_adt.DeckT()
    gone = set()
    for _ in range(removed):
        gone.add(read.card(impl.deck_adt.draw(deck), "draw()"))
        impl.deck_adt.remCard(deck)
    first = read.card(impl.deck_adt.draw(deck), f"draw() after {removed} removals")
    again = read.card(impl.deck_adt.draw(deck), "draw() asked again")
    expect_equal(again, first, "draw() asked twice shows the same card (erratum F05)")
    expect(
        first not in gone,
        "draw() shows a card still in the deck",
        expected=f"not one of {sorted(map(shown, gone))}",
        actual=shown(first),
    )
    expect_equal(
        impl.deck_adt.size(deck), 52 - removed, f"size() after {removed} removals and two draws: draw changes nothing"
    )
    impl.deck_adt.remCard(deck)
    rest = empty_out(read, deck, "the rest of the deck")
    expect(
        first not in rest,
        f"remCard() removed {shown(first)}, the card draw showed (erratum F05)",
        expected="not in the rest",
        actual=[shown(c) for c in rest],
    )
    expect_full_pack(sorted(gone) + [first] + rest, "the cards drawn are the 52, each once")


@covers("DeckT.shuffle", "DeckT.size")
def test_shuffling_a_full_deck_keeps_its_52_cards(impl):
    read = Read(impl)
    deck = impl.deck_adt.DeckT()
    impl.deck_adt.shuffle(deck)
    expect_equal(impl.deck_adt.size(deck), 52, "size() of a new deck after shuffle (erratum F08)")
    expect_full_pack(
        empty_out(read, deck, "a shuffled deck"), "a shuffled full deck holds the 52 cards, each once (erratum F08)"
    )


@covers("DeckT.DeckT", "DeckT.remCard", "DeckT.shuffle", "DeckT.size", "DeckT.draw")
@paths.few()
@given(path=paths.any_path("deck"))
def test_a_deck_reached_by_any_path_holds_its_cards(impl, path):
    """A deck made by DeckT(), then remCard, and shuffle while it is full: its size, and as many
    cards of the pack, each once (errata F04, F05, F08)."""
    read = Read(impl)
    deck = paths.make(impl, path)
    expect_equal(impl.deck_adt.size(deck), path.model, f"size() of {path!r}")
    cards = empty_out(read, deck, repr(path))
    expect(
        len(cards) == len(set(cards)) == path.model and all(c in PACK for c in cards),
        f"drawing and removing every card of {path!r} gives {path.model} cards of the pack, each once",
        expected=f"{path.model} different real cards",
        actual=[shown(c) for c in cards],
    )


@covers("DeckT.remCard")
@paths.few()
@given(case=paths.frame_cases("DeckT.remCard"))
def test_remcard_changes_its_own_deck_only(impl, case):
    paths.check_frame_case(impl, case)


@covers("DeckT.shuffle")
@paths.few()
@given(case=paths.frame_cases("DeckT.shuffle"))
def test_shuffle_changes_its_own_deck_only(impl, case):
    paths.check_frame_case(impl, case)
