"""Freecell's paths: cards, stacks, decks and boards reached by every documented path, and the
frame rule of every update.

The machinery every specification shares (recipes, following them, the frame rule's verdicts)
is :mod:`speckit.testing.frames`; this module says which paths Freecell's types have and how a
value's model is asked. The other tests build each value one way (``adapter.Build``: a new
stack and its cards added, a new board and its position set). A student's value can reach a
state by other ways, and every property must hold of all of them:

* a card: ``CardT(s, r)``, or got out of a stack (``peek``) or a board (``getFree``, ``getWin``);
* a stack: ``StackT()`` or a board's ``getStack``, then ``addCard`` and ``remCard`` in any order
  (never ``remCard`` of a stack holding only the placeholder: erratum F11 leaves it open);
* a deck: ``DeckT()``, then ``remCard``, and ``shuffle`` while it is full (erratum F08);
* a board: ``BoardT()`` (its deal is the implementation's, erratum F15: every cascade is then
  set), then ``setStack``, ``setFree``, ``setWin`` and the moves, legal ones only and none onto
  an empty cascade (erratum F20), each real card held at most once (erratum F27).

The MIS has no clone; an update changes the value it is called on and its result is not used
(erratum F18), so paths go on with the same value. Models: a card is ``(suit, rank)`` or None
(the placeholder), a stack a tuple of cards bottom first, a deck its number of cards (which
card ``draw`` shows is the implementation's, erratum F05), a board a :class:`~.model.Position`.

The frame rule (:func:`check_frame_case`): after an update, its argument has its new model, the
values given to it keep theirs, and so do other values made before it: values of its kind, and
the cards got out of the argument before the update (cards have no update). A stack got out of
a board, or given to one, is never such a value: the board may share it (erratum F18).
"""

from __future__ import annotations

from typing import Any

import attrs
from hypothesis import strategies as st

from speckit.testing import frames
from speckit.testing.frames import FrameCase, Made, Path, Verdict

from .adapter import Build, Read
from .model import CASCADES, CELLS, FOUNDATIONS, PACK, RANK_NAMES, SUITS, Position, shown

KINDS = {"card": "card_adt", "stack": "stack_adt", "deck": "deck_adt", "board": "board_adt"}
"""Each kind of value a path makes, and the module of its type."""

TYPE_NAMES = {"card": "CardT", "stack": "StackT", "deck": "DeckT", "board": "BoardT"}


@attrs.frozen(repr=False)
class Member:
    """An argument naming a member of one of card_adt's enumerations (``SuitT.HEARTS``)."""

    enum: str
    name: str

    def __repr__(self) -> str:
        return f"{self.enum}.{self.name}"


def described(kind: str, model) -> str:
    """A model in words, as failure messages give it."""
    if kind == "card":
        return shown(model)
    if kind == "stack":
        return f"a stack of {' '.join(map(shown, model))} (bottom first)" if model else "a stack with no card"
    if kind == "deck":
        return f"a deck of {model} cards"
    return f"the position\n{model.describe()}"


# Making the values of paths ----------------------------------------------------------------


def follow(impl, path: Path) -> Made:
    """Make the value of ``path`` with the implementation's documented operations."""
    value = frames.start(path, impl, lambda a: _argument(impl, a))
    return frames.follow(
        path, value, getattr(impl, KINDS[path.kind]), lambda a: _argument(impl, a), lambda: False, in_place=True
    )


def make(impl, path: Path):
    """Just the value of ``path``."""
    return follow(impl, path).value


def _argument(impl, argument):
    if isinstance(argument, Path):
        return make(impl, argument)
    if isinstance(argument, Member):
        build = _BUILDS.get(impl) or _BUILDS.setdefault(impl, Build(impl))
        return (build.suits if argument.enum == "SuitT" else build.ranks)[argument.name]
    return argument


_BUILDS: dict = {}
"""Each implementation's enumeration members, once found."""


# Whether a value has a model, asked through documented operations only -----------------------


def holding(read: Read, kind: str, value, model, where: str) -> Verdict:
    """Whether ``value`` (of ``kind``) has ``model``: read back through its observers (a stack by
    taking its cards off and putting them back, as ``Read.stack`` does; a deck by its size)."""
    if kind == "card":
        got: Any = read.card(value, where)
    elif kind == "stack":
        got = tuple(read.stack(value, where))
    elif kind == "deck":
        got = read.impl.deck_adt.size(value)
    else:
        got = read.board(value)
    return Verdict(got == model, described(kind, got))


