"""Textual patches of a reference implementation, and the variants built from them.

The zoo (:mod:`speckit.zoo`: variants the suite must fail) and the register of readings
(:mod:`speckit.readings`: variants it must pass) keep their variants as data, each a
list of exact find/replace patches of reference modules. A patch's ``find`` text must
occur exactly once in its module's text at the point it is applied, so a change to the
reference that invalidates a variant is reported instead of silently changing it.

The same patches make a variant of any package folder (:func:`variant_of`): a fixture
that differs from another in a few lines is kept as those lines, not as a second copy.
"""

from __future__ import annotations

import shutil
import tomllib
from collections.abc import Iterable
from pathlib import Path

import attrs

from .core import UserError
from .registry import kit
from .skeleton import reference_copy


class PatchError(UserError, ValueError):
    """A variant's data is wrong (unknown key or module, patch text not found exactly once)."""


@attrs.frozen
class Patch:
    """Replace the one occurrence of ``find`` in the reference module ``module`` with ``replace``."""

    module: str
    find: str
    replace: str


def read_entries(folder: Path, table: str) -> list[tuple[str, dict]]:
    """Every ``[[table]]`` entry of the TOML files in ``folder``, with its file's name, files in name order."""
    entries = []
    for path in sorted(folder.glob("*.toml")):
        try:
            with path.open("rb") as f:
                data = tomllib.load(f)
        except tomllib.TOMLDecodeError as e:
            raise PatchError(f"{path.name}: not valid TOML ({e})") from None
        entries += [(path.name, entry) for entry in data.get(table, [])]
    return entries


def check_keys(where: str, entry: dict, required: Iterable[str], optional: Iterable[str] = ()) -> None:
    """A one-line error for a key ``entry`` does not know or a required one it lacks."""
    required = set(required)
    unknown = sorted(set(entry) - required - set(optional))
    if unknown:
        raise PatchError(f"{where}: unknown keys {unknown} (known: {sorted(required | set(optional))})")
    missing = sorted(required - set(entry))
    if missing:
        raise PatchError(f"{where}: missing keys {missing}")
    wrong = sorted(key for key, value in entry.items() if not isinstance(value, str) and key in required)
    if wrong:
        raise PatchError(f"{where}: {', '.join(wrong)} must be text")


def patched_sources(spec_name: str, label: str, patches: Iterable[Patch]) -> dict[str, str]:
    """The texts of the reference modules the patches touch, each patch applied in turn.

    ``label`` names the variant in an error. Each patch's ``find`` text must occur exactly
    once in its module's text as the patches before it left that text."""
    return patched_texts(kit(spec_name).reference_dir, label, patches, "the reference")


def patched_texts(package: Path, label: str, patches: Iterable[Patch], what: str = "") -> dict[str, str]:
    """The texts of the modules of the package folder ``package`` that the patches touch, each
    patch applied in turn (see :func:`patched_sources`); ``what`` names the package in an error."""
    what = what or package.name
    texts: dict[str, str] = {}
    for number, patch in enumerate(patches, 1):
        if patch.module not in texts:
            source = package / f"{patch.module}.py"
            if not patch.module.isidentifier() or not source.is_file():
                raise PatchError(f"{label}: {what} has no module {patch.module}")
            texts[patch.module] = source.read_text(encoding="utf-8")
        count = texts[patch.module].count(patch.find)
        if count != 1:
            raise PatchError(
                f"{label}: the find text of patch {number} occurs {count} times in {patch.module}.py (must be once)"
            )
        texts[patch.module] = texts[patch.module].replace(patch.find, patch.replace)
    return texts


def materialise(spec_name: str, label: str, patches: Iterable[Patch], destination: Path) -> Path:
    """Write the variant as a package at ``destination``: the reference shaped as a student's package
    (:func:`speckit.skeleton.reference_copy`: the supplied modules re-export the kit's), with the
    patched modules. A patch of a supplied module (BoardADT's player) replaces the re-export with
    the patched text of the kit's own module."""
    texts = patched_sources(spec_name, label, patches)
    reference_copy(spec_name, destination)
    for module, text in texts.items():
        (destination / f"{module}.py").write_text(text, encoding="utf-8")
    return destination


def read_patches(path: Path) -> list[Patch]:
    """The ``[[patch]]`` entries (``module``, ``find``, ``replace``) of one TOML file, in order."""
    entries = [entry for name, entry in read_entries(path.parent, "patch") if name == path.name]
    if not path.is_file() or not entries:
        raise PatchError(f"{path}: no [[patch]] entries")
    for number, entry in enumerate(entries, 1):
        check_keys(f"{path.name}: patch {number}", entry, ("module", "find", "replace"))
    return [Patch(**entry) for entry in entries]


def variant_of(package: Path, patches: Path, destination: Path) -> Path:
    """Write at ``destination`` a copy of the package folder ``package`` with the patches of the
    TOML file ``patches`` (:func:`read_patches`) applied; ``destination`` is returned."""
    texts = patched_texts(package, patches.name, read_patches(patches))
    shutil.copytree(package, destination, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    for module, text in texts.items():
        (destination / f"{module}.py").write_text(text, encoding="utf-8")
    return destination
