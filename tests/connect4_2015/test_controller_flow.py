"""Controller: what the view shows between moves, around the end of a game, and on saving.

These complete test_controller.py where the mutation analysis of the reference found
behaviour no test observed: the pieces above the board after a drop and after a new
game, a game that is over staying over, free-play clicks off the grid, the computer's
colour, and the first save in a folder.
"""

from hypothesis import given, settings
from hypothesis import strategies as st

from speckit.testing import covers, expect, expect_equal

from .controller_kit import (
    FREE_PLAY,
    ONE_PLAYER,
    SAVE_FILE,
    TWO_PLAYERS,
    Game,
    in_scratch_folder,
    parse,
    result_said,
    text_of,
)
from .model import BLUE, EMPTY, RED, Model, no_four_full_grid, shown, squares_text
from .test_controller import expected_highlights, free_play_end, unchanged_text


def regular(to_move: str, model: Model = Model(), computer: str | None = None) -> str:
    return text_of(model, to_move, 1, computer)


def both_pieces_show(game: Game) -> bool:
    return game.view.shows(game.build.space(RED)) and game.view.shows(game.build.space(BLUE))


@covers("Controller.onGridClick", "Controller.autoClick", "View.setPieceVisible")
@given(colour=st.sampled_from([RED, BLUE]), x=st.integers(0, 6))
@settings(max_examples=10)
def test_after_a_drop_the_piece_shows_again_for_the_next_turn(impl, colour, x):
    with in_scratch_folder(impl):
        game = Game.loaded(impl, regular(colour))
        game.move(x)
        expect_equal(game.saved().model, Model({(x, 0): colour}), f"{colour} drops a disc in column {x}")
        expect(
            both_pieces_show(game),
            f"after {colour}'s disc drops, its piece is back above the board (waitForPieceGrab), as is the other",
            expected="both pieces shown",
            actual=game.view.visible,
        )


@covers("Controller.loadGame", "Controller.Start", "View.setPieceVisible")
def test_a_new_or_loaded_game_shows_both_pieces_even_after_one_was_picked_up(impl):
    with in_scratch_folder(impl):
        game = Game.loaded(impl, regular(BLUE))
        game.click_piece(BLUE)
        expect(
            not game.view.shows(game.build.space(BLUE)),
            "Blue to move clicks the blue piece: it is picked up",
            expected="hidden",
            actual="shown",
        )
        game.ops.loadGame(game.controller)
        expect(
            both_pieces_show(game),
            "loadGame while the blue piece is picked up: the game loaded starts with both pieces above the board",
            expected="both shown",
            actual=game.view.visible,
        )
        game.click_piece(BLUE)
        game.ops.onClickEnd(game.controller)
        game.ops.Start(game.controller, TWO_PLAYERS)
        saved = game.saved()
        expect(
            both_pieces_show(game),
            f"End with the blue piece picked up, then Start(1): a new game shows both pieces{shown(saved.model)}",
            expected="both shown",
            actual=game.view.visible,
        )


@covers("Controller.Start", "View.setPieceVisible")
def test_free_play_starts_with_one_of_the_pieces_missing(impl):
    with in_scratch_folder(impl):
        game = Game.started(impl, FREE_PLAY)
        shown_pieces = [c for c in (RED, BLUE) if game.view.shows(game.build.space(c))]
        expect_equal(
            len(shown_pieces),
            1,
            "free play starts 'with one of the pieces missing' (erratum S18): exactly one piece shows",
        )


@covers("Controller.onGridClick", "Controller.Start", "View.setMessage")
def test_a_free_play_click_off_the_grid_places_nothing(impl):
    with in_scratch_folder(impl):
        game = Game.started(impl, FREE_PLAY)
        game.click_piece(RED)
        for x, y in [(-1, 0), (0, -1), (7, 0), (0, 6), (8, 0), (0, 7), (7, 6), (-1, -1)]:
            before, messages = game.text(), len(game.view.messages)
            game.ops.onGridClick(game.controller, x, y)
            unchanged_text(
                game,
                before,
                f"free play: ({x}, {y}) is not a square of the 7 x 6 grid, so no disc is placed (erratum S18)",
            )
            expect(
                len(game.view.messages) > messages,
                f"free play: a click on ({x}, {y}), off the grid, is answered with a message",
                expected="a message",
                actual="none",
            )
        game.ops.onGridClick(game.controller, 6, 5)
        expect_equal(
            game.saved().model, Model({(6, 5): RED}), "free play: (6, 5), the top right square, takes the red disc"
        )


