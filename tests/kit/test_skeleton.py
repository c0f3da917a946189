"""The student skeleton: it imports, follows the contract, and implements nothing.

Both kinds of contract are covered: connect4's modules of functions, and boardadt's
classes (a constructor is the class's ``__init__``, every other operation a method
whose first parameter is ``self``), constants and records.
"""

from __future__ import annotations

import importlib
import inspect
import sys

import pytest

import spec
from speckit import impl as impl_loader
from speckit.cli import main
from speckit.registry import kit
from speckit.skeleton import SkeletonError, constants, skeleton_files, write_skeleton

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
    supplied = pytest.importorskip(f"{kit(SPEC.name).reference}.{t.module}")
    mod = module(t)
    for op in t.operations:
        assert getattr(mod, op.name) is getattr(supplied, op.name)
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


# ---------------------------------------------------------------- boardadt: classes, constants, records

BOARDADT = spec.load("boardadt")
BOARDADT_PACKAGE = "speckit_boardadt_skeleton_under_test"
BOARDADT_STUDENT_TYPES = [t for t in BOARDADT.types if not t.supplied]
CLASS_TYPES = [t for t in BOARDADT_STUDENT_TYPES if t.class_name]


@pytest.fixture(scope="module")
def boardadt_skeleton(tmp_path_factory):
    """``speckit skeleton --spec boardadt`` run into a fresh folder, put on the import path."""
    root = tmp_path_factory.mktemp("boardadt-skeleton")
    folder = root / BOARDADT_PACKAGE
    assert main(["skeleton", "--spec", "boardadt", str(folder)]) == 0
    sys.path.insert(0, str(root))
    try:
        yield folder
    finally:
        sys.path.remove(str(root))
        for name in [m for m in sys.modules if m == BOARDADT_PACKAGE or m.startswith(BOARDADT_PACKAGE + ".")]:
            del sys.modules[name]


def boardadt_module(t):
    return importlib.import_module(f"{BOARDADT_PACKAGE}.{t.module}")


def entry_point(t, op):
    """What the contract calls for ``op``, and how many leading parameters the kit passes itself.

    A module function takes all its parameters; a constructor is the class, whose
    ``__init__`` takes ``self`` first; any other operation of a class is a method, whose
    ``self`` is the operation's first parameter.
    """
    mod = boardadt_module(t)
    if not t.class_name:
        return getattr(mod, op.name, None), [p.name for p in op.params]
    cls = getattr(mod, t.class_name, None)
    assert inspect.isclass(cls), f"module {t.module} has no class {t.class_name}"
    if op.kind == "constructor":
        return cls.__init__, ["self", *[p.name for p in op.params]]
    return getattr(cls, op.name, None), ["self", *[p.name for p in op.params[1:]]]


def test_boardadt_skeleton_is_an_importable_package_with_one_module_per_type(boardadt_skeleton):
    assert sorted(p.name for p in boardadt_skeleton.iterdir()) == sorted(
        ["__init__.py", *[f"{t.module}.py" for t in BOARDADT.types]]
    )
    package = importlib.import_module(BOARDADT_PACKAGE)
    assert "speckit check --spec boardadt" in package.__doc__
    for t in BOARDADT.types:
        boardadt_module(t)


@pytest.mark.parametrize("t", BOARDADT_STUDENT_TYPES, ids=lambda t: t.name)
def test_every_boardadt_operation_exists_with_its_documented_arities(boardadt_skeleton, t):
    for op in t.operations:
        function, names = entry_point(t, op)
        assert inspect.isfunction(function), f"{op.qualname} is missing"
        signature = inspect.signature(function)
        assert [p.name for p in signature.parameters.values()] == names, op.qualname
        extra = len(names) - len(op.params)  # self, when the kit passes it
        for arity in op.arities:
            signature.bind(*[object()] * (arity + extra))
        with pytest.raises(TypeError):
            signature.bind(*[object()] * (max(op.arities) + extra + 1))
        if min(op.arities) + extra:
            with pytest.raises(TypeError):
                signature.bind(*[object()] * (min(op.arities) + extra - 1))


