"""The kit's Play on the student's Configurations: the search is the composite of their operations.

Play reaches the board only through Configurations, so on a correct Configurations it
chooses exactly as on the reference's (erratum X01), wins at once when it can, and
leaves the board as it was.
"""

from hypothesis import given, settings
from hypothesis import strategies as st

from reference_games.xplus.configurations import Configurations as ReferenceConfigurations
from reference_games.xplus.play import Play as ReferencePlay
from speckit.testing import covers, expect, expect_equal

from .adapter import Build, expect_squares
from .model import COMPUTER, COMPUTER_WINS, HUMAN, HUMAN_WINS, BoardModel


@st.composite
def games_in_progress(draw):
    """A board of 3 x 3 to 4 x 4 with some tiles on it, nobody having won, a square still empty."""
    n = draw(st.sampled_from([3, 4]))
    k = draw(st.integers(3, 7))
    squares = draw(st.permutations([(r, c) for r in range(n) for c in range(n)]))
    count = draw(st.integers(0, n * n - 1))
    model = BoardModel(n, k)
    for i, (r, c) in enumerate(squares[:count]):
        model.play(r, c, HUMAN if i % 2 == 0 else COMPUTER)
        if model.wins(HUMAN) or model.wins(COMPUTER):
            model.play(r, c, " ")
            break
    return model


class LiteralEvalConfigurations(ReferenceConfigurations):
    """The reference's board with evalBoard read literally (erratum X11): COMPUTER_WINS wherever
    'O' has a shape, of any length."""

    def evalBoard(self) -> int:
        tiles = {(r, c): s for r, row in enumerate(self.board) for c, s in enumerate(row) if s != " "}
        if BoardModel(len(self.board), 1, tiles).wins(COMPUTER):
            return COMPUTER_WINS
        return super().evalBoard()


def reference_choice(model: BoardModel, levels: int, board_class=ReferenceConfigurations):
    board = board_class(model.n, model.k, levels)
    for (r, c), s in model.tiles.items():
        board.savePlay(r, c, s)
    reply = ReferencePlay(board, model.n, levels).computerPlay(COMPUTER, HUMAN_WINS, COMPUTER_WINS, 0)
    return reply.getScore(), reply.getRow(), reply.getCol()


@covers(
    "Configurations.createDictionary",
    "Configurations.squareIsEmpty",
    "Configurations.savePlay",
    "Configurations.wins",
    "Configurations.isDraw",
    "Configurations.evalBoard",
    "Configurations.repeatedConfiguration",
    "Configurations.addConfiguration",
    "Play.Play",
    "Play.computerPlay",
    "PosPlay.getScore",
    "PosPlay.getRow",
    "PosPlay.getCol",
)
@settings(max_examples=25)
@given(model=games_in_progress(), levels=st.integers(1, 3))
def test_the_search_on_the_students_board_chooses_as_on_the_reference(impl, model, levels):
    configurations = Build(impl).configurations(model, levels)
    game = impl.play.Play(configurations, model.n, levels)
    reply = impl.play.computerPlay(game, COMPUTER, HUMAN_WINS, COMPUTER_WINS, 0)
    got = (impl.pos_play.getScore(reply), impl.pos_play.getRow(reply), impl.pos_play.getCol(reply))
    expected = {reference_choice(model, levels)}
    if model.k > 5:  # a shape has 5 tiles at least: below, evalBoard's two readings agree (erratum X11)
        expected.add(reference_choice(model, levels, LiteralEvalConfigurations))
    expect(
        got in expected,
        f"Play.computerPlay on the board\n{model.picture()}\nsearching {levels} levels: (score, row, col) as the "
        "same search on the reference"
        " (with either reading of evalBoard, erratum X11)",
        expected=" or ".join(map(str, sorted(expected))),
        actual=got,
    )
    expect((got[1], got[2]) not in model.tiles, "the computer plays on an empty square")
    expect_squares(impl, configurations, model, "the search leaves the board as it was")


@covers(
    "PosPlay.PosPlay", "PosPlay.getScore", "PosPlay.getRow", "PosPlay.getCol", "DictionaryException.DictionaryException"
)
def test_the_supplied_classes_are_re_exported_and_work(impl):
    play = impl.pos_play.PosPlay(2, 1, 3)
    got = (impl.pos_play.getScore(play), impl.pos_play.getRow(play), impl.pos_play.getCol(play))
    expect_equal(got, (2, 1, 3), "PosPlay(2, 1, 3) reads back its score, row and column")
    error = impl.dictionary_exception.DictionaryException("a message")
    expect(error is not None, "DictionaryException(message) makes the exception")
