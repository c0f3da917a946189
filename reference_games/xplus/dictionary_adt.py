"""The interface DictionaryADT, supplied by the course (DictionaryADT.java) and by the kit.

A package's ``dictionary_adt`` module re-exports it, and its ``HashDictionary``
subclasses it: ``class HashDictionary(DictionaryADT)``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod


class DictionaryADT(ABC):
    """A dictionary of Data records keyed by their configurations."""

    @abstractmethod
    def put(self, record) -> int:
        """Add ``record``; 1 if its slot already held a record, else 0. DictionaryException if its configuration is
        stored."""

    @abstractmethod
    def remove(self, config: str) -> None:
        """Remove the record of ``config``; DictionaryException if there is none."""

    @abstractmethod
    def get(self, config: str) -> int:
        """The score of the record of ``config``, or -1 if there is none."""

    @abstractmethod
    def numRecords(self) -> int:
        """The number of records stored."""
