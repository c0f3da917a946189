"""Connect4Type: a game of Connect-4 between a person and the computer.

Games are made by newConnect4Type with the kit's own Input and Display (the supplied
types): an input scripted with the person's answers, whose prompts go to a text stream
of their own, and a display writing to an io.StringIO, so what the game asks and shows
can be read. Those two objects are the kit's, not the implementation's, so they are the
only values the suite compares by identity. Positions are put in play by setGameTree
with a one-node tree at level 0, and read back square by square with getSymbol.

The rulings held to: player 1 is the person and player 2 the computer, red moves first
and the player to move is red when the grid holds an even number of marks (E34); any
empty square is a move (E18) and four in a line wins (E17). What the computer plays is
the implementation's choice, within what the game tree guarantees under E24: looking 1
or 2 moves ahead it takes a win in one when there is one; looking 2 or 3 moves ahead,
with no win in one, it takes the one square where the person would win next. A scripted
game (play) is accepted when it ends on a grid some sequence of such computer moves
reaches, the person taking the first square of the script still empty at each turn.
What the questions and messages say is the implementation's; the suite only requires
that the final grid is shown, the outcome announced just before or after it, and a draw,
a win and a loss announced differently
(the winner may be named as the person or the computer, or by colour: the person's win
and the computer's win it compares are wins of different colours).
"""

from __future__ import annotations

import io

from hypothesis import assume, given
from hypothesis import strategies as st

import adt.display as kit_display
import adt.input as kit_input
from speckit.testing import covers, expect, expect_equal

from .adapter import Answer, Checks, shown_boards
from .model import BLUE, OTHER, RED, lines_of, winners
from .paths import few
from .strategies import colours, grids
from .test_game_tree import TreeMaker, finished, levels_of, nodes_of, positions, same_levels
from .test_grid import MARK, full_grids, picture, squares

SIDES = st.integers(4, 6)
"""Grid sides asked for: every implementation offers these (the reference offers 4 to 9)."""


def look_aheads(side: int) -> st.SearchStrategy[int]:
    """Look-aheads asked for: small enough for any implementation's limit on that side."""
    return st.integers(1, 3 if side < 6 else 2)


# Helpers ------------------------------------------------------------------------------


def scripted(answers) -> kit_input.Input:
    """The kit's input, reading the given answers; its prompts go to a stream of their own."""
    return kit_input.newInputType([str(a) for a in answers], out=io.StringIO())


def left(source: kit_input.Input) -> list[str]:
    """The scripted answers the input has not read yet."""
    rest = list(source.lines)
    source.lines = iter(rest)
    return rest


def yes_no(starts: bool) -> str:
    return "y" if starts else "n"


def questions(side: int, starts: bool, look: int) -> list:
    """Answers to newConnect4Type's three questions in either order the document gives (erratum E45):
    size, who starts, look-ahead (the outline) or who starts, size, look-ahead (the list of calls).

    A yes or no leads and repeats after the size: whichever integer question comes first refuses
    the yes or no and reads the size, and the look-ahead question refuses the second if who
    starts was asked first. Either order reads every answer.
    """
    return [yes_no(starts), side, yes_no(starts), look]


def new_game(impl, side: int = 4, starts: bool = True, look: int = 1, moves=()):
    """A game made by newConnect4Type, its input and the text its display shows."""
    shown = io.StringIO()
    source = scripted([*questions(side, starts, look), *moves])
    game = impl.connect4.newConnect4Type(source, kit_display.newDisplayType(shown))
    return game, source, shown


def put(make: TreeMaker, game, side: int, marks: dict):
    """The game with the position in play: a one-node tree at level 0 holding the grid."""
    tree = make.impl.game_tree.newGameTreeType(make.grid(side, marks), make.level(0))
    return make.impl.connect4.setGameTree(game, tree)


def marks_of(cells: list, models: list) -> dict:
    """A grid model from the symbols' models read on those cells."""
    return {cell: model for cell, model in zip(cells, models, strict=True) if model is not None}


