"""The documentation's sources are complete and consistent, checked without running Sphinx.

The full build (``sphinx-build -W`` for html and doctest) runs in CI; these checks are
fast: every type has a generated page in the toctree, every narrative page is reachable,
and every ``:spec:`` link names something the specification defines.
"""

from __future__ import annotations

import contextlib
import importlib.util
import re
from pathlib import Path

import pytest

import spec

pytest.importorskip("sphinx")

DOCS = Path(__file__).resolve().parents[2] / "docs"
SPEC = spec.load("connect4")
BOARDADT = spec.load("boardadt")
NARRATIVE = sorted(p for p in DOCS.glob("*.rst") if p.name != "index.rst")
REFERENCE_GAMES = sorted((DOCS / "reference_games").glob("*.rst"))


@pytest.fixture(scope="module")
def specdoc():
    """The docs extension, loaded from its file (it is not an installed package)."""
    loader = importlib.util.spec_from_file_location("specdoc_under_test", DOCS / "_ext" / "specdoc.py")
    module = importlib.util.module_from_spec(loader)
    loader.loader.exec_module(module)
    return module


def test_every_type_has_a_generated_page(specdoc):
    pages = specdoc.type_pages(SPEC)
    assert list(pages) == [f"types/{t.module}.rst" for t in SPEC.types]
    for t in SPEC.types:
        text = pages[f"types/{t.module}.rst"]
        assert f"\n{t.name}\n{'=' * len(t.name)}\n" in text
        assert f".. spec-type:: connect4 {t.name}\n" in text


def test_every_type_page_is_in_the_toctree_in_spec_order(specdoc):
    entries = specdoc.toctree_entries(SPEC)
    assert entries == [f"{t.name} </types/{t.module}>" for t in SPEC.types]
    assert ".. spec-toctree:: connect4" in (DOCS / "specification.rst").read_text()


def test_sync_writes_stubs_and_drops_only_stale_generated_ones(specdoc, tmp_path):
    folder = tmp_path / "types"
    folder.mkdir()
    (folder / "gone.rst").write_text(specdoc.GENERATED_MARK + "\nGone\n====\n")
    (folder / "handwritten.rst").write_text("Mine\n====\n")
    written = specdoc.sync_type_pages(SPEC, tmp_path)
    assert [p.name for p in written] == [f"{t.module}.rst" for t in SPEC.types]
    assert all(p.is_file() for p in written)
    assert not (folder / "gone.rst").exists()
    assert (folder / "handwritten.rst").exists()


def test_every_narrative_page_is_in_the_index_toctree():
    index = (DOCS / "index.rst").read_text()
    listed = set(re.findall(r"^   ([\w-]+)$", index, flags=re.MULTILINE))
    assert {p.stem for p in NARRATIVE} <= listed


def test_the_errata_and_uses_directives_are_used():
    assert ".. spec-errata:: connect4" in (DOCS / "errata.rst").read_text()
    assert ".. spec-uses:: connect4" in (DOCS / "specification.rst").read_text()


def lookup(specification, role, target):
    """The type, operation or erratum a role names in ``specification``; KeyError if none."""
    if role == "type":
        return specification.type(target)
    if role == "op":
        return specification.operation(target)
    return specification.erratum(target)


@pytest.mark.parametrize("page", NARRATIVE + REFERENCE_GAMES, ids=lambda p: p.name)
def test_spec_links_name_specified_things(page):
    """A target names its specification (``boardadt:B01``) or is found in exactly one."""
    text = page.read_text()
    for role, target in re.findall(r":spec:(type|op|erratum):`([^`]+)`", text):
        name, colon, rest = target.partition(":")
        if colon:
            lookup(spec.load(name), role, rest)
            continue
        found = []
        for specification in (SPEC, BOARDADT):
            with contextlib.suppress(KeyError):
                found.append(lookup(specification, role, target))
        assert len(found) == 1, f"{page.name}: {role} {target!r} is specified {len(found)} times"


def test_every_reference_game_page_is_in_the_index_toctree():
    index = (DOCS / "index.rst").read_text()
    assert {f"reference_games/{p.stem}" for p in REFERENCE_GAMES} <= set(
        re.findall(r"^   ([\w/-]+)$", index, flags=re.MULTILINE)
    )


def test_the_boardadt_page_documents_every_type_and_the_errata():
    text = (DOCS / "reference_games" / "boardadt.rst").read_text()
    assert ".. spec-summary:: boardadt" in text and ".. spec-errata:: boardadt" in text
    assert ".. spec-uses:: boardadt" in text
    for t in BOARDADT.types:
        assert f".. spec-type:: boardadt {t.name}\n" in text, f"{t.name} is not documented"


def test_prose_links_only_the_rendered_specifications_names(specdoc):
    text = "board_type.Make_Move (erratum B03), not GridType.occupySquare, E18, B99 or xboard_type.Is_Win"
    nodes = specdoc.rich(BOARDADT, text)
    targets = [n["reftarget"] for n in nodes if n.tagname == "pending_xref"]
    assert targets == ["boardadt:board_type.Make_Move", "boardadt:B03"]
    assert "".join(n.astext() for n in nodes) == text
    connect4 = [n["reftarget"] for n in specdoc.rich(SPEC, text) if n.tagname == "pending_xref"]
    assert connect4 == ["connect4:GridType.occupySquare", "connect4:E18"]


def test_command_line_flags_are_kept_from_smart_quotes(specdoc):
    nodes = specdoc.rich(BOARDADT, "Check with: pytest tests/boardadt --impl PATH (erratum B14).")
    flags = [n for n in nodes if n.tagname == "inline"]
    assert [n.astext() for n in flags] == ["--impl"] and flags[0]["support_smartquotes"] is False


def test_anchors_are_namespaced_by_specification(specdoc):
    assert specdoc.anchor("boardadt", "B01") == "boardadt-B01"
    assert specdoc.anchor("connect4", "GridType.occupySquare") != specdoc.anchor("boardadt", "GridType.occupySquare")


def test_python_forms_follow_the_contract():
    board = BOARDADT.type("board_type")
    forms = {op.name: op.python_form(board.class_name) for op in board.operations}
    assert forms["Board"] == "Board()"
    assert forms["Make_Move"] == "board.Make_Move(column)"
    assert forms["Is_Win"] == "board.Is_Win()"
    value = BOARDADT.operation("value_type.Value")
    assert value.python_form("Value") == "Value(empty, color=None)"
    grid = SPEC.operation("GridType.occupySquare")
    assert grid.python_form() == grid.python_signature == "occupySquare(grid, location, symbol)"
    player = BOARDADT.operation("Player.Computer_Move")
    assert player.python_form(BOARDADT.type("Player").class_name) == "Computer_Move(board)"


def test_conf_uses_only_offline_extensions():
    conf = (DOCS / "conf.py").read_text()
    assert '"specdoc"' in conf and '"sphinx.ext.graphviz"' in conf
    assert "intersphinx" not in conf


@pytest.mark.slow
def test_without_graphviz_the_uses_are_a_list_not_a_diagrams_source(tmp_path):
    import subprocess
    import sys

    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "sphinx",
            "-W",
            "-q",
            "-b",
            "html",
            "-D",
            "graphviz_dot=/nonexistent/dot",
            str(DOCS),
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=1200,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    page = (tmp_path / "specification.html").read_text(encoding="utf-8")
    assert "digraph" not in page
    assert "install Graphviz to see this as a diagram" in page
