"""BoardT: cascades, free cells, foundations and the five moves, checked against the model.

Positions are set up with setStack, setFree and setWin (erratum F27) or dealt by
BoardT(); every move is checked for its effect and, when refused, for an exception the
errata accept and an unchanged board (errata F19 to F25). The board is read only through
getStack (each stack read by taking its cards off and putting them back), getFree and
getWin.
"""

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule, run_state_machine_as_test

from speckit.testing import covers, expect, expect_equal

from . import paths
from .adapter import Build, Read, expect_position, expect_raises, raised
from .model import CASCADES, CELLS, FOUNDATIONS, INVALID_INDEX, MOVE_PARTS, MOVES, PACK, SUITS, Position, colour, shown
from .strategies import positions, won

SIZES = {"Col": CASCADES, "Free": CELLS, "Win": FOUNDATIONS}


def call(impl, board, move, a, b):
    return getattr(impl.board_adt, move)(board, a, b)


# The constructor ---------------------------------------------------------------------------


@covers("BoardT.BoardT", "BoardT.getStack", "BoardT.getFree", "BoardT.getWin", "BoardT.hasWon", "BoardT.isValidMoves")
def test_a_new_board_deals_the_52_cards_onto_the_cascades(impl):
    """The MIS deals every card of the deck onto the cascades and fixes no layout (erratum F15)."""
    read = Read(impl)
    board = impl.board_adt.BoardT()
    position = read.board(board)
    cards = Counter(card for cascade in position.cascades for card in cascade)
    missing = [shown(c) for c in PACK if c not in cards]
    twice = [shown(c) for c, n in cards.items() if n > 1]
    expect(
        not missing and not twice,
        "BoardT() deals each of the 52 cards exactly once (erratum F15)",
        expected="the 52 cards",
        actual=f"missing {missing}, more than once {twice}",
    )
    expect_equal(position.cells, [None] * CELLS, "the free cells of a new board hold the placeholder (erratum F16)")
    expect_equal(
        position.foundations, [None] * FOUNDATIONS, "the foundations of a new board hold the placeholder (erratum F16)"
    )
    expect_equal(impl.board_adt.hasWon(board), False, "a new board is not won")
    answer, accepted = impl.board_adt.isValidMoves(board), position.is_valid_moves_answers()
    expect(
        answer in accepted,
        f"isValidMoves() on a new board\n{position.describe()} (erratum F26)",
        expected=" or ".join(map(str, sorted(accepted))),
        actual=answer,
    )


@covers("BoardT.BoardT", "BoardT.getStack")
def test_a_new_cascade_has_the_placeholder_at_its_bottom_or_nothing_under_its_cards(impl):
    read = Read(impl)
    board = impl.board_adt.BoardT()
    for i in range(CASCADES):
        cards = read.stack(impl.board_adt.getStack(board, i), f"getStack({i}) of a new board")
        placeholders = [k for k, card in enumerate(cards) if card is None]
        expect(
            placeholders in ([], [0]),
            f"cascade {i} of a new board holds a placeholder only at its bottom (erratum F15)",
            expected="[] or [0]",
            actual=placeholders,
        )


# Setting up and reading positions -------------------------------------------------------------


@covers("BoardT.setStack", "BoardT.setFree", "BoardT.setWin", "BoardT.getStack", "BoardT.getFree", "BoardT.getWin")
@given(position=positions())
def test_a_position_set_up_is_read_back(impl, position):
    build = Build(impl)
    read = Read(impl, build)
    board = build.board(position)
    expect_position(
        read, board, position, "setStack, setFree and setWin set up the position that getStack, getFree and getWin read"
    )


BAD_CASCADES = st.sampled_from([-1, 8, 9, 100])
BAD_FOURS = st.sampled_from([-1, 4, 5, 8])