class GameChecks(Checks):
    """What a game's observers must say, written check by check and asked together (:class:`Checks`).

    A check that reads something returns its :class:`Answer`, whose value is there once the
    ``with`` block has ended.
    """

    def __init__(self, make: TreeMaker):
        super().__init__(make.reader)
        self.make = make

    def _root_symbols(self, game, side: int) -> tuple[list, list]:
        """The cells of the grid held by the root of the game's tree, and its symbols on them."""
        make = self.make
        grid, cells = make.impl.game_tree.getGrid(make.impl.connect4.getGameTree(game)), squares(side)
        return cells, [make.impl.grid.getSymbol(grid, make.location(r, c)) for r, c in cells]

    def position(self, game, side: int) -> Answer:
        """The marks of the grid held by the root of the game's tree."""
        cells, symbols = self._root_symbols(game, side)
        return self.add(lambda models, _: marks_of(cells, models), symbols=symbols)

    def ending(self, game, side: int) -> Answer:
        """The game's position (:meth:`position`) and what its gameOver says."""
        cells, symbols = self._root_symbols(game, side)
        impl = self.make.impl
        return self.add(
            lambda models, told: (marks_of(cells, models), told),
            symbols=symbols,
            queries=lambda: impl.connect4.gameOver(game),
        )

    def holds_position(self, game, side: int, marks: dict, claim: str) -> None:
        """The game's position (:meth:`position`) is the grid model."""
        cells, symbols = self._root_symbols(game, side)
        self.add(lambda models, _: expect_equal(marks_of(cells, models), marks, claim), symbols=symbols)

    def computer_move(self, game, side: int, marks: dict, computer: str, where: str) -> Answer:
        """The game's position is ``marks`` with one more mark, of the computer's colour; the answer: that position."""
        cells, symbols = self._root_symbols(game, side)

        def judge(models, _):
            after = marks_of(cells, models)
            judge_computer_move(after, side, marks, computer, where)
            return after

        return self.add(judge, symbols=symbols)

    def _player_symbols(self, game) -> list:
        impl = self.make.impl
        return [
            impl.player.getSymbol(impl.connect4.getPlayer1(game)),
            impl.player.getSymbol(impl.connect4.getPlayer2(game)),
        ]

    def colours(self, game) -> Answer:
        """The colours of the game's two players."""
        return self.add(lambda models, _: models, symbols=self._player_symbols(game))

    def players(self, game, person: str, where: str) -> None:
        """The game's players are the person's colour and the other (:func:`judge_players`)."""
        self.add(lambda models, _: judge_players(models, person, where), symbols=self._player_symbols(game))

    def players_set(self, game, first: str, second: str, where: str) -> None:
        """getPlayer1 and getPlayer2 of the game are players of those colours."""

        def judge(models, _):
            expect_equal(models[0], first, f"the colour of getPlayer1 of {where}")
            expect_equal(models[1], second, f"the colour of getPlayer2 of {where}")

        self.add(judge, symbols=self._player_symbols(game))

    def level(self, game, look: int, where: str) -> None:
        """getLevelNumber of the game is ``look``."""
        impl, probe = self.make.impl, self.make.level_probe
        self.fact(
            lambda: impl.level_number.equals(impl.connect4.getLevelNumber(game), probe(look)),
            f"getLevelNumber of {where} is {look}",
        )

    def same_state(self, first: tuple, second: tuple) -> Answer:
        """Whether two games' states (:func:`game_state`) are the same."""
        impl = self.make.impl

        def judge(colours, told):
            same_level, same_grid = told
            return (
                colours[:2] == colours[2:]
                and same_level
                and same_grid
                and first[4] is second[4]
                and first[5] is second[5]
            )

        return self.add(
            judge,
            symbols=[*first[:2], *second[:2]],
            queries=lambda: (impl.level_number.equals(first[2], second[2]), impl.grid.equals(first[3], second[3])),
        )

    def holds_game(self, game, person: str, look: int, marks: dict, source, display) -> Answer:
        """Whether the game holds that state: players, look-ahead, root grid (4 x 4), input and display."""
        make = self.make
        impl, state = make.impl, game_state(make, game)

        def judge(colours, told):
            same_level, same_grid = told
            return (
                colours == [person, OTHER[person]]
                and same_level
                and same_grid
                and state[4] is source
                and state[5] is display
            )

        return self.add(
            judge,
            symbols=state[:2],
            queries=lambda: (
                impl.level_number.equals(state[2], make.level_probe(look)),
                impl.grid.equals(state[3], make.grid(4, marks)),
            ),
        )


def position(make: TreeMaker, game, side: int) -> dict:
    """The marks of the grid held by the root of the game's tree."""
    with GameChecks(make) as check:
        marks = check.position(game, side)
    return marks.value


def colour_of(make: TreeMaker, player):
    return make.read(make.impl.player.getSymbol(player))


def to_move(marks: dict) -> str:
    """Red moves when the grid holds an even number of marks (E34)."""
    return RED if len(marks) % 2 == 0 else BLUE


def check_level(make: TreeMaker, game, look: int, where: str) -> None:
    with GameChecks(make) as check:
        check.level(game, look, where)


def judge_players(colours: list, person: str, where: str) -> None:
    """The players' colours (:meth:`GameChecks.colours`) are the person's and the other."""
    expect_equal(colours[0], person, f"the colour of player 1 (the person) of {where}")
    expect_equal(colours[1], OTHER[person], f"the colour of player 2 (the computer) of {where}")


def last_board(text: str, side: int):
    """The marks ('R', 'B' or '.') of the last side x side board in ``text`` (kit display
    format) and the outcome announced around it: the text after it or, when nothing
    follows it, the text between it and the board before it. The document lets play
    announce the result and then show the final grid ("say who won ... The results are
    shown using showConnect4()") as well as the other way round."""
    lines = text.splitlines()
    found = shown_boards(lines, side)
    if not found:
        return None, ""
    start, end, marks = found[-1]
    after = "\n".join(lines[end:]).strip()
    if after:
        return marks, after
    previous_end = found[-2][1] if len(found) > 1 else 0
    return marks, "\n".join(lines[previous_end:start]).strip()


def board(side: int, marks: dict) -> dict:
    """What the kit's display shows for a grid model."""
    return {square: MARK[marks.get(square)] for square in squares(side)}


def winning_squares(side: int, marks: dict, colour: str) -> list:
    return [s for s in squares(side) if s not in marks and colour in winners(side, marks | {s: colour})]


def computer_choices(side: int, marks: dict, computer: str, look: int) -> list:
    """The squares the computer may take (E24): a win in one if it sees it, else the one square that stops a loss in
    one."""
    free = [s for s in squares(side) if s not in marks]
    wins = winning_squares(side, marks, computer)
    if wins:
        return wins if look <= 2 else free
    threats = winning_squares(side, marks, OTHER[computer])
    if len(threats) == 1 and look in (2, 3):
        return threats
    return free


def possible_ends(side: int, marks: dict, person: str, script: list, look: int) -> set:
    """Every final grid of a correct play: the person takes the first square of the script still empty."""
    ends = set()

    def turn(marks: dict, read: int) -> None:
        if finished(side, marks):
            ends.add(frozenset(marks.items()))
            return
        mover = to_move(marks)
        if mover == person:
            while script[read] in marks:
                read += 1
            turn(marks | {script[read]: person}, read + 1)
        else:
            for square in computer_choices(side, marks, mover, look):
                turn(marks | {square: mover}, read)

    turn(marks, 0)
    return ends


def parse(rows: str) -> dict:
    """A 4 x 4 grid model from 'RB.R/...' (row by row)."""
    return {
        (r, c): {"R": RED, "B": BLUE}[m]
        for r, row in enumerate(rows.split("/"), 1)
        for c, m in enumerate(row, 1)
        if m != "."
    }


