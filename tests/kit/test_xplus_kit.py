"""What is particular to the X+Game kit: its code rules (speckit.rules) and its docs page.

Its zoo, alternative and traceability are checked with the other specifications' in
test_zoo, test_alternative and test_traceability.
"""

from pathlib import Path

import pytest

import spec
from speckit.rules import violations

XPLUS = spec.load("xplus")
DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_the_specification_loads_with_its_classes_rules_and_errata():
    assert [t.name for t in XPLUS.types] == [
        "Data",
        "HashDictionary",
        "Configurations",
        "DictionaryADT",
        "DictionaryException",
        "PosPlay",
        "Play",
    ]
    assert [t.name for t in XPLUS.types if t.supplied] == ["DictionaryADT", "DictionaryException", "PosPlay", "Play"]
    assert {r.id for r in XPLUS.rules} == {"XR1", "XR2"}
    assert len(XPLUS.errata) >= 10
    assert {c.name: c.value for c in XPLUS.type("Play").constants}["COMPUTER_WINS"] == 3


def package(
    tmp_path,
    hash_dictionary: str,
    configurations: str = "class Configurations:\n    def __init__(self, n, k, m):\n        self.board = []\n",
    **others,
) -> Path:
    folder = tmp_path / "pkg"
    folder.mkdir(parents=True)
    (folder / "hash_dictionary.py").write_text(hash_dictionary)
    (folder / "configurations.py").write_text(configurations)
    for name, text in others.items():
        (folder / f"{name}.py").write_text(text)
    return folder


def broken(folder: Path, rule_id: str) -> list[str]:
    rule = next(r for r in XPLUS.rules if r.id == rule_id)
    return [str(v) for v in violations(XPLUS, rule, folder)]


@pytest.mark.parametrize(
    "code, what",
    [
        ("t = {}\n", "makes a dict"),
        ("t = {1}\n", "makes a set"),
        ("t = {k: 1 for k in 'ab'}\n", "makes a dict"),
        ("t = dict()\n", "uses dict"),
        ("t = frozenset()\n", "uses frozenset"),
        ("h = hash('x')\n", "uses hash"),
        ("import collections\nt = collections.OrderedDict()\n", "uses collections.OrderedDict"),
        ("from collections import defaultdict\n", "from collections import defaultdict"),
        ("import hashlib\n", "import hashlib"),
        ("from functools import lru_cache\n", "from functools import lru_cache"),
        ("class T:\n    def put(self, r):\n        self.__dict__[r] = 1\n", "uses __dict__"),
    ],
)
def test_rule_xr1_reports_each_ready_made_hash_table_with_its_line(tmp_path, code, what):
    found = broken(package(tmp_path, code), "XR1")
    assert found and what in found[0] and found[0].startswith("hash_dictionary.py, line")


@pytest.mark.parametrize(
    "code, what",
    [
        ("def f(x):\n    return hash(x)\n", "uses hash"),
        ("def f(hash):\n    pass\nh = hash('x')\n", "uses hash"),  # a parameter is local to its function
        ("from builtins import hash\n", "from builtins import hash"),
        ("import builtins\nh = builtins.hash('x')\n", "uses builtins.hash"),
        ("import builtins as b\nt = b.dict()\n", "uses builtins.dict"),
    ],
)
def test_rule_xr1_reports_the_builtins_however_they_are_reached(tmp_path, code, what):
    found = broken(package(tmp_path, code), "XR1")
    assert found and what in found[0], found


@pytest.mark.parametrize(
    "code",
    [
        "def mix(text):\n    hash = 0\n    for c in text:\n        hash = hash * 31 + ord(c)\n    return hash\n",
        "def add(set, x):\n    return set + [x]\n",
        "class Record:\n    __hash__ = None\n    def __eq__(self, other):\n        return self is other\n",
        "hash = lambda text: len(text)\ndef f(x):\n    return hash(x)\n",
        "def f(xs):\n    return [vars for vars in xs]\n",
    ],
    ids=["local-variable", "parameter", "hash-switched-off", "module-level-name", "comprehension-variable"],
)
def test_rule_xr1_lets_the_students_own_names_be_those_of_builtins(tmp_path, code):
    assert broken(package(tmp_path, code), "XR1") == []


def test_rule_xr1_allows_lists_deque_and_functools_reduce(tmp_path):
    code = (
        "from collections import deque\nfrom functools import reduce\n"
        "import collections\nq = collections.deque()\nt = [[] for _ in range(7)]\n"
    )
    assert broken(package(tmp_path, code), "XR1") == []