@covers("BoardT.getStack", "BoardT.getFree", "BoardT.getWin", "BoardT.setStack", "BoardT.setFree", "BoardT.setWin")
@given(position=positions(), column=BAD_CASCADES, cell=BAD_FOURS)
def test_an_index_out_of_range_raises_invalid_index_and_changes_nothing(impl, position, column, cell):
    build = Build(impl)
    read = Read(impl, build)
    board = build.board(position)
    b = impl.board_adt
    expect_raises(impl, lambda: b.getStack(board, column), INVALID_INDEX, f"getStack({column}) raises invalid_index")
    expect_raises(impl, lambda: b.getFree(board, cell), INVALID_INDEX, f"getFree({cell}) raises invalid_index")
    expect_raises(impl, lambda: b.getWin(board, cell), INVALID_INDEX, f"getWin({cell}) raises invalid_index")
    expect_raises(
        impl,
        lambda: b.setStack(board, column, build.stack([])),
        INVALID_INDEX,
        f"setStack({column}, S) raises invalid_index",
    )
    expect_raises(
        impl,
        lambda: b.setFree(board, cell, build.card(PACK[0])),
        INVALID_INDEX,
        f"setFree({cell}, C) raises invalid_index",
    )
    expect_raises(
        impl,
        lambda: b.setWin(board, cell, build.card(PACK[0])),
        INVALID_INDEX,
        f"setWin({cell}, C) raises invalid_index",
    )
    expect_position(read, board, position, "the board is unchanged after the refused calls")


# The moves -------------------------------------------------------------------------------------


def check_move(read: Read, board, model: Position, move: str, a: int, b: int) -> None:
    """Make the move on the board and on the model: its effect if legal, its exception and an
    unchanged board if not. A move onto an empty cascade may be made or refused as the MIS's
    conditions, taken literally, refuse it (erratum F20)."""
    impl = read.impl
    before = model.describe()
    refusal = model.refusal(move, a, b)
    if refusal:
        expect_raises(
            impl,
            lambda: call(impl, board, move, a, b),
            refusal,
            f"{move}({a}, {b}) is refused (erratum F25) on\n{before}",
        )
        expect_position(read, board, model, f"a refused {move}({a}, {b}) changes nothing (erratum F25)")
        return
    as_written = model.refusal_as_written(move, a, b)
    name = raised(impl, lambda: call(impl, board, move, a, b))
    if name is not None and as_written:
        expect(
            name in as_written,
            f"{move}({a}, {b}) onto the empty cascade {b} is made, or refused as the MIS's "
            f"conditions say (erratum F20), on\n{before}",
            expected="no exception, or raises " + " or ".join(as_written),
            actual=f"raised {name}",
        )
        expect_position(read, board, model, f"a refused {move}({a}, {b}) changes nothing (erratum F25)")
        return
    expect(name is None, f"{move}({a}, {b}) is legal on\n{before}", expected="no exception", actual=f"raised {name}")
    model.play(move, a, b)
    expect_position(read, board, model, f"{move}({a}, {b}) moves one card and changes nothing else")


@covers(*(f"BoardT.{m}" for m in MOVES))
@given(position=positions(), data=st.data())
def test_every_legal_move_moves_one_card(impl, position, data):
    build = Build(impl)
    read = Read(impl, build)
    board = build.board(position)
    legal = position.legal_moves()
    for _ in range(3):
        if not legal:
            break
        move, a, b = data.draw(st.sampled_from(legal), label="move")
        check_move(read, board, position, move, a, b)
        legal = position.legal_moves()


@covers(*(f"BoardT.{m}" for m in MOVES))
@given(position=positions(), move=st.sampled_from(MOVES), a=st.integers(-1, 8), b=st.integers(-1, 8))
def test_any_move_is_made_or_refused_as_the_rules_say(impl, position, move, a, b):
    build = Build(impl)
    read = Read(impl, build)
    check_move(read, board=build.board(position), model=position, move=move, a=a, b=b)


