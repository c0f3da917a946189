"""Player: one of the two players, its colour, its turn state, and the computer's moves.

A turn has two steps: the player picks up its piece above the board
(:meth:`Player.waitForPieceDrop`), then drops it on the grid
(:meth:`Player.waitForPieceGrab`). A computer player chooses its square with
:meth:`Player.aiTurn`, which follows the report's A.I. description through the
private :meth:`Player.priorityMove` (erratum S16).
"""

from __future__ import annotations

import random
from enum import Enum

from .game_logic import GameLogic
from .space import Space

OPENING = (3, 0)
"""The computer's first move when the square is free (A.I. description, steps 1 and 3)."""

STRENGTHS = ("report", "perfect")
"""How a computer player plays: the report's heuristic, or perfectly (the BoardADT solver)."""


class PlayerType(Enum):
    """Who plays: a person or the computer (private in the report's design)."""

    Human = "Human"
    AI = "AI"


class Turn(Enum):
    """The two steps of a turn (private in the report's design)."""

    WaitingForPieceClick = "WaitingForPieceClick"
    WaitingForGridClick = "WaitingForGridClick"


class Player:
    """A Red or Blue player, human unless ``isAI``.

    Keyword-only, the reference's own: ``rng`` draws the computer's random choices (pass
    a seeded ``random.Random`` to replay a game), and ``strength`` is ``"report"`` (the
    report's heuristic) or ``"perfect"`` (the BoardADT solver, within ``budget`` seconds).
    """

    def __init__(self, pieceColour: Space, isAI: bool = False, *, rng: random.Random | None = None,
                 strength: str = "report", budget: float = 1.0) -> None:
        if strength not in STRENGTHS:
            raise ValueError(f"unknown strength {strength!r}; expected one of {', '.join(STRENGTHS)}")
        self._pieceColour = pieceColour
        self._type = PlayerType.AI if isAI else PlayerType.Human
        self._state = Turn.WaitingForPieceClick
        self._turn = 0
        self._rng = rng or random.Random()
        self._logic = GameLogic(rng=self._rng)
        self._strength = strength
        self._budget = budget
        self._after_my_move: dict[tuple[int, int], Space] | None = None
        """The grid as this player left it after its last move: the next call finds the opponent's reply."""

    def __repr__(self) -> str:
        return f"Player({self._pieceColour.name}, {self._type.name}, {self._state.name})"

    def getTurn(self) -> int:
        """The player's move counter (erratum S14)."""
        return self._turn

    def setTurn(self, turn: int) -> None:
        """Set the player's move counter."""
        self._turn = turn

    def canClickRed(self) -> bool:
        """Whether this red player is waiting to pick up its piece."""
        return self._state is Turn.WaitingForPieceClick and self._pieceColour == Space.Red

    def canClickBlue(self) -> bool:
        """Whether this blue player is waiting to pick up its piece."""
        return self._state is Turn.WaitingForPieceClick and self._pieceColour == Space.Blue

    def canClickGrid(self) -> bool:
        """Whether the player has picked up its piece and may drop it on the grid."""
        return self._state is Turn.WaitingForGridClick

    def isAI(self) -> bool:
        """Whether the computer plays this player."""
        return self._type is PlayerType.AI

    def getColour(self) -> Space:
        """The colour of the player's pieces."""
        return self._pieceColour

    def aiTurn(self, g) -> list[int]:
        """The square ``[x, y]`` where this player places its next disc; the grid does not change."""
        if self._strength == "perfect":
            move = self._perfect_move(g)
        else:
            move = self.priorityMove(g)
        self._after_my_move = self._picture(g)
        self._after_my_move[(move[0], move[1])] = self._pieceColour
        return move

    def setAI(self, isAI: bool) -> None:
        """Make the computer play this player when ``isAI``; with False, no action (erratum S14)."""
        if isAI:
            self._type = PlayerType.AI

    def waitForPieceDrop(self) -> None:
        """The player has picked up its piece: it now waits to drop it on the grid."""
        self._state = Turn.WaitingForGridClick

    def waitForPieceGrab(self) -> None:
        """The player now waits to pick up a piece."""
        self._state = Turn.WaitingForPieceClick

    # Private in the report's design: the computer's choice ------------------------------

    def priorityMove(self, g) -> list[int]:
        """The report's series of checks, in the order of its priorityMove table.

        1. complete its own three (win); 2. complete the opponent's three (block);
        3. its opening move; 4. block an "L" of the opponent; 5. go left of, on top of or
        right of the opponent's last disc, at random, never under a square that
        completes the opponent's four when another column will do.
        """
        logic, own = self._logic, self._pieceColour
        opponent = logic.inverseSpace(own)
        for colour in (own, opponent):
            square = logic.connectThree(g, colour)
            if square is not None:
                return square
        if self._turn == 0:
            opening = self._opening(g)
            if opening is not None:
                return opening
        cannotPlace: list = []
        logic.unsupportedConnectThree(g, cannotPlace, opponent)
        square = logic.blockL(g, opponent)
        if square is not None and g.isValidSpot(*square) and list(square) not in cannotPlace:
            return square
        last = self._opponents_last_column(g)
        if last is None:
            return logic.findSpot(g, cannotPlace, OPENING[0])
        return self.LTRmove(g, cannotPlace, last)

    def LTRmove(self, g, cannotPlace: list, last: int) -> list[int]:
        """Left (0), on top (1) or right (2) of the opponent's last column, drawn at random.

        On top of a full or refused column, the draw is made again between left and
        right (A.I. description, steps 7 and 10b); left and right go on in their
        direction, wrapping around the edges (steps 5, 6 and 10a).
        """
        choice = self._rng.randrange(3)
        if choice == 1:
            if self._logic.canPlaceCheck(g, cannotPlace, last):
                return [last, self._logic.findY(g, last)]
            choice = 2 * self._rng.randrange(2)
        if choice == 0:
            return self._logic.moveLeft(g, cannotPlace, last - 1)
        return self._logic.moveRight(g, cannotPlace, last + 1)

    def _opening(self, g) -> list[int] | None:
        """(3, 0) when it is free; if the opponent took it, right or left of it at random."""
        x, y = OPENING
        if g.isValidSpot(x, y):
            return [x, y]
        if g.getSpaceType(x, y) == self._logic.inverseSpace(self._pieceColour) and self._count(g) == 0:
            beside = x + 1 if self._rng.randrange(2) == 0 else x - 1
            if g.isValidSpot(beside, 0):
                return [beside, 0]
        return None

    def _opponents_last_column(self, g) -> int | None:
        """The column of the opponent's disc placed since this player's last move, if one can tell."""
        if self._after_my_move is None:
            return None
        opponent = self._logic.inverseSpace(self._pieceColour)
        now = self._picture(g)
        new = [square for square, space in now.items() if space == opponent and self._after_my_move.get(square) != opponent]
        return new[0][0] if len(new) == 1 else None

    def _count(self, g) -> int:
        return sum(1 for space in self._picture(g).values() if space == self._pieceColour)

    @staticmethod
    def _picture(g) -> dict[tuple[int, int], Space]:
        return {(x, y): g.getSpaceType(x, y) for x in range(g.getWidth()) for y in range(g.getHeight())}

    def _perfect_move(self, g) -> list[int]:
        """The BoardADT solver's move for this player (``--strength perfect``)."""
        from reference_games.boardadt import solver

        current = mask = moves = 0
        for (x, y), space in self._picture(g).items():
            if space != Space.Empty:
                bit = 1 << (x * (solver.HEIGHT + 1) + y)
                mask |= bit
                moves += 1
                if space == self._pieceColour:
                    current |= bit
        column = solver.choose_move(solver.Position(current, mask, moves), "perfect", self._budget, self._rng)
        return [column, self._logic.findY(g, column)]
