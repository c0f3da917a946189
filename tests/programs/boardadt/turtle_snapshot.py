"""Draw a board in a turtle window and photograph the screen; run by test_turtle.py under Xvfb.

Usage: ``python turtle_snapshot.py MOVES OUT.ppm`` where MOVES are column digits played
from the empty board. It writes the screenshot (binary PPM) and prints, as JSON, where
the turtle origin (0, 0) is on the screen, so the test can find each disk's pixel.
"""

import json
import subprocess
import sys

from reference_games.boardadt.board_adt import Board
from reference_games.boardadt.turtle_board import open_turtle_board


def main() -> None:
    moves, out = sys.argv[1], sys.argv[2]
    board = Board()
    board.Initialize()
    for column in moves:
        board.Make_Move(int(column))
    window = open_turtle_board("snapshot")
    window.draw(board, "Legend: Red is pink, Blue is pale blue", "a message")
    canvas = window.canvas
    canvas.update()
    origin = (canvas.winfo_rootx() - canvas.canvasx(0), canvas.winfo_rooty() - canvas.canvasy(0))
    subprocess.run(["import", "-window", "root", "-depth", "8", f"ppm:{out}"], check=True)
    print(json.dumps({"origin": origin}))
    window.close()


if __name__ == "__main__":
    main()