# Recipes -------------------------------------------------------------------------------------
#
# Recipes are made in plain code from a random source seeded by one Hypothesis draw (drawing each
# choice costs more than the calls); each is any path of its kind, its model what the path leaves.


def new_card(card) -> Path:
    """``CardT(s, r)`` of a model card; ``CardT(NAS, NAR)`` for the placeholder."""
    suit, rank = ("NAS", 0) if card is None else card
    return Path("card", ("card_adt", "CardT", Member("SuitT", suit), Member("RankT", RANK_NAMES[rank])), card)


def new_stack(cards) -> Path:
    """``StackT()`` and ``addCard`` of each card, bottom first, each made by ``CardT``."""
    cards = tuple(cards)
    steps = tuple(("addCard", new_card(card)) for card in cards)
    return Path("stack", ("stack_adt", "StackT"), (), steps, tuple(cards[: k + 1] for k in range(len(cards))))


def _any_card(rnd) -> Any:
    return None if rnd.random() < 0.15 else rnd.choice(PACK)


def cards(rnd, depth: int = 2) -> Path:
    """Any path to a card: ``CardT``, or (below ``depth`` 0) ``peek`` of a stack or ``getFree`` or
    ``getWin`` of a board, each itself made by a path."""
    how = rnd.choice(["new", "new", "peek", "free", "win"] if depth > 0 else ["new"])
    if how == "new":
        return new_card(_any_card(rnd))
    if how == "peek":
        stack = stacks(rnd, depth - 1)
        if not stack.model:
            top = _any_card(rnd)
            stack = attrs.evolve(
                stack, steps=(*stack.steps, ("addCard", new_card(top))), models=(*stack.models, (top,))
            )
        return Path("card", ("stack_adt", "peek", stack), stack.model[-1])
    board = boards(rnd, depth - 1)
    i = rnd.randrange(CELLS if how == "free" else FOUNDATIONS)
    places = board.model.cells if how == "free" else board.model.foundations
    return Path("card", ("board_adt", "getFree" if how == "free" else "getWin", board, i), places[i])


def _removable(model) -> bool:
    """Whether remCard's effect is fixed: a card to take, and not only the placeholder (erratum F11)."""
    return bool(model) and model != (None,)


def stacks(rnd, depth: int = 2) -> Path:
    """Any path to a stack: ``StackT()`` or (below ``depth`` 0) a board's ``getStack``, then
    ``addCard`` of cards made by any path and ``remCard``."""
    if depth > 0 and rnd.random() < 0.25:
        board = boards(rnd, depth - 1)
        i = rnd.randrange(CASCADES)
        start, start_model = ("board_adt", "getStack", board, i), (None, *board.model.cascades[i])
    else:
        start, start_model = ("stack_adt", "StackT"), ()

    def add(rnd, model):
        card = cards(rnd, depth - 1)
        return ("addCard", card), (*model, card.model)

    def remove(rnd, model):
        return ("remCard",), model[:-1]

    steps: list = []
    models: list = []
    frames.walk(rnd, steps, models, start_model, lambda m: [add, add, remove if _removable(m) else None], 8)
    return Path("stack", start, start_model, tuple(steps), tuple(models))


def decks(rnd, depth: int = 2) -> Path:
    """Any path to a deck: ``DeckT()``, then ``remCard``, and ``shuffle`` while the deck is full."""

    def remove(rnd, n):
        return ("remCard",), n - 1

    def shuffle(rnd, n):
        return ("shuffle",), n

    steps: list = []
    models: list = []
    frames.walk(rnd, steps, models, 52, lambda n: [remove if n else None, shuffle if n == 52 else None], 6)
    return Path("deck", ("deck_adt", "DeckT"), 52, tuple(steps), tuple(models))


def position(rnd, most: int = 14) -> Position:
    """A small position, each real card held at most once (erratum F27): some suits partly home,
    up to ``most`` other cards in the free cells and on the cascades."""
    homes = {suit: rnd.choice((0, 0, 1, 2, 5)) for suit in SUITS}
    foundations: list = [None] * FOUNDATIONS
    for suit, slot in zip(SUITS, rnd.sample(range(FOUNDATIONS), FOUNDATIONS), strict=True):
        if homes[suit]:
            foundations[slot] = (suit, homes[suit])
    rest = rnd.sample([c for c in PACK if c[1] > homes[c[0]]], rnd.randint(0, most))
    cells: list = [None] * CELLS
    for slot in rnd.sample(range(CELLS), rnd.randint(0, min(CELLS, len(rest)))):
        cells[slot] = rest.pop()
    cascades: list = [[] for _ in range(CASCADES)]
    for card in rest:
        cascades[rnd.randrange(CASCADES)].append(card)
    return Position(cascades, cells, foundations)


