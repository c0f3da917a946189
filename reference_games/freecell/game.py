"""The console game ``freecell``: Microsoft's numbered deals, played on any implementation of the MIS.

``freecell --deal 617`` plays deal 617 on the reference; ``freecell --impl PATH`` plays
on a student's package instead, since the board is set up and played only through the
MIS's routines (BoardT, setStack, setFree, setWin, the five moves, hasWon). Moves are
written in the standard notation (:mod:`.notation`); ``u`` undoes the last move, ``?``
asks for a hint, ``q`` (or end of input) leaves, and so does Ctrl-C (with status 130).
A hint is the next move of one solution (:mod:`.guide`), kept while the player follows
it, so that following hints wins every solvable deal.
``freecell --deal 617 --solve`` prints a solution as it is typed into the game (the
moves home the game makes by itself left out, unless ``--no-auto``) and exits; with
``--impl`` it also plays the solution on the package.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from collections.abc import Callable

from ..program_exit import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK, closed_output
from . import deals, guide, solver
from .notation import CELL_NAMES, Move, NotationError, card_name, parse
from .notation import card_name as _card_name

Card = tuple[str, int]
PLACEHOLDER = None
RED_SUITS = ("HEARTS", "DIAMONDS")

HELP = """\
Moves: 1a  cascade 1 to free cell a    a3  free cell a onto cascade 3
       3h  cascade 3 home              ah  free cell a home
       15  cascade 1 onto cascade 5
Other: u  undo    ?  hint    help  this text    q  quit"""

REASONS = {
    "InvalidIndex": "invalid index",
    "StackEmpty": "stack empty",
    "IsEmpty": "stack empty",
    "OccupiedCell": "occupied cell",
    "UnoccupiedCell": "unoccupied cell",
    "NotAlternatingColour": "not alternating colour",
    "NotDecendingRank": "not descending rank",
    "NotDecreasingRank": "not descending rank",
    "NotSameSuit": "not same suit",
    "NotAscendingRank": "not ascending rank",
}
"""The MIS's exceptions, by class name, in words."""


class Table:
    """An implementation's card_adt, stack_adt and board_adt modules, used only through the MIS's routines."""

    def __init__(self, card_adt, stack_adt, board_adt) -> None:
        self.card_adt, self.stack_adt, self.board_adt = card_adt, stack_adt, board_adt
        self.SuitT, self.RankT = card_adt.SuitT, card_adt.RankT

    def card(self, card: Card | None):
        if card is None:
            return self.card_adt.CardT(self.SuitT.NAS, self.RankT.NAR)
        return self.card_adt.CardT(self.SuitT[card[0]], self.RankT(card[1]))

    def model(self, value) -> Card | None:
        return (value.getSuit().name, int(value.getRank())) if value.isValid() else None

    def stack(self, cards) -> object:
        stack = self.stack_adt.StackT()
        for card in [None, *cards]:  # the placeholder at the bottom, as the MIS's invariant asks
            stack.addCard(self.card(card))
        return stack

    def new_board(self, position: solver.Position):
        board = self.board_adt.BoardT()
        self.set_up(board, position)
        return board

    def set_up(self, board, position: solver.Position) -> None:
        for i, cascade in enumerate(position.cascades):
            board.setStack(i, self.stack(cascade))
        for i, card in enumerate(position.cells):
            board.setFree(i, self.card(card))
        for i, card in enumerate(position.foundations):
            board.setWin(i, self.card(card))

    def read(self, board) -> solver.Position:
        cascades = []
        for i in range(8):
            stack = board.getStack(i)
            taken = []
            while stack.size() > 0:
                taken.append(stack.peek())
                stack.remCard()
            for value in reversed(taken):
                stack.addCard(value)
            cascades.append(tuple(c for c in map(self.model, reversed(taken)) if c is not None))
        cells = tuple(self.model(board.getFree(i)) for i in range(4))
        tops = tuple(self.model(board.getWin(i)) for i in range(4))
        return solver.Position(tuple(cascades), cells, tops)


