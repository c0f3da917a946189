"""Reads of values, seen from the operation server: a field, a module's attribute, ==, dir, repr, the items.

:func:`read_value` runs one read command (:mod:`speckit.sandbox.protocol`) on its subject
under the read time limit and words its failure as a failed call is worded. Part of the
server's side: it imports nothing of the test process.
"""

from __future__ import annotations

import collections.abc
from typing import Any

import attrs

from ..core import FailureKind, TimeLimitReached
from ..operations import failure_of
from .config import READ_LIMIT
from .protocol import MAX_FIELDS, MAX_ITEMS, MAX_MESSAGE, MAX_NAMES, MAX_SHOWN, At, Command, ErrorKind
from .server_limits import WATCHDOG
from .server_values import ServerValues


def read_value(values: ServerValues, tag: str, subject: Any, command: list) -> tuple[Any, dict | None]:
    """Run read ``command`` on ``subject``: (encoded result, None) or (None, error)."""
    label = "reading a value"
    kind: FailureKind | None
    watchdog = WATCHDOG
    watchdog.arm(READ_LIMIT)
    try:
        try:
            label = _read_label(tag, subject, command)
            result = _READERS[tag](values, subject, command)
        except AttributeError as e:
            if tag not in (Command.FIELD, Command.MODULE):
                raise
            return None, {"kind": ErrorKind.ATTRIBUTE, "message": (str(e) or label)[:MAX_MESSAGE]}
        else:
            return result, None
    except TimeLimitReached:
        kind, problem = FailureKind.HUNG, failure_of(label, TimeLimitReached(), READ_LIMIT)[1]
    except BaseException as e:  # noqa: BLE001 - classified as a failed call is
        try:
            kind, problem = failure_of(label, e, READ_LIMIT)
            if kind is None:
                kind, problem = FailureKind.FAILED, f"{label} raised {type(e).__name__}: {e}"
        except BaseException:  # noqa: BLE001 - the description itself failed
            kind, problem = FailureKind.FAILED, f"{label} raised {type(e).__name__} (and describing it failed)"
    finally:
        watchdog.clear()
    return None, {"kind": kind, "message": problem[:MAX_MESSAGE]}


def _read_label(tag: str, subject: Any, command: list) -> str:
    """How a failure of a read names what was read (``Value.empty``, ``color.red``, ``Color.__eq__``)."""
    if tag == Command.MODULE:
        return f"{command[At.SUBJECT]}.{command[At.MODULE_ATTRIBUTE]}"
    owner = type(subject).__name__
    if tag == Command.FIELD:
        return f"{owner}.{command[At.FIELD_NAME]}"
    return {
        Command.EQUALS: f"{owner}.__eq__",
        Command.SHOW: f"{owner}.__repr__",
        Command.NAMES: f"dir() of a {owner}",
        Command.ITEMS: f"iterating over a {owner}",
    }[tag]


def _read_field(values: ServerValues, subject: Any, command: list) -> Any:
    return values.encode_result(getattr(subject, command[At.MODULE_ATTRIBUTE]), command[At.MODULE_HANDLE])


def _read_record_field(values: ServerValues, subject: Any, command: list) -> list:
    """The field asked for and, alongside, the record's other fields: ``[value, [[name, value, id], ...]]``.

    A test that reads one field of a record usually reads the others next (``value.empty``,
    then ``value.color``); sending them along saves those round trips. A field that is
    not a plain value takes one of the spare handle ids the request offers, or is left out.
    """
    name, handle_id, spare = command[At.FIELD_NAME], command[At.FIELD_HANDLE], command[At.FIELD_SPARE]
    value = values.encode_result(getattr(subject, name), handle_id)
    spare_ids = list(spare)
    others: list[Any] = []
    for other in _record_fields(subject):
        if other == name or len(others) >= MAX_FIELDS:
            continue
        try:
            field = getattr(subject, other)
        except Exception:  # noqa: BLE001 - it is read (and fails) on its own if the test asks for it
            continue
        if field is None or type(field) in (bool, int, str, float):
            others.append([other, values.encode_result(field, 0), None])
        elif spare_ids:
            handle = spare_ids.pop(0)
            others.append([other, values.encode_result(field, handle), handle])
    return [value, others]


def _record_fields(subject: Any) -> list[str]:
    """The data fields of a record (attrs, dataclass or plain instance attributes); none for an
    object whose class customises attribute access, since reading it could run anything."""
    import dataclasses

    cls = type(subject)
    if cls.__getattribute__ is not object.__getattribute__ or hasattr(cls, "__getattr__"):
        return []
    if attrs.has(cls):
        return [f.name for f in attrs.fields(cls)]
    if dataclasses.is_dataclass(cls):
        return [f.name for f in dataclasses.fields(cls)]
    instance = getattr(subject, "__dict__", None)
    if not isinstance(instance, dict):
        return []
    return [
        n
        for n in list(instance)[: MAX_FIELDS + 1]
        if type(n) is str and n.isidentifier() and not n.startswith("_") and not hasattr(cls, n)
    ]


def _compare_values(values: ServerValues, subject: Any, command: list) -> bool:
    return bool(subject == values.decode(command[At.EQUALS_OTHER]))


def _list_names(values: ServerValues, subject: Any, command: list) -> list[str]:
    names = [name for name in dir(subject) if type(name) is str and len(name) <= 100]
    return names[:MAX_NAMES]


def _show_value(values: ServerValues, subject: Any, command: list) -> str:
    text = repr(subject)
    return text if len(text) <= MAX_SHOWN else text[: MAX_SHOWN - 3] + "..."


def _read_items(values: ServerValues, subject: Any, command: list) -> list | None:
    """``[sized, indexable, items]`` of an iterable value, each item as a result is sent (a
    plain value, else a handle under ``first_id`` plus its position); None if it is not
    iterable. A value indexes as it iterates unless it is a mapping."""
    try:
        iterator = iter(subject)
    except TypeError:
        return None
    first_id = command[At.ITEMS_FIRST]
    items: list[Any] = []
    for item in iterator:
        if len(items) == MAX_ITEMS:
            raise ValueError(f"it has more than {MAX_ITEMS} items")
        items.append(values.encode_result(item, first_id + len(items)))
    kind = type(subject)
    indexable = hasattr(kind, "__getitem__") and not isinstance(subject, collections.abc.Mapping)
    return [hasattr(kind, "__len__"), indexable, items]


_READERS = {
    Command.FIELD: _read_record_field,
    Command.MODULE: _read_field,
    Command.EQUALS: _compare_values,
    Command.NAMES: _list_names,
    Command.SHOW: _show_value,
    Command.ITEMS: _read_items,
}