def _held(model: Position) -> set:
    """The real cards a position holds, those under a foundation's top card included."""
    held = {c for cascade in model.cascades for c in cascade} | {c for c in model.cells if c}
    return held | {(t[0], rank) for t in model.foundations if t for rank in range(1, t[1] + 1)}


def _playable(model: Position) -> list:
    """The legal moves whose effect is fixed: none onto an empty cascade (erratum F20)."""
    return [(m, a, b) for m, a, b in model.legal_moves() if not model.refusal_as_written(m, a, b)]


def _set_stack(i: int, cascade) -> tuple:
    return ("setStack", i, new_stack((None, *cascade)))


def _with(model: Position, **change) -> Position:
    after = model.copy()
    for place, (i, value) in change.items():
        getattr(after, place)[i] = list(value) if place == "cascades" else value
    return after


def board_steps(rnd, model: Position) -> list:
    """The step makers open from ``model``: a legal move, and setters that keep each card once."""

    def move(rnd, m):
        name, a, b = rnd.choice(_playable(m))
        after = m.copy()
        after.play(name, a, b)
        return (name, a, b), after

    def set_free(rnd, m):
        i = rnd.randrange(CELLS)
        card = rnd.choice([None, *(c for c in PACK if c not in _held(m))])
        return ("setFree", i, new_card(card)), _with(m, cells=(i, card))

    def set_win(rnd, m):
        i = rnd.randrange(FOUNDATIONS)
        held = _held(_with(m, foundations=(i, None)))
        home = {t[0] for k, t in enumerate(m.foundations) if t and k != i}
        tops = [
            (s, r)
            for s in SUITS
            if s not in home
            for r in range(1, 14)
            if all((s, k) not in held for k in range(1, r + 1))
        ]
        card = rnd.choice([None, *tops])
        return ("setWin", i, new_card(card)), _with(m, foundations=(i, card))

    def set_stack(rnd, m):
        i = rnd.randrange(CASCADES)
        cascade = m.cascades[i][: rnd.randint(0, len(m.cascades[i]))]
        free = [c for c in PACK if c not in _held(m)]
        if free and rnd.random() < 0.5:
            cascade.append(rnd.choice(free))
        return _set_stack(i, cascade), _with(m, cascades=(i, cascade))

    return [move if _playable(model) else None, set_free, set_win, set_stack]


def boards(rnd, depth: int = 2) -> Path:
    """Any path to a board: ``BoardT()``, every cascade set (the deal is the implementation's,
    erratum F15) and the free cells and foundations of a small position, then (above ``depth`` 0)
    moves and setters. Until every cascade is set the board's model is unknown (None)."""
    start = position(rnd)
    steps: list = [_set_stack(i, start.cascades[i]) for i in range(CASCADES)]
    models: list = [None] * (CASCADES - 1) + [Position(start.cascades)]
    for place, setter in (("cells", "setFree"), ("foundations", "setWin")):
        for i, card in enumerate(getattr(start, place)):
            if card is not None:
                steps.append((setter, i, new_card(card)))
                models.append(_with(models[-1], **{place: (i, card)}))
    frames.walk(rnd, steps, models, models[-1], lambda m: board_steps(rnd, m), 6 if depth > 0 else 0)
    return Path("board", ("board_adt", "BoardT"), None, tuple(steps), tuple(models))


PATHS = {"card": cards, "stack": stacks, "deck": decks, "board": boards}


def any_path(kind: str, depth: int = 2):
    """Any path to a value of ``kind``."""
    return frames.RANDOM.map(lambda rnd: PATHS[kind](rnd, depth))


few = frames.few


# The frame rule, one case per update ------------------------------------------------------------


def _until(rnd, make, holds):
    """A value of ``make(rnd)`` for which ``holds``."""
    while True:
        made = make(rnd)
        if holds(made):
            return made


def _stack_update(operation: str):
    def case(rnd):
        if operation == "addCard":
            stack, card = stacks(rnd), cards(rnd, 1)
            return stack, (card,), (*stack.model, card.model)
        stack = _until(rnd, stacks, lambda p: _removable(p.model))
        return stack, (), stack.model[:-1]

    return case


