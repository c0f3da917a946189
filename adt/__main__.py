"""``python -m adt``: play Connect-4 at the terminal (the same as the ``connect4`` command)."""

import sys

from .driver import main

if __name__ == "__main__":
    sys.exit(main())
