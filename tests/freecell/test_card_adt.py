"""CardT and the enumerations SuitT, RankT and ColourT of module card_adt."""

from hypothesis import given

from speckit.testing import covers, expect, expect_equal

from .adapter import Build, Read
from .model import ALL_SUITS, COLOUR_OF, COLOURS, PACK, RANK_NAMES, Position, shown
from .strategies import real_cards


@covers("CardT.CardT", "CardT.getSuit", "CardT.getRank")
def test_a_card_keeps_the_suit_and_rank_it_was_made_with(impl):
    build = Build(impl)
    read = Read(impl, build)
    for suit in ALL_SUITS:
        for rank_name in RANK_NAMES:
            card = impl.card_adt.CardT(build.suits[suit], build.ranks[rank_name])
            got = (
                read.member(impl.card_adt.getSuit(card), build.suits, "getSuit()"),
                read.member(impl.card_adt.getRank(card), build.ranks, "getRank()"),
            )
            expect_equal(got, (suit, rank_name), f"CardT({suit}, {rank_name}) has suit {suit} and rank {rank_name}")


@covers("CardT.getRank")
def test_each_rank_is_one_more_than_the_rank_before_it(impl):
    """The MIS's rank arithmetic (IncreasingRank: getRank() = getRank() - 1) holds between
    consecutive ranks, from NAR to KING; where the numbering starts is not fixed (erratum F03)."""
    build = Build(impl)
    nar = build.ranks["NAR"]
    start = next(
        (n for n in sorted(range(-1000, 1001), key=abs) if nar == n), None
    )  # compared, as a sandboxed value can be
    expect(
        start is not None,
        "RankT.NAR is a number, so that the MIS's rank arithmetic holds (erratum F03)",
        expected="an integer",
        actual=nar,
    )
    for number, name in enumerate(RANK_NAMES, start=start):
        expect(
            build.ranks[name] == number,
            f"RankT.{name} == {number}: each rank is one more than the one before it, from NAR = {start} (erratum F03)",
            expected=number,
            actual=build.ranks[name],
        )
    for name in ALL_SUITS:
        others = [s for s in ALL_SUITS if s != name]
        expect(
            all(build.suits[name] != build.suits[o] for o in others),
            f"SuitT.{name} differs from {others}",
            expected=True,
            actual=False,
        )
    for name in COLOURS:
        others = [c for c in COLOURS if c != name]
        expect(
            all(build.colours[name] != build.colours[o] for o in others),
            f"ColourT.{name} differs from {others}",
            expected=True,
            actual=False,
        )


@covers("CardT.isValid")
def test_a_real_card_is_valid_and_the_placeholder_is_not(impl):
    build = Build(impl)
    for card in PACK:
        expect_equal(
            impl.card_adt.isValid(build.card(card)), True, f"isValid() of the real card {shown(card)} (erratum F01)"
        )
    expect_equal(
        impl.card_adt.isValid(build.card(None)), False, "isValid() of the placeholder CardT(NAS, NAR) (erratum F01)"
    )


@covers("CardT.getColour")
def test_the_colour_is_the_suits(impl):
    build = Build(impl)
    read = Read(impl, build)
    for suit in ALL_SUITS:
        for rank_name in ("NAR", "ACE", "SEVEN", "KING"):
            card = impl.card_adt.CardT(build.suits[suit], build.ranks[rank_name])
            colour = read.member(
                impl.card_adt.getColour(card), build.colours, f"getColour() of CardT({suit}, {rank_name})"
            )
            expect_equal(
                colour,
                COLOUR_OF[suit],
                f"getColour() of CardT({suit}, {rank_name}) is the colour of its suit (erratum F02)",
            )


@covers(
    "CardT.getSuit",
    "CardT.getRank",
    "CardT.isValid",
    "CardT.getColour",
    "StackT.peek",
    "BoardT.getFree",
    "BoardT.getWin",
)
@given(card=real_cards)
def test_a_card_reached_through_a_stack_or_a_board_is_the_same_card(impl, card):
    build = Build(impl)
    read = Read(impl, build)
    made = build.card(card)
    stack = build.stack([card], placeholder=False)
    # One board each, so that no board holds the card twice (erratum F27).
    in_cell = build.board(Position([[]] * 8, cells=[None, card, None, None]))
    at_home = build.board(Position([[]] * 8, foundations=[card, None, None, None]))
    paths = {
        "the card made": made,
        "peek() of a stack it was added to": impl.stack_adt.peek(stack),
        "getFree(1) of a board it was put in": impl.board_adt.getFree(in_cell, 1),
        "getWin(0) of a board it was put on": impl.board_adt.getWin(at_home, 0),
    }
    for where, value in paths.items():
        expect_equal(read.card(value, where), card, f"{where} is {shown(card)}")
        expect_equal(impl.card_adt.isValid(value), True, f"{where} is a valid card")
        colour = read.member(impl.card_adt.getColour(value), build.colours, f"getColour() of {where}")
        expect_equal(colour, COLOUR_OF[card[0]], f"getColour() of {where}")
    expect_equal(
        read.card(made, "the card made"),
        card,
        f"{shown(card)} is unchanged after being added and set (a card never changes)",
    )
