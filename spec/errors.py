"""The one exception the kit's implementations raise when a precondition is broken."""


class PreconditionError(ValueError):
    """An operation was called outside its documented preconditions.

    The message names the operation and the broken precondition, for example
    ``IndexType.decrement: the index must be greater than 1 (it is 1)``.
    """

    def __init__(self, operation: str, broken: str):
        super().__init__(f"{operation}: {broken}")
        self.operation = operation
        self.broken = broken


def require(condition: bool, operation: str, broken: str) -> None:
    """Raise :class:`PreconditionError` for ``operation`` unless ``condition`` holds."""
    if not condition:
        raise PreconditionError(operation, broken)
