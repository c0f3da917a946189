"""The documentation's sources are complete and consistent, checked without running Sphinx.

The full build (``sphinx-build -W`` for html and doctest) runs in CI; these checks are
fast: every type has a generated page in the toctree, every narrative page is reachable,
and every ``:spec:`` link names something the specification defines.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

import spec

pytest.importorskip("sphinx")

DOCS = Path(__file__).resolve().parents[2] / "docs"
SPEC = spec.load("connect4")
NARRATIVE = sorted(p for p in DOCS.glob("*.rst") if p.name != "index.rst")


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


@pytest.mark.parametrize("page", NARRATIVE, ids=lambda p: p.name)
def test_spec_links_name_specified_things(page):
    text = page.read_text()
    for role, target in re.findall(r":spec:(type|op|erratum):`([^`]+)`", text):
        if role == "type":
            SPEC.type(target)
        elif role == "op":
            SPEC.operation(target)
        else:
            SPEC.erratum(target)


def test_conf_uses_only_offline_extensions():
    conf = (DOCS / "conf.py").read_text()
    assert '"specdoc"' in conf and '"sphinx.ext.graphviz"' in conf
    assert "intersphinx" not in conf
