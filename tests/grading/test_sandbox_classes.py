"""The sandbox with class-based specifications: what their tests hand over and get back.

Containers of plain values come back by value; an object of a class the specification
serves (a recording fake) is mirrored and shows what the implementation did to it; a
list the test passes is updated in place as in process; an exception an operation is
documented to raise reaches the test at the call, naming its class only when the class
is a builtin or the kit's own (else its nearest ancestor that is); a value read through a
module stays usable by a pending call after the test drops it; a sequence of another type
iterates and indexes through its handle.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import spec as spec_data
from speckit.core import OperationFailed
from speckit.registry import kit
from speckit.sandbox import Handle, SandboxConfig, load_sandboxed

C2015 = spec_data.load("connect4_2015")
XPLUS = spec_data.load("xplus")


def _load(package, specification):
    return load_sandboxed(package, specification, SandboxConfig())


@pytest.fixture(scope="module")
def design():
    implementation = _load(kit("connect4_2015").reference_dir, C2015)
    yield implementation
    implementation.close()


def _space(implementation, name: str):
    return getattr(implementation.module("space").Space, name)


def test_a_list_of_pairs_comes_back_by_value_and_a_value_read_again_is_the_same_handle(design):
    grid = design.grid.Grid()
    design.grid.setSpace(grid, 0, 0, _space(design, "Red"))
    moves = design.player.aiTurn(design.player.Player(_space(design, "Blue"), True), grid)
    assert type(moves) in (list, tuple) and len(moves) == 2 and all(type(c) is int for c in moves)
    assert _space(design, "Red") is _space(design, "Red")


def test_a_recording_view_is_mirrored_with_the_implementations_values_in_it(design):
    from reference_games.connect4_2015.view import RecordingView

    view = RecordingView()
    controller = design.controller.Controller(view)
    assert view.screen == "start"
    design.controller.Start(controller, 0)
    assert view.screen == "board"
    red = _space(design, "Red")
    design.controller.onRedClick(controller)
    assert not view.shows(red), "the clicked piece is hidden: the view's dict is keyed by the handle the test holds"
    design.controller.onGridClick(controller, 2, 0)
    assert view.discs == {(2, 0): red}
    assert view.called("placePiece") == 1


ROWS = ["BRBR", "RBRB", "BRBR", "BRB", "RRR"]
"""A grid, bottom row first, where a red disc on (3, 4) would complete four: (3, 3) supports it."""


def test_a_list_the_test_passes_is_updated_in_place(design):
    grid = design.grid.Grid()
    for y, row in enumerate(ROWS):
        for x, disc in enumerate(row):
            design.grid.setSpace(grid, x, y, _space(design, "Red" if disc == "R" else "Blue"))
    squares = [[6, 5]]
    design.game_logic.unsupportedConnectThree(design.game_logic.GameLogic(), grid, squares, _space(design, "Red"))
    assert sorted(map(tuple, squares)) == [(3, 3), (6, 5)]


def test_a_documented_exception_reaches_the_test_at_the_call(design):
    grid = design.grid.Grid()
    with pytest.raises(OperationFailed, match="raised IndexError") as caught:
        design.grid.getSpaceType(grid, 7, 0)
    assert caught.value.raised is IndexError


def test_a_value_read_through_a_module_survives_until_the_pending_call_that_was_given_it(design):
    player = design.player.Player(design.module("space").Space.Blue)  # the member is dropped at once
    assert isinstance(player, Handle)
    assert design.player.isAI(player) is False


OWN_EXCEPTION = '''

class DictionaryException(Exception):
    """The student's own class of the kit's name."""
'''


@pytest.mark.parametrize("own", [False, True], ids=["kit's", "own"])
def test_only_the_kits_exception_class_is_named_as_the_kits(tmp_path: Path, own: bool):
    package = tmp_path / "xplus"
    shutil.copytree(kit("xplus").reference_dir, package, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(
        Path(__file__).parents[1] / "fixtures" / "alt_xplus" / "dictionary_exception.py", package
    )  # re-exports the kit's
    if own:
        module = package / "hash_dictionary.py"
        text = module.read_text(encoding="utf-8")
        module.write_text(text + OWN_EXCEPTION, encoding="utf-8")
    from reference_games.xplus.dictionary_exception import DictionaryException

    implementation = _load(package, XPLUS)
    try:
        table = implementation.hash_dictionary.HashDictionary(7)
        with pytest.raises(OperationFailed, match="raised DictionaryException") as caught:
            implementation.hash_dictionary.remove(table, "absent")
        assert (caught.value.raised is DictionaryException) is not own
    finally:
        implementation.close()


SUBCLASS = '''

class MissingConfiguration(DictionaryException):
    """A subclass of the kit's exception: a DictionaryException too."""