@covers(*(f"BoardT.{m}" for m in MOVES))
@settings(max_examples=15)
@given(position=positions())
def test_every_refused_move_raises_for_its_reason_and_changes_nothing(impl, position):
    build = Build(impl)
    read = Read(impl, build)
    board = build.board(position)
    for move, (source, target) in MOVE_PARTS.items():
        for a in range(-1, SIZES[source] + 1):
            for b in range(-1, SIZES[target] + 1):
                refusal = position.refusal(move, a, b)
                if refusal:
                    expect_raises(
                        impl,
                        lambda: call(impl, board, move, a, b),  # noqa: B023 - run before the loop moves on
                        refusal,
                        f"{move}({a}, {b}) is refused (erratum F25) on\n{position.describe()}",
                    )
    expect_position(read, board, position, "refused moves change nothing (erratum F25)")


@covers("BoardT.moveColToCol", "BoardT.moveFreeToCol")
@given(position=positions(max_home=0), data=st.data())
def test_a_card_onto_an_empty_cascade_is_moved_or_refused_as_written(impl, position, data):
    build = Build(impl)
    read = Read(impl, build)
    empty = data.draw(st.integers(0, CASCADES - 1), label="emptied cascade")
    moved = position.cascades[empty]
    position.cascades[empty] = []
    position.cascades[(empty + 1) % CASCADES] += moved
    board = build.board(position)
    sources = [i for i in range(CASCADES) if position.cascades[i]]
    a = data.draw(st.sampled_from(sources), label="source cascade")
    check_move(read, board, position, "moveColToCol", a, empty)
    if position.cells[0] is None:
        check_move(read, board, position, "moveColToFree", (empty + 1) % CASCADES, 0)
    free = [i for i in range(CELLS) if position.cells[i] is not None]
    if free and not position.cascades[(empty + 3) % CASCADES]:
        check_move(read, board, position, "moveFreeToCol", free[0], (empty + 3) % CASCADES)


@covers("BoardT.moveColToWin", "BoardT.moveFreeToWin")
@given(suit=st.sampled_from(SUITS), slot=st.integers(0, 3))
def test_an_ace_starts_an_empty_foundation_and_only_an_ace(impl, suit, slot):
    build = Build(impl)
    read = Read(impl, build)
    rest = [c for c in PACK if c[0] != suit or c[1] > 3]  # each card once (erratum F27)
    position = Position(
        [[(suit, 1)], [(suit, 2)], rest[:20], rest[20:]] + [[]] * 4, cells=[(suit, 3), None, None, None]
    )
    board = build.board(position)
    check_move(read, board, position, "moveColToWin", 1, slot)  # a two: refused
    check_move(read, board, position, "moveFreeToWin", 0, slot)  # a three: refused
    check_move(read, board, position, "moveColToWin", 0, slot)  # the ace
    check_move(read, board, position, "moveFreeToWin", 0, slot)  # the three: refused
    check_move(read, board, position, "moveColToWin", 1, slot)  # the two
    check_move(read, board, position, "moveFreeToWin", 0, slot)  # the three, from the free cell (erratum F22)


@covers("BoardT.moveColToWin", "BoardT.moveFreeToWin")
@given(suit=st.sampled_from(SUITS), top=st.integers(3, 13), data=st.data())
def test_a_card_below_a_foundations_top_cannot_go_onto_it(impl, suit, top, data):
    """A position set up by the setters need not be reachable by play (erratum F27): a card of
    the foundation's suit below its top card is refused, as every card but the next one is."""
    build = Build(impl)
    read = Read(impl, build)
    low, lower = data.draw(st.lists(st.integers(1, top - 1), min_size=2, max_size=2, unique=True), label="lower ranks")
    slot = data.draw(st.integers(0, FOUNDATIONS - 1), label="foundation")
    foundations = [None] * FOUNDATIONS
    foundations[slot] = (suit, top)
    position = Position(
        [[(suit, low)]] + [[]] * (CASCADES - 1), cells=[None, (suit, lower), None, None], foundations=foundations
    )
    board = build.board(position)
    check_move(read, board, position, "moveColToWin", 0, slot)
    check_move(read, board, position, "moveFreeToWin", 1, slot)


