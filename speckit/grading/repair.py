"""Repairing a package that cannot be run as a whole, by replacing only its broken parts.

A package that cannot be run as a whole (an import that raises, ends the process or takes
too long) is run again with only its broken parts replaced by the reference's: the kit's
``__init__.py`` and each module that fails at import. Its other modules stay the
student's, so a type that needs no broken module scores as if nothing were broken; the
types of the replaced modules are graded as hybrids (:mod:`~speckit.grading.hybrid`),
which say why they fail.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from ..runner import SuiteRun
from .losses import import_problems

_CULPRIT = re.compile(r"([\w.-]+)\.py (?:raised|went over|took more than|has a syntax error)")
_RAISED_AT_IMPORT = re.compile(r"\.py raised \w+ at import")


def raised_at_import(crash: str) -> bool:
    """Whether a crash is an exception a module raised at import: the package's own, which
    another run would raise again (unlike an import past its time on a loaded machine)."""
    return bool(_RAISED_AT_IMPORT.search(crash))


def culprits(text: str) -> set[str]:
    """The modules a crash or import problem names as the file that failed at import (none when
    it names no file: an import that ended the process is the importing module's own)."""
    return {m.group(1) for m in _CULPRIT.finditer(text)}


def broken_modules(run: SuiteRun) -> set[str]:
    """The modules a run found failing at import: the file each import problem names as the
    one that failed, else the module itself."""
    return set().union(*(culprits(problem) or {module} for module, problem in import_problems(run).items()))


def repaired_source(found: Path, shaped: Path, broken: set[str], target: Path) -> set[str]:
    """Write into ``target`` the student's package ``found`` with its ``__init__.py`` and its
    ``broken`` modules replaced by those of ``shaped`` (the reference shaped as a student's
    package). The names of the student's modules it keeps."""
    shutil.copytree(found, target, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    for name in ("__init__", *sorted(broken)):
        if (shaped / f"{name}.py").is_file():
            shutil.copy2(shaped / f"{name}.py", target / f"{name}.py")
    return {p.name for p in found.glob("*.py")} - {"__init__.py", *(f"{m}.py" for m in broken)}


def repaired_notes(reason: str, broken: frozenset[str]) -> tuple[str, str]:
    """The note for the student and the line for the log on a package graded with ``broken``
    replaced, because it could not be run as submitted (for ``reason``)."""
    replaced = ", ".join(sorted(f"{m}.py" for m in broken)) or "none of your modules"
    note = (
        f"the package as submitted could not be run ({reason}): it was graded with the kit's __init__.py"
        + (f" and the reference's {replaced} in place of yours" if broken else "")
        + "; every other module is yours"
    )
    fallback = (
        f"the package could not be run as submitted ({reason}): graded with the kit's __init__.py, "
        f"modules replaced: {replaced}"
    )
    return note, fallback


def unrepaired_notes(reason: str, reference: bool) -> tuple[str, str]:
    """The note for the student and the line for the log on a package that could not be run as
    submitted (for ``reason``) nor repaired: its types are graded as hybrids, given a ``reference``."""
    note = f"the package as submitted could not be run ({reason})" + (
        ": each type was graded in a copy of the reference holding its module" if reference else ""
    )
    fallback = f"the package could not be run as submitted ({reason}): every type graded as a hybrid"
    return note, fallback