def load_table(path: str | None) -> Table:
    """The reference's modules, or those of the package at ``path``; SystemExit with a message if they cannot be
    used."""
    if path is None:
        from . import board_adt, card_adt, stack_adt

        return Table(card_adt, stack_adt, board_adt)
    from speckit.playable import load_for_play

    implementation = load_for_play(path, "freecell", program="freecell", types=["BoardT", "CardT", "StackT"])
    return Table(*(implementation.module(name) for name in ("card_adt", "stack_adt", "board_adt")))


class Illegal(Exception):
    """A move the board refused, with the MIS's reason in words."""


class Game:
    """One game: the board, the moves made (for undo), automatic moves home."""

    def __init__(self, table: Table, position: solver.Position, *, auto: bool = True, ascii: bool = False,
                 max_states: int = 500_000) -> None:
        self.table = table
        self.ascii = ascii
        self.board = table.new_board(position)
        self.history: list[solver.Position] = []
        self.auto = auto
        self.max_states = max_states
        self._plan: guide.Plan | None = None
        self._unsolved: dict[guide.Key, guide.NoPlan] = {}

    @property
    def position(self) -> solver.Position:
        return self.table.read(self.board)

    def won(self) -> bool:
        return bool(self.board.hasWon())

    def move(self, move: Move) -> list[str]:
        """Make a move and then the automatic moves home; the moves made, in notation. Illegal if refused."""
        before = self.position
        move = _placed(move, before)
        try:
            getattr(self.board, move.routine)(move.source_index, move.target_index)
        except Exception as e:  # noqa: BLE001 - the implementation's own exception classes
            raise Illegal(reason(type(e).__name__, move, before, ascii=self.ascii)) from None
        self.history.append(before)
        made = [str(move)]
        if self.auto:
            made += [f"{m} (auto)" for m in self.auto_moves()]
        return made

    def auto_moves(self) -> list[Move]:
        """Move home every card that can safely go there, one at a time; the moves made."""
        made = []
        while True:
            position = self.position
            home = {card[0]: card[1] for card in position.foundations if card}
            found = None
            places = [("col", i, c[-1]) for i, c in enumerate(position.cascades) if c]
            places += [("free", i, c) for i, c in enumerate(position.cells) if c]
            for kind, index, card in places:
                if _safe_home(card, home):
                    found = _placed(Move(kind, index, "home", None), position)
                    break
            if found is None:
                return made
            getattr(self.board, found.routine)(found.source_index, found.target_index)
            made.append(found)

    def undo(self) -> bool:
        """Put the board back as it was before the last move (with its automatic moves); False if there is none."""
        if not self.history:
            return False
        self.table.set_up(self.board, self.history.pop())
        return True

    def hint(self) -> str:
        """The next move of the plan being followed, or of a new plan from here; or why there is none."""
        position = self.position
        move = self._plan.next_move(position) if self._plan else None
        if move is None:
            found = self._unsolved.get(guide.key(position)) or guide.plan(
                position, self.twin, max_states=self.max_states
            )
            if isinstance(found, guide.NoPlan):
                self._unsolved[guide.key(position)] = found
                if found.proven:
                    return "no solution exists from here: undo some moves"
                return f"no solution found within {self.max_states:,} positions (there may still be one)"
            self._plan = found
            move = found.next_move(position)
        return f"try {move}" if move is not None else "you have won"

    def twin(self, position: solver.Position) -> Game:
        """A game on the reference from ``position``, playing home moves as this one does: where plans are worked
        out."""
        return Game(load_table(None), position, auto=self.auto)


def _safe_home(card: Card, home: dict) -> bool:
    suit, rank = card
    if rank != home.get(suit, 0) + 1:
        return False
    others = ("SPADES", "CLUBS") if suit in RED_SUITS else RED_SUITS
    return rank <= 2 or all(home.get(s, 0) >= rank - 1 for s in others)


def _placed(move: Move, position: solver.Position) -> Move:
    """A move home given the foundation it goes to: its suit's, else an empty one (only an ace may start it)."""
    if move.target != "home":
        return move
    card = _card_at(position, move)
    tops = position.foundations
    suits = [top[0] if top else None for top in tops]
    if card is not None and card[0] in suits:
        slot = suits.index(card[0])
    elif None in suits:
        slot = suits.index(None)
    else:
        slot = 0
    return Move(move.source, move.source_index, "home", slot)


