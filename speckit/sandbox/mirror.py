"""Mirrored objects on both sides of the wire: the parts of an object that travel.

A served class's ``[kit.mirrors]`` entry (:class:`spec.model.Mirror`) names its output
stream, its scripted input lines and the fields mirrored by value; a class without an
entry travels as its instance attributes. Both the test process
(:class:`~speckit.sandbox.values.TwinRegistry`) and the server
(:class:`~speckit.sandbox.server_twins.TwinTable`) read and set those fields here, so the
generic machinery names no specification's class.
"""

from __future__ import annotations

from typing import Any

from spec.model import Mirror

IN_PLACE = (dict, list, set)
"""Containers a declared field is updated in place in when it already holds one of the same type
(a test that kept ``display.marks`` sees what the call drew)."""


def fields_of(value: Any, mirror: Mirror) -> dict[str, Any]:
    """The fields of ``value`` that travel by value: the declared ones, else its instance attributes
    but the stream and the lines."""
    if mirror.fields is None:
        return {name: field for name, field in vars(value).items() if name not in (mirror.stream, mirror.lines)}
    return {name: getattr(value, name) for name in mirror.fields}


def fits(fields: Any, mirror: Mirror) -> bool:
    """Whether ``fields`` (decoded from the wire) are fields of an object that ``mirror`` describes."""
    if not isinstance(fields, dict) or not all(isinstance(name, str) for name in fields):
        return False
    return mirror.fields is None or set(fields) == set(mirror.fields)


def set_fields(value: Any, mirror: Mirror, fields: dict[str, Any]) -> None:
    """Give ``value`` the ``fields`` from the other side: its instance attributes replaced (but the
    stream and the lines), or each declared field set, a container of the same type in place."""
    if mirror.fields is None:
        own = vars(value)
        kept = {name: own[name] for name in (mirror.stream, mirror.lines) if name and name in own}
        own.clear()
        own.update(fields)
        own.update(kept)
        return
    for name in mirror.fields:
        new: Any = fields[name]
        old: Any = getattr(value, name, None)
        kind = type(new)
        if kind in IN_PLACE and type(old) is kind:
            old.clear()
            getattr(old, "extend" if kind is list else "update")(new)
        else:
            setattr(value, name, new)
