"""Mirrored objects, seen from the operation server: the twins of the test's objects.

A test hands the implementation an object of the kit's served classes (``[kit] served``)
or a text stream; the server makes a twin of it (:class:`TwinTable`), sets its state
from the request before the calls and reports what the calls wrote, drew, read and
changed after them (the ``twins`` of a request and of an answer, :mod:`speckit.sandbox.protocol`).
Part of the server's side: it imports nothing of the test process.
"""

from __future__ import annotations

import errno
import io
import sys
from typing import Any

import attrs

from .mirror import fields_of, set_fields
from .protocol import TwinKind
from .server_values import ServerValues


class Recorder(io.TextIOBase):
    """A twin's stream: keeps what is written, for the test process."""

    def __init__(self, limit: int):
        self.limit = limit
        self.parts: list[str] = []
        self.size = 0

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        self.size += len(text)
        if self.size > self.limit:
            raise OSError(errno.EFBIG, f"the implementation wrote more than {self.limit // 1024} KB to a display")
        self.parts.append(text)
        return len(text)

    def take(self) -> str:
        text = "".join(self.parts)
        self.parts.clear()
        self.size = 0
        return text


class CountingLines:
    """Scripted input lines that count how many were read."""

    def __init__(self, lines: list[str]):
        self._iterator = iter(lines)
        self.used = 0

    def __iter__(self):
        return self

    def __next__(self) -> str:
        line = next(self._iterator)
        self.used += 1
        return line

    def rest(self) -> list[str]:
        """The lines not read yet."""
        return list(self._iterator)


@attrs.define
class Twin:
    kind: str
    value: Any
    recorder: Recorder
    snapshot: list = attrs.Factory(list)
    free: bool = False
    """Reported to the test process as referred to by nothing of the server's."""

    def referred(self) -> bool:
        """Whether anything besides this record refers to the twin (the implementation kept it)."""
        own = 3 if self.value is self.recorder else 2
        return sys.getrefcount(self.value) > own


class TwinTable:
    """The server's twins: made and set from a request, read back for its answer.

    One adapter for every served class: what travels of an object is its ``[kit.mirrors]``
    entry (:mod:`speckit.sandbox.mirror`); a text stream travels as what is written to it."""

    def __init__(self, values: ServerValues, served: dict[str, tuple[type, Any]], output_limit: int):
        self.values = values
        self.twins: dict[int, Twin] = values.twins
        self.served = served
        """The kit's classes the server makes twins of, and how each travels, by twin kind."""
        self.output_limit = output_limit

    def apply(self, twins: list) -> None:
        """Make the twins a request names for the first time, and set each one's state from it:
        ``[fields, lines]`` (:mod:`speckit.sandbox.protocol`)."""
        for tid, kind, new, state in twins:
            if new:
                self.twins[tid] = self._make(kind)
            twin = self.twins[tid]
            twin.free = False
            if kind == TwinKind.STREAM:
                continue
            mirror = self.served[kind][1]
            fields, lines = state
            if mirror.lines:
                setattr(twin.value, mirror.lines, None if lines is None else CountingLines(lines))
            set_fields(twin.value, mirror, self.values.decode(fields))
            twin.snapshot = fields

    def _make(self, kind: str) -> Twin:
        recorder = Recorder(self.output_limit)
        if kind == TwinKind.STREAM:
            return Twin(kind, recorder, recorder)
        cls: Any
        cls, mirror = self.served[kind]
        value = cls.__new__(cls)  # a kit class, made without running its __init__
        if mirror.stream:
            setattr(value, mirror.stream, recorder)
        return Twin(kind, value, recorder)

    def updates(self) -> dict:
        """What the calls did to the twins, by part of the answer's ``twins`` (each maybe empty)."""
        out, used, free, states = [], [], [], []
        for tid, twin in self.twins.items():
            if not twin.free and not twin.referred():
                twin.free = True
                free.append(tid)
            text = twin.recorder.take()
            if text:
                out.append([tid, text])
            if twin.kind == TwinKind.STREAM:
                continue
            mirror = self.served[twin.kind][1]
            lines = getattr(twin.value, mirror.lines, None) if mirror.lines else None
            if isinstance(lines, CountingLines) and lines.used:
                used.append([tid, lines.used])
                setattr(twin.value, mirror.lines, CountingLines(lines.rest()))
            try:
                current = self.values.encode_shared(fields_of(twin.value, mirror))
            except Exception:  # noqa: BLE001 - a twin the implementation broke
                continue
            if current != twin.snapshot:
                states.append([tid, current])
                twin.snapshot = current
        return {"out": out, "used": used, "free": free, "state": states}
