"""The X+Game's paths: records, dictionaries and boards reached by every documented path, and the frame rule.

The machinery every specification shares (recipes, following them, the frame rule's verdicts) is
:mod:`speckit.testing.frames`; this module says which paths the X+Game's values have and how a
value's model is asked. The other tests make a value one way (a board by savePlay of its tiles on
a new one, a dictionary by HashDictionary(size) and puts). A student's value can reach the same
state by other ways: a square given a tile, overwritten and emptied again; a dictionary made by
createDictionary, filled by addConfiguration, its records removed and put back, after puts and
removes that were refused (a DictionaryException changes nothing) and queries asked on the way
(a value that remembers an answer is found by the updates after it). Every property must hold of
every value with the same model.

An update changes the value it is called on (put and remove their dictionary, savePlay its board,
addConfiguration the dictionary it is given), and what it returns is not a value: a path goes on
with the same value (``in_place``). A path prints as the calls it makes, in the document's notation
(``d = HashDictionary(7); put(d, Data('X', 1))``). The frame rule: after an update, that value has
the model the document gives, every value given to it keeps its model (the record put, the board
of addConfiguration) and so does every value built before it; a query (get, numRecords,
repeatedConfiguration, createDictionary, squareIsEmpty, wins, isDraw, evalBoard) changes nothing.

Models: a record is ``(configuration, score)``; a dictionary the sorted tuple of its
``(configuration, score)`` pairs; a board ``(n, k, tiles)``, tiles the sorted ``((row, col),
symbol)`` pairs, asked through squareIsEmpty of every square and its configuration string
(repeatedConfiguration against a dictionary holding the model's string, erratum X04).
"""

from __future__ import annotations

import random
from typing import Any

import attrs
from hypothesis import strategies as st

from speckit.testing import expect, frames
from speckit.testing.frames import Made, Path

from .adapter import raises_dictionary_exception
from .model import COMPUTER, EMPTY, HUMAN, BoardModel

KINDS = {"record": "data", "dictionary": "hash_dictionary", "board": "configurations"}
"""Each kind of value a path makes, and the module of its type."""

POOL = ("", " ", "X", "O", "XO ", "é∑", "OOXOXOXXOXXXOO  ", "9" * 40)
"""Configurations the recipes put and remove: few, so that a path puts, refuses and removes the same ones."""

SIZES = (1, 7, 97)
"""Table sizes: few, so that two dictionaries often have the same size."""

SYMBOLS = (HUMAN, COMPUTER, EMPTY)


NAMES = {"dictionary": "d", "board": "b"}
"""The name a path's value has when it prints as the calls it makes."""

VALUE_AT = {"addConfiguration": 1}
"""Where the value a step changes stands among its arguments, when not first: addConfiguration(board, d, score)."""


@attrs.frozen(repr=False)
class Calls(Path):
    """A path whose updates change their value in place, printed as the calls it makes, one after another:
    ``b = Configurations(3, 5, 1); savePlay(b, 0, 0, 'X')``."""

    def __repr__(self) -> str:
        start = _call(self.start[1], self.start[2:])
        if not self.steps:
            return start
        name = NAMES[self.kind]
        calls = [f"{name} = {start}"]
        for operation, *arguments in self.steps:
            arguments.insert(VALUE_AT.get(operation, 0), _Name(name))
            calls.append(_call(operation, arguments))
        return "; ".join(calls)


class _Name(str):
    def __repr__(self) -> str:
        return str(self)


def _call(operation: str, arguments) -> str:
    return f"{operation}({', '.join(f'[{a!r}]' if isinstance(a, Calls) and a.steps else repr(a) for a in arguments)})"


def board_of(model) -> BoardModel:
    """The oracle's board of a board model."""
    n, k, tiles = model
    return BoardModel(n, k, dict(tiles))


def _played(model, row: int, col: int, symbol: str):
    n, k, tiles = model
    after = {square: s for square, s in tiles if square != (row, col)} | (
        {} if symbol == EMPTY else {(row, col): symbol}
    )
    return n, k, tuple(sorted(after.items()))


