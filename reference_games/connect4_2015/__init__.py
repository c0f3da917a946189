"""The reference implementation of the 2015 Connect Four design (Team Static Void).

It follows the contract of ``spec/connect4_2015`` (``spec.load("connect4_2015").contract``)
and the report's internal design: the private methods its design lists exist here under
their names (``isInGridRange``, ``checkL``, ``pieceRotate``, ``priorityMove``, ...).

* :mod:`.space`, :mod:`.game_state` -- the enumerations ``Space`` and ``GameState``;
* :mod:`.grid` -- ``Grid``, the 7 x 6 frame;
* :mod:`.game_logic` -- ``GameLogic``, the rules and the computer's helpers;
* :mod:`.player` -- ``Player``, a person or the computer;
* :mod:`.controller` -- ``Controller``, which turns clicks into moves;
* :mod:`.view` -- the view the controller draws on, supplied by the kit;
* :mod:`.saved_game` -- the saved-game text.

Play it with ``connect4-2015`` (terminal) or ``connect4-2015 --gui`` (a window).
Check any package against the specification with ``pytest tests/connect4_2015 --impl PATH``.
"""