@st.composite
def threatened(draw, computer_wins: bool):
    """A 4 x 4 position, not over, where the player to move (the computer) can win in one,
    or else cannot but the person could win in one on exactly one square."""
    k = draw(st.integers(2, 7))
    order = draw(st.permutations(squares(4)))
    marks = {s: (RED, BLUE)[i % 2] for i, s in enumerate(order[k:])}
    line = draw(st.sampled_from(list(lines_of(4))))
    hole = draw(st.sampled_from(line))
    marks.pop(hole, None)
    planted = [s for s in line if s != hole]
    count = len(set(marks) | set(planted))
    computer = RED if count % 2 == 0 else BLUE
    for square in planted:
        marks[square] = computer if computer_wins else OTHER[computer]
    assume(not finished(4, marks) and to_move(marks) == computer)
    if computer_wins:
        assume(winning_squares(4, marks, computer))
    else:
        assume(not winning_squares(4, marks, computer) and len(winning_squares(4, marks, OTHER[computer])) == 1)
    return marks, computer


# Making a game --------------------------------------------------------------------------------


@covers(
    "Connect4Type.newConnect4Type",
    "Connect4Type.getGameTree",
    "Connect4Type.getPlayer1",
    "Connect4Type.getPlayer2",
    "Connect4Type.getLevelNumber",
    "Connect4Type.getInput",
    "Connect4Type.getDisplay",
)
@given(data=st.data(), side=SIDES, starts=st.booleans())
def test_new_game_asks_the_size_who_starts_and_the_look_ahead(impl, data, side, starts):
    make = TreeMaker(impl)
    look = data.draw(look_aheads(side), label="look-ahead")
    shown = io.StringIO()
    source = scripted(questions(side, starts, look))
    display = kit_display.newDisplayType(shown)
    game = impl.connect4.newConnect4Type(source, display)
    where = (
        f"newConnect4Type answering size {side}, moves first {yes_no(starts)} and look-ahead {look} (asked in "
        "either order of erratum E45)"
    )
    expect_equal(left(source), [], f"answers left unread by {where}: it asks three questions")
    tree = impl.connect4.getGameTree(game)
    links = ("Parent", "Child", "Sibling")
    with GameChecks(make) as check:
        check.fact(lambda: impl.game_tree.isEmpty(tree), f"the game tree of {where} is a node", holds=False)
        check.fact(
            lambda: impl.grid.equals(impl.game_tree.getGrid(tree), make.grid(side)),
            f"the game tree of {where} holds an empty {side} x {side} grid",
        )
        check.fact(
            lambda: impl.level_number.equals(impl.game_tree.getLevel(tree), make.level_probe(0)),
            f"the game tree of {where} is at level 0",
        )
        for link in links:
            check.fact(
                lambda link=link: impl.game_tree.isEmpty(getattr(impl.game_tree, f"get{link}")(tree)),
                f"get{link} of the game tree of {where} is empty: one node",
            )
        check.players(
            game, RED if starts else BLUE, f"{where} (E34: the person is red when moving first, red moves first)"
        )
        check.level(game, look, where)
    expect(impl.connect4.getInput(game) is source, f"getInput of {where} is the input it was given")
    expect(impl.connect4.getDisplay(game) is display, f"getDisplay of {where} is the display it was given")


COMPONENTS = ["input", "display", "tree", "player1", "player2", "level"]


@covers(
    "Connect4Type.setInput",
    "Connect4Type.getInput",
    "Connect4Type.setDisplay",
    "Connect4Type.getDisplay",
    "Connect4Type.setGameTree",
    "Connect4Type.getGameTree",
    "Connect4Type.setPlayer1",
    "Connect4Type.getPlayer1",
    "Connect4Type.setPlayer2",
    "Connect4Type.getPlayer2",
    "Connect4Type.setLevelNumber",
    "Connect4Type.getLevelNumber",
)
@given(
    starts=st.booleans(),
    steps=st.lists(
        st.tuples(
            st.sampled_from(COMPONENTS), colours, st.integers(0, 5), grids(sides=st.just(4), fill=st.floats(0.0, 0.4))
        ),
        min_size=1,
        max_size=5,
    ),
)
def test_each_set_changes_its_component_and_nothing_else(impl, starts, steps):
    make, c4 = TreeMaker(impl), impl.connect4
    game, source, _ = new_game(impl, starts=starts)
    display = c4.getDisplay(game)
    model = {"input": source, "display": display, "tree": ({}, 0), "player1": RED if starts else BLUE, "level": 1}
    model["player2"] = OTHER[model["player1"]]
    done = [f"newConnect4Type answering size 4, moves first {yes_no(starts)} and look-ahead 1"]
    for component, colour, number, (_, marks) in steps:
        if component == "input":
            value = model["input"] = scripted([])
            game = c4.setInput(game, value)
            done.append("setInput(a new input)")
        elif component == "display":
            value = model["display"] = kit_display.newDisplayType(io.StringIO())
            game = c4.setDisplay(game, value)
            done.append("setDisplay(a new display)")
        elif component == "tree":
            game = c4.setGameTree(game, impl.game_tree.newGameTreeType(make.grid(4, marks), make.level(number)))
            model["tree"] = (marks, number)
            done.append(f"setGameTree(the one-node tree of {picture(4, marks)} at level {number})")
        elif component == "level":
            game = c4.setLevelNumber(game, make.level(number))
            model["level"] = number
            done.append(f"setLevelNumber({number})")
        else:
            game = getattr(c4, f"set{component.capitalize()}")(game, make.player(colour))
            model[component] = colour
            done.append(f"set{component.capitalize()}(a {colour} player)")
        where = f"the game after {'; '.join(done)}"
        expect(c4.getInput(game) is model["input"], f"getInput of {where} is the last input set")
        expect(c4.getDisplay(game) is model["display"], f"getDisplay of {where} is the last display set")
        tree, (marks_set, level_set) = c4.getGameTree(game), model["tree"]
        with GameChecks(make) as check:
            check.fact(
                lambda: impl.grid.equals(impl.game_tree.getGrid(tree), make.grid(4, marks_set)),  # noqa: B023 - run before the loop moves on
                f"the grid of getGameTree of {where} is {picture(4, marks_set)}",
            )
            check.fact(
                lambda: impl.level_number.equals(impl.game_tree.getLevel(tree), make.level_probe(level_set)),  # noqa: B023 - run before the loop moves on
                f"the level of getGameTree of {where} is {level_set}",
            )
            check.players_set(game, model["player1"], model["player2"], where)
            check.level(game, model["level"], where)