def shown(kind: str, model) -> str:
    """A model in words, as failure messages give it."""
    if kind == "record":
        return f"the record of {model[0]!r} with the score {model[1]}"
    if kind == "dictionary":
        return f"the records {dict(model)}" if model else "no record"
    n, k, _ = model
    return f"the {n} x {n} board {board_of(model).string()!r} (row by row from the top left, k = {k})"


# Following a path -----------------------------------------------------------------------------


class _DictionarySteps:
    """The steps a dictionary's path takes, called as the document calls them: updates, and queries (get,
    numRecords), which change nothing.

    A put or remove the document refuses (DictionaryException) changes nothing, so a path may take
    one and go on: whether it was refused is checked by the tests of put and remove, not here.
    addConfiguration(board, dictionary, score) is the board's operation: it changes the dictionary.
    """

    def __init__(self, impl) -> None:
        self.impl = impl

    def put(self, dictionary, record) -> None:
        raises_dictionary_exception(self.impl.hash_dictionary.put, dictionary, record)

    def remove(self, dictionary, config: str) -> None:
        raises_dictionary_exception(self.impl.hash_dictionary.remove, dictionary, config)

    def addConfiguration(self, dictionary, board, score: int) -> None:
        self.impl.configurations.addConfiguration(board, dictionary, score)

    def get(self, dictionary, config: str) -> None:
        self.impl.hash_dictionary.get(dictionary, config)

    def numRecords(self, dictionary) -> None:
        self.impl.hash_dictionary.numRecords(dictionary)


def follow(impl, path: Path) -> Made:
    """Make the value of ``path`` with the implementation's documented operations."""
    value = frames.start(path, impl, lambda a: _argument(impl, a))
    operations = _DictionarySteps(impl) if path.kind == "dictionary" else getattr(impl, KINDS[path.kind])
    return frames.follow(path, value, operations, lambda a: _argument(impl, a), lambda: False, in_place=True)


def _argument(impl, argument):
    return follow(impl, argument).value if isinstance(argument, Path) else argument


def make(impl, path: Path):
    """Just the value of ``path``."""
    return follow(impl, path).value


# Whether a value has a model, asked through documented operations only --------------------------


def _probe(impl, model):
    """A dictionary holding the board model's configuration only, with the score 3: repeatedConfiguration of
    a board against it is 3 exactly when the board's configuration is the model's."""
    dictionary = impl.hash_dictionary.HashDictionary(13)
    impl.hash_dictionary.put(dictionary, impl.data.Data(board_of(model).string(), 3))
    return dictionary


def _questions(impl, kind: str, value, model, probe, absent: tuple[str, ...]) -> Any:
    """The calls whose answers say whether ``value`` has ``model``: calls only, for :meth:`batch`.
    A dictionary is also asked for the configurations ``absent`` that its model does not hold."""
    if kind == "record":
        return [impl.data.getConfiguration(value), impl.data.getScore(value)]
    if kind == "dictionary":
        ops, present = impl.hash_dictionary, dict(model)
        return [
            ops.numRecords(value),
            [ops.get(value, key) for key in present],
            [ops.get(value, key) for key in absent if key not in present],
        ]
    n = model[0]
    ops = impl.configurations
    return [[ops.squareIsEmpty(value, r, c) for c in range(n)] for r in range(n)], ops.repeatedConfiguration(
        value, probe
    )


def _verdict(kind: str, model, answers) -> bool:
    if kind == "record":
        return tuple(answers) == tuple(model)
    if kind == "dictionary":
        present = dict(model)
        count, found, absent = answers
        return count == len(present) and found == list(present.values()) and all(a == -1 for a in absent)
    n, _, tiles = model
    squares, score = answers
    full = dict(tiles)
    return score == 3 and squares == [[(r, c) not in full for c in range(n)] for r in range(n)]


def verdicts(impl, claims: list[tuple[str, Any, Any]], absent: tuple[str, ...] = ()) -> list[bool]:
    """Whether each value has its model (``(kind, value, model)``): every question asked in one batch.
    Dictionaries are asked for the configurations of :data:`POOL` and ``absent`` their models do not hold."""
    probes = [_probe(impl, model) if kind == "board" else None for kind, _, model in claims]
    asked = tuple(dict.fromkeys((*POOL, *absent)))
    answers = impl.batch(
        lambda: [
            _questions(impl, kind, value, model, probe, asked)
            for (kind, value, model), probe in zip(claims, probes, strict=True)
        ]
    )
    return [_verdict(kind, model, a) for (kind, _, model), a in zip(claims, answers, strict=True)]


