"""The suites are fair to packages written independently, from the documentation alone.

Each package in ``tests/fixtures/independent/<spec>`` was written from its specification's
documentation and errata without reading the reference, making the unusual choices the
documents leave open (its ``__init__`` and modules say which). Each found places where
a suite rejected a reading the document allows; those were mended, and these tests keep
them mended:

* boardadt: a player of its own without the kit's ``level`` (B14), no colour on an empty
  square's record (B09);
* boardadt_kit_player: the class Board defined in the package's ``__init__`` (the kit's
  player must find the package's Square from there);
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

from pathlib import Path

import pytest

from speckit.runner import run_suite

INDEPENDENT = Path(__file__).resolve().parents[1] / "fixtures" / "independent"
SPECIFICATION = {
    "boardadt": "boardadt", "boardadt_kit_player": "boardadt", "connect4": "connect4", "connect4_trees": "connect4",
    "connect4_2015": "connect4_2015", "freecell": "freecell", "xplus": "xplus",
}
"""Each package's folder, and the specification it implements."""


def _passes(folder: str, *extra: str) -> None:
    run = run_suite(SPECIFICATION[folder], INDEPENDENT / folder, extra=extra)
    assert not run.crash, run.crash
    assert run.tests, "the suite ran no test"
    failures = [f"{t.test}\n{t.message}" for t in run.failed_tests()]
    assert not failures, f"{len(failures)} tests fail a correct independent package:\n\n" + "\n\n".join(failures[:5])


@pytest.mark.parametrize("folder", sorted(SPECIFICATION))
def test_an_independent_correct_package_passes_its_suite(folder):
    _passes(folder)


@pytest.mark.slow
@pytest.mark.parametrize("folder", ["boardadt", "connect4_2015", "xplus"])
def test_an_independent_correct_package_passes_its_suite_in_the_sandbox(folder):
    _passes(folder, "--sandbox")
