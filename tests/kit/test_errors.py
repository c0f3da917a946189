"""Every error the kit raises on purpose derives from one root, :class:`speckit.core.KitError`,
so the command line catches it in one place and prints a message instead of a traceback."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest

import spec
import speckit
from speckit.cli import main
from speckit.core import KitError

NOT_KIT_ERRORS = {
    "PreconditionError": "the contract's exception, raised by implementations, not by the kit",
    "TimeLimitReached": "a BaseException the alarm raises inside an operation, never shown",
    "_NoOtherExample": "stops Hypothesis's search inside the plugin, never shown",
    "StaleHandle": "the sandbox's own signal between client and values, caught there",
    "ServerDied": "the sandbox's own signal that the server died, caught by the client",
    "ProtocolViolation": "the sandbox's own signal of a garbled reply, caught by the client",
    "Refused": "a SystemExit: a program's way to stop with its message and status 1",
    "Interrupted": "a KeyboardInterrupt: the run was stopped, and the command line says so",
}
"""Exception classes of the kit that are not errors it reports (by class name), each with the reason."""


def exception_classes():
    for package in (spec, speckit):
        for info in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
            if info.name.endswith("__main__"):
                continue
            module = importlib.import_module(info.name)
            for _, value in inspect.getmembers(module, inspect.isclass):
                if (
                    issubclass(value, BaseException)
                    and not issubclass(value, Warning)
                    and value.__module__ == info.name
                ):
                    yield f"{info.name}.{value.__qualname__}", value


def test_every_error_class_of_the_kit_derives_from_the_root():
    found = dict(exception_classes())
    assert {
        "speckit.grading.intake.GradeError",
        "speckit.rubric.RubricError",
        "speckit.sandbox.config.SandboxError",
        "spec.loader.SpecDataError",
    } <= set(found)
    strays = sorted(
        name for name, cls in found.items() if not issubclass(cls, KitError) and cls.__name__ not in NOT_KIT_ERRORS
    )
    assert not strays, f"not derived from speckit.core.KitError: {strays}"


@pytest.mark.parametrize("error", ["GradeError", "RubricError", "SandboxError", "SpecDataError", "RecordError"])
def test_the_command_line_prints_any_kit_error_as_one_line(error, monkeypatch, capsys):
    classes = dict(exception_classes())
    cls = next(c for name, c in classes.items() if name.endswith(f".{error}"))

    def refuse(args):
        raise cls("a\x1b[31m problem")

    from speckit.commands import check

    monkeypatch.setattr(check, "run", refuse)
    assert main(["check"]) == 2
    assert capsys.readouterr().err == "speckit: a\\x1b[31m problem\n"