def _namer(ascii: bool) -> Callable:
    return lambda card: _card_name(card, ascii=ascii)


def _card_at(position: solver.Position, move: Move) -> Card | None:
    if move.source == "col":
        cascade = position.cascades[move.source_index]
        return cascade[-1] if cascade else None
    return position.cells[move.source_index]


def reason(exception: str, move: Move, position: solver.Position, *, ascii: bool = False) -> str:
    """Why the board refused ``move``, as the MIS names it, with the cards involved."""
    words = REASONS.get(exception, f"refused ({exception})")
    card_name = _namer(ascii)
    name = card_name(_card_at(position, move))
    if exception in ("StackEmpty", "IsEmpty"):
        return f"{words}: cascade {move.source_index + 1} has no card"
    if exception == "UnoccupiedCell":
        return f"{words}: free cell {CELL_NAMES[move.source_index]} is empty"
    if exception == "OccupiedCell":
        held = card_name(position.cells[move.target_index])
        return f"{words}: free cell {CELL_NAMES[move.target_index]} already holds {held}"
    if move.target == "col":
        top = position.cascades[move.target_index][-1] if position.cascades[move.target_index] else None
        return f"{words}: {name} cannot go on {card_name(top)}"
    if move.target == "home":
        top = position.foundations[move.target_index]
        if top is None:
            return f"{words}: only an ace can start a foundation, not {name}"
        return f"{words}: {name} cannot go on {card_name(top)}"
    return words


# Showing the board ---------------------------------------------------------------------------


def render(position: solver.Position, *, colour: bool = False, ascii: bool = False) -> str:
    """The board: free cells and foundations above, the cascades below, column numbers on top."""

    def show(card: Card | None) -> str:
        text = card_name(card, ascii=ascii).rjust(3) if card else " --"  # "10" is written T, so 3 columns do
        if colour and card and card[0] in RED_SUITS:
            return f"\033[31m{text}\033[0m"
        return text

    lines = ["free cells          foundations"]
    lines.append("".join(f"  {c} " for c in CELL_NAMES) + "    " + "".join("  h " for _ in range(4)))
    cells, foundations = ("".join(f"{show(c)} " for c in row) for row in (position.cells, position.foundations))
    lines.append(cells + "    " + foundations)
    lines.append("")
    lines.append("".join(f"  {i} " for i in range(1, 9)))
    height = max((len(c) for c in position.cascades), default=0)
    for row in range(height):
        cells = [f"{show(c[row])} " if row < len(c) else "    " for c in position.cascades]
        lines.append("".join(cells).rstrip())
    return "\n".join(lines)


# The program -------------------------------------------------------------------------------------


def solution_text(position: solver.Position, *, auto: bool, max_states: int) -> tuple[str, guide.Plan | None]:
    """A solution as typed into a game that does (``auto``) or does not make the safe moves home by itself."""
    found = guide.plan(position, lambda p: Game(load_table(None), p, auto=auto), max_states=max_states)
    if isinstance(found, guide.NoPlan):
        if found.proven:
            return f"No solution exists: all {found.searched:,} positions reachable were searched.", None
        return f"No solution found within {max_states:,} positions.", None
    moves = [str(move) for move in found.moves]
    rows = [" ".join(moves[i:i + 16]) for i in range(0, len(moves), 16)]
    typed = "the game moves safe cards home by itself" if auto else "every move home included (--no-auto)"
    head = f"Solution in {len(moves)} moves as typed, {typed} ({found.searched:,} positions searched):"
    return "\n".join([head, *rows]), found


def played_on(table: Table, position: solver.Position, plan: guide.Plan, *, auto: bool) -> str | None:
    """Play ``plan`` on ``table``'s board: None when it wins there, else what went wrong."""
    game = Game(table, position, auto=auto)
    for number, move in enumerate(plan.moves, 1):
        try:
            game.move(move)
        except Illegal as e:
            return f"move {number} ({move}) was refused: {e}"
    return None if game.won() else "after the last move, hasWon() is false"


