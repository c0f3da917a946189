"""Microsoft's numbered deals: the well-known vectors of deals 1 and 617 (not a conformance test)."""

import pytest

from reference_games.freecell.deals import deal
from reference_games.freecell.notation import card_name

DEAL_1 = """
JD 2D 9H JC 5D 7H 7C 5H
KD KC 9S 5S AD QC KH 3H
2S KS 9D QD JS AS AH 3C
4C 5C TS QH 4H AC 4D 7S
3S TD 4S TH 8H 2C JH 7D
6D 8S 8D QS 6C 3D 8C TC
6S 9C 2H 6H
"""

DEAL_617 = """
7D AD 5C 3S 5S 8C 2D AH
TD 7S QD AC 6D 8H AS KH
TH QC 3H 9D 6S 8D 3D TC
KD 5H 9S 3C 8S 7H 4D JS
4C QS 9C 9H 7C 6H 2C 2S
4S TS 2H 5D JC 6C JH QH
JD KS KC 4H
"""


def rows(cascades) -> str:
    height = max(map(len, cascades))
    lines = [" ".join(card_name(c[r], ascii=True) for c in cascades if r < len(c)) for r in range(height)]
    return "\n" + "\n".join(lines) + "\n"


@pytest.mark.parametrize("number, expected", [(1, DEAL_1), (617, DEAL_617)])
def test_the_known_deals_are_dealt_exactly(number, expected):
    assert rows(deal(number)) == expected


@pytest.mark.parametrize("number", [1, 617, 11982, 32000, 1_000_000])
def test_every_deal_is_a_full_pack_in_the_standard_layout(number):
    cascades = deal(number)
    assert [len(c) for c in cascades] == [7, 7, 7, 7, 6, 6, 6, 6]
    assert len({card for c in cascades for card in c}) == 52


@pytest.mark.parametrize("number", [0, -1, 1_000_001, "7"])
def test_a_deal_outside_the_range_is_refused_with_a_reason(number):
    with pytest.raises(ValueError, match="deal numbers go from 1 to 1,000,000"):
        deal(number)
