"""The student skeleton: it imports, follows the contract, and implements nothing."""

from __future__ import annotations

import importlib
import inspect
import sys

import pytest

import spec
from speckit.skeleton import SkeletonError, write_skeleton

SPEC = spec.load("connect4")
PACKAGE = "speckit_skeleton_under_test"
STUDENT_TYPES = [t for t in SPEC.types if not t.supplied]
SUPPLIED_TYPES = [t for t in SPEC.types if t.supplied]


@pytest.fixture(scope="module")
def skeleton(tmp_path_factory):
    """The skeleton written into a fresh folder and put on the import path."""
    root = tmp_path_factory.mktemp("skeleton")
    files = write_skeleton(SPEC, root / PACKAGE)
    sys.path.insert(0, str(root))
    try:
        yield root / PACKAGE, files
    finally:
        sys.path.remove(str(root))
        for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
            del sys.modules[name]


def module(t):
    return importlib.import_module(f"{PACKAGE}.{t.module}")


def test_writes_the_package_and_one_module_per_type(skeleton):
    folder, files = skeleton
    assert [p.name for p in files] == ["__init__.py", *[f"{t.module}.py" for t in SPEC.types]]
    assert all(p.parent == folder and p.is_file() for p in files)


@pytest.mark.parametrize("t", STUDENT_TYPES, ids=lambda t: t.name)
def test_every_operation_is_a_function_binding_each_documented_arity(skeleton, t):
    mod = module(t)
    for op in t.operations:
        function = getattr(mod, op.name, None)
        assert inspect.isfunction(function), f"{op.qualname} is missing"
        signature = inspect.signature(function)
        assert [p.name for p in signature.parameters.values()] == [p.name for p in op.params]
        for arity in op.arities:
            signature.bind(*[object()] * arity)  # raises TypeError if this overload cannot be called
        with pytest.raises(TypeError):
            signature.bind(*[object()] * (max(op.arities) + 1))
        if min(op.arities):
            with pytest.raises(TypeError):
                signature.bind(*[object()] * (min(op.arities) - 1))


@pytest.mark.parametrize("t", STUDENT_TYPES, ids=lambda t: t.name)
def test_bodies_raise_not_implemented_naming_the_operation(skeleton, t):
    mod = module(t)
    for op in t.operations:
        with pytest.raises(NotImplementedError, match=op.qualname.replace(".", r"\.")):
            getattr(mod, op.name)(*[None] * max(op.arities))


def test_docstrings_come_from_the_spec(skeleton):
    grid = SPEC.type("GridType")
    mod = module(grid)
    for op in grid.operations:
        doc = inspect.getdoc(getattr(mod, op.name))
        assert all(s in doc for s in op.signatures)
        assert " ".join(op.behaviour.split()) in " ".join(doc.split())
        assert all(e.id in doc for e in SPEC.errata_for(op.qualname))
    clone = inspect.getdoc(module(SPEC.type("ColourType")).clone)
    assert clone.startswith("OPTIONAL")


@pytest.mark.parametrize("t", SUPPLIED_TYPES, ids=lambda t: t.name)
def test_supplied_types_re_export_the_kit(skeleton, t):
    kit = pytest.importorskip(f"adt.{t.module}")
    mod = module(t)
    for op in t.operations:
        assert getattr(mod, op.name) is getattr(kit, op.name)
        assert op.name in mod.__all__


def test_refuses_a_non_empty_folder_without_force(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(SkeletonError, match="not empty"):
        write_skeleton(SPEC, tmp_path)
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]
    written = write_skeleton(SPEC, tmp_path, force=True)
    assert (tmp_path / "notes.txt").read_text() == "mine"
    assert (tmp_path / "grid.py") in written


def test_refuses_a_file_and_accepts_an_empty_folder(tmp_path):
    (tmp_path / "afile").write_text("")
    with pytest.raises(SkeletonError):
        write_skeleton(SPEC, tmp_path / "afile")
    (tmp_path / "empty").mkdir()
    assert write_skeleton(SPEC, tmp_path / "empty")
    assert issubclass(SkeletonError, ValueError)
