"""Input checking for the reference engine: turning user arguments into plain values.

Every public function of ``tarabish.reference`` accepts cards as ``Card`` objects or card text
(R0), a hand or trick as one string or an iterable of those, a trump as a ``Suit`` or a suit
letter. Anything malformed raises ``InvalidInputError`` (docs/ENGINE.md, "Bad input").
Internally the engine works on card *indices* (``suit * 9 + rank``, R0) held in plain ints.
"""

from __future__ import annotations

from collections.abc import Iterable
from contextlib import suppress
from typing import Any

from .._cards import MAX_CARDS, Card, Suit, parse_cards
from .._errors import InvalidInputError, excerpt
from .._rules import Rules

MAX_SEED = 2**64 - 1


def card_index(card: Any) -> int:
    """A ``Card`` or card text (``"JH"``, ``"10s"``) to its index 0-35 (R0)."""
    if isinstance(card, Card):
        return card.index
    return Card.parse(card).index


def card_indices(cards: Any, what: str) -> list[int]:
    """One string (``"JH 9H AS"``) or an iterable of cards/card texts to indices, in order.

    Duplicates are kept here; callers decide whether a card twice is an error.
    """
    if isinstance(cards, str):
        return [card.index for card in parse_cards(cards)]
    if isinstance(cards, Card):
        raise InvalidInputError(f"{what} must be several cards (a list or one string), got {cards}")
    try:
        items = iter(cards)
    except TypeError:
        raise InvalidInputError(
            f"{what} must be a list of cards or one string like 'JH 9H AS', got {excerpt(cards)}"
        ) from None
    indices: list[int] = []
    for item in items:
        if len(indices) == MAX_CARDS:
            raise InvalidInputError(
                f"{what}: more than {MAX_CARDS} cards given: the deck has {MAX_CARDS} (R1.1)"
            )
        indices.append(card_index(item))
    return indices


def check_distinct(indices: Iterable[int], what: str) -> None:
    """Raise ``InvalidInputError`` if a card appears twice (R1.1: each card exists once)."""
    seen: set[int] = set()
    for index in indices:
        if index in seen:
            raise InvalidInputError(f"{what} holds {Card.from_index(index)} twice (R1.1)")
        seen.add(index)


def suit_value(trump: Any) -> int:
    """A ``Suit`` or a suit letter to the suit index 0-3 (R0)."""
    if isinstance(trump, Suit):
        return int(trump)
    if not isinstance(trump, str):
        raise InvalidInputError(f"a suit is a Suit or one of C D H S (R0), got {excerpt(trump)}")
    return int(Suit.parse(trump))


def whole_number(value: Any, what: str, low: int, high: int) -> int:
    """An ``int`` (not a bool) in ``low..high``, else ``InvalidInputError``."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidInputError(
            f"{what} must be a whole number {low}..{high}, got {excerpt(value)}"
        )
    return value


def seat_number(seat: Any, what: str = "a seat") -> int:
    """A seat 0..3 (R0)."""
    return whole_number(seat, what, 0, 3)


def seed_number(seed: Any) -> int:
    """A seed for the generator of docs/ENGINE.md: an int 0..2**64-1."""
    return whole_number(seed, "seed", 0, MAX_SEED)


MAX_SCORE = 2**30 - 1
"""Scores and points above this are refused (docs/ENGINE.md), so totals never overflow."""


def score_pair(scores: Any, what: str) -> tuple[int, int]:
    """Two whole numbers 0..MAX_SCORE, one per team (R0: team 0 = seats 0 and 2)."""
    items: list[Any] | None = None
    if not isinstance(scores, str | bytes | dict):
        with suppress(TypeError):  # not iterable: refused below
            items = list(scores)
    if (
        items is None
        or len(items) != 2
        or not all(
            not isinstance(item, bool) and isinstance(item, int) and 0 <= item <= MAX_SCORE
            for item in items
        )
    ):
        raise InvalidInputError(
            f"{what} must be two non-negative whole numbers, got {excerpt(scores)}"
        )
    return (items[0], items[1])


def rules_value(rules: Any) -> Rules:
    """A ``Rules`` object (R9; None stands for the defaults), else ``InvalidInputError``."""
    if rules is None:
        return Rules()
    if not isinstance(rules, Rules):
        raise InvalidInputError(f"rules must be a tarabish.Rules, got {excerpt(rules)}")
    rules.check()
    return rules