# The questions ------------------------------------------------------------------------------------


@covers("Connect4Type.whoStarts", "Connect4Type.setInput")
@given(starts=st.booleans(), answer=st.sampled_from(["short", "long", "upper"]), refused=st.booleans())
def test_who_starts_asks_the_games_input_and_makes_the_person_red_when_first(impl, starts, answer, refused):
    make = TreeMaker(impl)
    game, _, _ = new_game(impl)
    said = {"short": yes_no(starts), "long": "yes" if starts else "no", "upper": "Y" if starts else "NO"}[answer]
    source = scripted((["maybe"] if refused else []) + [said])
    person = impl.connect4.whoStarts(impl.connect4.setInput(game, source))
    where = f"whoStarts, the person answering {'maybe (refused), then ' if refused else ''}{said}"
    expect_equal(left(source), [], f"answers left unread by {where}")
    expect_equal(
        colour_of(make, person),
        RED if starts else BLUE,
        f"the colour of the person's player from {where} (E34: red moves first)",
    )


@covers("Connect4Type.whatSizeGrid", "Connect4Type.setInput")
@given(side=SIDES, refused=st.booleans())
def test_what_size_grid_asks_the_games_input_for_a_side_of_4_or_more(impl, side, refused):
    make = TreeMaker(impl)
    game, _, _ = new_game(impl)
    source = scripted((["3"] if refused else []) + [side])
    dimension = impl.connect4.whatSizeGrid(impl.connect4.setInput(game, source))
    where = (
        f"whatSizeGrid, the person answering {'3 (too small: a side is at least 4), then ' if refused else ''}{side}"
    )
    expect_equal(left(source), [], f"answers left unread by {where}")
    expect(impl.dimension.equals(dimension, make.dimension(side)), f"{where} is the dimension {side}")


@covers("Connect4Type.howSmartIsComputer", "Connect4Type.setInput")
@given(look=look_aheads(4), refused=st.booleans())
def test_how_smart_is_computer_asks_the_games_input_for_a_look_ahead_of_1_or_more(impl, look, refused):
    make = TreeMaker(impl)
    game, _, _ = new_game(impl)
    source = scripted((["0"] if refused else []) + [look])
    level = impl.connect4.howSmartIsComputer(impl.connect4.setInput(game, source))
    where = (
        "howSmartIsComputer on a 4 x 4 game, the person answering "
        f"{'0 (too few: at least 1), then ' if refused else ''}{look}"
    )
    expect_equal(left(source), [], f"answers left unread by {where}")
    expect(impl.level_number.equals(level, make.level_probe(look)), f"{where} is the level number {look}")


@covers("Connect4Type.howSmartIsComputer", "Connect4Type.whatSizeGrid", "Connect4Type.newConnect4Type")
def test_every_side_the_game_accepts_offers_a_look_ahead_of_1(impl):
    """E40 lets a game refuse sides above 6, but a side it accepts must be playable."""
    make = TreeMaker(impl)
    game, _, _ = new_game(impl)
    for side in range(4, 13):
        source = scripted([side, 4])
        impl.connect4.whatSizeGrid(impl.connect4.setInput(game, source))
        if not left(source):
            continue  # refused, as E40 allows: the 4 after it was read instead
        offered, source, _ = new_game(impl, side=side, look=1)
        where = f"newConnect4Type, the person answering {side} (accepted by whatSizeGrid), y, then a look-ahead of 1"
        expect_equal(left(source), [], f"answers left unread by {where}")
        check_level(make, offered, 1, where)


@covers("Connect4Type.whatIsHumanMove", "Connect4Type.setInput")
@given(data=st.data(), side=SIDES, refused=st.sampled_from([None, "row", "column"]), comma=st.booleans())
def test_what_is_human_move_asks_the_games_input_for_a_square_of_its_grid(impl, data, side, refused, comma):
    make = TreeMaker(impl)
    game, _, _ = new_game(impl, side=side)
    row, column = data.draw(st.sampled_from(squares(side)), label="square")
    off = {None: [], "row": [f"{side + 1} {column}"], "column": [f"{row} {side + 1}"]}[refused]
    said = f"{row},{column}" if comma else f"{row} {column}"
    source = scripted(off + [said])
    location = impl.connect4.whatIsHumanMove(impl.connect4.setInput(game, source))
    where = (
        f"whatIsHumanMove on a {side} x {side} game, the person answering "
        f"{off[0] + ' (off the grid), then ' if off else ''}{said}"
    )
    expect_equal(left(source), [], f"answers left unread by {where}")
    expect(
        impl.index.equals(impl.location.getRow(location), make.index(row))
        and impl.index.equals(impl.location.getColumn(location), make.index(column)),
        f"{where} is the location at row {row}, column {column}",
    )


# Moves ----------------------------------------------------------------------------------------------


