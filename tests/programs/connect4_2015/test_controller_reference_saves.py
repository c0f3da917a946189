"""The reference's own promise on saving: a save that cannot be written is a message, never a traceback.

The specification leaves a failed write open (erratum S13 rules on what is saved, not on a
folder that refuses it), so this runs on the reference only, as the kit's programs rely on it.
"""

import pytest

from reference_games.connect4_2015.controller import TWO_PLAYERS, Controller
from reference_games.connect4_2015.view import RecordingView

pytestmark = pytest.mark.reference_only("the reference's own handling of a failed save")


def test_a_save_that_cannot_be_written_is_reported_and_the_game_goes_on(tmp_path):
    save = tmp_path / "Saved_Game.txt"
    save.mkdir()  # a folder where the save file should be: it cannot be replaced by a file
    (save / "inside").write_text("not a game")
    (tmp_path / "Saved_Game.txt.bak").write_text("an earlier save")
    view = RecordingView()
    controller = Controller(view, seed=1, save_path=save)
    controller.Start(TWO_PLAYERS)
    before = controller.stringOfBoard()
    controller.saveGame()
    assert view.message.startswith("Could not save to"), view.message
    assert controller.stringOfBoard() == before, "the game in progress is untouched"
    assert (save / "inside").read_text() == "not a game", "nothing the user had is lost"