@covers("Controller.onClickEnd", "View.highlight", "View.showStartScreen")
def test_free_play_End_refuses_a_balanced_board_whose_only_error_is_a_line_of_four(impl):
    with in_scratch_folder(impl):
        model = Model({**{(x, 0): RED for x in range(4)}, (0, 1): BLUE, (1, 1): BLUE, (2, 1): BLUE, (4, 0): BLUE})
        game = free_play_end(impl, RED, model)
        claim = (
            "free play End, Red moved first, four red and four blue, red four in a line on the bottom "
            f"row{shown(model)}"
        )
        expect(
            game.view.screen != "start",
            claim + "\na line of four is an error (requirement A1.3): free play goes on",
            expected="the board",
            actual="the start screen",
        )
        required, _ = expected_highlights(model, RED)
        expect(
            required <= game.view.highlights,
            claim + "\nthe four is highlighted",
            expected=squares_text(required),
            actual=squares_text(game.view.highlights),
        )


@covers(
    "Controller.onGridClick",
    "Controller.saveGame",
    "Controller.onRedClick",
    "Controller.onBlueClick",
    "View.setPieceVisible",
)
def test_a_drawn_game_is_over(impl):
    with in_scratch_folder(impl) as folder:
        model = no_four_full_grid()
        last = model.get(6, 5)
        model.put(6, 5, EMPTY)
        game = Game.loaded(impl, regular(last, model))
        (folder / SAVE_FILE).unlink()
        game.move(6)
        expect_equal(result_said(game.view.result), "Game drawn", "the last square filled without a four: 'Game drawn'")
        game.ops.saveGame(game.controller)
        expect(
            not (folder / SAVE_FILE).exists(),
            "a drawn game is finished: only an unfinished game is saved (erratum S13)",
            expected="no file",
            actual=(folder / SAVE_FILE).read_text() if (folder / SAVE_FILE).exists() else None,
        )
        for colour in (RED, BLUE):
            game.click_piece(colour)
            expect(
                both_pieces_show(game),
                f"the game is drawn: clicking the {colour} piece picks nothing up",
                expected="both pieces shown",
                actual=game.view.visible,
            )
        expect_equal(result_said(game.view.result), "Game drawn", "the result stays shown")


@covers("Controller.turnForAI", "Controller.loadGame", "View.showResult")
def test_turnForAI_after_the_computer_has_won_does_nothing(impl):
    with in_scratch_folder(impl):
        model = Model({(0, 0): RED, (1, 0): RED, (2, 0): RED, (0, 1): BLUE, (1, 1): BLUE, (2, 1): BLUE})
        game = Game.loaded(impl, regular(RED, model, computer=RED))
        game.ops.turnForAI(game.controller)
        expect_equal(
            result_said(game.view.result),
            "Red wins",
            f"the computer (Red) completes its three on the bottom row (erratum S16){shown(model)}",
        )
        before = game.text()
        game.ops.turnForAI(game.controller)
        unchanged_text(game, before, "turnForAI once the computer has won: the game is over, no more discs")
        expect_equal(result_said(game.view.result), "Red wins", "the result stays shown")


@covers("Controller.Start")
def test_Start_against_the_computer_chooses_its_colour_at_random(impl):
    with in_scratch_folder(impl):
        colours = {Game.started(impl, ONE_PLAYER).saved().computer for _ in range(40)}
        expect_equal(
            colours,
            {RED, BLUE},
            "Start(2): the computer's colour is chosen at random: it plays both colours in 40 games",
        )


@covers("Controller.saveGame", "Controller.stringOfBoard")
def test_the_first_save_in_a_folder_writes_Saved_Game_txt(impl):
    with in_scratch_folder(impl) as folder:
        game = Game.started(impl, TWO_PLAYERS)
        game.move(3)
        expect(not (folder / SAVE_FILE).exists(), "a fresh folder has no save", expected="no file", actual="a file")
        game.ops.saveGame(game.controller)
        path = folder / SAVE_FILE
        expect(
            path.exists(),
            "saveGame in a folder without Saved_Game.txt creates it (erratum S13)",
            expected="the file",
            actual="no file",
        )
        expect_equal(parse(path.read_text(encoding="utf-8")), parse(game.text()), "the file holds stringOfBoard's text")


@covers("Controller.stringToSetSpace")
def test_stringToSetSpace_maps_every_other_word_to_Empty(impl):
    game = Game(impl)
    for word in ("", "A", "Black", "Bl", "Azure", "Bluish", "Rust"):
        expect_equal(
            game.read.space(game.ops.stringToSetSpace(game.controller, word)),
            EMPTY,
            f"stringToSetSpace({word!r}): any word but Red and Blue is Empty (erratum S21)",
        )
