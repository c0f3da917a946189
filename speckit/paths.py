"""Where the kit's own files are, in a checkout and in an installed wheel alike.

A specification's ``[kit]`` table names its folders relative to the kit's root, the
folder holding ``spec/`` and ``tests/`` in a checkout. A wheel installs the packages
(``adt``, ``spec``, ``speckit``, ``reference_games``) side by side as usual and maps the
rest of what the kit runs (``tests/``: the suites, the zoo, the alternative
implementations) into :data:`BUNDLED`; :func:`kit_path` looks in both.
"""

from __future__ import annotations

from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
"""The folder holding the kit's packages: the checkout, or site-packages when installed."""

BUNDLED = Path(__file__).resolve().parent / "_kit"
"""In an installed wheel, the kit's folders that are not packages (``tests/``); absent in a checkout."""


def kit_roots() -> tuple[Path, ...]:
    """The folders a path of the spec data is relative to, in the order they are searched."""
    return (BUNDLED, REPO_ROOT) if BUNDLED.is_dir() else (REPO_ROOT,)


def kit_path(relative: str | Path) -> Path:
    """Where a path of the spec data (``tests/connect4``) is in this installation.

    The first root that has it; a path no root has is given under the first root, so a
    message about it names a plausible place.
    """
    roots = kit_roots()
    return next((root / relative for root in roots if (root / relative).exists()), roots[0] / relative)


def suite_root() -> Path:
    """The folder holding the conformance suites and every other test of the kit's specifications."""
    return kit_path("tests")


def package_base(path: Path) -> Path:
    """The folder above the outermost package holding ``path``: for ``tests/connect4/test_index.py``,
    the folder holding ``tests``. Test ids are relative to it, so they read the same in a
    checkout, an installed kit and a grader's copy of a suite."""
    folder = path.resolve() if path.is_dir() else path.resolve().parent
    while (folder / "__init__.py").is_file():
        folder = folder.parent
    return folder
