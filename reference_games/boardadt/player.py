"""The unit Player: ``Computer_Move`` chooses the computer's column on a board.

The course supplied this unit compiled, and so does the kit: a package following the
contract re-exports it (``from reference_games.boardadt.player import Computer_Move``).
It reads the board only through ``Get_Value`` and ``Get_Current_Color``, naming each
square with the ``Square`` record of the board's own package (module square beside the
board's module), so it plays on any board that follows the contract and brings no
module a student writes with it. It turns what it reads into the solver's
bitboard position (:mod:`reference_games.boardadt.solver`) and asks the solver for a
move. Columns are 1-based here, as in the unit; the solver's are 0-based.

Called as the assignment calls it, ``Computer_Move(board)``, it plays as the driver
``connect`` does by default: the level ``"perfect"`` with a budget of one second. The
solver keeps the positions it has solved from move to move (a table of at most a
million entries, about 100 MB), so later moves of a game are quicker.
"""

from __future__ import annotations

import importlib
import random
import sys

from spec import require

from . import solver
from .solver import HEIGHT as number_of_rows
from .solver import WIDTH as number_of_columns

DEFAULT_LEVEL = "perfect"
"""How the computer plays unless told otherwise, here and in the driver: a proven move when it can."""

DEFAULT_BUDGET = 1.0
"""Seconds a move may take at the levels ``"perfect"`` and ``"depth:N"``."""

_SOLVER = solver.Solver(max_entries=1_000_000)
"""The solver of every move, keeping its table of solved positions between moves."""


def Computer_Move(
    board,
    *,
    level: str = DEFAULT_LEVEL,
    budget: float = DEFAULT_BUDGET,
    rng: random.Random | None = None,
) -> int:
    """A column (1 to 7) that is not full, for the current colour to move to.

    The board must not be completely full (the unit's precondition); it is left as it
    was (erratum B13). On a board where the game goes on, every level but ``"random"``
    wins at once when it can and otherwise blocks a lone immediate threat; on a board
    already won, the most central column that is not full is returned (erratum B12).
    ``level`` is ``"random"``, ``"greedy"``, ``"depth:N"`` or ``"perfect"``; ``budget``
    is the time allowed to ``"perfect"`` and ``"depth:N"``; ``rng`` draws the
    ``"random"`` moves.
    """
    return computer_choice(board, level=level, budget=budget, rng=rng).column


def computer_choice(
    board,
    *,
    level: str = DEFAULT_LEVEL,
    budget: float = DEFAULT_BUDGET,
    rng: random.Random | None = None,
) -> solver.Choice:
    """Computer_Move's column (1 to 7) with what is proven of it (see ``solver.Choice``).

    The driver uses it to tell the person when the level ``"perfect"`` could not
    finish its search and played its best guess.
    """
    position = _position_of(board)
    require(not position.is_full(), "Player.Computer_Move", "the board is completely full")
    if position.is_won():
        return solver.Choice(_most_central(position) + 1, proven=False)
    choice = solver.choose(position, level, budget, rng, solver=_SOLVER)
    return choice._replace(column=choice.column + 1)


def _square_class(board) -> type:
    """The class Square of the board's own package: module square of the innermost package
    holding the module that defines the board's class (board_adt itself, a module it
    imports the class from, or the package's __init__); a board of plain modules on the
    path finds the plain module square."""
    defined_in = type(board).__module__
    is_package = hasattr(sys.modules.get(defined_in), "__path__")
    package = defined_in if is_package else defined_in.rpartition(".")[0]
    while package:
        try:
            module = importlib.import_module(f"{package}.square")
            break
        except ModuleNotFoundError as e:
            if e.name != f"{package}.square":
                raise
        package = package.rpartition(".")[0]
    else:
        module = importlib.import_module("square")
    require(hasattr(module, "Square"), "Player.Computer_Move", f"module {module.__name__} must define the class Square")
    return module.Square


def _position_of(board) -> solver.Position:
    """The solver's position of ``board``, read through Get_Value and Get_Current_Color."""
    Square = _square_class(board)
    to_move = board.Get_Current_Color()
    own = every = moves = 0
    for column in range(1, number_of_columns + 1):
        for row in range(1, number_of_rows + 1):
            value = board.Get_Value(Square(column, row))
            if value.empty:
                continue
            bit = 1 << ((column - 1) * (number_of_rows + 1) + (row - 1))
            every |= bit
            moves += 1
            if value.color == to_move:
                own |= bit
    return solver.Position(current=own, mask=every, moves=moves)


def _most_central(position: solver.Position) -> int:
    """The most central column (0-based) that is not full."""
    return next(column for column in solver.COLUMN_ORDER if position.can_play(column))
