"""The program of the assignment: ``xplus SIZE LENGTH MAX_LEVELS``, a person against the computer.

It mirrors the course's ``java Play size length max_levels``: the board is drawn with
its row and column numbers, the person (``X``, blue) plays first and types a row and
a column, which are checked before they are played; the computer (``O``, red) answers
with the supplied search, :meth:`Play.computerPlay`, and says where it played, until
one of them forms a shape of at least LENGTH tiles or the board is full. ``--impl PATH``
plays on the Configurations of the package at PATH (a student's) instead of the
reference; ``--stats`` shows the search's hash dictionary after each computer move.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import TextIO

import attrs

from ..program_exit import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK, closed_output
from .play import COMPUTER, COMPUTER_WINS, DRAW, HUMAN, HUMAN_WINS, Play

MIN_SIZE, MAX_SIZE = 3, 26
"""The smallest board a shape fits on (a centre and four arms), and the largest the program draws."""
SMALLEST_SHAPE = 5
"""Tiles in the smallest shape: a centre and four arms of one tile."""
SLOW_SEARCH = 13
"""Boards with SIZE + MAX_LEVELS at least this may keep the computer thinking for a minute or more a move
(5 x 5 at 8 levels takes about 2 s, 6 x 6 at 7 levels about 7 s, 5 x 5 at 10 levels about 30 s)."""

EPILOG = """\
The computer tries the squares row by row and keeps the first of equally good plays, as
the assignment's search does: its first move is row 0, column 0 at every size and level
unless another square scores better. That is the assignment's rule, not a bug."""


def draw(configurations, size: int) -> str:
    """The board with its column numbers above and its row numbers on the left."""
    width = len(str(size - 1))
    rule = " " * (width + 1) + "+---" * size + "+"
    lines = [" " * (width + 1) + "".join(f" {col:^3}" for col in range(size)), rule]
    for row in range(size):
        squares = []
        for col in range(size):
            squares.append(" " if configurations.squareIsEmpty(row, col) else _symbol_on(configurations, row, col))
        lines.append(f"{row:>{width}} | " + " | ".join(squares) + " |")
        lines.append(rule)
    return "\n".join(lines)


def _symbol_on(configurations, row: int, col: int) -> str:
    """The tile on a square that is not empty, read from the board variable of the contract."""
    return str(configurations.board[row][col])


def read_play(configurations, size: int, ask, out: TextIO) -> tuple[int, int] | None:
    """The person's next play, asked until it is a free square; None at the end of input."""
    while True:
        try:
            answer = ask(f"Your play (row and column, 0 to {size - 1}): ")
        except EOFError:
            return None
        parts = answer.replace(",", " ").split()
        if len(parts) != 2 or not all(p.lstrip("-").isdigit() for p in parts):
            print("Please type two whole numbers, the row and the column, for example: 1 2", file=out)
            continue
        row, col = int(parts[0]), int(parts[1])
        if not (0 <= row < size and 0 <= col < size):
            print(f"There is no square ({row}, {col}): rows and columns go from 0 to {size - 1}.", file=out)
            continue
        if not configurations.squareIsEmpty(row, col):
            print(f"The square ({row}, {col}) is taken; choose an empty one.", file=out)
            continue
        return row, col


def outcome(configurations) -> int | None:
    """HUMAN_WINS, COMPUTER_WINS or DRAW once the game is over; None while it goes on."""
    if configurations.wins(HUMAN):
        return HUMAN_WINS
    if configurations.wins(COMPUTER):
        return COMPUTER_WINS
    if configurations.isDraw():
        return DRAW
    return None


RESULTS = {HUMAN_WINS: "You win!", COMPUTER_WINS: "The computer wins.", DRAW: "The game is a draw."}


def play_game(configurations, size: int, max_levels: int, *, ask=input, out: TextIO | None = None,
              stats: bool = False) -> int | None:
    """Play one game to its end; its result, or None if the person left. ``out`` defaults to standard output;
    ``stats`` shows the search's dictionary after each computer move."""
    out = out or sys.stdout
    game = Play(configurations, size, max_levels)
    print(draw(configurations, size), file=out)
    while True:
        move = read_play(configurations, size, ask, out)
        if move is None:
            print("\nGoodbye.", file=out)
            return None
        configurations.savePlay(*move, HUMAN)
        print(f"You play row {move[0]}, column {move[1]}.", file=out)
        result = outcome(configurations)
        if result is None:
            print("The computer is thinking ...", file=out, flush=True)
            started = time.monotonic()
            reply = game.computerPlay(COMPUTER, HUMAN_WINS, COMPUTER_WINS, 0)
            configurations.savePlay(reply.getRow(), reply.getCol(), COMPUTER)
            seconds = time.monotonic() - started
            print(f"The computer plays row {reply.getRow()}, column {reply.getCol()}.", file=out)
            if seconds >= 1:
                print(f"(It thought for {seconds:.1f} s.)", file=out)
            if stats:
                print(describe_dictionary(game.dictionary), file=out)
            result = outcome(configurations)
        print(draw(configurations, size), file=out)
        if result is not None:
            print(RESULTS[result], file=out)
            return result


