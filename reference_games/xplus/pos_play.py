"""PosPlay, supplied by the course (PosPlay.java) and by the kit: a play and its score."""


class PosPlay:
    """A play on the square (row, col) whose outcome is ``score`` (0 to 3)."""

    def __init__(self, score: int, row: int, col: int):
        self._score = score
        self._row = row
        self._col = col

    def getScore(self) -> int:
        """The play's score (erratum X02: the printed code also calls it getVal)."""
        return self._score

    def getRow(self) -> int:
        """The row of the play's square."""
        return self._row

    def getCol(self) -> int:
        """The column of the play's square."""
        return self._col

    def __repr__(self) -> str:
        return f"PosPlay(score={self._score}, row={self._row}, col={self._col})"