def test_rule_xr1_follows_the_packages_own_imports_but_not_the_supplied_modules(tmp_path):
    folder = package(
        tmp_path,
        "from .table import Table\nfrom .dictionary_adt import DictionaryADT\n",
        table="T = dict()\n",
        dictionary_adt="x = {}\n",
    )
    assert broken(folder, "XR1") == ["table.py, line 1: uses dict"]


def test_rule_xr2_wants_an_assignment_of_self_board(tmp_path):
    assert broken(package(tmp_path, ""), "XR2") == []
    private = (
        "class Configurations:\n    def __init__(self, n, k, m):\n"
        "        self._board = []\n        self.board_size = n\n"
    )
    assert (
        "never assigns the instance variable self.board" in broken(package(tmp_path / "private", "", private), "XR2")[0]
    )


@pytest.mark.parametrize(
    "configurations, others",
    [
        (
            "class _Grid:\n    def __init__(self, n):\n        self.board = [[' '] * n for _ in range(n)]\n\n"
            "class Configurations(_Grid):\n    def __init__(self, n, k, m):\n        super().__init__(n)\n",
            {},
        ),
        (
            "from .grid import Grid\n\n"
            "class Configurations(Grid):\n    def __init__(self, n, k, m):\n        super().__init__(n)\n",
            {
                "grid": "class Base:\n    def reset(self, n):\n        self.board = []\n\n"
                "class Grid(Base):\n    def __init__(self, n):\n        self.reset(n)\n"
            },
        ),
    ],
    ids=["base-in-the-module", "base-in-a-sibling-module"],
)
def test_rule_xr2_counts_an_assignment_in_a_base_class_the_package_defines(tmp_path, configurations, others):
    assert broken(package(tmp_path, "", configurations, **others), "XR2") == []


def test_a_missing_or_unparsable_module_breaks_no_rule(tmp_path):
    assert broken(package(tmp_path, "def (:\n", "class Configurations(:\n"), "XR1") == []


def test_a_rule_cannot_be_obeyed_by_a_module_that_does_not_parse_or_is_missing(tmp_path):
    """The rule's test fails as its operations' tests do (before, it passed, and a hash_dictionary.py
    that did not compile earned 6.67 of its 40 points from it)."""
    from types import SimpleNamespace

    from speckit.core import MissingOperation, Presence
    from speckit.rules import obey

    folder = package(tmp_path, "from collections import deque\n\ndef (:\n")
    written = SimpleNamespace(path=folder, state=lambda qualname: Presence.PRESENT)  # as a package that wrote them
    with pytest.raises(
        MissingOperation, match=r"^module hash_dictionary has a syntax error at line 3 of hash_dictionary.py: "
    ):
        obey(written, XPLUS, "XR1")
    (folder / "hash_dictionary.py").unlink()
    with pytest.raises(
        MissingOperation, match=r"^the implementation has no module hash_dictionary \(expected hash_dictionary.py\)$"
    ):
        obey(written, XPLUS, "XR1")
    (folder / "hash_dictionary.py").write_text("class HashDictionary:\n    pass\n")
    obey(written, XPLUS, "XR1")


def test_the_docs_page_documents_every_type_rule_and_the_errata():
    text = (DOCS / "reference_games" / "xplus.rst").read_text()
    assert ".. spec-summary:: xplus" in text and ".. spec-errata:: xplus" in text
    for t in XPLUS.types:
        assert f".. spec-type:: xplus {t.name}\n" in text, f"{t.name} is not documented"
    for rule in XPLUS.rules:
        assert f"\n{rule.id}: " in text, f"rule {rule.id} is not documented"


def test_the_skeleton_is_read_as_not_implemented_and_breaks_no_rule(tmp_path, capsys):
    from speckit import impl as impl_loader
    from speckit.cli import main

    folder = tmp_path / "fresh"
    assert main(["skeleton", "--spec", "xplus", str(folder)]) == 0
    loaded = impl_loader.load(folder, XPLUS)
    for op in XPLUS.operations():
        expected = "present" if XPLUS.type(op.type_name).supplied else "not implemented"
        assert loaded.state(op.qualname) == expected, op.qualname
    assert [str(v) for rule in XPLUS.rules for v in violations(XPLUS, rule, folder) if rule.id == "XR1"] == []
    capsys.readouterr()
    assert main(["check", "--spec", "xplus", str(folder)]) == 1
    assert "17 operations to implement: 17 not implemented" in capsys.readouterr().out
