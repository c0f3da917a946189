"""The suites are fair to packages written independently, from the documentation alone.

Each package in ``tests/fixtures/independent/<spec>`` was written from its specification's
documentation and errata without reading the reference, making the unusual choices the
documents leave open (its ``__init__`` and modules say which). Each found places where
a suite rejected a reading the document allows; those were mended, and these tests keep
them mended:

* boardadt: a player of its own without the kit's ``level`` (B14), no colour on an empty
  square's record (B09);
* boardadt with its Board class moved into the package's ``__init__`` and the kit's
  player (made from it by :func:`board_in_init`): the kit's player must find the
  package's Square from there;
* connect4: the optional ColourType.clone left out (E05), the winner announced by colour;
* connect4_trees: the last of tied children from findBest (E44), the result announced
  before the final grid (E46);
* connect4_2015: unhashable Space members, an IndexError subclass off the grid (S03, S04),
  named-tuple pairs and a deque of pairs (in the sandbox, S11);
* freecell: a full target cell refused before an empty source cascade (F25);
* xplus: a local variable named ``hash`` and ``__hash__ = None`` (XR1), ``self.board``
  assigned by a base class (XR2), and DictionaryException subclasses.

The packages keep their own randomness seeded, so that they run alike every time.
"""

import shutil
from pathlib import Path

import pytest

from speckit.runner import run_suite

INDEPENDENT = Path(__file__).resolve().parents[1] / "fixtures" / "independent"
FOLDERS = sorted(p.name for p in INDEPENDENT.iterdir() if (p / "__init__.py").is_file())
OTHER_NAMES = {"connect4_trees": "connect4"}
"""The packages whose folder is not named after the specification they implement."""


def spec_of(folder: str) -> str:
    return OTHER_NAMES.get(folder, folder)


def board_in_init(target: Path) -> Path:
    """The independent BoardADT package with its Board class defined in the package's
    ``__init__`` (board_adt re-exports it) and the kit's player instead of its own."""
    shutil.copytree(INDEPENDENT / "boardadt", target, ignore=shutil.ignore_patterns("__pycache__"))
    (target / "__init__.py").write_text((target / "board_adt.py").read_text(encoding="utf-8"), encoding="utf-8")
    (target / "board_adt.py").write_text(
        "from . import Board, MoveRefused, number_of_columns, number_of_rows  # noqa: F401 - re-exported\n",
        encoding="utf-8",
    )
    (target / "player.py").write_text(
        "from reference_games.boardadt.player import Computer_Move  # noqa: F401 - re-exported\n", encoding="utf-8"
    )
    return target


def _passes(spec_name: str, package: Path, *extra: str) -> None:
    run = run_suite(spec_name, package, extra=extra)
    assert not run.crash, run.crash
    assert run.tests, "the suite ran no test"
    failures = [f"{t.test}\n{t.message}" for t in run.failed_tests()]
    assert not failures, f"{len(failures)} tests fail a correct independent package:\n\n" + "\n\n".join(failures[:5])


@pytest.mark.parametrize("folder", FOLDERS)
def test_an_independent_correct_package_passes_its_suite(folder):
    _passes(spec_of(folder), INDEPENDENT / folder)


def test_the_kits_player_serves_a_board_defined_in_the_packages_init(tmp_path):
    _passes("boardadt", board_in_init(tmp_path / "boardadt"))


@pytest.mark.slow
@pytest.mark.parametrize("folder", ["boardadt", "connect4_2015", "xplus"])
def test_an_independent_correct_package_passes_its_suite_in_the_sandbox(folder):
    _passes(spec_of(folder), INDEPENDENT / folder, "--sandbox")
