"""The X+Game suite's adapter: :class:`Build` makes the implementation's Configurations from
board models (:mod:`.model`), :class:`Read` reads them back. Boards reach the implementation
only through savePlay, and are read back only through squareIsEmpty, the board variable and
the configuration string (observed through a dictionary, erratum X04).
"""

from __future__ import annotations

from reference_games.xplus.dictionary_exception import DictionaryException as KitDictionaryException
from speckit.testing import OperationFailed, expect, expect_equal

from .model import BoardModel


class Build:
    """Makes the implementation's Configurations through its documented operations."""

    def __init__(self, impl) -> None:
        self.impl = impl

    def configurations(self, model: BoardModel, max_levels: int = 2):
        """The implementation's Configurations holding the model's tiles, placed with savePlay."""
        ops = self.impl.configurations
        configurations = ops.Configurations(model.n, model.k, max_levels)
        for (row, col), symbol in sorted(model.tiles.items()):
            ops.savePlay(configurations, row, col, symbol)
        return configurations


class Read:
    """Reads the implementation's Configurations back through its documented operations."""

    def __init__(self, impl) -> None:
        self.impl = impl

    def squares(self, configurations, n: int) -> list[list[bool]]:
        """squareIsEmpty of every square, asked in one batch."""
        ops = self.impl.configurations
        return self.impl.batch(lambda: [[ops.squareIsEmpty(configurations, r, c) for c in range(n)] for r in range(n)])


def expect_squares(impl, configurations, model: BoardModel, claim: str) -> None:
    """squareIsEmpty agrees with the model on every square."""
    seen = Read(impl).squares(configurations, model.n)
    wrong = [(r, c) for r in range(model.n) for c in range(model.n) if seen[r][c] != ((r, c) not in model.tiles)]
    expect(
        not wrong,
        f"{claim}: squareIsEmpty is true exactly on the empty squares",
        expected=model.picture(),
        actual=f"wrong on squares {wrong}",
    )


def configuration_of(impl, configurations, model: BoardModel) -> None:
    """Check that the configuration string is the model's, through addConfiguration and a fresh dictionary."""
    dictionary = impl.hash_dictionary.HashDictionary(97)
    impl.configurations.addConfiguration(configurations, dictionary, 2)
    expect_equal(impl.hash_dictionary.numRecords(dictionary), 1, "addConfiguration puts one record into the dictionary")
    expect_equal(
        impl.hash_dictionary.get(dictionary, model.string()),
        2,
        f"the configuration of the board is the string {model.string()!r} (row by row from the top left, erratum X04):"
        " after addConfiguration(d, 2), get of that string is 2",
    )


def raises_dictionary_exception(call, *args) -> bool:
    """Whether the call raised DictionaryException (the kit's, re-exported, or a subclass of it:
    a Java subclass instance is a DictionaryException too); False if it returned."""
    try:
        call(*args)
    except OperationFailed as e:
        cause = e.raised  # the class raised (in the sandbox: the nearest one the test process has)
        if isinstance(cause, type) and issubclass(cause, KitDictionaryException):
            return True
        if " raised DictionaryException" not in str(e).split("\n", 1)[0]:
            raise
        expect(
            False,
            "the DictionaryException raised is the kit's, re-exported by the module dictionary_exception",
            expected=KitDictionaryException,
            actual="a DictionaryException class of the implementation's own",
        )
    return False