def _deck_update(operation: str):
    def case(rnd):
        if operation == "remCard":
            deck = _until(rnd, decks, lambda p: p.model > 0)
            return deck, (), deck.model - 1
        return _until(rnd, decks, lambda p: p.model == 52), (), 52

    return case


def _board_update(operation: str):
    def case(rnd):
        if operation.startswith("move"):
            board = _until(rnd, boards, lambda p: any(m == operation for m, _, _ in _playable(p.model)))
            _, a, b = rnd.choice([m for m in _playable(board.model) if m[0] == operation])
            after = board.model.copy()
            after.play(operation, a, b)
            return board, (a, b), after
        board = boards(rnd)
        makers = dict(zip(("setFree", "setWin", "setStack"), board_steps(rnd, board.model)[1:], strict=True))
        step, after = makers[operation](rnd, board.model)
        return board, step[1:], after

    return case


UPDATES = {
    "StackT.addCard": _stack_update("addCard"),
    "StackT.remCard": _stack_update("remCard"),
    "DeckT.remCard": _deck_update("remCard"),
    "DeckT.shuffle": _deck_update("shuffle"),
    **{
        f"BoardT.{name}": _board_update(name)
        for name in ("setStack", "setFree", "setWin", "moveColToCol", "moveColToFree", "moveFreeToCol")
        + ("moveColToWin", "moveFreeToWin")
    },
}
"""Each update: ``rnd`` gives its argument's path, its other arguments and its argument's model after it."""


@st.composite
def frame_cases(draw, operation: str):
    """An update of ``operation`` on a value made by a random path, with other values of its kind made beside it."""
    kind = next(k for k, name in TYPE_NAMES.items() if name == operation.split(".")[0])
    rnd = draw(frames.RANDOM)
    argument, arguments, after = UPDATES[operation](rnd)
    others = tuple(PATHS[kind](rnd, 1) for _ in range(rnd.randint(1, 2)))
    return FrameCase(operation, argument, arguments, after, others)


def _got_out(impl, kind: str, value, model) -> list:
    """The cards got out of a value before its update, each with its model and description: a
    card has no update, so whatever happens to the value they keep their models."""
    if kind == "stack" and model:
        return [("card", impl.stack_adt.peek(value), model[-1], "the card peek() showed before it")]
    if kind == "deck" and model:
        read = Read(impl)
        card = impl.deck_adt.draw(value)
        return [("card", card, read.card(card, "draw()"), "the card draw() showed before it")]
    if kind == "board":
        ops = impl.board_adt
        return [("card", ops.getFree(value, i), model.cells[i], f"getFree({i}) before it") for i in range(CELLS)] + [
            ("card", ops.getWin(value, i), model.foundations[i], f"getWin({i}) before it") for i in range(FOUNDATIONS)
        ]
    return []


def check_frame_case(impl, case: FrameCase) -> None:
    """Run the update of ``case`` and check its frame rule, every question asked after the update."""
    kind = case.argument.kind
    first, then = case.others[:1], case.others[1:]  # values made before the argument and after it
    made = [follow(impl, o) for o in first]
    argument = follow(impl, case.argument)
    made += [follow(impl, o) for o in then]
    others = [(o.kind, m.value, m.model, f"another value, {o!r}") for o, m in zip(case.others, made, strict=True)]
    others += _got_out(impl, kind, argument.value, argument.model)
    values = [_argument(impl, a) for a in case.arguments]
    given = [(a.kind, v, a.model, repr(a)) for a, v in zip(case.arguments, values, strict=True) if isinstance(a, Path)]
    name = case.operation.split(".")[1]
    getattr(getattr(impl, KINDS[kind]), name)(argument.value, *values)
    read = Read(impl)
    verdicts = [
        holding(read, kind, argument.value, case.after, "x"),
        *(holding(read, k, value, model, description) for k, value, model, description in [*given, *others]),
    ]
    shown_arguments = ", ".join(["x", *map(repr, case.arguments)])
    frames.expect_frame(
        f"{name}({shown_arguments}) where x = {case.argument!r} is {described(kind, argument.model)}",
        described(kind, argument.model),
        described(kind, case.after),
        verdicts,
        [(described(k, model), description) for k, _, model, description in given],
        [(described(k, model), description) for k, _, model, description in others],
        ruling="F18: an update changes the value it is called on, nothing else",
        in_place=True,
    )