@covers("Connect4Type.movePossible")
@given(model=grids(sides=SIDES))
def test_move_possible_exactly_on_the_empty_squares_of_the_grid(impl, model):
    side, marks = model
    make = TreeMaker(impl)
    game, _, _ = new_game(impl, side=side)
    game = put(make, game, side, marks)
    where = picture(side, marks)
    off = ((side + 1, 1), (1, side + 1), (side + 1, side + 1))
    possible = impl.batch(
        lambda: [impl.connect4.movePossible(game, make.location(r, c)) for r, c in [*squares(side), *off]]
    )
    # possible ends with the answers off the grid, read below.
    for (r, c), got in zip(squares(side), possible, strict=False):
        expect_equal(
            got,
            (r, c) not in marks,
            f"movePossible at (row {r}, column {c}) of a game on {where}: true exactly when the square is empty",
        )
    # Equal lengths, but strict=False: a change to this test's code changes its examples (see CONTRIBUTING).
    for (r, c), got in zip(off, possible[side * side :], strict=False):
        expect_equal(got, False, f"movePossible at (row {r}, column {c}), off the grid of a game on {where}")


@covers("Connect4Type.makeHumanMove", "Connect4Type.getGameTree")
@given(data=st.data(), model=positions(empties=st.integers(1, 12)), look=look_aheads(4))
def test_make_human_move_puts_player_1s_mark_on_the_square(impl, data, model, look):
    side, marks = model
    person = to_move(marks)
    make = TreeMaker(impl)
    game, _, _ = new_game(impl, starts=person == RED, look=look)
    game = put(make, game, side, marks)
    square = data.draw(st.sampled_from([s for s in squares(side) if s not in marks]), label="square")
    game = impl.connect4.makeHumanMove(game, make.location(*square))
    where = (
        f"makeHumanMove at (row {square[0]}, column {square[1]}) of a game on {picture(side, marks)}, the "
        f"person playing {person}"
    )
    with GameChecks(make) as check:
        check.holds_position(
            game,
            side,
            marks | {square: person},
            f"the grid of the game tree after {where}: player 1's mark added there",
        )
        check.players(game, person, f"the game after {where}")
        check.level(game, look, f"the game after {where}")


def check_computer_move(make: TreeMaker, game, side: int, marks: dict, computer: str, look: int, where: str) -> dict:
    """The game's grid is the position with one more mark, of the computer's colour; return it."""
    with GameChecks(make) as check:
        after = check.computer_move(game, side, marks, computer, where)
        check.players(game, OTHER[computer], f"the game after {where}")
        check.level(game, look, f"the game after {where}")
    return after.value


def judge_computer_move(after: dict, side: int, marks: dict, computer: str, where: str) -> None:
    """The position after the computer's move is ``marks`` with one more mark, of the computer's colour."""
    added = {s: c for s, c in after.items() if s not in marks}
    expect_equal(
        {s: c for s, c in after.items() if s in marks},
        marks,
        f"the marks already on the grid after {where} (the game tree's root holds the grid after the computer's move)",
    )
    expect(
        len(added) == 1 and set(added.values()) == {computer},
        f"after {where}: one more mark on the grid, the computer's ({computer}, player 2's)",
        expected=f"one {computer} mark more than {picture(side, marks)}",
        actual=picture(side, after),
    )


@covers("Connect4Type.makeComputerMove", "Connect4Type.getGameTree")
@given(model=positions(empties=st.integers(1, 7)), look=look_aheads(4))
def test_make_computer_move_makes_one_move_of_player_2(impl, model, look):
    side, marks = model
    computer = to_move(marks)
    make = TreeMaker(impl)
    game, _, _ = new_game(impl, starts=computer == BLUE, look=look)
    game = put(make, game, side, marks)
    game = impl.connect4.makeComputerMove(game)
    check_computer_move(
        make, game, side, marks, computer, look, f"makeComputerMove on {picture(side, marks)}, looking {look} ahead"
    )


@covers("Connect4Type.makeComputerMove")
@given(model=threatened(computer_wins=True), look=st.integers(1, 2))
def test_make_computer_move_takes_a_win_in_one(impl, model, look):
    marks, computer = model
    make = TreeMaker(impl)
    game, _, _ = new_game(impl, starts=computer == BLUE, look=look)
    game = impl.connect4.makeComputerMove(put(make, game, 4, marks))
    where = f"makeComputerMove on {picture(4, marks)}, looking {look} ahead, the computer playing {computer}"
    after = check_computer_move(make, game, 4, marks, computer, look, where)
    expect(
        computer in winners(4, after),
        f"after {where}: {computer} can win at once (at {', '.join(map(str, winning_squares(4, marks, computer)))}), "
        "and a won grid is worth more than any other (E24), so the computer wins",
        expected=f"a {computer} line",
        actual=picture(4, after),
    )


@covers("Connect4Type.makeComputerMove")
@given(model=threatened(computer_wins=False), look=st.integers(2, 3))
def test_make_computer_move_stops_a_win_in_one(impl, model, look):
    marks, computer = model
    make = TreeMaker(impl)
    game, _, _ = new_game(impl, starts=computer == BLUE, look=look)
    game = impl.connect4.makeComputerMove(put(make, game, 4, marks))
    threat = winning_squares(4, marks, OTHER[computer])[0]
    where = f"makeComputerMove on {picture(4, marks)}, looking {look} ahead, the computer playing {computer}"
    after = check_computer_move(make, game, 4, marks, computer, look, where)
    expect(
        after.get(threat) == computer,
        f"after {where}: the computer cannot win at once, the person ({OTHER[computer]}) could win next at {threat} "
        "only, "
        "and a lost grid is worth less than any other (E24), so the computer takes that square",
        expected=f"{computer} at {threat}",
        actual=picture(4, after),
    )


@covers("Connect4Type.gameOver")
@given(model=grids(sides=SIDES) | full_grids().filter(lambda model: model[0] <= 6))
def test_game_over_when_the_grid_is_won_or_full(impl, model):
    side, marks = model
    make = TreeMaker(impl)
    game, _, _ = new_game(impl, side=side)
    game = put(make, game, side, marks)
    expect_equal(
        impl.connect4.gameOver(game),
        finished(side, marks),
        f"gameOver of a game on {picture(side, marks)}: a line of four, or a full grid (E38)",
    )