# Boards reached by every path, and the frame rule of every update -------------------------------


@covers(*(f"BoardT.{m}" for m in MOVES), "BoardT.setStack", "BoardT.setFree", "BoardT.setWin", "BoardT.hasWon")
@paths.few()
@given(path=paths.any_path("board"), move=st.sampled_from(MOVES), a=st.integers(-1, 8), b=st.integers(-1, 8))
def test_a_board_reached_by_any_path_holds_its_position_and_obeys_the_rules(impl, path, move, a, b):
    """A board made by BoardT(), set up, then any moves and setters: its position, hasWon,
    isValidMoves, and any move made or refused as the rules say."""
    read = Read(impl)
    board, model = paths.make(impl, path), path.model.copy()
    expect_position(read, board, model, f"{path!r} holds its position")
    expect_equal(impl.board_adt.hasWon(board), model.won(), f"hasWon() of {path!r}")
    answer, accepted = impl.board_adt.isValidMoves(board), model.is_valid_moves_answers()
    expect(
        answer in accepted,
        f"isValidMoves() of {path!r}, on\n{model.describe()} (erratum F26)",
        expected=" or ".join(map(str, sorted(accepted))),
        actual=answer,
    )
    check_move(read, board, model, move, a, b)


@covers("BoardT.setStack")
@paths.few()
@given(case=paths.frame_cases("BoardT.setStack"))
def test_setstack_changes_its_own_board_only(impl, case):
    paths.check_frame_case(impl, case)


@covers("BoardT.setFree")
@paths.few()
@given(case=paths.frame_cases("BoardT.setFree"))
def test_setfree_changes_its_own_board_only(impl, case):
    paths.check_frame_case(impl, case)


@covers("BoardT.setWin")
@paths.few()
@given(case=paths.frame_cases("BoardT.setWin"))
def test_setwin_changes_its_own_board_only(impl, case):
    paths.check_frame_case(impl, case)


@covers("BoardT.moveColToCol")
@paths.few()
@given(case=paths.frame_cases("BoardT.moveColToCol"))
def test_movecoltocol_changes_its_own_board_only(impl, case):
    paths.check_frame_case(impl, case)


@covers("BoardT.moveColToFree")
@paths.few()
@given(case=paths.frame_cases("BoardT.moveColToFree"))
def test_movecoltofree_changes_its_own_board_only(impl, case):
    paths.check_frame_case(impl, case)


@covers("BoardT.moveFreeToCol")
@paths.few()
@given(case=paths.frame_cases("BoardT.moveFreeToCol"))
def test_movefreetocol_changes_its_own_board_only(impl, case):
    paths.check_frame_case(impl, case)


@covers("BoardT.moveColToWin")
@paths.few()
@given(case=paths.frame_cases("BoardT.moveColToWin"))
def test_movecoltowin_changes_its_own_board_only(impl, case):
    paths.check_frame_case(impl, case)


@covers("BoardT.moveFreeToWin")
@paths.few()
@given(case=paths.frame_cases("BoardT.moveFreeToWin"))
def test_movefreetowin_changes_its_own_board_only(impl, case):
    paths.check_frame_case(impl, case)


# hasWon and isValidMoves ------------------------------------------------------------------------


