"""The reference implementation of the Freecell specification (the 2018 MIS).

It follows the contract of ``spec/freecell`` (``spec.load("freecell").contract``):

* :mod:`.card_adt` -- ``CardT`` and the enumerations ``SuitT``, ``RankT``, ``ColourT``;
* :mod:`.deck_adt` -- ``DeckT``, the pack of 52 cards;
* :mod:`.stack_adt` -- ``StackT``, a pile of cards, last in first out;
* :mod:`.board_adt` -- ``BoardT``: cascades, free cells, foundations and the moves;
* :mod:`.exceptions` -- the MIS's named exceptions.

Besides the specified modules it holds the game: Microsoft's numbered deals
(:mod:`.deals`), the standard move notation (:mod:`.notation`), a solver
(:mod:`.solver`) and the console program ``freecell`` (:mod:`.game`).

Check any package against the specification with ``pytest tests/freecell --impl PATH``.
"""