# Showing and playing --------------------------------------------------------------------------------


@covers("Connect4Type.showConnect4")
@given(model=grids(sides=SIDES), starts=st.booleans())
def test_show_connect4_shows_the_grid_and_leaves_the_game_unchanged(impl, model, starts):
    """Its result is not examined: the declaration says the game, the description a player,
    and not which (E35)."""
    side, marks = model
    make = TreeMaker(impl)
    game, _, shown = new_game(impl, side=side, starts=starts)
    game = put(make, game, side, marks)
    before = len(shown.getvalue())
    impl.connect4.showConnect4(game)
    where = f"showConnect4 of a game on {picture(side, marks)}"
    drawn, _ = last_board(shown.getvalue()[before:], side)
    expect_equal(
        drawn,
        board(side, marks),
        f"{where} shows the {side} x {side} board on the game's display, R, B or . on each square",
    )
    person = RED if starts else BLUE
    with GameChecks(make) as check:
        check.holds_position(game, side, marks, f"the grid of the game shown by {where} (E35: unchanged)")
        check.players(game, person, f"the game shown by {where} (E35: unchanged)")
        check.level(game, 1, f"the game shown by {where} (E35: unchanged)")


@covers("Connect4Type.play", "Connect4Type.gameOver", "Connect4Type.getGameTree")
@given(data=st.data(), model=positions(empties=st.integers(2, 6)), person=colours, look=look_aheads(4))
def test_play_ends_a_scripted_game_as_the_rules_allow(impl, data, model, person, look):
    side, marks = model
    make = TreeMaker(impl)
    script = data.draw(
        st.permutations([s for s in squares(side) if s not in marks]), label="the person's moves, in order"
    )
    game, _, shown = new_game(impl, starts=person == RED, look=look, moves=[f"{r} {c}" for r, c in script])
    game = impl.connect4.play(put(make, game, side, marks))
    where = (
        f"play from {picture(side, marks)}, {to_move(marks)} to move, the person playing {person} and answering "
        f"{', '.join(f'{r} {c}' for r, c in script)}, the computer looking {look} ahead"
    )
    ends = possible_ends(side, marks, person, script, look)
    with GameChecks(make) as check:
        ending = check.ending(game, side)
        players = check.colours(game)
    (final, over), colours = ending.value, players.value
    expect(
        frozenset(final.items()) in ends,
        f"the grid at the end of {where}: the person takes the first square of the script still empty, the computer "
        "any empty square, but a win in one when it looks 1 or 2 ahead and the one square stopping the person's win "
        "in one when it looks 2 or 3 ahead (E24, E34)",
        expected=" or ".join(sorted(picture(side, dict(end)) for end in ends)),
        actual=picture(side, final),
    )
    expect_equal(over, True, f"gameOver of the game returned by {where}")
    judge_players(colours, person, f"the game returned by {where}")
    drawn, announcement = last_board(shown.getvalue(), side)
    expect_equal(drawn, board(side, final), f"the last board shown by {where} is the final grid")
    expect(
        announcement != "",
        f"{where} announces the outcome just before or after showing the final grid",
        actual=repr(announcement),
    )


@covers("Connect4Type.play", "Connect4Type.gameOver")
@few()
@given(data=st.data())
def test_play_from_the_empty_grid_with_the_computer_first_ends_the_game(impl, data):
    side, make = 4, TreeMaker(impl)
    script = data.draw(st.permutations(squares(side)), label="the person's moves, in order")
    game, _, shown = new_game(impl, starts=False, look=1, moves=[f"{r} {c}" for r, c in script])
    game = impl.connect4.play(put(make, game, side, {}))
    where = (
        f"play from the empty {side} x {side} grid, the computer (red) moving first, the person answering "
        f"{', '.join(f'{r} {c}' for r, c in script)}"
    )
    with GameChecks(make) as check:
        ending = check.ending(game, side)
    final, over = ending.value
    expect_equal(over, True, f"gameOver of the game returned by {where}")
    reds, blues = sum(1 for v in final.values() if v == RED), sum(1 for v in final.values() if v == BLUE)
    expect(
        reds - blues in (0, 1),
        f"the grid at the end of {where} holds the moves of both, red first (E34)",
        actual=picture(side, final),
    )
    drawn, announcement = last_board(shown.getvalue(), side)
    expect_equal(drawn, board(side, final), f"the last board shown by {where} is the final grid")
    expect(
        announcement != "",
        f"{where} announces the outcome just before or after showing the final grid",
        actual=repr(announcement),
    )


@covers("Connect4Type.play")
def test_play_announces_a_win_a_loss_and_a_draw_differently(impl):
    """The document asks play to announce the winner or the draw; it may name the winner as
    the person or the computer, or by colour. So the person's win is red's and the
    computer's is blue's: either way the three announcements differ."""
    make = TreeMaker(impl)
    games = {
        "the person (red) wins": ("BBBR/RBBR/.BRR/RRB.", RED, ["4 4", "3 1"], lambda end: RED in winners(4, end)),
        "the computer (blue) wins": (
            ".BRR/B.BB/RBRR/BR..",
            RED,
            ["1 1", "4 3", "4 4"],
            lambda end: BLUE in winners(4, end),
        ),
        "a draw": ("RBR./RBBR/BRBB/RBRR", BLUE, ["1 4"], lambda end: len(end) == 16 and not winners(4, end)),
    }
    said = {}
    for outcome, (rows, person, moves, ended) in games.items():
        marks = parse(rows)
        game, _, shown = new_game(impl, starts=person == RED, look=1, moves=moves)
        game = impl.connect4.play(put(make, game, 4, marks))
        final = position(make, game, 4)
        where = (
            f"play from {picture(4, marks)}, the person playing {person} and answering {', '.join(moves)}, the "
            "computer looking 1 ahead"
        )
        expect(ended(final), f"{where} ends in {outcome}", expected=outcome, actual=picture(4, final))
        drawn, said[outcome] = last_board(shown.getvalue(), 4)
        expect_equal(drawn, board(4, final), f"the last board shown by {where} is the final grid")
        expect(said[outcome] != "", f"{where} announces the outcome just before or after showing the final grid")
    expect(
        len(set(said.values())) == 3,
        "play announces a win of the person (red), a win of the computer (blue) and a draw in three different ways",
        expected="three different announcements",
        actual=said,
    )