@pytest.mark.parametrize("t", CLASS_TYPES, ids=lambda t: t.name)
def test_a_class_based_type_is_its_class_and_nothing_else(boardadt_skeleton, t):
    mod = boardadt_module(t)
    cls = getattr(mod, t.class_name)
    assert cls.__module__ == mod.__name__
    assert t.purpose.split(":")[0] in inspect.getdoc(cls)
    for op in t.operations:
        assert not hasattr(mod, op.name) or op.name == t.class_name, f"{op.qualname} is a module function too"
        function, _ = entry_point(t, op)
        doc = inspect.getdoc(function)
        assert all(s in doc for s in op.signatures)
        assert f"In Python: {op.python_form(t.class_name)}" in doc
        assert " ".join(op.behaviour.split()) in " ".join(doc.split())
        assert all(e.id in doc for e in BOARDADT.errata_for(op.qualname))


@pytest.mark.parametrize("t", CLASS_TYPES, ids=lambda t: t.name)
def test_boardadt_bodies_raise_not_implemented_naming_the_operation(boardadt_skeleton, t):
    cls = getattr(boardadt_module(t), t.class_name)
    instance = object.__new__(cls)  # the constructor itself is not implemented yet
    for op in t.operations:
        match = op.qualname.replace(".", r"\.")
        with pytest.raises(NotImplementedError, match=match):
            if op.kind == "constructor":
                cls(*[None] * max(op.arities))
            else:
                getattr(instance, op.name)(*[None] * (max(op.arities) - 1))


def test_the_declared_constants_are_written_as_declared(boardadt_skeleton):
    board = boardadt_module(BOARDADT.type("board_type"))
    assert (board.number_of_columns, board.number_of_rows) == (7, 6)
    colour = boardadt_module(BOARDADT.type("color_type"))
    assert colour.red == colour.red and colour.red != colour.blue
    assert [c[0] for c in constants(BOARDADT.type("color_type"))] == ["red", "blue"]
    assert all(not constants(t) for t in SPEC.types), "connect4 declares no constants"


def test_boardadt_supplied_player_re_exports_the_reference(boardadt_skeleton):
    supplied = importlib.import_module(f"{kit('boardadt').reference}.player")
    player = boardadt_module(BOARDADT.type("Player"))
    assert player.Computer_Move is supplied.Computer_Move
    assert "Computer_Move" in player.__all__
    assert "import adt" not in (boardadt_skeleton / "player.py").read_text()


def test_the_kit_reads_every_skeleton_operation_as_not_implemented(boardadt_skeleton):
    loaded = impl_loader.load(boardadt_skeleton, BOARDADT)
    for op in BOARDADT.operations():
        expected = "present" if BOARDADT.type(op.type_name).supplied else "not implemented"
        assert loaded.state(op.qualname) == expected, op.qualname


def test_the_kit_reads_the_reference_classes_as_implemented():
    loaded = impl_loader.load(kit("boardadt").reference, BOARDADT)
    assert {op.qualname: loaded.state(op.qualname) for op in BOARDADT.operations()} == {
        op.qualname: "present" for op in BOARDADT.operations()
    }


def test_check_reports_every_student_operation_of_the_fresh_skeleton_as_not_implemented(boardadt_skeleton, capsys):
    assert main(["check", "--spec", "boardadt", str(boardadt_skeleton)]) == 1
    out = capsys.readouterr().out
    student_ops = [op for t in BOARDADT_STUDENT_TYPES for op in t.operations]
    for op in student_ops:
        assert any(line.split()[:3] == [op.name, "not", "implemented"] for line in out.splitlines()), (
            f"{op.qualname}:\n{out}"
        )
    assert f"{len(student_ops)} operations to implement: {len(student_ops)} not implemented" in out
    assert "Supplied by the kit, not checked: Player." in out