def check_models(impl, claims: list[tuple[str, Any, Any, str]]) -> None:
    """Each value has its model: ``(kind, value, model, where)``."""
    __tracebackhide__ = True
    found = verdicts(impl, [(kind, value, model) for kind, value, model, _ in claims])
    for (kind, _, model, where), verdict in zip(claims, found, strict=True):
        expect(verdict, f"{where} is {shown(kind, model)}", actual=verdict)


# Recipes ------------------------------------------------------------------------------------------
#
# Made in plain code from a random source seeded by one Hypothesis draw (frames.RANDOM), and
# printed as the calls they make.


def records(rnd: random.Random, model, depth: int = 2) -> Path:
    """The one path to a record: Data(config, score). A record has no update."""
    return Calls("record", ("data", "Data", *model), model)


def boards(rnd: random.Random, model, depth: int = 2) -> Path:
    """A path to a board of ``model``: Configurations(n, k, levels) (levels any: erratum X03), random plays that
    place, overwrite and empty squares and queries between them, then the plays that bring it to the model, in a
    random order, with queries between them too."""
    n, k, tiles = model
    start, start_model = ("configurations", "Configurations", n, k, rnd.randint(1, 4)), (n, k, ())

    def play(rnd, m):
        row, col, symbol = rnd.randrange(n), rnd.randrange(n), rnd.choice(SYMBOLS)
        return ("savePlay", row, col, symbol), _played(m, row, col, symbol)

    def ask(rnd, m):
        """A query, which changes nothing: a board that remembers an answer is found by the plays after it."""
        both_won = all(board_of(m).wins(symbol) for symbol in (HUMAN, COMPUTER))  # evalBoard's precondition (X07)
        queries = [
            ("repeatedConfiguration", Calls("dictionary", ("hash_dictionary", "HashDictionary", 7), ())),
            ("wins", rnd.choice((HUMAN, COMPUTER))),
            ("isDraw",),
            ("squareIsEmpty", rnd.randrange(n), rnd.randrange(n)),
            *([] if both_won else [("evalBoard",)]),
        ]
        return rnd.choice(queries), m

    steps: list[tuple[Any, ...]] = []
    models: list[Any] = []
    current = frames.walk(rnd, steps, models, start_model, lambda m: [play, play, ask], 8 if depth else 0)
    want = dict(tiles)
    squares = [(r, c) for r in range(n) for c in range(n)]
    rnd.shuffle(squares)
    for row, col in squares:
        symbol = want.get((row, col), EMPTY)
        if dict(current[2]).get((row, col), EMPTY) != symbol:
            if depth and rnd.random() < 0.25:
                steps.append(ask(rnd, current)[0])
                models.append(current)
            current = _played(current, row, col, symbol)
            steps.append(("savePlay", row, col, symbol))
            models.append(current)
    return Calls("board", start, start_model, tuple(steps), tuple(models))


def _small_board(rnd: random.Random):
    """A 3 x 3 board model with random tiles."""
    tiles = {(r, c): s for r in range(3) for c in range(3) for s in [rnd.choice(SYMBOLS)] if s != EMPTY}
    return 3, rnd.randint(1, 6), tuple(sorted(tiles.items()))


def _with(model, key: str, score: int | None):
    """A dictionary model with ``key`` given ``score`` (None: removed)."""
    present = {k: v for k, v in model if k != key} | ({} if score is None else {key: score})
    return tuple(sorted(present.items()))


