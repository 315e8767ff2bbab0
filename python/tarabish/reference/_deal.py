"""The seeded shuffle, cut and deal: RULES.md R2.3 (cut), R2.4 (three rounds of three cards,
clockwise from eldest, the third packet being the kitty), with the SplitMix64 generator of
docs/ENGINE.md ("Randomness") shared by both engines.
"""

from __future__ import annotations

from typing import Any

from .._cards import Card
from ._input import seat_number, seed_number

MASK64 = (1 << 64) - 1
GOLDEN_GAMMA = 0x9E3779B97F4A7C15


def mix64(z: int) -> int:
    """The SplitMix64 output function (all arithmetic modulo 2**64)."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def derive(seed: int, i: int) -> int:
    """The hand seed of game ``i`` of a batch (or hand ``i`` of a match) of seed ``seed``."""
    return mix64(seed ^ mix64(i & MASK64))


class SplitMix64:
    """The generator of docs/ENGINE.md: ``next`` and ``below(n)`` (a number in 0..n-1)."""

    def __init__(self, state: int) -> None:
        self.state = state & MASK64

    def next(self) -> int:
        self.state = (self.state + GOLDEN_GAMMA) & MASK64
        return mix64(self.state)

    def below(self, n: int) -> int:
        """A number in 0..n-1: the high 64 bits of the 128-bit product ``next() * n``."""
        return (self.next() * n) >> 64


def deal_with(rng: SplitMix64, dealer: int) -> list[list[int]]:
    """Shuffle, cut and deal with ``rng``: four lists of 9 card indices in the order received.

    Fisher-Yates over the 36 indices, then the cut (R2.3: 4..32 cards taken off the top go to
    the bottom), then R2.4: three rounds, each seat from eldest clockwise (dealer last) taking
    the next three cards. The last three cards a seat receives are its kitty.
    """
    deck = list(range(36))
    for i in range(35, 0, -1):
        j = rng.below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    cut = 4 + rng.below(29)  # R2.3: at least 4 cards in each packet
    deck = deck[cut:] + deck[:cut]
    hands: list[list[int]] = [[], [], [], []]
    position = 0
    for _round in range(3):
        for offset in (1, 2, 3, 4):  # eldest (dealer + 1) first, the dealer last
            hands[(dealer + offset) % 4].extend(deck[position : position + 3])
            position += 3
    return hands


def deal_indices(seed: int, dealer: int) -> list[list[int]]:
    """The seeded deal of hand seed ``seed``, as card indices."""
    return deal_with(SplitMix64(seed), dealer)


def deal_cards(seed: Any, dealer: Any) -> list[list[Card]]:
    """R2.3-R2.4: the four hands dealt from hand seed ``seed`` by ``dealer``, each a list of 9
    cards in the order received (the last three are the kitty)."""
    checked_seed = seed_number(seed)
    checked_dealer = seat_number(dealer, "dealer")
    return [
        [Card.from_index(card) for card in hand]
        for hand in deal_indices(checked_seed, checked_dealer)
    ]