@covers("BoardT.hasWon", "BoardT.isValidMoves")
def test_a_board_with_the_four_kings_home_and_nothing_else_is_won(impl):
    build = Build(impl)
    expect_equal(
        impl.board_adt.hasWon(build.board(won)),
        True,
        "hasWon() with the four kings on the foundations and nothing elsewhere",
    )
    almost = won.copy()
    almost.foundations[2] = (almost.foundations[2][0], 12)
    almost.cells[1] = (almost.foundations[2][0], 13)
    expect_equal(impl.board_adt.hasWon(build.board(almost)), False, "hasWon() with a king still in a free cell")
    almost = won.copy()
    almost.foundations[0] = (almost.foundations[0][0], 12)
    almost.cascades[5] = [(almost.foundations[0][0], 13)]
    expect_equal(impl.board_adt.hasWon(build.board(almost)), False, "hasWon() with a king still on a cascade")
    twice = won.copy()
    twice.foundations[3] = twice.foundations[0]
    expect_equal(
        impl.board_adt.hasWon(build.board(twice)),
        False,
        "hasWon() with two kings of one suit home (FoundationComplete)",
    )
    short = won.copy()
    short.foundations[1] = (short.foundations[1][0], 12)
    expect_equal(
        impl.board_adt.hasWon(build.board(short)),
        False,
        "hasWon() with nothing on the cascades or in the free cells but a queen on top of a foundation "
        "(FoundationComplete; erratum F27)",
    )
    expect_equal(
        impl.board_adt.isValidMoves(build.board(won)), False, "isValidMoves() on a won board: no card is left to move"
    )


@covers("BoardT.hasWon", "BoardT.isValidMoves")
@given(position=positions())
def test_has_won_and_is_valid_moves_agree_with_the_rules(impl, position):
    build = Build(impl)
    read = Read(impl, build)
    board = build.board(position)
    expect_equal(impl.board_adt.hasWon(board), position.won(), f"hasWon() on\n{position.describe()}")
    answer = impl.board_adt.isValidMoves(board)
    accepted = position.is_valid_moves_answers()
    expect(
        answer in accepted,
        f"isValidMoves() on\n{position.describe()} (erratum F26)",
        expected=" or ".join(map(str, sorted(accepted))),
        actual=answer,
    )
    expect_position(read, board, position, "hasWon() and isValidMoves() change nothing")


@st.composite
def stuck_positions(draw, empty_cascade: bool = False, free_cell: bool = False):
    """Positions with no legal move; with ``empty_cascade`` the only legal moves are onto an
    empty cascade, with ``free_cell`` into an empty free cell."""
    rng = draw(st.randoms(use_true_random=False))
    while True:
        blacks = [c for c in PACK if c[0] in ("SPADES", "CLUBS") and c[1] > 1]
        reds = [c for c in PACK if c[0] in ("HEARTS", "DIAMONDS") and c[1] > 1]
        tops = rng.sample(blacks, CASCADES)
        top_ranks = {t[1] for t in tops}
        cells = rng.sample([c for c in reds if c[1] + 1 not in top_ranks], CELLS)
        rest = [c for c in PACK if c not in tops and c not in cells]
        rng.shuffle(rest)
        cascades = [rest[i::CASCADES] + [tops[i]] for i in range(CASCADES)]
        if empty_cascade:  # cascade 0's cards go under cascade 1's top card
            cascades[1] = cascades[1][:-1] + cascades[0] + [tops[1]]
            cascades[0] = []
        if free_cell:  # free cell 0's card goes under cascade 2's top card
            cascades[2] = cascades[2][:-1] + [cells[0]] + [tops[2]]
            cells = [None] + cells[1:]
        position = Position(cascades, cells)
        if free_cell:
            if all(m == "moveColToFree" for m, _, _ in position.legal_moves()):
                return position
        elif not position.legal_moves_without_empty_cascades():
            return position


