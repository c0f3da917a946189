"""DictionaryException, supplied by the course (DictionaryException.java) and by the kit.

A package's ``dictionary_exception`` module re-exports it, so the exception a
student's HashDictionary raises is the kit's and the conformance suite can catch it.
"""


class DictionaryException(Exception):
    """A record's configuration is already in the dictionary, or is not in it."""
