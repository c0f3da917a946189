"""The specifications the kit knows, with their reference implementation and suite folder."""

from __future__ import annotations

from pathlib import Path

import attrs

from .paths import REPO_ROOT, suite_root


@attrs.frozen
class Kit:
    """One specification's executable parts."""

    spec: str
    reference: str
    """The reference implementation, as an importable package name."""

    @property
    def reference_dir(self) -> Path:
        return REPO_ROOT.joinpath(*self.reference.split("."))

    @property
    def suite_dir(self) -> Path:
        return suite_root() / self.spec

    @property
    def zoo_dir(self) -> Path:
        return suite_root() / "zoo" / self.spec


KITS = {
    "connect4": Kit("connect4", "adt"),
    "boardadt": Kit("boardadt", "reference_games.boardadt"),
}


def kit(name: str) -> Kit:
    """The kit of the specification called ``name``; a one-line error for an unknown name."""
    try:
        return KITS[name]
    except KeyError:
        raise KeyError(f"no specification called {name!r} (known: {', '.join(sorted(KITS))})") from None
