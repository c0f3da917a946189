"""Driving an implementation's Controller through its documented methods, and reading it back.

A game is observed two ways: through the view the controller draws on (the kit's
RecordingView) and through stringOfBoard, whose text (erratum S12) says the grid, the
player to move (0 Blue, 1 Red), the mode and the computer's player.
"""

from __future__ import annotations

import re
from pathlib import Path

import attrs

from reference_games.connect4_2015.view import RecordingView
from speckit.testing import expect

from .adapter import Build, Read
from .model import BLUE, EMPTY, HEIGHT, RED, WIDTH, Model

PLAYER_COLOURS = (BLUE, RED)
"""players[0] is Blue, players[1] Red (erratum S12)."""
FREE_PLAY, TWO_PLAYERS, ONE_PLAYER = 0, 1, 2
SAVE_FILE = "Saved_Game.txt"


_WIN = re.compile(r"\bw[io]n|\bvictor", re.IGNORECASE)
_DRAW = re.compile(r"\bdraw|\btie\b|\btied\b", re.IGNORECASE)


def result_said(text) -> str:
    """Which of the four results a text the controller showed says (erratum S19): "Blue wins",
    "Red wins", "Game drawn" or "Game in progress", whatever its words. The report only suggests
    those words, so a text that names one colour and a win is that colour's win, a text about a
    draw or a tie is a draw, and any other text is the game in progress. A text that says no
    result (nothing shown, a win of both colours) comes back quoted, to be shown as it was."""
    if not isinstance(text, str) or not text.strip():
        return f"{text!r} (no result)"
    blue, red = re.search(r"\bblue\b", text, re.IGNORECASE), re.search(r"\bred\b", text, re.IGNORECASE)
    if _WIN.search(text):
        return (
            "Blue wins"
            if blue and not red
            else "Red wins"
            if red and not blue
            else f"{text!r} (a win of which colour?)"
        )
    if _DRAW.search(text):
        return "Game drawn"
    return "Game in progress"


@attrs.frozen
class Saved:
    """A saved-game text, read: the grid, the colour to move (or that moved first), the mode, the computer's colour."""

    model: Model
    to_move: str
    mode: int
    computer: str | None


def parse(text: str) -> Saved | str:
    """Read a saved-game text as the errata rule it; a string saying what is wrong otherwise."""
    lines = [line.strip() for line in str(text).splitlines() if line.strip()]
    if len(lines) not in (HEIGHT + 2, HEIGHT + 3):
        return f"{len(lines)} lines, not {HEIGHT} board lines and 2 or 3 more"
    model = Model()
    for y, line in enumerate(lines[:HEIGHT]):
        words = [w.strip() for w in line.split(",")]
        if len(words) != WIDTH or any(w not in (RED, BLUE, EMPTY) for w in words):
            return f"board line {y + 1} is not {WIDTH} words Red, Blue or Empty: {line!r}"
        for x, word in enumerate(words):
            model.put(x, y, word)
    tail = lines[HEIGHT:]
    if any(t not in ("0", "1") for t in tail):
        return f"the lines after the board are not 0 or 1: {tail}"
    computer = PLAYER_COLOURS[int(tail[2])] if len(tail) == 3 else None
    return Saved(model, PLAYER_COLOURS[int(tail[0])], int(tail[1]), computer)


def text_of(model: Model, to_move: str, mode: int, computer: str | None = None, *, sep: str = ",") -> str:
    rows = [sep.join(model.get(x, y) for x in range(WIDTH)) for y in range(HEIGHT)]
    tail = [str(PLAYER_COLOURS.index(to_move)), str(mode)] + ([str(PLAYER_COLOURS.index(computer))] if computer else [])
    return "\n".join(rows + tail) + "\n"


def in_scratch_folder(impl):
    """Run in a fresh empty folder, the implementation's working folder too, where Saved_Game.txt is written, read."""
    return impl.working_folder()


class Game:
    """One controller of the implementation on a recording view."""

    def __init__(self, impl) -> None:
        self.impl = impl
        self.build, self.read = Build(impl), Read(impl)
        self.ops = impl.controller
        self.view = RecordingView()
        self.controller = self.ops.Controller(self.view)

    # Setting up
    @classmethod
    def started(cls, impl, mode: int) -> Game:
        game = cls(impl)
        game.ops.Start(game.controller, mode)
        return game

    @classmethod
    def loaded(cls, impl, text: str) -> Game:
        """A controller that loaded ``text`` from Saved_Game.txt (run inside :func:`in_scratch_folder`)."""
        Path(SAVE_FILE).write_text(text, encoding="utf-8")
        game = cls(impl)
        game.ops.loadGame(game.controller)
        return game

    # Reading
    def saved(self) -> Saved:
        text = self.ops.stringOfBoard(self.controller)
        result = parse(text)
        expect(
            isinstance(result, Saved),
            "stringOfBoard returns the saved-game text of erratum S12",
            expected="6 board lines, the turn, the mode (and the computer's player)",
            actual=f"{text!r}: {result}",
        )
        return result

    def text(self) -> str:
        return self.ops.stringOfBoard(self.controller)

    # Playing
    def click_piece(self, colour: str) -> None:
        (self.ops.onRedClick if colour == RED else self.ops.onBlueClick)(self.controller)

    def move(self, x: int) -> tuple[int, int]:
        """The player to move picks up its piece (autoClick) and drops it in column x."""
        saved = self.saved()
        y = saved.model.height(x)
        self.ops.autoClick(self.controller)
        self.ops.onGridClick(self.controller, x, y)
        return x, y

    def place(self, x: int, y: int, colour: str) -> None:
        """Free play: choose the colour, click the square."""
        self.click_piece(colour)
        self.ops.onGridClick(self.controller, x, y)
