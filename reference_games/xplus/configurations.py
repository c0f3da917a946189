"""Configurations: the board of the X+Game and what the game-tree search asks of it.

The board is ``board``, a list of ``board_size`` rows, each a list of ``board_size``
one-character strings: ``'X'`` (the human's blue tile), ``'O'`` (the computer's red
tile) or ``' '`` (an empty square). Row 0 is the top row and column 0 the leftmost.

A player wins with an X-shape or a +shape of length at least k (``lengthToWin``). A
shape has a centre tile and four arms, each at least one tile long, of tiles of the
same symbol running outward from the centre: along the diagonals for an X-shape, along
the centre's row and column for a +shape. The arms may differ in length; the length
of the shape is its number of tiles, 1 plus the lengths of its arms.
"""

from __future__ import annotations

from .data import Data
from .hash_dictionary import HashDictionary

HUMAN, COMPUTER, EMPTY = "X", "O", " "
HUMAN_WINS, UNDECIDED, DRAW, COMPUTER_WINS = 0, 1, 2, 3

TABLE_SIZE = 9973
"""The size of the dictionaries the search uses: the largest prime below 10000."""

X_ARMS = ((-1, -1), (-1, 1), (1, -1), (1, 1))
"""The directions of the four arms of an X-shape: the diagonals."""
PLUS_ARMS = ((-1, 0), (1, 0), (0, -1), (0, 1))
"""The directions of the four arms of a +shape: up, down, left and right."""


class Configurations:
    """The board of a game on a ``board_size`` x ``board_size`` grid, won with a shape of ``lengthToWin`` tiles."""

    def __init__(self, board_size: int, lengthToWin: int, max_levels: int):
        self.board = [[EMPTY] * board_size for _ in range(board_size)]
        self._size = board_size
        self._length_to_win = lengthToWin
        self._max_levels = max_levels

    def createDictionary(self) -> HashDictionary:
        """A new, empty dictionary whose table size is a prime between 6000 and 10000."""
        return HashDictionary(TABLE_SIZE)

    def _configuration(self) -> str:
        """The board as a string: every square, row by row from the top left."""
        return "".join("".join(row) for row in self.board)

    def repeatedConfiguration(self, hashTable: HashDictionary) -> int:
        """The score ``hashTable`` holds for the board's configuration, or -1 if it holds none."""
        return hashTable.get(self._configuration())

    def addConfiguration(self, hashDictionary: HashDictionary, score: int) -> None:
        """Store the board's configuration with ``score`` in ``hashDictionary``."""
        hashDictionary.put(Data(self._configuration(), score))

    def savePlay(self, row: int, col: int, symbol: str) -> None:
        """Put ``symbol`` ('X', 'O', or ' ' to empty it) on the square (row, col)."""
        self.board[row][col] = symbol

    def squareIsEmpty(self, row: int, col: int) -> bool:
        """Whether the square (row, col) holds no tile."""
        return self.board[row][col] == EMPTY

    def wins(self, symbol: str) -> bool:
        """Whether tiles of ``symbol`` form an X-shape or a +shape of at least ``lengthToWin`` tiles."""
        for row in range(self._size):
            for col in range(self._size):
                if self.board[row][col] != symbol:
                    continue
                for arms in (X_ARMS, PLUS_ARMS):
                    if self._shape_length(row, col, arms) >= self._length_to_win:
                        return True
        return False

    def _shape_length(self, row: int, col: int, arms) -> int:
        """The length of the shape centred on (row, col) with arms in the directions ``arms``; 0 if an arm is missing."""
        length = 1
        for d_row, d_col in arms:
            arm = self._arm_length(row, col, d_row, d_col)
            if arm == 0:
                return 0
            length += arm
        return length

    def _arm_length(self, row: int, col: int, d_row: int, d_col: int) -> int:
        """How many tiles like the one on (row, col) follow it, without a gap, in the direction (d_row, d_col)."""
        symbol = self.board[row][col]
        length = 0
        row, col = row + d_row, col + d_col
        while 0 <= row < self._size and 0 <= col < self._size and self.board[row][col] == symbol:
            length += 1
            row, col = row + d_row, col + d_col
        return length

    def _is_full(self) -> bool:
        return all(square != EMPTY for row in self.board for square in row)

    def isDraw(self) -> bool:
        """Whether every square holds a tile and neither player has won."""
        return self._is_full() and not self.wins(HUMAN) and not self.wins(COMPUTER)

    def evalBoard(self) -> int:
        """COMPUTER_WINS (3), HUMAN_WINS (0), DRAW (2) or UNDECIDED (1): the state of the board."""
        if self.wins(COMPUTER):
            return COMPUTER_WINS
        if self.wins(HUMAN):
            return HUMAN_WINS
        if self._is_full():
            return DRAW
        return UNDECIDED
