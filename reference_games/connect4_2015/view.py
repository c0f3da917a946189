"""The screen as the controller sees it, supplied by the kit.

The report's controller draws through Unity; here it draws through a :class:`View`,
which the kit supplies as the course supplied the display in the other specifications.
A controller is made with the view it draws on, ``Controller(view)``, and calls only
the methods below. :class:`RecordingView` is the fake the conformance suite hands to a
controller: it records every call and keeps the picture those calls paint, so a test
can look at the screen without a window. The kit's terminal and tkinter programs
implement the same methods (:mod:`.console`, :mod:`.window`).

Squares are ``(x, y)``: x the column 0..6 from the left, y the row 0..5 from the bottom.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

RESULTS = ("Blue wins", "Red wins", "Game drawn", "Game in progress")
"""The words the requirements suggest for the four results shown at all times (erratum S19)."""
HEIGHT = 6


def landing_row(discs, x: int) -> int:
    """The row a disc dropped into column x lands on, given the squares holding discs (-1 when it is full)."""
    return next((y for y in range(HEIGHT) if (x, y) not in discs), -1)


def in_free_play(controller) -> bool:
    """Whether the controller's game is a free-play one (the mode line of its saved-game text, erratum S12)."""
    return controller.stringOfBoard().splitlines()[HEIGHT + 1].strip() == "0"


class View:
    """The interface the controller draws through. Every method does nothing here.

    Subclasses draw in a window, on a terminal, or record the calls.
    """

    def placePiece(self, x: int, y: int, colour: Any) -> None:
        """Draw a disc of ``colour`` (Space.Red or Space.Blue) on the square (x, y)."""

    def clearBoard(self) -> None:
        """Remove every disc and every highlight from the board."""

    def highlight(self, squares: Iterable[Any]) -> None:
        """Highlight the given squares, pairs ``[x, y]``, besides those already highlighted."""

    def removeHighlights(self) -> None:
        """Remove every highlight."""

    def setPieceVisible(self, colour: Any, visible: bool) -> None:
        """Show or hide the piece of ``colour`` above the board (hidden: picked up)."""

    def setMessage(self, message: str) -> None:
        """Show ``message`` in the message box, replacing the one shown."""

    def showResult(self, result: str) -> None:
        """Show the result of the game: the reference shows one of :data:`RESULTS`, the report's
        suggested words; any words that say the same result will do (erratum S19)."""

    def showStartScreen(self) -> None:
        """Show the start screen and its four choices."""


class RecordingView(View):
    """A view that records every call and keeps the picture they paint.

    ``calls`` lists ``(method, arguments)`` in order. The picture: ``discs`` maps each
    square ``(x, y)`` to the colour of its disc (the controller's Space member),
    ``highlights`` is the set of highlighted squares, ``visible`` pairs each colour told
    about with whether its piece above the board shows (both show until told otherwise;
    colours are told apart with ``==``, so a Space member need not be hashable), and
    ``message``, ``result`` and ``screen`` (``"start"`` or ``"board"``) are what is shown
    now. ``messages`` keeps every message shown.
    """

    def __init__(self) -> None:
        self.calls: list[tuple[str, tuple]] = []
        self.discs: dict[tuple[int, int], Any] = {}
        self.highlights: set[tuple[int, int]] = set()
        self.visible: list[list] = []  # [colour, shown] pairs
        self.messages: list[str] = []
        self.result: str | None = None
        self.screen = "start"

    def __repr__(self) -> str:
        return f"<RecordingView {len(self.calls)} calls, {len(self.discs)} discs, result {self.result!r}>"

    @property
    def message(self) -> str | None:
        """The message shown now (None before the first)."""
        return self.messages[-1] if self.messages else None

    def placePiece(self, x, y, colour):
        self.calls.append(("placePiece", (x, y, colour)))
        self.discs[(int(x), int(y))] = colour
        self.screen = "board"

    def clearBoard(self):
        self.calls.append(("clearBoard", ()))
        self.discs.clear()
        self.highlights.clear()
        self.screen = "board"

    def highlight(self, squares):
        squares = [(int(x), int(y)) for x, y in squares]
        self.calls.append(("highlight", (squares,)))
        self.highlights.update(squares)

    def removeHighlights(self):
        self.calls.append(("removeHighlights", ()))
        self.highlights.clear()

    def setPieceVisible(self, colour, visible):
        self.calls.append(("setPieceVisible", (colour, visible)))
        for pair in self.visible:
            if pair[0] == colour:
                pair[1] = bool(visible)
                return
        self.visible.append([colour, bool(visible)])

    def setMessage(self, message):
        self.calls.append(("setMessage", (message,)))
        self.messages.append(str(message))

    def showResult(self, result):
        self.calls.append(("showResult", (result,)))
        self.result = result

    def showStartScreen(self):
        self.calls.append(("showStartScreen", ()))
        self.screen = "start"

    def shows(self, colour: Any) -> bool:
        """Whether the piece of ``colour`` above the board shows."""
        return next((shown for told, shown in self.visible if told == colour), True)

    def called(self, method: str) -> int:
        """How many times ``method`` was called."""
        return sum(1 for name, _ in self.calls if name == method)


def colour_name(colour: Any) -> str:
    """``"Red"``, ``"Blue"`` or ``"Empty"`` for a Space member of any implementation's enumeration."""
    name = getattr(colour, "name", None) or str(colour)
    return name.rsplit(".", 1)[-1]
