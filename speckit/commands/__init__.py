"""The subcommands of the ``speckit`` command line, one module each, registered one way.

Every module here has ``register(commands)``, which adds its subcommands to the
``argparse`` subparsers ``commands`` and sets each one's ``run`` (a function of the parsed
arguments returning the exit status). :mod:`speckit.cli` calls them in the order of
:data:`speckit.cli.COMMANDS`. A command reports what the user got wrong by raising a
:class:`speckit.core.KitError`; the command line prints it, so no command catches one.
"""

from __future__ import annotations

import argparse

from .. import registry

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2

GRADE_REPORT = "grade-report"
"""The command ``speckit grade report DIR`` runs (``main`` reads the two words as this one)."""


def spec_option(parser: argparse.ArgumentParser) -> None:
    """Add ``--spec NAME``, defaulting to the kit's main specification."""
    main = registry.main_spec()
    parser.add_argument(
        "--spec",
        default=main,
        choices=registry.names(),
        help=f"the specification (default: {main}, the kit's main one)",
    )