# ---------------------------------------------------------------- --force never loses a student's work


def test_force_writes_only_missing_modules_and_keeps_changed_ones(tmp_path, capsys):
    folder = tmp_path / "mine"
    write_skeleton(SPEC, folder)
    implemented = "def increment(i):\n    return i + 1\n"
    (folder / "index.py").write_text(implemented, encoding="utf-8")
    (folder / "grid.py").unlink()
    before_square = (folder / "square.py").read_bytes()

    assert main(["skeleton", "--force", str(folder)]) == 0
    out = capsys.readouterr().out

    assert (folder / "index.py").read_text(encoding="utf-8") == implemented
    assert (folder / "grid.py").is_file() and "NotImplementedError" in (folder / "grid.py").read_text()
    assert (folder / "square.py").read_bytes() == before_square
    assert "Kept 1" in out and "index.py" in out.split("Kept", 1)[1]
    assert "wrote  grid.py" in out
    assert "square.py" in out.split("Left", 1)[1].split("\n", 1)[0]
    assert not list(folder.glob("*.orig")) and not list(folder.glob("*.bak"))


def test_fill_skeleton_sorts_every_file_into_written_unchanged_or_kept(tmp_path):
    from speckit.skeleton import fill_skeleton, skeleton_files

    folder = tmp_path / "pkg"
    folder.mkdir()
    (folder / "location.py").write_text("# started\n", encoding="utf-8")
    (folder / "dimension.py").write_bytes(b"\xff\xfe not utf-8")
    expected = skeleton_files(SPEC, "pkg")
    (folder / "symbol.py").write_text(expected["symbol.py"], encoding="utf-8")

    result = fill_skeleton(SPEC, folder, force=True)

    assert sorted(p.name for p in result.kept) == ["dimension.py", "location.py"]
    assert [p.name for p in result.unchanged] == ["symbol.py"]
    assert sorted(p.name for p in result.written) == sorted(
        set(expected) - {"location.py", "dimension.py", "symbol.py"}
    )
    assert (folder / "location.py").read_text(encoding="utf-8") == "# started\n"
    assert (folder / "dimension.py").read_bytes() == b"\xff\xfe not utf-8"
    again = fill_skeleton(SPEC, folder, force=True)
    assert again.written == [] and len(again.unchanged) == len(expected) - 2


# ---------------------------------------------------------------- enumerations and exception classes

FREECELL = spec.load("freecell")


@pytest.fixture(scope="module")
def freecell_skeleton(tmp_path_factory):
    folder = tmp_path_factory.mktemp("freecell") / "fcpkg"
    write_skeleton(FREECELL, folder)
    return folder


def test_the_freecell_skeleton_imports_with_its_enumerations_as_declared(freecell_skeleton):
    card_adt = impl_loader.load(freecell_skeleton, FREECELL).module("card_adt")
    for enumeration in FREECELL.type("CardT").enumerations:
        cls = getattr(card_adt, enumeration.name)
        assert [m.name for m in cls] == list(enumeration.members)
    assert [int(r) for r in card_adt.RankT] == list(range(14)) and card_adt.RankT.KING > card_adt.RankT.QUEEN
    assert len({card_adt.SuitT.SPADES, card_adt.SuitT.HEARTS, card_adt.SuitT.NAS}) == 3


def test_the_freecell_skeleton_defines_each_exception_class_and_binds_its_other_names(freecell_skeleton):
    exceptions = impl_loader.load(freecell_skeleton, FREECELL).module("exceptions")
    declared = FREECELL.type("exceptions").exceptions
    assert {e.name for e in declared} >= {"InvalidIndex", "StackEmpty", "NotAscendingRank"}
    for e in declared:
        cls = getattr(exceptions, e.name)
        assert isinstance(cls, type) and issubclass(cls, Exception) and cls.__name__ == e.name
        for alias in e.aliases:
            assert getattr(exceptions, alias) is cls
    assert exceptions.IsEmpty is exceptions.StackEmpty


