"""The ``speckit`` command line: check an implementation, show coverage, write a skeleton, run the zoo
and the readings, grade, build bundles. Each subcommand lives in a module of :mod:`speckit.commands`."""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading

from . import __version__
from .commands import (
    EXIT_FAILED,
    EXIT_OK,
    EXIT_USAGE,
    GRADE_REPORT,
    bundle,
    check,
    grade,
    mutants,
    specification,
    variants,
)
from .core import KitError
from .escape import terminal

__all__ = ["COMMANDS", "EXIT_FAILED", "EXIT_OK", "EXIT_USAGE", "main"]

COMMANDS = (check, specification, variants, mutants, grade, bundle)
"""The modules whose ``register(commands)`` adds the subcommands, in the order ``--help`` lists them."""


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``speckit`` console script."""
    argv = sys.argv[1:] if argv is None else list(argv)
    for argument in argv:
        try:
            argument.encode("utf-8")
        except UnicodeEncodeError:
            shown = os.fsencode(argument).decode("utf-8", "backslashreplace")
            print(
                f"speckit: {shown}: the name is not valid UTF-8, which Python packages need; rename it", file=sys.stderr
            )
            return EXIT_USAGE
    if argv[:2] == ["grade", "report"]:
        argv = [GRADE_REPORT, *argv[2:]]  # a command of its own, under grade's name (see _parser)
    parser = _parser()
    subcommands: dict[str | None, argparse.ArgumentParser] = {}
    for action in parser._subparsers._group_actions if parser._subparsers else ():
        subcommands.update(getattr(action, "choices", None) or {})
    args, unknown = parser.parse_known_args(argv)
    if unknown:
        # The usage of the subcommand the unknown option was given to, not the top-level one.
        (subcommands.get(getattr(args, "command", None)) or parser).error(
            f"unrecognized arguments: {' '.join(unknown)}"
        )
    if not getattr(args, "command", None):
        parser.print_help()
        return EXIT_USAGE
    previous = (
        signal.signal(signal.SIGTERM, _terminated) if threading.current_thread() is threading.main_thread() else None
    )
    try:
        return args.run(args)
    except KeyboardInterrupt:
        print("speckit: interrupted", file=sys.stderr)
        return 130
    except (KitError, OSError) as e:
        # What the user gave is wrong, or the system refused: a message, not a traceback, with any
        # control character of an untrusted name shown escaped. Any other exception is a bug of the
        # kit and keeps its traceback.
        print(f"speckit: {terminal(str(e))}", file=sys.stderr)
        return EXIT_USAGE
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _terminated(signum, frame) -> None:
    """SIGTERM (``kill``) stops the command as Ctrl-C does, so its children and temporary folders go too."""
    raise KeyboardInterrupt


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="speckit",
        description="Executable ADT specifications: check an implementation against its specification.",
    )
    parser.add_argument("--version", action="version", version=f"speckit {__version__}")
    commands = parser.add_subparsers(title="commands", metavar="COMMAND", dest="command")
    for command in COMMANDS:
        command.register(commands)
    return parser


if __name__ == "__main__":
    sys.exit(main())
