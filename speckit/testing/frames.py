"""Values reached by every documented path, and the frame rule of updates: the part every suite shares.

A value an implementation holds can reach the same abstract state by many paths: made by
any constructor, updated and overwritten, cloned, got out of another value. Every
property of a value must hold of every value with the same model, and an update must
change its argument at most (the frame rule). A suite describes its specification's
paths (which constructors, updates and gets each kind of value has) and how a value's
model is asked; this module holds the rest:

* :class:`Path`, a recipe as plain data that Hypothesis prints and a failing example
  shows as the calls it makes: a start (a constructor, or a get from a value that is
  itself made by a path), then steps, each with the model it leaves;
* :func:`walk`, random steps from a seeded random source (one Hypothesis draw: drawing
  each choice from Hypothesis costs more than the calls), and :func:`clone_step`;
* :func:`start`, which makes a recipe's first value, and :func:`follow`, which takes its
  steps (an update returning its result, or changing its argument in place: ``in_place``)
  and keeps the values a clone left behind on the way, each with its model: values built
  before any later update, that must keep their models;
* :class:`FrameCase`, one update and its bystanders, and :class:`Verdict`, whether a value
  has its model (and what it was read as when not);
* :func:`expect_frame`, the frame rule's verdicts said in the specification's terms.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

import attrs
from hypothesis import settings
from hypothesis import strategies as st

from . import expect

StepMaker = Callable[[random.Random, Any], tuple[tuple[Any, ...], Any]]
"""Makes a random step from a model: ``(rnd, model)`` gives ``(step, the model after it)``."""


@attrs.frozen(repr=False)
class Path:
    """How one value is made: a start, then steps, each with the model it leaves.

    ``start`` is ``(module, operation, *arguments)``; a step is ``(operation, *arguments)``
    on the kind's own module, or ``("clone", "copy")`` (go on with a clone, leaving the
    source) or ``("clone", "source")`` (take a clone, leave it, go on with the source).
    Arguments are paths themselves, or plain values such as ints.
    """

    kind: str
    start: tuple[Any, ...]
    start_model: Any
    steps: tuple[tuple[Any, ...], ...] = ()
    models: tuple[Any, ...] = ()

    @property
    def model(self) -> Any:
        return self.models[-1] if self.models else self.start_model

    def __repr__(self) -> str:
        text = _call(self.start[1], self.start[2:])
        for step in self.steps:
            if step[0] == "clone":
                text = f"clone({text})" if step[1] == "copy" else f"{text} (after a clone of it was taken)"
            else:
                text = _call(step[0], (_Text(text),) + step[1:])
        return text


class _Text(str):
    def __repr__(self) -> str:
        return str(self)


def _call(operation: str, arguments: Iterable[Any]) -> str:
    return f"{operation}({', '.join(repr(a) for a in arguments)})"


@attrs.frozen
class FrameCase:
    """One update to check the frame rule of: the path of its argument, its other arguments, the
    argument's model after it, and the other values (bystanders) that must keep their models."""

    operation: str
    argument: Path
    arguments: tuple[Any, ...]
    after: Any
    others: tuple[Path, ...]


class Verdict:
    """Whether a value has its model; false, it shows what the value was read as."""

    def __init__(self, holds: bool, seen: str) -> None:
        self.holds, self.seen = holds, seen

    def __bool__(self) -> bool:
        return self.holds

    def __repr__(self) -> str:
        return self.seen


class Made(NamedTuple):
    """A followed path: the value, its model, and the values left behind with their models."""

    value: Any
    model: Any
    left: list[tuple[str, Any, Any, str]]  # [(kind, value, model, description)]


def start(path: Path, modules: Any, argument: Callable[[Any], Any]) -> Any:
    """The value ``path`` starts from: its constructor (or get) on ``modules`` (the implementation,
    whose attributes are the kinds' modules) called with its arguments, each made by ``argument``."""
    module, operation, *arguments = path.start
    return getattr(getattr(modules, module), operation)(*(argument(a) for a in arguments))


