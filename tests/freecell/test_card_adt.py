"""CardT and the enumerations SuitT, RankT and ColourT of module card_adt."""

from hypothesis import given

from speckit.testing import covers, expect, expect_equal

from . import paths
from .adapter import Build, Read
from .model import ALL_SUITS, COLOUR_OF, COLOURS, PACK, RANK_NAMES, shown


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
@paths.few()
@given(path=paths.any_path("card"))
def test_a_card_reached_by_any_path_has_its_suit_rank_validity_and_colour(impl, path):
    """A card made by CardT or got out of a stack (peek) or a board (getFree, getWin), each made by any path."""
    build = Build(impl)
    read = Read(impl, build)
    card, model = paths.make(impl, path), path.model
    expect_equal(read.card(card, repr(path)), model, f"{path!r} is {shown(model)}")
    expect_equal(impl.card_adt.isValid(card), model is not None, f"isValid() of {path!r}, {shown(model)} (erratum F01)")
    colour = read.member(impl.card_adt.getColour(card), build.colours, f"getColour() of {path!r}")
    expect_equal(colour, COLOUR_OF[model[0] if model else "NAS"], f"getColour() of {path!r} (erratum F02)")
