"""The saved-game text (erratum S12): writing it, and reading it back with clear refusals.

Six lines, one per row from the bottom (y = 0) up, each the seven squares x = 0..6
written ``Red``, ``Blue`` or ``Empty`` and joined by commas; then the player to move
(0 Blue, 1 Red; in free play the colour that moved first); then the mode (0 free play,
1 regular); then, only against the computer, the index of the computer's player.
Reading accepts spaces around the words and blank lines, as the report's own example
has them, and refuses anything else with a :class:`SavedGameError` naming the line.
"""

from __future__ import annotations

import attrs

from .game_logic import GameLogic
from .grid import BOARD_HEIGHT, BOARD_WIDTH, Grid
from .space import Space

WORDS = {"Red": Space.Red, "Blue": Space.Blue, "Empty": Space.Empty}
COLOUR_OF_PLAYER = (Space.Blue, Space.Red)
"""players[0] is Blue and players[1] is Red, as the report's examples save them."""
FREE_PLAY, REGULAR = 0, 1


class SavedGameError(ValueError):
    """The text is not a saved game; ``line`` is the 1-based line of the file at fault."""

    def __init__(self, line: int, problem: str) -> None:
        super().__init__(f"line {line}: {problem}")
        self.line = line
        self.problem = problem


@attrs.frozen
class SavedGame:
    """A game read from the text: the grid, whose turn, the mode, and the computer's player (or None)."""

    grid: Grid
    turn: int
    mode: int
    ai: int | None


def word(space) -> str:
    """The saved-game word of a Space member."""
    for name, member in WORDS.items():
        if space == member:
            return name
    raise ValueError(f"{space!r} is not a Space")


def parse(text: str) -> SavedGame:
    """Read a saved game, or raise :class:`SavedGameError` naming the first line at fault."""
    lines = [(number, line.strip()) for number, line in enumerate(text.splitlines(), start=1) if line.strip()]
    last = len(text.splitlines()) or 1
    if len(lines) < BOARD_HEIGHT + 2:
        for number, line in lines[:BOARD_HEIGHT]:
            _board_line(number, line)  # a line that is no board line says more than where the file ends
        raise SavedGameError(
            last, f"the file ends too early: a saved game has {BOARD_HEIGHT} board lines, then the turn and the mode"
        )
    if len(lines) > BOARD_HEIGHT + 3:
        number = lines[BOARD_HEIGHT + 3][0]
        extra = lines[BOARD_HEIGHT + 3][1][:30]
        raise SavedGameError(number, f"unexpected text {extra!r} after the last line of a saved game")
    grid = Grid()
    for y, (number, line) in enumerate(lines[:BOARD_HEIGHT]):
        for x, space in enumerate(_board_line(number, line)):
            grid.setSpace(x, y, space)
    turn = _number(lines[BOARD_HEIGHT], "the player to move", (0, 1))
    mode = _number(lines[BOARD_HEIGHT + 1], "the mode", (FREE_PLAY, REGULAR))
    ai = None
    if len(lines) == BOARD_HEIGHT + 3:
        ai = _number(lines[BOARD_HEIGHT + 2], "the computer's player", (0, 1))
        if mode == FREE_PLAY:
            raise SavedGameError(lines[BOARD_HEIGHT + 2][0], "a free-play board has no computer player")
    if mode == REGULAR:
        _check_reachable(grid, turn, [number for number, _ in lines[:BOARD_HEIGHT]], lines[BOARD_HEIGHT][0])
    return SavedGame(grid, turn, mode, ai)


def _board_line(number: int, line: str) -> list:
    """The squares (Space members) of a board line, or SavedGameError naming what is wrong with it."""
    words = [w.strip() for w in line.split(",")]
    if len(words) != BOARD_WIDTH:
        raise SavedGameError(
            number, f"a board line has {BOARD_WIDTH} squares separated by commas, this one has {len(words)}"
        )
    squares = []
    for name in words:
        if name not in WORDS:
            raise SavedGameError(number, f"unknown square {name[:20]!r} (expected Red, Blue or Empty)")
        squares.append(WORDS[name])
    return squares


def _number(entry: tuple[int, str], what: str, allowed: tuple[int, ...]) -> int:
    number, text = entry
    if text not in {str(a) for a in allowed}:
        raise SavedGameError(number, f"{what} must be {' or '.join(map(str, allowed))}, not {text[:20]!r}")
    return int(text)


def _check_reachable(grid: Grid, turn: int, row_lines: list[int], turn_line: int) -> None:
    """Refuse a regular board that no unfinished game reaches (erratum S13)."""
    for x in range(BOARD_WIDTH):
        for y in range(BOARD_HEIGHT):
            if grid.getSpaceType(x, y) != Space.Empty and not grid.isSupported(x, y):
                raise SavedGameError(row_lines[y], f"the disc at ({x}, {y}) has an empty square below it")
    spaces = [grid.getSpaceType(x, y) for x in range(BOARD_WIDTH) for y in range(BOARD_HEIGHT)]
    counts = {colour: spaces.count(colour) for colour in COLOUR_OF_PLAYER}
    to_move = COLOUR_OF_PLAYER[turn]
    other = COLOUR_OF_PLAYER[1 - turn]
    if counts[to_move] not in (counts[other], counts[other] - 1):
        raise SavedGameError(
            turn_line,
            f"{to_move.name} cannot be to move with {counts[Space.Red]} red and {counts[Space.Blue]} blue discs",
        )
    fours = GameLogic().endRegularPlay(grid)
    if fours:
        x, y = fours[0]
        raise SavedGameError(
            row_lines[y],
            f"the game is already won (a line of four through ({x}, {y})): only unfinished games are saved",
        )
    if grid.isFull():
        raise SavedGameError(row_lines[-1], "the grid is full: the game is over, and only unfinished games are saved")


def text_of(grid, turn: int, mode: int, ai: int | None) -> str:
    """The saved-game text of a game (no final newline, as the report's example has it)."""
    rows = [",".join(word(grid.getSpaceType(x, y)) for x in range(grid.getWidth())) for y in range(grid.getHeight())]
    tail = [str(turn), str(mode)] + ([] if ai is None else [str(ai)])
    return "\n".join(rows + tail)
