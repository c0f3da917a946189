"""A package folder's variant kept as patches (speckit.patches.variant_of), as the zoo and the readings keep theirs."""

from __future__ import annotations

from pathlib import Path

import pytest

from speckit.patches import PatchError, variant_of

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def test_the_plain_alternative_is_alt_connect4_with_plain_colours(tmp_path):
    plain = variant_of(FIXTURES / "alt_connect4", FIXTURES / "alt_connect4_plain.toml", tmp_path / "plain")
    assert sorted(p.name for p in plain.glob("*.py")) == sorted(
        p.name for p in (FIXTURES / "alt_connect4").glob("*.py")
    )
    colour = (plain / "colour.py").read_text(encoding="utf-8")
    assert 'RED = "R"' in colour and "enum" not in colour and "def clone(colour: str) -> str:" in colour
    assert (plain / "index.py").read_bytes() == (FIXTURES / "alt_connect4" / "index.py").read_bytes()
    assert not list(plain.glob("__pycache__"))


def test_a_patch_whose_text_is_not_found_once_is_refused_naming_the_file(tmp_path):
    patches = tmp_path / "broken.toml"
    patches.write_text('[[patch]]\nmodule = "colour"\nfind = "no such text"\nreplace = ""\n', encoding="utf-8")
    with pytest.raises(PatchError, match="broken.toml: the find text of patch 1 occurs 0 times in colour.py"):
        variant_of(FIXTURES / "alt_connect4", patches, tmp_path / "variant")
    patches.write_text('[[patch]]\nmodule = "colour"\nfnd = "x"\nreplace = ""\n', encoding="utf-8")
    with pytest.raises(PatchError, match=r"broken.toml: patch 1: unknown keys \['fnd'\]"):
        variant_of(FIXTURES / "alt_connect4", patches, tmp_path / "variant")
    assert not (tmp_path / "variant").exists()
