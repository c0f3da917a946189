"""The one adapter for mirrored objects (speckit.sandbox.mirror): what travels of an object is
what its class's ``[kit.mirrors]`` entry declares, and nothing of it names a specification."""

from __future__ import annotations

import io
from pathlib import Path

import attrs

from spec.model import Mirror
from speckit.sandbox.mirror import fields_of, fits, set_fields


@attrs.define
class Board:
    out: io.StringIO | None = None
    marks: dict = attrs.field(factory=dict)


class Recording:
    def __init__(self) -> None:
        self.calls: list = []
        self.shown = "start"


def test_declared_fields_travel_and_a_container_is_filled_in_place():
    mirror = Mirror(stream="out", fields=("marks",))
    board = Board(io.StringIO(), {(1, 1): "X"})
    kept = board.marks
    assert fields_of(board, mirror) == {"marks": {(1, 1): "X"}}
    set_fields(board, mirror, {"marks": {(2, 3): "O"}})
    assert board.marks is kept and kept == {(2, 3): "O"}
    assert fits({"marks": {}}, mirror) and not fits({"marks": {}, "out": None}, mirror)


def test_without_declared_fields_every_attribute_but_the_stream_and_lines_travels():
    mirror = Mirror(stream="stream")
    recording = Recording()
    recording.stream = io.StringIO()  # type: ignore[attr-defined]
    stream = recording.stream  # type: ignore[attr-defined]
    assert fields_of(recording, mirror) == {"calls": [], "shown": "start"}
    set_fields(recording, mirror, {"calls": [("show", ())], "shown": "board"})
    assert vars(recording) == {"calls": [("show", ())], "shown": "board", "stream": stream}
    assert fits({"anything": 1}, mirror) and not fits({1: 2}, mirror) and not fits([], mirror)


def test_the_adapter_names_no_specification():
    import speckit.sandbox.mirror as module
    import speckit.sandbox.server_twins as server_side
    import speckit.sandbox.values as test_side

    for source in (module, server_side, test_side):
        text = Path(source.__file__).read_text(encoding="utf-8")
        assert ".marks" not in text.replace("``display.marks``", "") and "TwinKind.DISPLAY" not in text
