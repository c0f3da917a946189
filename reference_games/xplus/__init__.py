"""The reference implementation of the X+Game specification (``spec/xplus``).

It follows the contract of ``spec.load("xplus").contract``:

* :mod:`.data` -- ``Data(config, score)``, a record of the dictionary;
* :mod:`.hash_dictionary` -- ``HashDictionary(size)``, a hash table with separate
  chaining and a polynomial hash;
* :mod:`.configurations` -- ``Configurations(board_size, lengthToWin, max_levels)``,
  the board, the win test and the evaluation the search calls.

The course supplies the other four classes, and so does the kit; a student's package
re-exports them:

* :mod:`.dictionary_adt` -- the interface ``DictionaryADT``;
* :mod:`.dictionary_exception` -- ``DictionaryException``;
* :mod:`.pos_play` -- ``PosPlay(score, row, col)``;
* :mod:`.play` -- ``Play``, whose ``computerPlay`` is the game-tree search.

The program of the assignment is :mod:`.program` (the console script ``xplus SIZE
LENGTH MAX_LEVELS``). Check any package with ``speckit check --spec xplus PATH``.
"""