def dictionaries(rnd: random.Random, model, depth: int = 2) -> Path:
    """A path to a dictionary of ``model``: HashDictionary(size) or a board's createDictionary, then puts and removes
    (refused ones too) and addConfiguration, then the removes and puts that bring it to the model."""
    if depth > 0 and rnd.random() < 0.3:
        start: tuple[Any, ...] = ("configurations", "createDictionary", boards(rnd, _small_board(rnd), depth - 1))
    else:
        start = ("hash_dictionary", "HashDictionary", rnd.choice(SIZES))
    sub = max(depth - 1, 0)

    def put(rnd, m):
        key, score = rnd.choice(POOL), rnd.randint(0, 3)
        refused = key in dict(m)  # DictionaryException: nothing changes
        return ("put", records(rnd, (key, score))), m if refused else _with(m, key, score)

    def remove(rnd, m):
        key = rnd.choice(POOL)
        return ("remove", key), _with(m, key, None)

    def ask(rnd, m):
        """A query, which changes nothing: a dictionary that remembers an answer is found by the updates after it."""
        return rnd.choice([("get", rnd.choice(POOL)), ("numRecords",)]), m

    def add(rnd, m):
        board = _small_board(rnd)
        while board_of(board).string() in dict(m):  # the precondition of erratum X08
            board = _small_board(rnd)
        score = rnd.randint(0, 3)
        return ("addConfiguration", boards(rnd, board, sub), score), _with(m, board_of(board).string(), score)

    steps: list[tuple[Any, ...]] = []
    models: list[Any] = []
    choices = [put, remove, ask, add if depth else None]
    current = frames.walk(rnd, steps, models, (), lambda m: choices, 8 if depth else 2)
    want = dict(model)
    for key, score in rnd.sample(list(current), len(current)):
        if want.get(key) != score:
            current = _with(current, key, None)
            steps.append(("remove", key))
            models.append(current)
    have = dict(current)
    for key, score in rnd.sample(list(model), len(model)):
        if key not in have:
            current = _with(current, key, score)
            steps.append(("put", records(rnd, (key, score))))
            models.append(current)
    return Calls("dictionary", start, (), tuple(steps), tuple(models))


PATHS = {"record": records, "dictionary": dictionaries, "board": boards}

keys = st.one_of(st.sampled_from(POOL), st.text(max_size=12))
scores = st.integers(-1, 5)


