"""The kit's own source tree, copied as a bundle needs it."""

from __future__ import annotations

import shutil
from pathlib import Path

from ..core import UserError
from ..paths import REPO_ROOT

SKIPPED = shutil.ignore_patterns(
    "__pycache__", "*.pyc", ".venv", "_build", "*.egg-info", ".hypothesis", ".pytest_cache", ".git"
)
"""What no bundle carries: caches, environments and build output."""

KIT_PARTS = ("pyproject.toml", "README.md", "adt", "spec", "speckit", "reference_games", "tests")
"""The parts of the checkout an installed kit needs (the docs and benchmarks stay behind)."""


class BundleError(UserError):
    """A bundle cannot be built; the message names what is wrong."""


def checkout() -> Path:
    """The kit's checkout; a BundleError when the kit runs from an installed wheel instead."""
    if not (REPO_ROOT / "pyproject.toml").is_file():
        raise BundleError(
            f"bundles are built from the kit's source checkout, and {REPO_ROOT} is not one (no pyproject.toml)"
        )
    return REPO_ROOT


def copy_kit(target: Path) -> Path:
    """Copy the installable parts of the kit's checkout into ``target``; returns ``target``."""
    root = checkout()
    target.mkdir(parents=True, exist_ok=True)
    for part in KIT_PARTS:
        source = root / part
        if source.is_dir():
            shutil.copytree(source, target / part, ignore=SKIPPED)
        elif source.is_file():
            shutil.copy2(source, target / part)
    return target


def refuse_existing(path: Path, what: str) -> None:
    """A user's file is never replaced: a BundleError when ``path`` already exists."""
    if path.exists():
        raise BundleError(
            f"{path} already exists: choose another --out, or move it aside first (a bundle never replaces {what})"
        )
