"""Specifications as data: load one with :func:`load` and read its types, operations and errata.

>>> import spec
>>> connect4 = spec.load("connect4")
>>> connect4.operation("IndexType.increment").signatures
('increment(IndexType) -> IndexType',)
"""

from .errors import PreconditionError, require
from .loader import SpecDataError, available, load, module_name
from .model import (
    CodeRule,
    Constant,
    Enumeration,
    Erratum,
    ExceptionClass,
    KitDeclaration,
    Operation,
    Parameter,
    Side,
    Specification,
    TypeSpec,
)

__all__ = [
    "CodeRule",
    "Constant",
    "Enumeration",
    "Erratum",
    "ExceptionClass",
    "KitDeclaration",
    "Operation",
    "Parameter",
    "PreconditionError",
    "Side",
    "SpecDataError",
    "Specification",
    "TypeSpec",
    "available",
    "load",
    "module_name",
    "require",
]
