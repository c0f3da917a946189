"""The window (tkinter): the start screen's four buttons, the board, the two pieces, the message box.

The controller draws on a :class:`TkView`. A move takes two clicks, as in the report:
click the piece of your colour above the board (it disappears: you hold it), then the
column to drop it in (anywhere in it: the disc goes to the lowest empty square, the one
the report's rule asks to be clicked). In free play, click a piece to choose the colour and then any
empty squares; End checks the board and highlights the errors in yellow. The computer's
move comes ``ai_delay`` seconds after yours.

Geometry follows the report's constants: squares 71 x 66 units, discs of radius 30
(the report's 35 does not fit its 66-unit rows).
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from .view import View, colour_name, in_free_play, landing_row

SPACE_WIDTH, SPACE_HEIGHT, RADIUS = 71, 66, 28
WIDTH, HEIGHT = 7, 6
LEFT, TOP = 40, 120
"""The board's top-left corner on the canvas; the pieces to pick sit above it."""
CANVAS_WIDTH = LEFT * 2 + SPACE_WIDTH * WIDTH
CANVAS_HEIGHT = TOP + SPACE_HEIGHT * HEIGHT + 20
COLOURS = {"Red": "#e63946", "Blue": "#1d4ed8"}
BOARD, HOLE, HIGHLIGHT = "#2b2d42", "#ffffff", "#ffd60a"
PIECES = {"Red": (LEFT + SPACE_WIDTH // 2, 55), "Blue": (LEFT + SPACE_WIDTH * WIDTH - SPACE_WIDTH // 2, 55)}
"""Where the red piece (top left) and the blue piece (top right) wait above the board."""


def centre(x: int, y: int) -> tuple[int, int]:
    """The canvas point at the centre of square (x, y), y counted from the bottom row."""
    return LEFT + x * SPACE_WIDTH + SPACE_WIDTH // 2, TOP + (HEIGHT - 1 - y) * SPACE_HEIGHT + SPACE_HEIGHT // 2


def square_at(px: float, py: float) -> tuple[int, int] | None:
    """The grid square under a canvas point, or None off the board."""
    x, row = int((px - LEFT) // SPACE_WIDTH), int((py - TOP) // SPACE_HEIGHT)
    if px < LEFT or py < TOP or not (0 <= x < WIDTH and 0 <= row < HEIGHT):
        return None
    return x, HEIGHT - 1 - row


class TkView(View):
    """The view drawn on a Tk canvas, with a message box and the result below it."""

    def __init__(self, window: GameWindow, name: Callable = colour_name) -> None:
        self.window = window
        self.name = name
        self.discs: set[tuple[int, int]] = set()
        """The squares holding a disc."""

    def placePiece(self, x, y, colour):
        self.discs.add((int(x), int(y)))
        cx, cy = centre(int(x), int(y))
        canvas = self.window.canvas
        canvas.delete(f"disc{x}_{y}")
        canvas.create_oval(
            cx - RADIUS,
            cy - RADIUS,
            cx + RADIUS,
            cy + RADIUS,
            fill=COLOURS.get(self.name(colour), "grey"),
            outline="",
            tags=("disc", f"disc{x}_{y}"),
        )
        self.window.show_board()

    def clearBoard(self):
        self.discs.clear()
        self.window.canvas.delete("disc", "highlight")
        self.window.show_board()

    def highlight(self, squares):
        canvas = self.window.canvas
        for x, y in squares:
            cx, cy = centre(int(x), int(y))
            r = RADIUS + 5
            canvas.create_oval(cx - r, cy - r, cx + r, cy + r, fill=HIGHLIGHT, outline="", tags=("highlight",))
        canvas.tag_raise("disc", "highlight")

    def removeHighlights(self):
        self.window.canvas.delete("highlight")

    def setPieceVisible(self, colour, visible):
        self.window.canvas.itemconfigure(f"piece{self.name(colour)}", state="normal" if visible else "hidden")

    def setMessage(self, message):
        self.window.message.set(str(message))

    def showResult(self, result):
        self.window.result.set(str(result))

    def showStartScreen(self):
        self.window.show_start()


class GameWindow:
    """The application window: a start screen and a board screen."""

    def __init__(self, make_controller: Callable, *, ai_delay: float = 1.0, name: Callable = colour_name) -> None:
        import tkinter as tk

        self.tk = tk
        self.root = tk.Tk()
        self.root.title("Connect Four (Team Static Void, 2015)")
        self.ai_delay_ms = max(0, int(ai_delay * 1000))
        self.message = tk.StringVar(self.root, "")
        self.result = tk.StringVar(self.root, "")

        self.start = tk.Frame(self.root, padx=40, pady=30)
        tk.Label(self.start, text="Connect Four", font=("Helvetica", 28, "bold")).pack(pady=(0, 20))
        self.buttons = {}
        for label, action in (("2 Player", lambda: self.begin(1)), ("Free Play", lambda: self.begin(0)),
                              ("Load Game", self.load), ("1 Player", lambda: self.begin(2))):
            button = tk.Button(self.start, text=label, width=16, command=action)
            button.pack(pady=4)
            self.buttons[label] = button
        tk.Label(self.start, textvariable=self.message, fg="#9d0208", wraplength=360).pack(pady=(12, 0))

        self.board = tk.Frame(self.root)
        self.canvas = tk.Canvas(
            self.board, width=CANVAS_WIDTH, height=CANVAS_HEIGHT, highlightthickness=0, background="#f8f9fa"
        )
        self.canvas.pack()
        self._draw_frame()
        tk.Label(self.board, textvariable=self.result, font=("Helvetica", 16, "bold")).pack()
        tk.Label(self.board, textvariable=self.message, wraplength=CANVAS_WIDTH - 20, height=2).pack()
        row = tk.Frame(self.board)
        row.pack(pady=6)
        for label, action in (("Save", self.save), ("Load", self.load), ("End", self.end)):
            button = tk.Button(row, text=label, width=8, command=action)
            button.pack(side="left", padx=6)
            self.buttons[label] = button
        self.canvas.bind("<Button-1>", self.click)

        self.view = TkView(self, name)
        self.controller = make_controller(self.view)
        self.pending_ai = None

    def _draw_frame(self) -> None:
        canvas = self.canvas
        right, bottom = LEFT + SPACE_WIDTH * WIDTH, TOP + SPACE_HEIGHT * HEIGHT
        canvas.create_rectangle(LEFT, TOP, right, bottom, fill=BOARD, outline="")
        for x in range(WIDTH):
            for y in range(HEIGHT):
                cx, cy = centre(x, y)
                canvas.create_oval(
                    cx - RADIUS, cy - RADIUS, cx + RADIUS, cy + RADIUS, fill=HOLE, outline="", tags=("hole",)
                )
        for name, (cx, cy) in PIECES.items():
            canvas.create_oval(cx - RADIUS, cy - RADIUS, cx + RADIUS, cy + RADIUS, fill=COLOURS[name], outline="",
                               tags=("piece", f"piece{name}"))

    # Screens
    def show_start(self) -> None:
        self.board.pack_forget()
        self.start.pack()

    def show_board(self) -> None:
        if not self.board.winfo_ismapped():
            self.start.pack_forget()
            self.board.pack()

    # Actions
    def begin(self, mode: int) -> None:
        self.controller.Start(mode)
        self.show_board()
        self.schedule_ai()

    def load(self) -> None:
        self.controller.loadGame()
        self.schedule_ai()

    def save(self) -> None:
        self.controller.saveGame()

    def end(self) -> None:
        self.controller.onClickEnd()

    def click(self, event) -> None:
        for name, (cx, cy) in PIECES.items():
            if (event.x - cx) ** 2 + (event.y - cy) ** 2 <= RADIUS ** 2:
                (self.controller.onRedClick if name == "Red" else self.controller.onBlueClick)()
                return
        square = square_at(event.x, event.y)
        if square is not None:
            x, y = square
            if not in_free_play(self.controller) and landing_row(self.view.discs, x) >= 0:
                y = landing_row(self.view.discs, x)  # a click anywhere in a column drops into it
            self.controller.onGridClick(x, y)
            self.schedule_ai()

    def schedule_ai(self) -> None:
        """The computer moves after a pause, if it is its turn (turnForAI does nothing otherwise)."""
        if self.pending_ai is not None:
            self.root.after_cancel(self.pending_ai)
        self.pending_ai = self.root.after(self.ai_delay_ms, self._ai)

    def _ai(self) -> None:
        self.pending_ai = None
        self.controller.turnForAI()

    def run(self) -> None:
        self.root.mainloop()


def run_window(make_controller: Callable, *, ai_delay: float = 1.0, name: Callable = colour_name) -> int:
    """Open the window and play until it is closed; a one-line message without a display."""
    try:
        import tkinter
    except ImportError:
        print(
            "connect4-2015 --gui: this Python has no tkinter (install python3-tk), or play on the terminal",
            file=sys.stderr,
        )
        return 2
    try:
        window = GameWindow(make_controller, ai_delay=ai_delay, name=name)
    except tkinter.TclError as e:
        print(f"connect4-2015 --gui: cannot open a window ({e}); play on the terminal without --gui", file=sys.stderr)
        return 2
    window.run()
    return 0