def _arguments(argv):
    parser = argparse.ArgumentParser(
        prog="freecell", description="Play Freecell on the terminal: Microsoft's numbered deals, the standard notation."
    )
    parser.add_argument(
        "--deal",
        type=int,
        metavar="N",
        help=f"the deal to play, {deals.FIRST} to {deals.LAST:,} (default: a random one up to 32000)",
    )
    parser.add_argument(
        "--impl",
        metavar="PATH",
        help="play on this package's card_adt, stack_adt and board_adt (default: the reference)",
    )
    parser.add_argument(
        "--solve",
        action="store_true",
        help="print a solution of the deal, as typed into the game, and exit (with --impl: played on the package too)",
    )
    parser.add_argument(
        "--max-states",
        type=int,
        default=500_000,
        metavar="N",
        help="how many positions the solver may search (default 500,000)",
    )
    parser.add_argument("--no-auto", action="store_true", help="do not move cards home automatically")
    parser.add_argument(
        "--no-colour", action="store_true", help="no colour (also when NO_COLOR is set or output is not a terminal)"
    )
    parser.add_argument("--ascii", action="store_true", help="suits as letters S, C, H, D instead of symbols")
    args = parser.parse_args(argv)
    if args.deal is not None and not deals.FIRST <= args.deal <= deals.LAST:
        parser.error(f"--deal {args.deal}: deals go from {deals.FIRST} to {deals.LAST:,}")
    if args.max_states < 1:
        parser.error("--max-states must be at least 1")
    return args


def main(argv: list[str] | None = None, *, read: Callable[[str], str] = input, out=None) -> int:
    out = out or sys.stdout
    args = _arguments(argv)
    try:
        return _run(args, read, out)
    except KeyboardInterrupt:
        print("\nInterrupted: goodbye.", file=out, flush=True)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        return closed_output()


def _run(args, read: Callable[[str], str], out) -> int:
    number = args.deal if args.deal is not None else random.randint(1, 32000)
    start = solver.Position(tuple(map(tuple, deals.deal(number))))
    table = load_table(args.impl)
    if args.solve:
        return _solve(args, number, start, table, out)
    colour = not args.no_colour and "NO_COLOR" not in os.environ and getattr(out, "isatty", lambda: False)()
    game = Game(table, start, auto=not args.no_auto, ascii=args.ascii, max_states=args.max_states)

    def say(*lines: str) -> None:
        print(*lines, sep="\n", file=out, flush=True)

    say(f"Freecell, deal #{number}. Type help for the moves.")
    made = [f"{m} (auto)" for m in game.auto_moves()] if game.auto else []
    if made:
        say("Moved home: " + ", ".join(made))
    try:
        while True:
            say("", render(game.position, colour=colour, ascii=args.ascii))
            if game.won():
                say("", f"You won deal #{number}!")
                return EXIT_OK
            command = read("\nmove> ").strip().lower()
            if not command:
                continue
            if command in ("q", "quit", "exit"):
                say("Goodbye.")
                return EXIT_OK
            if command in ("help", "h?"):
                say(HELP)
                continue
            if command == "u":
                say("Undone." if game.undo() else "Nothing to undo.")
                continue
            if command == "?":
                say("Thinking ...")
                say("Hint: " + game.hint())
                continue
            try:
                say("Moved: " + ", ".join(game.move(parse(command))))
            except NotationError as e:
                say(f"{e}. Type help for the moves.")
            except Illegal as e:
                say(f"Illegal move: {e}.")
    except EOFError:
        say("", "Goodbye.")
        return EXIT_OK


def _solve(args, number: int, start: solver.Position, table: Table, out) -> int:
    """``--solve``: print the solution; with ``--impl``, play it on the package and say how that went."""
    auto = not args.no_auto
    text, plan = solution_text(start, auto=auto, max_states=args.max_states)
    print(f"Deal #{number}\n{text}", file=out, flush=True)
    if plan is None:
        return EXIT_FAILED
    if args.impl is not None:
        trouble = played_on(table, start, plan, auto=auto)
        verdict = "the solution wins." if trouble is None else f"{trouble}."
        print(f"Played on {args.impl}: {verdict}", file=out, flush=True)
        return EXIT_OK if trouble is None else EXIT_FAILED
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
