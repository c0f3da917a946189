"""InputType, supplied by the kit: where the game's input comes from.

Each read shows its prompt, reads one line and asks again, saying why, until the
answer is acceptable. Blanks around an answer are ignored; an empty line is refused.
When the input ends, a read raises :class:`EndOfInput`. Input comes from the keyboard
unless given a list of lines (tests script the answers), and prompts go to the
terminal unless given another stream; with scripted lines each answer is echoed
after its prompt, so a captured transcript reads like a real session.
"""

from __future__ import annotations

import builtins
import re
import sys
from collections.abc import Iterable, Iterator
from typing import TextIO

import attrs

from spec import require

YES = frozenset({"y", "yes"})
NO = frozenset({"n", "no"})
_INTEGER = re.compile(r"^[+-]?\d+$")


class EndOfInput(EOFError):
    """The input ended before an acceptable answer was read."""


@attrs.define
class Input:
    """An input source and the stream its prompts and refusals are written to."""

    lines: Iterator[str] | None = None
    out: TextIO | None = None

    @property
    def stream(self) -> TextIO:
        """Where prompts go: the given stream, or standard output as it is now."""
        return self.out if self.out is not None else sys.stdout


def newInputType(lines: Iterable[str] | None = None, out: TextIO | None = None) -> Input:
    """Make a new input reading the keyboard, or the given lines."""
    return Input(iter(lines) if lines is not None else None, out)


def readInteger(input: Input, prompt: str, low: int, high: int) -> int:
    """Ask until the answer is a whole number from low to high, and return it."""
    require(low <= high, "InputType.readInteger", f"low must not exceed high (got {low}, {high})")
    while True:
        answer = _ask(input, prompt)
        if answer is None:
            continue
        if not _INTEGER.match(answer):
            _refuse(input, f"{answer!r} is not a whole number.")
        elif not low <= int(answer) <= high:
            _refuse(input, f"{answer} is not between {low} and {high}.")
        else:
            return int(answer)


def readYesNo(input: Input, prompt: str) -> bool:
    """Ask until the answer is yes or no (y, yes, n, no, any case); True for yes."""
    while True:
        answer = _ask(input, prompt)
        if answer is None:
            continue
        if answer.lower() in YES:
            return True
        if answer.lower() in NO:
            return False
        _refuse(input, f"{answer!r} is not an answer: type y for yes or n for no.")


def readLocation(input: Input, prompt: str, side: int) -> tuple[int, int]:
    """Ask until the answer is a row and a column from 1 to side; return (row, column)."""
    require(side >= 1, "InputType.readLocation", f"the side must be at least 1 (got {side})")
    while True:
        answer = _ask(input, prompt)
        if answer is None:
            continue
        parts = [p for p in re.split(r"[\s,]+", answer) if p]
        if len(parts) != 2 or not all(_INTEGER.match(p) for p in parts):
            _refuse(input, f"{answer!r} is not a square: type a row and a column, like 2 3.")
            continue
        row, column = (int(p) for p in parts)
        if not (1 <= row <= side and 1 <= column <= side):
            _refuse(input, f"{row} {column} is off the board: rows and columns run from 1 to {side}.")
            continue
        return row, column


def _ask(input: Input, prompt: str) -> str | None:
    """Show the prompt and read one answer; None (after saying so) for an empty line."""
    stream = input.stream
    if input.lines is None:
        stream.flush()
        try:
            line = _read_keyboard(prompt)
        except EOFError:
            stream.write("\n")
            raise EndOfInput("the input ended") from None
    else:
        stream.write(prompt)
        try:
            line = next(input.lines)
        except StopIteration:
            stream.write("\n")
            raise EndOfInput("the input ended") from None
        stream.write(f"{line}\n")
    answer = line.strip()
    if not answer:
        _refuse(input, "Please type an answer.")
        return None
    return answer


def _refuse(input: Input, reason: str) -> None:
    input.stream.write(f"{reason}\n")


def _read_keyboard(prompt: str) -> str:
    """Python's input(), which offers line editing at a terminal."""
    return builtins.input(prompt)