def describe_dictionary(dictionary) -> str:
    """One line on the dictionary of the last search: its records and, for the reference's table, how they spread."""
    if dictionary is None:
        return "Dictionary: none (the search ended at once)."
    records = dictionary.numRecords()
    table = _reference_table(dictionary)
    if table is None:
        return f"Dictionary: {records:,} records (the package's table is private to it)."
    return (f"Dictionary: {records:,} records in {table.size:,} slots (load factor {table.load_factor:.2f}), "
            f"{table.collisions:,} collisions, longest chain {table.longest_chain}.")


@attrs.frozen
class TableStats:
    """How a hash table's records spread over its slots."""

    size: int
    records: int
    collisions: int
    """Records put into a slot that already held one (what put's results add up to, with no removals)."""
    longest_chain: int

    @property
    def load_factor(self) -> float:
        return self.records / self.size


def _reference_table(dictionary) -> TableStats | None:
    """How the reference's table spreads its records, when ``dictionary`` is the reference's HashDictionary; else None.

    The reference is reached by name, as :func:`configurations_class` reaches it, so that
    the student bundle ships this program without it. Its table is a list of chains, which
    the program reads directly: no operation of the dictionary tells a slot's records."""
    from speckit.playable import reference_module

    try:
        module = reference_module("xplus", "hash_dictionary", program="xplus")
    except SystemExit:  # a kit without the reference: the dictionary is the package's own
        return None
    if not isinstance(dictionary, module.HashDictionary):
        return None
    chains = [len(chain) for chain in dictionary._table]
    return TableStats(len(chains), sum(chains), sum(chains) - sum(1 for n in chains if n), max(chains, default=0))


def configurations_class(impl: str | None):
    """The Configurations class of the package at ``impl``, or the reference's (reached by name,
    so that the student bundle ships this program without it)."""
    from speckit.playable import load_for_play, reference_module

    if impl is None:
        return reference_module("xplus", "configurations", program="xplus").Configurations

    module = load_for_play(impl, "xplus", program="xplus", types=["Configurations"]).module("configurations")
    cls = getattr(module, "Configurations", None)
    if not isinstance(cls, type):
        raise SystemExit(f"xplus: {impl}: module configurations has no class Configurations")
    return cls


def _arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="xplus",
        description=(
            "Play the X+Game against the computer: form an X-shape or a +shape of at least LENGTH tiles to win."
        ),
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("size", type=int, metavar="SIZE", help="the number of rows and columns of the board")
    parser.add_argument("length", type=int, metavar="LENGTH", help="the length of shape that wins (at least 1)")
    parser.add_argument(
        "max_levels", type=int, metavar="MAX_LEVELS", help="how many levels deep the computer searches (at least 1)"
    )
    parser.add_argument("--impl", metavar="PATH", help="play on the Configurations of the package at PATH")
    parser.add_argument(
        "--stats",
        action="store_true",
        help="after each computer move, show the hash dictionary of its search: records, table size, load factor, "
        "collisions, longest chain",
    )
    args = parser.parse_args(argv)
    if not MIN_SIZE <= args.size <= MAX_SIZE:
        parser.error(
            f"SIZE must be from {MIN_SIZE} to {MAX_SIZE} (got {args.size}): the smallest shape needs a 3 x 3 board"
        )
    if args.length < 1:
        parser.error(f"LENGTH must be at least 1 (got {args.length})")
    if args.max_levels < 1:
        parser.error(f"MAX_LEVELS must be at least 1 (got {args.max_levels})")
    return args


def goal(size: int, length: int) -> str:
    """What wins, in words, with what LENGTH means on this board."""
    text = f"Form an X-shape or a +shape of at least {length} tiles to win."
    if length <= SMALLEST_SHAPE:
        text = (
            "Form an X-shape or a +shape to win: "
            f"every shape has at least {SMALLEST_SHAPE} tiles, so any shape will do."
        )
    elif length > 2 * size - 1:
        text += (
            f" No shape that long fits on a {size} x {size} board (at most {2 * size - 1} tiles): every game is a draw."
        )
    return text


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``xplus`` console script."""
    args = _arguments(argv)
    cls = configurations_class(args.impl)
    print(f"The X+Game on a {args.size} x {args.size} board: you are X (blue), the computer is O (red).")
    print(goal(args.size, args.length) + " You play first.")
    if args.size + args.max_levels >= SLOW_SEARCH:
        print(f"The computer searches {args.max_levels} levels: on this board a move may take a minute or more; "
              "fewer levels answer sooner.")
    try:
        play_game(cls(args.size, args.length, args.max_levels), args.size, args.max_levels, stats=args.stats)
    except KeyboardInterrupt:
        print("\nInterrupted: goodbye.")
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        return closed_output()
    except Exception as e:  # a student's Configurations may fail in any way (re-raised for the kit's own)
        if args.impl is None:
            raise
        print(f"xplus: the Configurations of {args.impl} failed: {type(e).__name__}: {e}", file=sys.stderr)
        return EXIT_FAILED
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