@st.composite
def board_models(draw, sizes=st.integers(3, 5)):
    """A board model: n from 3, any k, any tiles; a full board as often as not."""
    n = draw(sizes)
    symbols = SYMBOLS if draw(st.booleans()) else (HUMAN, COMPUTER)
    cells = draw(st.lists(st.sampled_from(symbols), min_size=n * n, max_size=n * n))
    tiles = {(i // n, i % n): s for i, s in enumerate(cells) if s != EMPTY}
    return n, draw(st.integers(1, 2 * n + 1)), tuple(sorted(tiles.items()))


MODELS = {
    "record": st.tuples(keys, scores),
    "dictionary": st.dictionaries(keys, scores, max_size=5).map(lambda d: tuple(sorted(d.items()))),
    "board": board_models(),
}


def paths(kind: str, model, depth: int = 2):
    """Any path to a value of ``kind`` with ``model``."""
    return frames.RANDOM.map(lambda rnd: PATHS[kind](rnd, model, depth))


def any_path(kind: str, depth: int = 2):
    """A path to a value of ``kind`` with any (small) model."""
    return MODELS[kind].flatmap(lambda model: paths(kind, model, depth))


# The frame rule, one case per update --------------------------------------------------------------


@attrs.frozen
class FrameCase(frames.FrameCase):
    """A frame case, and whether the document says the update raises DictionaryException
    here, changing nothing (``refused``)."""

    refused: bool = False


def _put(rnd, before):
    key = rnd.choice([*POOL, *dict(before)])
    refused = key in dict(before)
    score = rnd.randint(0, 3)
    return (records(rnd, (key, score)),), before if refused else _with(before, key, score), refused


def _remove(rnd, before):
    key = rnd.choice([*POOL, *dict(before)])
    return (key,), _with(before, key, None), key not in dict(before)


def _add_configuration(rnd, before):
    board = _small_board(rnd)
    while board_of(board).string() in dict(before):  # the precondition of erratum X08
        board = _small_board(rnd)
    score = rnd.randint(0, 3)
    return (boards(rnd, board, 1), score), _with(before, board_of(board).string(), score), False


def _save_play(rnd, before):
    n = before[0]
    row, col, symbol = rnd.randrange(n), rnd.randrange(n), rnd.choice(SYMBOLS)
    return (row, col, symbol), _played(before, row, col, symbol), False


UPDATES = {
    "HashDictionary.put": ("dictionary", _put),
    "HashDictionary.remove": ("dictionary", _remove),
    "Configurations.addConfiguration": ("dictionary", _add_configuration),
    "Configurations.savePlay": ("board", _save_play),
}
"""Each update: the kind of value it changes, and how to make its other arguments, the model after it and
whether the document refuses it."""

RULINGS = {
    "HashDictionary.put": "put adds the record to x",
    "HashDictionary.remove": "remove takes the record of the configuration out of x",
    "Configurations.addConfiguration": "addConfiguration puts a record of the board's configuration into x",
    "Configurations.savePlay": "savePlay stores the symbol in its square, and no other square changes",
}
"""What each update does to x, in the document's words: the frame rule's ruling."""


@st.composite
def frame_cases(draw, operation: str):
    """An update of ``operation`` on a value made by a random path, with values of its kind made before it
    (boards of the same size: values sharing what they should not are most often of one size)."""
    kind, update = UPDATES[operation]
    before = draw(MODELS[kind])
    rnd = draw(frames.RANDOM)
    argument = PATHS[kind](rnd, before, 2)
    arguments, after, refused = update(rnd, before)
    bystanders = draw(st.lists(board_models(st.just(before[0])) if kind == "board" else MODELS[kind], max_size=2))
    others = tuple(PATHS[kind](rnd, model, 1) for model in bystanders)
    return FrameCase(operation, argument, arguments, after, others, refused)


def check_frame_case(impl, case: FrameCase) -> None:
    """Run the update of ``case`` and check its frame rule (and that a refused one is refused); its value is
    asked for its model before the update too."""
    __tracebackhide__ = True
    kind, _ = UPDATES[case.operation]
    others = [
        (o.kind, made.value, made.model, f"another value, {o!r}") for o in case.others for made in [follow(impl, o)]
    ]
    argument = follow(impl, case.argument)
    given = [(p, follow(impl, p)) for p in case.arguments if isinstance(p, Path)]
    values = iter(made.value for _, made in given)
    arguments = [next(values) if isinstance(a, Path) else a for a in case.arguments]
    name = case.operation.split(".")[1]
    # Asked before the update too: a value that remembers an answer shows it after the update.
    check_models(impl, [(kind, argument.value, argument.model, f"x = {case.argument!r}, before the {name}")])
    shown_arguments = ", ".join(repr(a) for a in case.arguments)
    if name == "addConfiguration":
        board, score = arguments
        impl.configurations.addConfiguration(board, argument.value, score)
        call = f"addConfiguration({case.arguments[0]!r}, x, {score})"
    else:
        call = f"{name}(x, {shown_arguments})"
        update = getattr(getattr(impl, KINDS[kind]), name)
        if case.refused:
            expect(
                raises_dictionary_exception(update, argument.value, *arguments),
                f"{call} where x is {shown(kind, argument.model)} raises DictionaryException",
            )
        else:
            result = update(argument.value, *arguments)
            if name == "put":
                expect(result in (0, 1), f"{call} returns 0 or 1 (erratum X13)", actual=result)
                if not argument.model:
                    expect(
                        result == 0,
                        f"{call} into x holding no record reports no collision (erratum X13)",
                        actual=result,
                    )
    call = f"{call} where x = {case.argument!r} holds {shown(kind, argument.model)}"
    claims = [
        (kind, argument.value, case.after),
        *((p.kind, made.value, made.model) for p, made in given),
        *((k, value, model) for k, value, model, _ in others),
    ]
    ruling = f"a {name} refused with DictionaryException changes nothing" if case.refused else RULINGS[case.operation]
    frames.expect_frame(
        call,
        shown(kind, argument.model),
        shown(kind, case.after),
        verdicts(impl, claims, tuple(dict(argument.model)) if kind == "dictionary" else ()),
        [(shown(p.kind, made.model), repr(p)) for p, made in given],
        [(shown(k, model), description) for k, _, model, description in others],
        ruling=ruling,
        in_place=True,
    )


few = frames.few
