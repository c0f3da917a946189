"""Data: a record of the dictionary, a configuration (its key) and its score."""


class Data:
    """A configuration string and its score; never changed once made."""

    def __init__(self, config: str, score: int):
        self._config = config
        self._score = score

    def getConfiguration(self) -> str:
        """The configuration, the record's key."""
        return self._config

    def getScore(self) -> int:
        """The configuration's score."""
        return self._score

    def __repr__(self) -> str:
        return f"Data({self._config!r}, {self._score})"
