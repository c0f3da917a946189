"""Every marker that silences a linter names its rule and says why (issue 33).

Ruff refuses a bare ``# noqa`` (PGH004) and one whose rule does not fire there (RUF100);
what it cannot check is the reason, and that no code is kept out of the formatter.
"""

import io
import re
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = ("speckit", "spec", "adt", "reference_games", "tests", "benchmarks", "docs")
JUSTIFIED = re.compile(r"# noqa: [A-Z]+\d+(,[A-Z]+\d+)* --? \S")
"""``# noqa: RULE[,RULE] - why`` (or ``--``): the rules it silences, then the reason."""


def comments() -> list[tuple[str, int, str]]:
    """Every comment of the kit's Python files: (file, line, text)."""
    found = []
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            if "_build" in path.parts or "__pycache__" in path.parts:
                continue
            source = path.read_text(encoding="utf-8")
            for token in tokenize.generate_tokens(io.StringIO(source).readline):
                if token.type == tokenize.COMMENT:
                    found.append((str(path.relative_to(ROOT)), token.start[0], token.string))
    return found


def test_every_noqa_names_its_rules_and_says_why():
    markers = [(f, n, text) for f, n, text in comments() if re.search(r"\bnoqa\b", text, re.IGNORECASE)]
    assert markers, "no marker found: the scan reads nothing"
    unjustified = [f"{f}:{n}: {text}" for f, n, text in markers if not JUSTIFIED.search(text)]
    assert not unjustified, "\n".join(unjustified)


def test_no_code_is_kept_out_of_the_formatter():
    """``fmt: skip`` and ``fmt: off`` hand layouts are given to the formatter: restructure code it lays out badly."""
    kept = [f"{f}:{n}: {text}" for f, n, text in comments() if re.search(r"fmt:\s*(skip|off)", text)]
    assert not kept, "\n".join(kept)