def test_an_enumeration_type_of_the_2015_design_is_written_as_its_enum():
    c2015 = spec.load("connect4_2015")
    from speckit.skeleton import skeleton_files

    files = skeleton_files(c2015, "mine")
    namespace: dict = {}
    exec(compile(files["space.py"], "space.py", "exec"), namespace)
    assert [m.name for m in namespace["Space"]] == ["Red", "Blue", "Empty"]
    exec(compile(files["game_state.py"], "game_state.py", "exec"), namespace)
    assert [m.name for m in namespace["GameState"]] == ["Win", "Ongoing", "Draw"]


@pytest.mark.parametrize(
    "entry, complaint",
    [
        ({"name": "RankT", "members": ["ACE"], "meaning": "m", "base": "IntEnum"}, "one whole number per member"),
        ({"name": "SuitT", "members": ["A", "A"], "meaning": "m"}, "each once"),
        ({"name": "SuitT", "members": ["A"], "meaning": "m", "base": "Flag"}, "is not one of"),
        ({"name": "SuitT", "members": ["A"], "meaning": "m", "colour": 1}, "unknown keys"),
    ],
)
def test_a_malformed_enumeration_is_refused_naming_it(entry, complaint):
    from spec.loader import SpecDataError, _load_enumeration

    with pytest.raises(SpecDataError, match=complaint):
        _load_enumeration("card_adt.toml", entry)


def test_check_reports_the_fresh_freecell_skeleton_as_not_implemented_not_as_import_failures(freecell_skeleton, capsys):
    assert main(["check", "--spec", "freecell", str(freecell_skeleton)]) == 1
    out = capsys.readouterr().out
    assert "could not be imported" not in out and " ! " not in out, out
    to_write = [op for t in FREECELL.types if not t.supplied for op in t.documented]
    assert f"{len(to_write)} operations to implement: {len(to_write)} not implemented" in out, out


@pytest.mark.parametrize("spec_name", spec.available())
def test_every_supplied_module_compiles_and_imports_only_what_the_handout_ships(spec_name):
    """The supplied modules re-export the modules ``[kit] supplied`` declares, which the student
    bundle ships under their own names even though it blanks ``reference`` (issue 29, item 1)."""
    import ast

    specification = spec.load(spec_name)
    files = skeleton_files(specification, "mine")
    declared = set(kit(spec_name).declaration.supplied)
    for t in specification.types:
        tree = ast.parse(files[f"{t.module}.py"], f"{t.module}.py")  # a SyntaxError fails the test
        imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
        imported |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        if t.supplied:
            assert imported - {None} == {kit(spec_name).supplied_module(t.module)} <= declared


@pytest.mark.parametrize("spec_name", spec.available())
def test_every_noqa_the_skeleton_writes_names_its_rules_and_says_why(spec_name):
    """Students read these files: a marker that silences the linter names the rule and says why (issue 33)."""
    import re

    markers = 0
    for name, text in skeleton_files(spec.load(spec_name), "mine").items():
        for line in text.splitlines():
            if "noqa" in line:
                markers += 1
                assert re.search(r"# noqa: [A-Z]+\d+(,[A-Z]+\d+)* -- \w", line), f"{name}: {line}"
    assert markers or not any(t.supplied for t in spec.load(spec_name).types)


def test_a_kit_without_a_reference_still_writes_the_supplied_modules_and_has_no_reference_folder():
    """The student bundle blanks ``reference``: the skeleton does not need it, and nothing may
    mistake the kit's root for the reference's folder."""
    import attrs

    from speckit.registry import Kit

    bundled = Kit("connect4", attrs.evolve(kit("connect4").declaration, reference=""))
    assert bundled.supplied_module("display") == "adt.display"
    with pytest.raises(KeyError, match="carries no reference"):
        _ = bundled.reference_dir
    with pytest.raises(KeyError, match="exactly one module called grid"):
        bundled.supplied_module("grid")
