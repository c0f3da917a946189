"""The terminal program: the start menu's four choices, moves by column, save, load and end.

The controller draws on a :class:`TerminalView`, which keeps the picture as the
recording view does; after each command the program prints the board, the result (as
requirement A2.2 asks, at all times) and the messages the controller showed, in the
terminal's words (the report's controller speaks of clicking: see :data:`TERMINAL_WORDS`).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from typing import TextIO

from ..program_exit import EXIT_INTERRUPTED, EXIT_OK, closed_output
from .view import RecordingView, colour_name, in_free_play, landing_row

WIDTH, HEIGHT = 7, 6
MENU = """
Connect Four (Team Static Void, 2015)
  1  2 Player     two people take turns
  2  Free Play    place discs of either colour anywhere, then end to check the board
  3  Load Game    continue the saved game ({saved})
  4  1 Player     play against the computer
  q  Quit
"""
HELP_GAME = "Type a column 0-6 to drop a disc, or: save, load, end or q (back to the menu), help."
HELP_FREE = (
    "Type 'red X Y' or 'blue X Y' to place a disc on column X, row Y (0 is the bottom), "
    "or: save, load, end (check the board), help."
)
LEAVE_GAME = ("end", "quit", "q", "exit")

TERMINAL_WORDS = (
    (r"click the (\w+) piece first", "type a column"),
    (r"click the (\w+) piece", "type a column"),
    (r"click a piece to choose its colour, then click squares; press End to check the board",
     "type 'red X Y' or 'blue X Y' to place discs; end checks the board"),
    (r"Placing (\w+) discs: click any empty square", r"Placing \1 discs: type '\1 X Y' for any empty square"),
    (r"(\w+): click the square to drop your disc on", r"\1: type a column"),
    (r"Cannot click this piece", "That colour cannot be chosen now"),
)
"""The controller's words for the window (the report's clicks), and what they mean on the terminal."""


def in_terminal_words(message: str) -> str:
    for pattern, replacement in TERMINAL_WORDS:
        message = re.sub(pattern, replacement, message)
    return message


class TerminalView(RecordingView):
    """The recording view, drawn as text; ``name`` names a colour of the controller's Space."""

    def __init__(self, name: Callable = colour_name) -> None:
        super().__init__()
        self.name = name

    def setMessage(self, message: str) -> None:
        super().setMessage(in_terminal_words(str(message)))

    def picture(self) -> str:
        letter = {"Red": "R", "Blue": "B"}
        rows = []
        for y in reversed(range(HEIGHT)):
            cells = []
            for x in range(WIDTH):
                mark = letter.get(self.name(self.discs[(x, y)]), "?") if (x, y) in self.discs else "."
                cells.append(f"{mark}{'*' if (x, y) in self.highlights else ' '}")
            rows.append(f"{y} |{''.join(cells)}|")
        rows.append("   " + "".join(f"{x} " for x in range(WIDTH)))
        return "\n".join(rows)


class Session:
    """One run of the program on a terminal."""

    def __init__(self, make_controller: Callable, out: TextIO = sys.stdout, read: Callable[[str], str] = input,
                 name: Callable = colour_name, saved: str = "Saved_Game.txt in the working folder") -> None:
        self.view = TerminalView(name)
        self.controller = make_controller(self.view)
        self.out = out
        self.read = read
        self.seen = 0
        self.saved = saved
        """Where the saved game is kept, in words for the menu."""

    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def show(self) -> None:
        """The board, the result and the messages shown since the last time."""
        self.say(self.view.picture())
        if self.view.result:
            self.say(f"Result: {self.view.result}")
        for message in self.view.messages[self.seen:]:
            self.say(f"> {message}")
        self.seen = len(self.view.messages)

    def news(self) -> None:
        for message in self.view.messages[self.seen:]:
            self.say(f"> {message}")
        self.seen = len(self.view.messages)

    def run(self) -> int:
        try:
            while True:
                self.say(MENU.format(saved=self.saved))
                choice = self.read("Choose 1-4 (q to quit): ").strip().lower()
                if choice in ("q", "quit", "exit"):
                    break
                if choice in ("1", "2", "4"):
                    self.controller.Start({"1": 1, "2": 0, "4": 2}[choice])
                    self.play()
                elif choice == "3":
                    self.controller.loadGame()
                    if self.view.screen == "board":
                        self.play()
                    else:
                        self.news()
                else:
                    self.say(f"'{choice}' is not one of the choices 1, 2, 3, 4 or q")
        except EOFError:
            self.say("")
        except KeyboardInterrupt:
            self.say("\nInterrupted: goodbye.")
            return EXIT_INTERRUPTED
        except BrokenPipeError:
            return closed_output()
        self.say("Goodbye.")
        return EXIT_OK

    def free_play(self) -> bool:
        return in_free_play(self.controller)

    def play(self) -> None:
        """Commands until the game ends or the user goes back to the menu."""
        self.controller.turnForAI()
        self.show()
        while self.view.screen == "board":
            free = self.free_play()
            if not free and self.view.result != "Game in progress":
                self.read("The game is over. Press Enter for the menu. ")
                self.controller.onClickEnd()
                self.news()
                return
            command = self.read("free play> " if free else "move> ").strip().lower()
            words = command.split()
            if not words:
                continue
            if words[0] == "help":
                self.say(HELP_FREE if free else HELP_GAME)
            elif words[0] == "save":
                self.controller.saveGame()
                self.news()
            elif words[0] == "load":
                self.controller.loadGame()
                self.controller.turnForAI()
                self.show()
            elif words[0] in LEAVE_GAME:
                self.controller.onClickEnd()
                if self.view.screen == "board":
                    self.show()
                else:
                    self.news()
            elif free:
                self.place(words)
            else:
                self.move(words[0])

    def move(self, word: str) -> None:
        if not (word.isdigit() and 0 <= int(word) < WIDTH):
            self.say(f"'{word}' is not a column: type a number from 0 to {WIDTH - 1}, or help")
            return
        x = int(word)
        y = landing_row(self.view.discs, x)
        if y < 0:
            self.say(f"Column {x} is full: choose another")
            return
        self.controller.autoClick()
        self.controller.onGridClick(x, y)
        self.controller.turnForAI()
        self.show()

    def place(self, words: list[str]) -> None:
        if len(words) != 3 or words[0] not in ("red", "blue") or not all(w.isdigit() for w in words[1:]):
            self.say("Place a disc with 'red X Y' or 'blue X Y' (X the column 0-6, Y the row 0-5 from the bottom)")
            return
        (self.controller.onRedClick if words[0] == "red" else self.controller.onBlueClick)()
        self.controller.onGridClick(int(words[1]), int(words[2]))
        self.show()


def run_console(
    make_controller: Callable, name: Callable = colour_name, saved: str = "Saved_Game.txt in the working folder"
) -> int:
    return Session(make_controller, name=name, saved=saved).run()
