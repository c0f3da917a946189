"""``connect4-2015``: play the 2015 design on the terminal, or with ``--gui`` in a window.

``--impl PATH`` plays on a student's package (its controller, on the kit's view) instead
of the reference; ``--seed`` and ``--strength`` set the reference's random choices and
the strength of its computer player. The reference keeps its saved game, under the
report's file name ``Saved_Game.txt``, in the user's data folder (``--save-file``
chooses another), so a game saved in one folder is loaded from any other; a package's
controller keeps it where it chooses (the report's: the working folder).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from pathlib import Path

from .player import STRENGTHS
from .view import colour_name


def default_save_file() -> Path:
    """``Saved_Game.txt`` in the program's folder of the user's data folder (``$XDG_DATA_HOME``, else
    ~/.local/share)."""
    data = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(data) / "connect4-2015" / "Saved_Game.txt"


def save_file(args: argparse.Namespace) -> Path:
    """Where the reference keeps the saved game (its folder made if need be)."""
    path = Path(args.save_file).expanduser() if args.save_file else default_save_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def controller_factory(args: argparse.Namespace) -> tuple[Callable, Callable]:
    """A function making a controller on a view, the reference's or the package's at ``--impl``,
    and the function naming that package's Space members ("Red", "Blue", "Empty")."""
    if args.impl is None:
        from .controller import Controller

        saved = save_file(args)
        def controller(view, **kw):
            return Controller(view, seed=args.seed, strength=args.strength, save_path=saved, **kw)

        return controller, colour_name
    from speckit.playable import load_for_play

    implementation = load_for_play(args.impl, "connect4_2015", program="connect4-2015", types=["controller"])
    module = implementation.module("controller")
    cls = getattr(module, "Controller", None)
    if not isinstance(cls, type):
        raise SystemExit(f"connect4-2015: {args.impl}: module controller has no class Controller")
    try:
        space = implementation.module("space").Space
        members = {name: getattr(space, name) for name in ("Red", "Blue", "Empty")}
    except (AssertionError, AttributeError) as e:
        raise SystemExit(f"connect4-2015: {args.impl}: no enumeration Space with Red, Blue and Empty ({e})") from None

    def name(colour) -> str:
        return next((n for n, member in members.items() if colour == member), "Empty")

    return (lambda view, **kw: cls(view)), name


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="connect4-2015", description="Connect Four as Team Static Void designed it in 2015."
    )
    p.add_argument("--gui", action="store_true", help="play in a window (tkinter) instead of the terminal")
    p.add_argument("--impl", metavar="PATH", help="play on the package at PATH instead of the reference")
    p.add_argument("--seed", type=int, help="seed for who starts and the computer's random choices (reference only)")
    p.add_argument("--strength", choices=STRENGTHS, default="report",
                   help="the computer: the report's heuristic (default) or perfect play (BoardADT solver)")
    p.add_argument("--ai-delay", type=float, default=1.0, metavar="SECONDS",
                   help="in the window, the pause before the computer's move (the report waits 3 s; default 1)")
    p.add_argument("--save-file", metavar="PATH",
                   help=f"where the reference saves and loads the game (default: {default_save_file()})")
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.impl is not None and (args.seed is not None or args.strength != "report" or args.save_file):
        print(
            "connect4-2015: --seed, --strength and --save-file apply to the reference only; ignored with --impl",
            file=sys.stderr,
        )
    try:
        make, name = controller_factory(args)
    except OSError as e:
        print(f"connect4-2015: cannot keep a saved game in {e.filename}: {e.strerror}", file=sys.stderr)
        return 2
    if args.gui:
        from .window import run_window

        return run_window(make, ai_delay=args.ai_delay, name=name)
    from .console import run_console

    saved = "the package's own place" if args.impl else str(save_file(args))
    return run_console(make, name=name, saved=saved)


if __name__ == "__main__":
    sys.exit(main())