@st.composite
def blocked_positions(draw):
    """Positions where no card can go onto a cascade or into a free cell (eight cascades topped
    by black cards, four red cards in the free cells, none one rank below a top card), with
    some suits partly home: a legal move exists exactly when a top card or a free cell's card
    is the next card of its suit's foundation (an ace when the foundation is empty). Such a
    card is put among the tops, among the free cells, or nowhere."""
    rng = draw(st.randoms(use_true_random=False))
    heights = {suit: draw(st.one_of(st.just(0), st.integers(1, 6)), label=f"{suit} home") for suit in SUITS}
    slots = draw(st.permutations(range(FOUNDATIONS)), label="foundation slots")
    home = draw(st.sampled_from(["top", "cell", "none"]), label="where a card that can go home is")
    foundations = [None] * FOUNDATIONS
    for suit, slot in zip(SUITS, slots, strict=True):
        if heights[suit]:
            foundations[slot] = (suit, heights[suit])
    following = [(suit, heights[suit] + 1) for suit in SUITS]
    rest = [c for c in PACK if c[1] > heights[c[0]]]
    going = {"top": following[:2], "cell": following[2:], "none": [None]}[home]  # SUITS: two black, then two red
    going = draw(st.sampled_from(going), label="the card that can go home")
    while True:
        blacks = [
            c
            for c in rest
            if c[0] in ("SPADES", "CLUBS") and c not in following and (going is None or c[1] != going[1] + 1)
        ]
        tops = ([going] if home == "top" else []) + rng.sample(blacks, CASCADES - (home == "top"))
        top_ranks = {t[1] for t in tops}
        reds = [c for c in rest if c[0] in ("HEARTS", "DIAMONDS") and c[1] + 1 not in top_ranks and c not in following]
        if home == "cell" and going[1] + 1 in top_ranks or len(reds) < CELLS - (home == "cell"):
            continue
        cells = ([going] if home == "cell" else []) + rng.sample(reds, CELLS - (home == "cell"))
        rng.shuffle(tops)
        rng.shuffle(cells)
        others = [c for c in rest if c not in tops and c not in cells]
        rng.shuffle(others)
        return Position([others[i::CASCADES] + [tops[i]] for i in range(CASCADES)], cells, foundations)


@covers("BoardT.isValidMoves")
@given(position=blocked_positions())
def test_a_card_that_can_go_home_is_a_legal_move(impl, position):
    """A card that can go onto a foundation with a card counts as a legal move; an ace that
    can start an empty foundation counts as the rules say, not as the formula says (erratum F26)."""
    build = Build(impl)
    legal = position.legal_moves()
    expect(
        all(m in ("moveColToWin", "moveFreeToWin") for m, _, _ in legal),
        "the position allows no move but to a foundation",
        expected="moves home only",
        actual=legal,
    )
    answer = impl.board_adt.isValidMoves(build.board(position))
    accepted = position.is_valid_moves_answers()
    expect(
        answer in accepted,
        f"isValidMoves() when the only legal moves are to a foundation ({len(legal)} of "
        f"them) on\n{position.describe()} (erratum F26)",
        expected=" or ".join(map(str, sorted(accepted))),
        actual=answer,
    )


@covers("BoardT.isValidMoves")
@given(position=blocked_positions(), data=st.data())
def test_a_move_onto_a_card_counts_when_a_cascade_is_empty(impl, position, data):
    """Erratum F26 lets isValidMoves leave out moves onto an empty cascade, not the others: with
    a cascade emptied, a card one rank below another cascade's top card is put in a free cell."""
    build = Build(impl)
    cascades = position.cascades
    cascades[1][-1:-1] = cascades[0]  # cascade 0's cards go under cascade 1's top card
    cascades[0] = []
    following = {(suit, next((t[1] for t in position.foundations if t and t[0] == suit), 0) + 1) for suit in SUITS}
    for k in data.draw(st.permutations(range(2, CASCADES)), label="cascades to build on"):
        top = cascades[k][-1]
        buried = [
            (i, j)
            for i in range(1, CASCADES)
            for j, card in enumerate(cascades[i][:-1])
            if colour(card) != colour(top) and card[1] == top[1] - 1 and card not in following
        ]
        if buried:  # that card goes into free cell 0, whose card takes its place
            i, j = buried[0]
            cascades[i][j], position.cells[0] = position.cells[0], cascades[i][j]
            break
    answer = impl.board_adt.isValidMoves(build.board(position))
    accepted = position.is_valid_moves_answers()
    expect(
        answer in accepted,
        "isValidMoves() with a cascade empty and a card that can go onto another "
        f"on\n{position.describe()} (erratum F26)",
        expected=" or ".join(map(str, sorted(accepted))),
        actual=answer,
    )


