"""Click through the connect4-2015 window and photograph it; run by test_window.py under Xvfb.

Usage: ``python window_snapshot.py ACTIONS OUT.ppm FOLDER``. ACTIONS is a JSON list of
clicks: ``["button", "2 Player"]`` presses a button, ``["piece", "Red"]`` clicks a piece
above the board, ``["square", x, y]`` a grid square, ``["move", x]`` clicks the piece of
the colour to move and then the lowest empty square of column x, ``["column", x]`` the
piece and then the top square of column x. Every click goes
through Tk's event system (event_generate at the canvas's pixel; a button is invoked as a
click on it would). The program runs in
FOLDER (where Saved_Game.txt goes), writes the screenshot (binary PPM) and prints, as
JSON, where the canvas is on the screen and what the game says of itself.
"""

import json
import os
import subprocess
import sys

from reference_games.connect4_2015 import window as w
from reference_games.connect4_2015.controller import Controller


def settle(root) -> None:
    for _ in range(5):
        root.update()


def click_at(widget, x: int, y: int) -> None:
    widget.event_generate("<Button-1>", x=x, y=y)
    widget.event_generate("<ButtonRelease-1>", x=x, y=y)


def main() -> None:
    actions, out, folder = json.loads(sys.argv[1]), sys.argv[2], sys.argv[3]
    os.chdir(folder)
    window = w.GameWindow(lambda view: Controller(view, seed=7), ai_delay=0)
    root, canvas = window.root, window.canvas
    root.geometry("+0+0")
    settle(root)
    for action in actions:
        kind = action[0]
        if kind == "button":
            window.buttons[action[1]].invoke()
        elif kind == "piece":
            click_at(canvas, *w.PIECES[action[1]])
        elif kind == "square":
            click_at(canvas, *w.centre(action[1], action[2]))
        elif kind in ("move", "column"):
            lines = window.controller.stringOfBoard().splitlines()
            colour = ("Blue", "Red")[int(lines[6])]
            x = action[1]
            y = next(y for y in range(6) if lines[y].split(",")[x] == "Empty") if kind == "move" else 5
            click_at(canvas, *w.PIECES[colour])
            settle(root)
            click_at(canvas, *w.centre(x, y))
        settle(root)
    settle(root)
    subprocess.run(["import", "-window", "root", "-depth", "8", f"ppm:{out}"], check=True)
    print(
        json.dumps(
            {
                "origin": [canvas.winfo_rootx(), canvas.winfo_rooty()],
                "board_shown": bool(window.board.winfo_ismapped()),
                "text": window.controller.stringOfBoard(),
                "result": window.result.get(),
                "message": window.message.get(),
            }
        )
    )
    root.destroy()


if __name__ == "__main__":
    main()