# Composites against their parts (errata E42, E43) ------------------------------------------------------


@covers("Connect4Type.makeComputerMove", "GameTreeType.buildGame", "GameTreeType.chooseBest", "GameTreeType.findBest")
@given(model=positions(empties=st.integers(1, 6)), look=look_aheads(4))
def test_make_computer_move_is_build_game_choose_best_and_find_best_at_the_look_ahead(impl, model, look):
    side, marks = model
    computer = to_move(marks)
    make = TreeMaker(impl)
    trees = impl.game_tree
    # The composition, made by the implementation's own operations on a tree of its own.
    tree = trees.newGameTreeType(make.grid(side, marks), make.level(0))
    tree = trees.buildGame(
        tree, make.grid(side, marks), make.player(computer), make.player(OTHER[computer]), make.level(look)
    )
    chosen = trees.findBest(tree, trees.chooseBest(tree))
    # The composite.
    game, _, _ = new_game(impl, starts=computer == BLUE, look=look)
    game = impl.connect4.makeComputerMove(put(make, game, side, marks))
    got = impl.connect4.getGameTree(game)
    where = (
        f"makeComputerMove on {picture(side, marks)}, looking {look} ahead, the computer playing {computer}, against "
        "findBest(T, chooseBest(T)) for T = buildGame(the one-node tree of that grid, the grid, the computer, the "
        f"person, level {look})"
    )
    same = impl.grid.equals(trees.getGrid(got), trees.getGrid(chosen))
    expect(
        same,
        f"{where}: the game's tree holds the grid findBest chose (E42: makeComputerMove is that composition)",
        # The grids are read only to show them, when they differ.
        **(
            {}
            if same
            else dict(
                expected=picture(side, make.read_grid(trees.getGrid(chosen), side)),
                actual=picture(side, make.read_grid(trees.getGrid(got), side)),
            )
        ),
    )
    got_levels, chosen_levels = levels_of(impl, got), levels_of(impl, chosen)
    expect(
        same_levels(impl, got_levels, chosen_levels),
        f"{where}: the game's tree is the subtree findBest returned, down to the look-ahead and with the levels "
        "findBest left (E37, E42)",
        expected=f"{len(chosen_levels)} nodes",
        actual=f"{len(got_levels)} nodes",
    )


@covers("Connect4Type.play", "GameTreeType.adjustLevel")
@given(data=st.data(), model=positions(empties=st.integers(2, 6)), person=colours, look=look_aheads(4))
def test_play_leaves_the_tree_numbered_from_0_at_its_root(impl, data, model, person, look):
    side, marks = model
    make = TreeMaker(impl)
    script = data.draw(
        st.permutations([s for s in squares(side) if s not in marks]), label="the person's moves, in order"
    )
    game, _, _ = new_game(impl, starts=person == RED, look=look, moves=[f"{r} {c}" for r, c in script])
    game = impl.connect4.play(put(make, game, side, marks))
    tree = impl.connect4.getGameTree(game)
    where = (
        f"the game's tree after play from {picture(side, marks)}, the person playing {person} and answering "
        f"{', '.join(f'{r} {c}' for r, c in script)}, the computer looking {look} ahead"
    )
    nodes = nodes_of(impl, tree)
    ops = impl.game_tree
    right = impl.batch(
        lambda: [impl.level_number.equals(ops.getLevel(node), make.level_probe(depth)) for node, depth in nodes]
    )
    # Equal lengths, but strict=False: a change to this test's code changes its examples (see CONTRIBUTING).
    for (_, depth), same in zip(nodes, right, strict=False):
        expect(
            same,
            f"{where}: every node's level is its depth below the root, {depth} here (E43: play renumbers the tree "
            "after "
            "every move, as adjustLevel does, E37)",
            actual=same,
        )


# The frame rule of every update (issue 13) ------------------------------------------------------------


def game_state(make: TreeMaker, game):
    """What a game holds, as its own values: players' symbols, look-ahead, root grid, input and display."""
    c4 = make.impl.connect4
    return (
        make.impl.player.getSymbol(c4.getPlayer1(game)),
        make.impl.player.getSymbol(c4.getPlayer2(game)),
        c4.getLevelNumber(game),
        make.impl.game_tree.getGrid(c4.getGameTree(game)),
        c4.getInput(game),
        c4.getDisplay(game),
    )


GAME_UPDATES = [
    "setPlayer1",
    "setPlayer2",
    "setLevelNumber",
    "setGameTree",
    "setInput",
    "setDisplay",
    "makeHumanMove",
    "makeComputerMove",
]


PLAYER_SETS = ("setPlayer1", "setPlayer2")