@covers("BoardT.isValidMoves")
@given(position=stuck_positions())
def test_a_board_without_a_legal_move_says_so(impl, position):
    build = Build(impl)
    expect_equal(
        impl.board_adt.isValidMoves(build.board(position)),
        False,
        f"isValidMoves() with no legal move on\n{position.describe()}",
    )


@covers("BoardT.isValidMoves")
@given(position=stuck_positions(free_cell=True))
def test_a_move_into_a_free_cell_counts_as_a_legal_move(impl, position):
    build = Build(impl)
    expect_equal(
        impl.board_adt.isValidMoves(build.board(position)),
        True,
        f"isValidMoves() when only moves into free cell 0 are legal on\n{position.describe()}",
    )


@covers("BoardT.isValidMoves")
@given(position=stuck_positions(empty_cascade=True))
def test_a_board_whose_only_moves_are_onto_an_empty_cascade_may_answer_either_way(impl, position):
    build = Build(impl)
    answer = impl.board_adt.isValidMoves(build.board(position))
    expect(
        answer in (True, False),
        f"isValidMoves() when only moves onto the empty cascade 0 are legal (erratum F26) on\n{position.describe()}",
        expected="True (as ruled) or False (the formula)",
        actual=answer,
    )
    expect_equal(bool(position.legal_moves()), True, "the model sees the moves onto the empty cascade")


# The board as a state machine -------------------------------------------------------------------


class BoardMachine(RuleBasedStateMachine):
    """Random sequences of moves, legal and not, on a board and on the model side by side."""

    def __init__(self, read: Read) -> None:
        super().__init__()
        self.impl, self.build, self.read = read.impl, read.build, read
        self.board = None
        self.model: Position | None = None

    @initialize(position=positions(), dealt=st.booleans())
    def set_up(self, position, dealt):
        if dealt:  # BoardT()'s own deal, read into the model
            self.board = self.impl.board_adt.BoardT()
            self.model = self.read.board(self.board)
        else:
            self.board = self.build.board(position)
            self.model = position

    @rule(choice=st.integers(0, 2**16))
    def legal_move(self, choice):
        # Chosen by number, not sampled from the legal moves: a board dealt by BoardT() is
        # the implementation's (random) choice, and Hypothesis's draws must not depend on it.
        legal = self.model.legal_moves()
        if legal:
            move, a, b = legal[choice % len(legal)]
            check_move(self.read, self.board, self.model, move, a, b)

    @rule(move=st.sampled_from(MOVES), a=st.integers(-1, 8), b=st.integers(-1, 8))
    def any_move(self, move, a, b):
        check_move(self.read, self.board, self.model, move, a, b)

    @rule()
    def ask(self):
        expect_equal(self.impl.board_adt.hasWon(self.board), self.model.won(), f"hasWon() on\n{self.model.describe()}")
        accepted = self.model.is_valid_moves_answers()
        answer = self.impl.board_adt.isValidMoves(self.board)
        expect(
            answer in accepted,
            f"isValidMoves() on\n{self.model.describe()} (erratum F26)",
            expected=accepted,
            actual=answer,
        )

    @invariant()
    def cards_are_conserved(self):
        if self.model is not None:
            held = [c for cascade in self.model.cascades for c in cascade] + [c for c in self.model.cells if c]
            expect(len(held) == len(set(held)), "the model never holds a card twice", expected=True, actual=held)


@covers(*(f"BoardT.{m}" for m in MOVES), "BoardT.hasWon", "BoardT.isValidMoves", "BoardT.BoardT")
def test_random_games_agree_with_the_model(impl):
    read = Read(impl)
    run_state_machine_as_test(lambda: BoardMachine(read), settings=settings(max_examples=25, stateful_step_count=15))
