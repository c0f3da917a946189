"""A faulty variant is tested as a student's package is: the supplied modules of its copy of the
reference re-export the kit's. Both builders of faulty variants are checked: mutation analysis
(:func:`speckit.mutants.run`) and the zoo (:func:`speckit.zoo.materialise`) build on the one helper,
:func:`speckit.skeleton.reference_copy`."""

import importlib
import importlib.util
import sys
from pathlib import Path

import pytest

import spec
from speckit.registry import kit, names
from speckit.skeleton import reference_copy
from speckit.zoo import load_mutants, materialise


def supplied_types(name: str, folder: Path) -> list:
    return [t for t in spec.load(name).types if t.supplied and (folder / f"{t.module}.py").is_file()]


def exported(t) -> list[str]:
    """What a supplied type's module gives: its class, or else its operations (Connect-4's Display)."""
    return [t.class_name] if t.class_name else list(dict.fromkeys(op.name for op in t.operations))


def assert_supplied_modules_are_the_kits(name: str, folder: Path, package_name: str) -> None:
    supplied = [t for t in supplied_types(name, folder)]
    if not supplied:
        pytest.skip(f"{name} has no supplied module in its reference")
    loader = importlib.util.spec_from_file_location(
        package_name, folder / "__init__.py", submodule_search_locations=[str(folder)]
    )
    package = importlib.util.module_from_spec(loader)
    sys.modules[package_name] = package
    try:
        loader.loader.exec_module(package)
        for t in supplied:
            for attribute in exported(t):
                copied = getattr(importlib.import_module(f"{package_name}.{t.module}"), attribute)
                original = getattr(importlib.import_module(f"{kit(name).reference}.{t.module}"), attribute)
                assert copied is original, f"{t.module}.{attribute} of the copy is not the kit's"
    finally:
        for module in [m for m in sys.modules if m == package_name or m.startswith(package_name + ".")]:
            del sys.modules[module]


@pytest.mark.parametrize("name", names())
def test_a_copy_of_the_reference_re_exports_the_kits_supplied_modules(name, tmp_path):
    package_name = f"speckit_copy_of_{name}"
    folder = reference_copy(name, tmp_path / package_name)
    assert_supplied_modules_are_the_kits(name, folder, package_name)


@pytest.mark.parametrize("name", names())
def test_a_zoo_member_re_exports_the_kits_supplied_modules(name, tmp_path):
    """Fails where the zoo copies the supplied modules (Connect-4's display and input,
    BoardADT's player, connect4_2015's view, X+Game's dictionary classes): what they define is
    then the copy's own."""
    supplied = {t.module for t in spec.load(name).types if t.supplied}
    mutant = next(m for m in load_mutants(name) if m.module not in supplied)
    package_name = f"speckit_zoo_member_of_{name}"
    folder = materialise(mutant, tmp_path / package_name)
    assert mutant.replace in (folder / f"{mutant.module}.py").read_text(encoding="utf-8")
    assert_supplied_modules_are_the_kits(name, folder, package_name)


def test_a_zoo_member_of_a_supplied_module_is_the_kits_module_patched(tmp_path):
    """BoardADT's zoo mutates the kit's player: the member's player is that module's text patched,
    not the re-export."""
    mutant = next(m for m in load_mutants("boardadt") if m.module == "player")
    folder = materialise(mutant, tmp_path / "speckit_zoo_player")
    original = (kit("boardadt").reference_dir / "player.py").read_text(encoding="utf-8")
    assert (folder / "player.py").read_text(encoding="utf-8") == original.replace(mutant.find, mutant.replace)
