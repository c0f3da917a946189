"""The reference implementation of the BoardADT specification (Connect Four, 7 x 6).

It follows the contract of ``spec/boardadt`` (``spec.load("boardadt").contract``):

* :mod:`.color` -- ``color_type``: the constants ``red`` and ``blue``;
* :mod:`.square` -- ``square_type``: the record ``Square(column, row)``;
* :mod:`.value` -- ``value_type``: the record ``Value(empty, color)``;
* :mod:`.board_adt` -- ``board_type``: the class ``Board`` and the constants
  ``number_of_columns`` and ``number_of_rows``;
* :mod:`.player` -- the unit Player: ``Computer_Move(board)``, supplied by the kit.

Besides the specified modules it holds the solver the player uses (:mod:`.solver`)
and the two programs of the assignment, which play on the terminal and, with
``--graphics turtle``, on a turtle-graphics board (:mod:`.turtle_board`):

* ``python -m reference_games.boardadt.play_two`` -- two people play each other;
* ``python -m reference_games.boardadt.connect`` -- a person plays the computer.

Check any package against the specification with ``pytest tests/boardadt --impl PATH``.
"""
