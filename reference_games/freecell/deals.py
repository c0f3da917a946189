"""Microsoft's numbered Freecell deals ("game #617"), as the original Windows game deals them.

Deal ``n`` shuffles the pack with the C runtime's linear congruential generator seeded
with ``n``, then deals the cards in rows across the eight cascades, seven cards on each
of the first four and six on the rest.
"""

from __future__ import annotations

SUIT_ORDER = ("CLUBS", "DIAMONDS", "HEARTS", "SPADES")
"""Microsoft's card numbering: card k is rank k // 4 + 1 of suit SUIT_ORDER[k % 4]."""
FIRST, LAST = 1, 1_000_000
"""The deals this module offers (Microsoft's original range was 1 to 32000)."""

Card = tuple[str, int]
"""A card as (suit name, rank number): ("HEARTS", 7) is the seven of hearts."""


def _lcg(seed: int):
    """The Microsoft C runtime's rand(): 15-bit numbers from a 31-bit state."""
    state = seed
    while True:
        state = (state * 214013 + 2531011) & 0x7FFFFFFF
        yield state >> 16


def deal(number: int) -> list[list[Card]]:
    """The eight cascades of Microsoft deal ``number`` (1 to 1,000,000), bottom card first."""
    if not isinstance(number, int) or not FIRST <= number <= LAST:
        raise ValueError(f"deal numbers go from {FIRST} to {LAST:,}, not {number!r}")
    pack = list(range(52))
    rand = _lcg(number)
    order = []
    for left in range(52, 0, -1):
        k = next(rand) % left
        order.append(pack[k])
        pack[k] = pack[left - 1]
    cascades: list[list[Card]] = [[] for _ in range(8)]
    for position, card in enumerate(order):
        cascades[position % 8].append((SUIT_ORDER[card % 4], card // 4 + 1))
    return cascades