def follow(
    path: Path,
    value: Any,
    operations: Any,
    argument: Callable[[Any], Any],
    clones: Callable[[], bool],
    *,
    in_place: bool = False,
) -> Made:
    """Take the steps of ``path`` from ``value``, its start already made.

    ``operations`` holds the kind's documented operations (``operations.clone`` and the
    updates the steps name); ``argument`` makes a step's argument (a path's value, or the
    argument as it is); ``clones()`` says whether the implementation can clone this kind
    (asked at the first clone step: a clone it leaves out, as an extension may be, changes
    no model and is skipped). With ``in_place`` (the specification says an update changes
    the value it is called on and its result is not used) the path goes on with the same value.
    """
    left: list[tuple[str, Any, Any, str]] = []
    model = path.start_model
    for number, (step, after) in enumerate(zip(path.steps, path.models, strict=True)):
        if step[0] == "clone" and not clones():
            continue
        if step[0] == "clone":
            so_far = repr(attrs.evolve(path, steps=path.steps[:number], models=path.models[:number]))
            copy = operations.clone(value)
            if step[1] == "copy":
                left.append((path.kind, value, model, f"the source of clone({so_far})"))
                value = copy
            else:
                left.append((path.kind, copy, model, f"clone({so_far})"))
        else:
            result = getattr(operations, step[0])(value, *(argument(a) for a in step[1:]))
            value = value if in_place else result
        model = after
    return Made(value, model, left)


def walk(
    rnd: random.Random,
    steps: list[tuple[Any, ...]],
    models: list[Any],
    model: Any,
    choices: Callable[[Any], Iterable[StepMaker | None]],
    most: int,
) -> Any:
    """Append up to ``most`` random steps; ``choices(model)`` lists the step makers open from ``model``
    (None for one that is not); each maker takes ``(rnd, model)`` and gives ``(step, model after it)``."""
    for _ in range(rnd.randint(0, most)):
        options = [maker for maker in choices(model) if maker is not None]
        step, model = rnd.choice(options)(rnd, model)
        steps.append(step)
        models.append(model)
    return model


def clone_step(rnd: random.Random, model: Any) -> tuple[tuple[str, str], Any]:
    """A step maker: a clone, going on with the copy or with the source; the model stays."""
    return ("clone", rnd.choice(("copy", "source"))), model


RANDOM = st.integers(0, 2**32 - 1).map(random.Random)
"""The random source recipes are made with: one draw, then plain Python (drawing every choice costs more than the
calls)."""


def few(share: int = 4) -> settings:
    """Run a test on a ``share``-th of the profile's examples: tests of paths are many, and a path is long."""
    return settings(max_examples=max(5, settings().max_examples // share))


def expect_frame(
    call: str,
    before: str,
    after: str,
    verdicts: list[Any],
    given: list[tuple[str, str]],
    others: list[tuple[str, str]],
    *,
    ruling: str,
    in_place: bool = False,
) -> None:
    """The frame rule of an update, from the verdicts of questions asked after it.

    ``call`` describes the update (``"setRow(x, ...) where x is ..."``); ``before`` and
    ``after`` are its argument's model before and its result's model, in words.
    ``verdicts`` are, in order: the result has ``after``; the argument still has ``before``;
    the argument has ``after`` (updated in place); then one per ``given`` (the other values
    passed to the update) and ``others`` (values built before it), each ``(model in words,
    description)``, in that order. ``ruling`` says, in parentheses after the rule, what an update
    may do to its argument (the specification's words, or its erratum's). With ``in_place`` (the
    update changes x, and its result is not used) the first verdict alone is about x: x has ``after``.
    """
    __tracebackhide__ = True
    if in_place:
        expect(verdicts[0], f"after {call}, x is {after} ({ruling})", actual=verdicts[0])
        kept = iter(verdicts[1:])
    else:
        expect(verdicts[0], f"the result of {call} is {after}", actual=verdicts[0])
        unchanged, updated = verdicts[1], verdicts[2]
        expect(
            unchanged or updated,
            f"after {call}, x is either unchanged or updated to equal the result, {after} ({ruling}): the frame rule",
            expected=f"{before} or {after}",
            actual="something else",
        )
        kept = iter(verdicts[3:])
    for model, description in given:
        verdict = next(kept)
        expect(verdict, f"after {call}, {description}, given to it, is still {model} (the frame rule)", actual=verdict)
    for model, description in others:
        verdict = next(kept)
        expect(
            verdict,
            f"after {call}, {description}, built before it, is still {model} (the frame rule: an update changes its "
            "argument at most)",
            actual=verdict,
        )
