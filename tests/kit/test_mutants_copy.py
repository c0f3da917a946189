"""A mutant is tested as a student's package is: the supplied modules of its copy of the reference re-export the kit's."""

import importlib
import importlib.util
import sys

import pytest

import spec
from speckit.mutants import reference_copy
from speckit.registry import kit, names


@pytest.mark.parametrize("name", names())
def test_a_copy_of_the_reference_re_exports_the_kits_supplied_classes(name, tmp_path):
    package_name = f"speckit_copy_of_{name}"
    folder = reference_copy(name, tmp_path / package_name)
    supplied = [t for t in spec.load(name).types if t.supplied and t.class_name and (folder / f"{t.module}.py").is_file()]
    if not supplied:
        pytest.skip(f"{name} has no supplied class in its reference")
    loader = importlib.util.spec_from_file_location(package_name, folder / "__init__.py", submodule_search_locations=[str(folder)])
    package = importlib.util.module_from_spec(loader)
    sys.modules[package_name] = package
    try:
        loader.loader.exec_module(package)
        for t in supplied:
            copied = getattr(importlib.import_module(f"{package_name}.{t.module}"), t.class_name)
            original = getattr(importlib.import_module(f"{kit(name).reference}.{t.module}"), t.class_name)
            assert copied is original, f"{t.module}.{t.class_name} of the copy is not the kit's"
    finally:
        for module in [m for m in sys.modules if m == package_name or m.startswith(package_name + ".")]:
            del sys.modules[module]
