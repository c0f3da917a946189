"""Play, supplied by the course (Play.java) and by the kit: the game-tree search of the X+Game.

``computerPlay`` is the algorithm of section 2 of the assignment, as section 2.1 and
erratum X01 rule it: it tries every empty square for the player to move, scores each
play by searching the plays that follow (the computer keeps the highest score, the
human the lowest, with alpha-beta cuts), and keeps the score of every configuration it
searches in a dictionary, so a configuration met again is looked up, not searched.

It reaches the board only through the operations of Configurations, so it plays on
the student's classes as on the reference's. The program around it (the board on the
terminal, the human's plays) is :mod:`.program`.
"""

from __future__ import annotations

from .pos_play import PosPlay

HUMAN, COMPUTER, EMPTY = "X", "O", " "
HUMAN_WINS, UNDECIDED, DRAW, COMPUTER_WINS = 0, 1, 2, 3


class Play:
    """The search of a game played on ``configurations``, a board of ``board_size`` x ``board_size`` squares.

    ``max_levels`` bounds the depth of the search (erratum X03). With
    ``use_dictionary=False`` the search never consults a dictionary, which the
    benchmarks compare against; ``examined`` counts the configurations the searches
    have made so far.
    """

    def __init__(self, configurations, board_size: int, max_levels: int, *, use_dictionary: bool = True):
        self.configurations = configurations
        self.board_size = board_size
        self.max_levels = max(1, max_levels)
        self.use_dictionary = use_dictionary
        self.examined = 0
        self.dictionary = None
        """The dictionary of the last search (None before the first, or without a dictionary)."""

    def computerPlay(self, symbol: str, highestScore: int, lowestScore: int, level: int) -> PosPlay:
        """The best play for ``symbol`` on the current board, and its score; the board is left as it was.

        ``highestScore`` and ``lowestScore`` are the best scores the computer and the
        human are already sure of (alpha and beta); ``level`` is the depth of this call,
        0 for the computer's move in the game.
        """
        board = self.configurations
        if level == 0 and self.use_dictionary:
            self.dictionary = board.createDictionary()
        opponent = COMPUTER if symbol == HUMAN else HUMAN
        value = HUMAN_WINS - 1 if symbol == COMPUTER else COMPUTER_WINS + 1
        best_row = best_col = -1
        for row in range(self.board_size):
            for col in range(self.board_size):
                if not board.squareIsEmpty(row, col):
                    continue
                board.savePlay(row, col, symbol)
                self.examined += 1
                reply = self._score(row, col, symbol, opponent, highestScore, lowestScore, level)
                board.savePlay(row, col, EMPTY)
                score = reply.getScore()
                if (symbol == COMPUTER and score > value) or (symbol == HUMAN and score < value):
                    best_row, best_col, value = row, col, score
                    if symbol == COMPUTER and value > highestScore:
                        highestScore = value
                    elif symbol == HUMAN and value < lowestScore:
                        lowestScore = value
                    if highestScore >= lowestScore:  # alpha-beta cut: the other player avoids this line
                        return PosPlay(value, best_row, best_col)
        return PosPlay(value, best_row, best_col)

    def _score(
        self, row: int, col: int, symbol: str, opponent: str, highestScore: int, lowestScore: int, level: int
    ) -> PosPlay:
        """The score of the play just made on (row, col): evaluated, looked up, or searched and stored."""
        board = self.configurations
        if board.wins(symbol) or board.isDraw() or level + 1 >= self.max_levels:
            return PosPlay(board.evalBoard(), row, col)
        if self.use_dictionary:
            known = board.repeatedConfiguration(self.dictionary)
            if known != -1:
                return PosPlay(known, row, col)
        reply = self.computerPlay(opponent, highestScore, lowestScore, level + 1)
        if self.use_dictionary:
            board.addConfiguration(self.dictionary, reply.getScore())
        return PosPlay(reply.getScore(), row, col)
