"""Textual patches of a reference implementation, and the variants built from them.

The zoo (:mod:`speckit.zoo`: variants the suite must fail) and the register of readings
(:mod:`speckit.readings`: variants it must pass) keep their variants as data, each a
list of exact find/replace patches of reference modules. A patch's ``find`` text must
occur exactly once in its module's text at the point it is applied, so a change to the
reference that invalidates a variant is reported instead of silently changing it.
"""

from __future__ import annotations

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
    reference = kit(spec_name).reference_dir
    texts: dict[str, str] = {}
    for number, patch in enumerate(patches, 1):
        if patch.module not in texts:
            source = reference / f"{patch.module}.py"
            if not patch.module.isidentifier() or not source.is_file():
                raise PatchError(f"{label}: the reference has no module {patch.module}")
            texts[patch.module] = source.read_text(encoding="utf-8")
        count = texts[patch.module].count(patch.find)
        if count != 1:
            raise PatchError(f"{label}: the find text of patch {number} occurs {count} times in {patch.module}.py (must be once)")
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
