"""GameState: the state a game can be in after a move."""

from enum import Enum


class GameState(Enum):
    """Win, Ongoing or Draw, as GameLogic.isWin reports it."""

    Win = "Win"
    Ongoing = "Ongoing"
    Draw = "Draw"
