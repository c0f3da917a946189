"""The reference implementation of the Connect-4 specification.

One module per type, named as the implementation contract says (``index``,
``level_number``, ``game_tree``, ...), each exposing the type's operations as
module-level functions with the documented names and parameter order. Values are
small attrs classes; an update changes the value it is given and returns it (the
specification also allows returning a new value: erratum E01).

A broken precondition raises :class:`spec.PreconditionError`, naming the operation.
"""
