"""Controller: turns the user's clicks into moves, and draws through the view.

It holds the grid, the two players (``players[0]`` is Blue, ``players[1]`` Red), the
mode and whose turn it is. Every event handler of the report is a public method whose
parameters the kit states (erratum S15): ``Start(gameMode)`` with 0 free play, 1 two
people, 2 against the computer; ``onGridClick(x, y)`` with a grid square. The computer
moves when :meth:`Controller.turnForAI` is called (erratum S19).
"""

from __future__ import annotations

import os
import random
from enum import Enum
from pathlib import Path

from . import saved_game
from .game_logic import GameLogic
from .game_state import GameState
from .grid import Grid
from .player import Player
from .saved_game import COLOUR_OF_PLAYER, FREE_PLAY, REGULAR, SavedGameError
from .space import Space

SAVE_FILE = "Saved_Game.txt"
"""The one save slot, in the current folder (erratum S13)."""

FREE_PLAY_MODE, TWO_PLAYERS, ONE_PLAYER = 0, 1, 2
"""Start's gameMode: the start screen's Free Play, 2 Player and 1 Player buttons."""


class Mode(Enum):
    """Regular or Free_Play (private in the report's design)."""

    Regular = "Regular"
    Free_Play = "Free_Play"


class Controller:
    """The game as the user drives it, drawn on ``view``.

    Keyword-only, the reference's own: ``seed`` for every random choice (who starts,
    the computer's colour and moves), ``strength`` of the computer (``"report"`` or
    ``"perfect"``), and ``save_path`` instead of ``Saved_Game.txt`` in the current folder.
    """

    def __init__(self, view, *, seed: int | None = None, strength: str = "report", save_path: str | os.PathLike | None = None) -> None:
        self._view = view
        self._rng = random.Random(seed)
        self._strength = strength
        self._save_path = Path(save_path) if save_path is not None else None
        self._logic = GameLogic(rng=self._rng)
        self._grid = Grid()
        self._mode: Mode | None = None
        self._players: list[Player] = []
        self._turn = 0
        self._freePlayColour = Space.Empty
        self._finishedGame = False
        view.showStartScreen()

    # Starting, and whose turn it is ------------------------------------------------------

    def Start(self, gameMode: int) -> None:
        """Start a game on an empty grid: free play (0), two people (1) or against the computer (2)."""
        if gameMode not in (FREE_PLAY_MODE, TWO_PLAYERS, ONE_PLAYER):
            raise ValueError(f"gameMode must be 0 (free play), 1 (two players) or 2 (against the computer), not {gameMode!r}")
        computer = self._rng.randrange(2) if gameMode == ONE_PLAYER else None
        self._begin(Grid(), self.setMode(gameMode), self._rng.randrange(2), computer)

    def autoClick(self) -> None:
        """Click the piece of the player whose turn it is."""
        if self._players[self._turn].getColour() == Space.Red:
            self.onRedClick()
        else:
            self.onBlueClick()

    def changeTurn(self) -> None:
        """The other player is now to move."""
        self._turn = 1 - self._turn

    # Clicks ------------------------------------------------------------------------------

    def onRedClick(self) -> None:
        """The user clicked the red piece above the board."""
        self._onPieceClick(Space.Red)

    def onBlueClick(self) -> None:
        """The user clicked the blue piece above the board."""
        self._onPieceClick(Space.Blue)

    def onGridClick(self, x: int, y: int) -> None:
        """The user clicked the grid square (x, y)."""
        if self._mode is None:
            self._view.setMessage("Choose a game on the start screen first")
        elif self._mode is Mode.Free_Play:
            self._placeFreely(x, y)
        elif self._finishedGame:
            self._view.setMessage("The game is over: start a new game or load one")
        elif self._players[self._turn].isAI():
            self._view.setMessage("Wait: it is the computer's turn")
        elif not self._players[self._turn].canClickGrid():
            colour = self._colour_to_move()
            self._view.setMessage(f"{colour.name} to move: click the {colour.name.lower()} piece first")
        elif not self._grid.isValidSpot(x, y):
            self._view.setMessage(f"({x}, {y}) is not a valid spot: a disc goes on the lowest empty square of a column")
        else:
            self._drop(x, y)

    def turnForAI(self) -> None:
        """Make the computer's move, when it is the computer's turn in a game in progress."""
        if self._mode is not Mode.Regular or self._finishedGame:
            return
        player = self._players[self._turn]
        if not player.isAI():
            return
        x, y = player.aiTurn(self._grid)
        player.waitForPieceDrop()
        self._view.setPieceVisible(player.getColour(), False)
        self._drop(x, y)

    def onClickEnd(self) -> None:
        """End: a regular game goes back to the start screen; free play is checked first."""
        if self._mode is not Mode.Free_Play:
            self._end("Game ended")
            return
        errors = {tuple(square) for square in self._logic.endFreePlay(self._grid)}
        problems = self._describe(errors)
        excess = self._excessColour()
        if excess is not None:
            first = self._players[self._turn].getColour()
            counts = {c: self._count(c) for c in (Space.Red, Space.Blue)}
            problems.append(
                f"{first.name} moved first, so it needs as many discs as {self._logic.inverseSpace(first).name} or one more"
                f" (red {counts[Space.Red]}, blue {counts[Space.Blue]})"
            )
            errors |= {square for square in self._squares() if self._grid.getSpaceType(*square) == excess}
        if not problems:
            self._end("The board is a valid game")
            return
        self._view.removeHighlights()
        self.highlightSpace(sorted(errors))
        self._view.setMessage("Not a valid game: " + "; ".join(problems))

    def placePiece(self, x: int, y: int, c: Space) -> None:
        """Draw a disc of colour ``c`` on the square (x, y) of the view."""
        self._view.placePiece(x, y, c)

    # Saving and loading ------------------------------------------------------------------

    def saveGame(self) -> None:
        """Write the unfinished game to Saved_Game.txt (the previous save is kept as .bak)."""
        if self._mode is None:
            self._view.setMessage("There is no game to save")
            return
        if self._finishedGame:
            self._view.setMessage("The game is over: only an unfinished game can be saved")
            return
        try:
            self.save(self.stringOfBoard())
        except OSError as e:
            self._view.setMessage(f"Could not save to {self._path()}: {e.strerror or e}")
            return
        self._view.setMessage(f"Game saved to {self._path()}")

    def loadGame(self) -> None:
        """Continue the game saved in Saved_Game.txt; a file that is not a saved game changes nothing."""
        path = self._path()
        try:
            saved = saved_game.parse(self.load())
        except FileNotFoundError:
            self._view.setMessage(f"No saved game: {path} does not exist")
            return
        except UnicodeDecodeError:
            self._view.setMessage(f"{path} is not a saved game: it is not text (UTF-8)")
            return
        except OSError as e:
            self._view.setMessage(f"Cannot read {path}: {e.strerror or e}")
            return
        except SavedGameError as e:
            self._view.setMessage(f"{path} is not a saved game: line {e.line}: {e.problem}")
            return
        mode = Mode.Regular if saved.mode == REGULAR else Mode.Free_Play
        self._begin(saved.grid, mode, saved.turn, saved.ai)
        self._view.setMessage(f"Game loaded. {self._whose_turn()}")

    def stringOfBoard(self) -> str:
        """The game as the saved-game text (erratum S12)."""
        mode = REGULAR if self._mode is Mode.Regular else FREE_PLAY
        computer = next((i for i, p in enumerate(self._players) if p.isAI()), None)
        return saved_game.text_of(self._grid, self._turn, mode, computer)

    def stringToSetSpace(self, str: str) -> Space:  # noqa: A002 - the report's parameter name
        """The Space a saved-game word stands for: Red, Blue, and Empty for anything else (erratum S21)."""
        word = str.strip()
        if word == "Red":
            return Space.Red
        if word == "Blue":
            return Space.Blue
        return Space.Empty

    # Private in the report's design: the reference's own, kept under their names -----------

    def setMode(self, gameMode: int) -> Mode:
        """setMode: 0 is free play, anything else a regular game."""
        return Mode.Free_Play if gameMode == 0 else Mode.Regular

    def checkWin(self, x: int, y: int) -> GameState:
        """checkWin: show the result after the disc on (x, y); a win or a draw ends the game."""
        state = self._logic.isWin(self._grid, x, y)
        if state is GameState.Win:
            winner = self._grid.getSpaceType(x, y)
            self._finishedGame = True
            self.highlightSpace(self._logic.endRegularPlay(self._grid))
            self._view.showResult(f"{winner.name} wins")
            self._view.setMessage(f"{winner.name} wins with four in a line!")
        elif state is GameState.Draw:
            self._finishedGame = True
            self._view.showResult("Game drawn")
            self._view.setMessage("The grid is full: the game is drawn")
        else:
            self._view.showResult("Game in progress")
        return state

    def highlightSpace(self, squares) -> None:
        """highlightSpace: a yellow shadow behind each square."""
        self._view.highlight([list(square) for square in squares])

    def save(self, data: str) -> None:
        """save: write ``data`` to the save file, keeping the previous one as a backup."""
        path = self._path()
        temporary = path.with_name(path.name + ".tmp")
        temporary.write_text(data + "\n", encoding="utf-8")
        if path.exists():
            os.replace(path, path.with_name(path.name + ".bak"))
        os.replace(temporary, path)

    def load(self) -> str:
        """load: the text of the save file."""
        return self._path().read_text(encoding="utf-8")

    # Helpers -----------------------------------------------------------------------------

    def _path(self) -> Path:
        return self._save_path if self._save_path is not None else Path.cwd() / SAVE_FILE

    def _begin(self, grid: Grid, mode: Mode, turn: int, computer: int | None) -> None:
        """Show ``grid`` and play on it: ``turn`` moves next (in free play, moved first)."""
        self._grid, self._mode, self._turn, self._finishedGame = grid, mode, turn, False
        self._players = [
            Player(colour, i == computer, rng=self._rng, strength=self._strength) for i, colour in enumerate(COLOUR_OF_PLAYER)
        ]
        for player in self._players:
            player.setTurn(self._count(player.getColour()))
        self._view.clearBoard()
        for x, y in self._squares():
            if grid.getSpaceType(x, y) != Space.Empty:
                self.placePiece(x, y, grid.getSpaceType(x, y))
        for colour in COLOUR_OF_PLAYER:
            self._view.setPieceVisible(colour, True)
        self._view.showResult("Game in progress")
        if mode is Mode.Free_Play:
            self._freePlayColour = self._colour_to_move()
            self._view.setPieceVisible(self._freePlayColour, False)
            self._view.setMessage(
                f"Free play ({self._freePlayColour.name} moved first): click a piece to choose its colour,"
                " then click squares; press End to check the board"
            )
        else:
            self._view.setMessage(self._whose_turn())

    def _onPieceClick(self, colour: Space) -> None:
        if self._mode is None:
            self._view.setMessage("Choose a game on the start screen first")
            return
        other = self._logic.inverseSpace(colour)
        if self._mode is Mode.Free_Play:
            self._freePlayColour = colour
            self._view.setPieceVisible(colour, False)
            self._view.setPieceVisible(other, True)
            self._view.setMessage(f"Placing {colour.name.lower()} discs: click any empty square")
            return
        player = self._players[self._turn]
        allowed = player.canClickRed() if colour == Space.Red else player.canClickBlue()
        if self._finishedGame:
            self._view.setMessage("The game is over: start a new game or load one")
        elif player.isAI():
            self._view.setMessage("Wait: it is the computer's turn")
        elif not allowed:
            self._view.setMessage("Cannot click this piece")
        else:
            player.waitForPieceDrop()
            self._view.setPieceVisible(colour, False)
            self._view.setMessage(f"{colour.name}: click the square to drop your disc on")

    def _placeFreely(self, x: int, y: int) -> None:
        """A free-play click: the chosen colour on any empty square (erratum S18)."""
        if not (0 <= x < self._grid.getWidth() and 0 <= y < self._grid.getHeight()):
            self._view.setMessage(f"({x}, {y}) is not a square of the grid")
        elif self._grid.getSpaceType(x, y) != Space.Empty:
            self._view.setMessage(f"({x}, {y}) already holds a disc")
        else:
            self._view.removeHighlights()
            self._grid.setSpace(x, y, self._freePlayColour)
            self.placePiece(x, y, self._freePlayColour)

    def _drop(self, x: int, y: int) -> None:
        """Place the disc of the player to move on (x, y), then show the result or pass the turn."""
        player = self._players[self._turn]
        colour = player.getColour()
        self._grid.setSpace(x, y, colour)
        self.placePiece(x, y, colour)
        self._view.setPieceVisible(colour, True)
        player.waitForPieceGrab()
        player.setTurn(player.getTurn() + 1)
        if self.checkWin(x, y) is GameState.Ongoing:
            self.changeTurn()
            self._view.setMessage(self._whose_turn())

    def _end(self, message: str) -> None:
        self._mode, self._players, self._finishedGame = None, [], False
        self._view.showStartScreen()
        self._view.setMessage(message)

    def _describe(self, errors: set[tuple[int, int]]) -> list[str]:
        """The kinds of error among the squares endFreePlay reported."""
        kinds = {"a line of four": 0, "an unsupported disc": 0, "a square where the next disc completes four": 0}
        for x, y in errors:
            if self._grid.getSpaceType(x, y) == Space.Empty:
                kinds["a square where the next disc completes four"] += 1
            elif self._logic.isConnect4(self._grid, x, y):
                kinds["a line of four"] += 1
            else:
                kinds["an unsupported disc"] += 1
        return [f"{kind} ({count} highlighted)" for kind, count in kinds.items() if count]

    def _excessColour(self) -> Space | None:
        """The colour with too many discs for the colour that moved first (erratum S06), or None."""
        first = self._players[self._turn].getColour()
        lead = self._count(first) - self._count(self._logic.inverseSpace(first))
        if lead in (0, 1):
            return None
        return first if lead > 1 else self._logic.inverseSpace(first)

    def _colour_to_move(self) -> Space:
        return self._players[self._turn].getColour()

    def _whose_turn(self) -> str:
        player = self._players[self._turn]
        who = "the computer" if player.isAI() else "you" if any(p.isAI() for p in self._players) else None
        name = player.getColour().name
        return f"{name} to move ({who})" if who else f"{name} to move: click the {name.lower()} piece"

    def _count(self, colour: Space) -> int:
        return sum(1 for x, y in self._squares() if self._grid.getSpaceType(x, y) == colour)

    def _squares(self):
        return [(x, y) for x in range(self._grid.getWidth()) for y in range(self._grid.getHeight())]