_remove = HashDictionary.remove


def _remove_raising_the_subclass(self, config):
    try:
        return _remove(self, config)
    except DictionaryException as e:
        raise MissingConfiguration(str(e)) from None


HashDictionary.remove = _remove_raising_the_subclass
'''


def test_a_subclass_of_the_kits_exception_is_reported_as_the_kits_class_it_derives_from(tmp_path: Path):
    """In process ``raised`` is the subclass itself; the test process has no such class, so the
    server names the nearest one it has, and ``issubclass`` answers as in process."""
    package = tmp_path / "xplus"
    shutil.copytree(kit("xplus").reference_dir, package, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(
        Path(__file__).parents[1] / "fixtures" / "alt_xplus" / "dictionary_exception.py", package
    )  # re-exports the kit's
    module = package / "hash_dictionary.py"
    module.write_text(module.read_text(encoding="utf-8") + SUBCLASS, encoding="utf-8")
    from reference_games.xplus.dictionary_exception import DictionaryException

    implementation = _load(package, XPLUS)
    try:
        table = implementation.hash_dictionary.HashDictionary(7)
        with pytest.raises(OperationFailed, match="raised MissingConfiguration") as caught:
            implementation.hash_dictionary.remove(table, "absent")
        assert caught.value.raised is DictionaryException
    finally:
        implementation.close()


SEQUENCES = """

import collections as _collections

_Pair = _collections.namedtuple("_Pair", "x y")
_end_regular_play = GameLogic.endRegularPlay


def _end_regular_play_as_a_deque(self, grid):
    return _collections.deque(_Pair(x, y) for x, y in _end_regular_play(self, grid))


GameLogic.endRegularPlay = _end_regular_play_as_a_deque
"""


def test_a_sequence_of_another_type_is_iterated_and_indexed_in_the_server_as_in_process(tmp_path: Path):
    """A deque of named tuples (any sequence, S11) is not sent by value; its handle iterates,
    has a length and indexes as the value does, and a value that does not iterate refuses as in process."""
    package = tmp_path / "connect4_2015"
    shutil.copytree(kit("connect4_2015").reference_dir, package, ignore=shutil.ignore_patterns("__pycache__"))
    module = package / "game_logic.py"
    module.write_text(module.read_text(encoding="utf-8") + SEQUENCES, encoding="utf-8")
    implementation = _load(package, C2015)
    try:
        grid = implementation.grid.Grid()
        for x in range(4):
            implementation.grid.setSpace(grid, x, 0, _space(implementation, "Red"))
        found = implementation.game_logic.endRegularPlay(implementation.game_logic.GameLogic(), grid)
        assert isinstance(found, Handle)
        pairs = [tuple(pair) for pair in found]
        assert sorted(pairs) == [(0, 0), (1, 0), (2, 0), (3, 0)]
        assert (
            len(found) == 4
            and tuple(found[0]) == pairs[0]
            and found[0][1] == 0
            and [tuple(p) for p in found[1:3]] == pairs[1:3]
        )
        assert bool(found) and bool(grid)
        with pytest.raises(TypeError):
            iter(grid)
        with pytest.raises(TypeError):
            found["x"]
    finally:
        implementation.close()
