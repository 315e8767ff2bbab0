"""Trick order and card points: RULES.md R1.2, R1.3, R1.4 (and the card index of R0).

Cards are handled as indices ``suit * 9 + rank`` with ranks in natural order
6 7 8 9 T J Q K A (indices 0-8). Trick order (R1.2) is a different order, given here as a
*strength* per natural rank: the higher the strength, the higher the card in a trick.
"""

from __future__ import annotations

from typing import Any

from .._cards import Card
from ._input import card_index, suit_value

SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")

# Natural rank indices (R0).
SIX, SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE = range(9)

# R1.2: trick order, highest first.
TRUMP_ORDER = (JACK, NINE, ACE, TEN, KING, QUEEN, EIGHT, SEVEN, SIX)
PLAIN_ORDER = (ACE, TEN, KING, QUEEN, JACK, NINE, EIGHT, SEVEN, SIX)

# Strength of each natural rank in that order: 8 for the highest card, 0 for the lowest.
TRUMP_STRENGTH = tuple(8 - TRUMP_ORDER.index(rank) for rank in range(9))
PLAIN_STRENGTH = tuple(8 - PLAIN_ORDER.index(rank) for rank in range(9))

# R1.3: card points by natural rank index (6 7 8 9 T J Q K A).
TRUMP_POINTS = (0, 0, 0, 14, 10, 20, 3, 4, 11)  # 62 in all
PLAIN_POINTS = (0, 0, 0, 0, 10, 2, 3, 4, 11)  # 30 a suit

# R1.4: the winner of the ninth trick adds 10 ("last").
LAST_TRICK_BONUS = 10
TOTAL_CARD_POINTS = 162


def suit_of(card: int) -> int:
    return card // 9


def rank_of(card: int) -> int:
    return card % 9


def points_of(card: int, trump: int) -> int:
    """R1.3: the points of card index ``card`` when ``trump`` (suit index) is trump."""
    if suit_of(card) == trump:
        return TRUMP_POINTS[rank_of(card)]
    return PLAIN_POINTS[rank_of(card)]


def trump_strength(card: int) -> int:
    """R1.2 rank of a trump card within the trump suit (J high, then 9, A, T, K, Q, 8, 7, 6)."""
    return TRUMP_STRENGTH[rank_of(card)]


def plain_strength(card: int) -> int:
    """R1.2 rank of a card within a plain suit (A high, then T, K, Q, J, 9, 8, 7, 6)."""
    return PLAIN_STRENGTH[rank_of(card)]


def trick_strength(card: int, led: int, trump: int) -> int:
    """How strongly ``card`` stands in a trick led in suit ``led`` (R5.2).

    Any trump beats any non-trump; a card of the led suit beats cards of other plain suits;
    a card of another plain suit can never win (strength -1).
    """
    if suit_of(card) == trump:
        return 100 + trump_strength(card)
    if suit_of(card) == led:
        return plain_strength(card)
    return -1


CARD_TEXT = tuple(str(Card.from_index(card)) for card in range(36))


def name(card: int) -> str:
    """Card text (R0), e.g. ``"JH"``."""
    return CARD_TEXT[card]


def names(cards: list[int]) -> str:
    """Cards as text separated by spaces, in the given order (``-`` for none)."""
    return " ".join(name(card) for card in cards) if cards else "-"


def card_points(card: Card | str, trump: Any) -> int:
    """R1.3: the points of ``card`` (a ``Card`` or text) with ``trump`` (``Suit`` or letter).

    Example (R10.1): the trump suit is worth 62, each plain suit 30; with the 10 for the last
    trick, 162 in all.
    """
    return points_of(card_index(card), suit_value(trump))