def check_game_frame(impl, operation: str, model, other, person: str, look: int) -> None:
    """One update of a game: its result, the game it was given (unchanged or equal to the result), and a game made
    before."""
    side, marks = model
    make = TreeMaker(impl)
    bystander, b_source, _ = new_game(impl, starts=True, look=1)
    bystander = put(make, bystander, 4, other)
    b_display = impl.connect4.getDisplay(bystander)
    if operation == "makeHumanMove":
        person = to_move(marks)
    elif operation == "makeComputerMove":
        person = OTHER[to_move(marks)]
    game, source, _ = new_game(impl, starts=person == RED, look=look)
    game = put(make, game, side, marks)
    before = (person, look, marks, source, impl.connect4.getDisplay(game))
    arguments, after = game_update(make, operation, side, before, other)
    result = getattr(impl.connect4, operation)(game, *arguments)
    call = (
        f"{operation}(the game on {picture(side, marks)}, the person {person}, looking {look} "
        f"ahead{', ...' if arguments else ''})"
    )
    # Every question is asked after the update, all together.
    given_state, result_state = game_state(make, game), game_state(make, result)
    with GameChecks(make) as check:
        if operation in PLAYER_SETS:
            outcome = check.colours(result)
        elif operation != "makeComputerMove":
            outcome = check.holds_game(result, *after)
        unchanged = check.holds_game(game, *before)
        same = check.same_state(given_state, result_state)
        kept = check.holds_game(bystander, RED, 1, other, b_source, b_display)
    if operation != "makeComputerMove":
        judge_update_result(operation, call, person, outcome.value)
    judge_game_frame(call, other, unchanged.value, same.value, kept.value)


def game_update(make: TreeMaker, operation: str, side: int, before: tuple, other: dict) -> tuple[tuple, list]:
    """The arguments ``operation`` is given after the game, whose state is ``before`` (as
    :meth:`GameChecks.holds_game` takes it), and the state its result should hold."""
    impl = make.impl
    person, look, marks = before[:3]
    after = list(before)
    free = [s for s in squares(side) if s not in marks]
    if operation == "setPlayer1":
        argument, after[0] = make.player(OTHER[person]), None
    elif operation == "setPlayer2":
        argument = make.player(person)
    elif operation == "setLevelNumber":
        argument, after[1] = make.level(look % 3 + 1), look % 3 + 1
    elif operation == "setGameTree":
        argument, after[2] = impl.game_tree.newGameTreeType(make.grid(4, other), make.level(0)), other
    elif operation == "setInput":
        argument = after[3] = scripted([])
    elif operation == "setDisplay":
        argument = after[4] = kit_display.newDisplayType(io.StringIO())
    elif operation == "makeHumanMove":
        argument, after[2] = make.location(*free[0]), marks | {free[0]: person}
    return (() if operation == "makeComputerMove" else (argument,)), after


def judge_update_result(operation: str, call: str, person: str, outcome) -> None:
    """The result of a set or of makeHumanMove: the players' colours (a set of a player), else
    whether it holds the new value and keeps every other component."""
    if operation in PLAYER_SETS:
        p1, p2 = (OTHER[person], OTHER[person]) if operation == "setPlayer1" else (person, person)
        got = tuple(outcome)
        expect(got == (p1, p2), f"{call}: the result's players are {p1} and {p2}", expected=(p1, p2), actual=got)
    else:
        expect(outcome, f"{call}: the result holds the new value and keeps every other component", actual=outcome)


def judge_game_frame(call: str, other: dict, unchanged: bool, same: bool, kept: bool) -> None:
    """The frame rule of a game's update: the game given unchanged or equal to the result, another game unchanged."""
    expect(
        unchanged or same,
        f"after {call}, the game it was given is either unchanged or equal to the result (E01): the frame rule",
        actual=False,
    )
    expect(
        kept,
        f"after {call}, another game, on {picture(4, other)}, made before it, is unchanged (the frame rule)",
        actual=kept,
    )


FRAME_GAMES = positions(empties=st.integers(2, 6))
OTHER_GRIDS = positions(empties=st.integers(6, 12), finished_ok=True).map(lambda model: model[1])


@covers("Connect4Type.setPlayer1")
@few(8)
@given(model=FRAME_GAMES, other=OTHER_GRIDS, person=colours, look=st.integers(1, 2))
def test_set_player1_changes_its_argument_at_most(impl, model, other, person, look):
    check_game_frame(impl, "setPlayer1", model, other, person, look)


@covers("Connect4Type.setPlayer2")
@few(8)
@given(model=FRAME_GAMES, other=OTHER_GRIDS, person=colours, look=st.integers(1, 2))
def test_set_player2_changes_its_argument_at_most(impl, model, other, person, look):
    check_game_frame(impl, "setPlayer2", model, other, person, look)


@covers("Connect4Type.setLevelNumber")
@few(8)
@given(model=FRAME_GAMES, other=OTHER_GRIDS, person=colours, look=st.integers(1, 2))
def test_set_level_number_changes_its_argument_at_most(impl, model, other, person, look):
    check_game_frame(impl, "setLevelNumber", model, other, person, look)


@covers("Connect4Type.setGameTree")
@few(8)
@given(model=FRAME_GAMES, other=OTHER_GRIDS, person=colours, look=st.integers(1, 2))
def test_set_game_tree_changes_its_argument_at_most(impl, model, other, person, look):
    check_game_frame(impl, "setGameTree", model, other, person, look)


@covers("Connect4Type.setInput")
@few(8)
@given(model=FRAME_GAMES, other=OTHER_GRIDS, person=colours, look=st.integers(1, 2))
def test_set_input_changes_its_argument_at_most(impl, model, other, person, look):
    check_game_frame(impl, "setInput", model, other, person, look)


@covers("Connect4Type.setDisplay")
@few(8)
@given(model=FRAME_GAMES, other=OTHER_GRIDS, person=colours, look=st.integers(1, 2))
def test_set_display_changes_its_argument_at_most(impl, model, other, person, look):
    check_game_frame(impl, "setDisplay", model, other, person, look)


@covers("Connect4Type.makeHumanMove")
@few(8)
@given(model=FRAME_GAMES, other=OTHER_GRIDS, look=st.integers(1, 2))
def test_make_human_move_changes_its_argument_at_most(impl, model, other, look):
    check_game_frame(impl, "makeHumanMove", model, other, RED, look)


@covers("Connect4Type.makeComputerMove")
@few(8)
@given(model=FRAME_GAMES, other=OTHER_GRIDS, look=st.integers(1, 2))
def test_make_computer_move_changes_its_argument_at_most(impl, model, other, look):
    check_game_frame(impl, "makeComputerMove", model, other, RED, look)
