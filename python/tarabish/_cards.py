"""Suits, ranks and cards: the values of RULES.md R0 and R1.1, with their notation.

Card index = suit * 9 + rank, ranks in natural order 6 7 8 9 T J Q K A (R0). ``10`` is accepted
for ``T`` on input.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import IntEnum

from ._errors import InvalidInputError


class Suit(IntEnum):
    """The four suits, indices as R0: clubs, diamonds, hearts, spades."""

    C = 0
    D = 1
    H = 2
    S = 3

    def __str__(self) -> str:
        return self.name

    @classmethod
    def parse(cls, text: str) -> Suit:
        """``"H"`` (any case) to ``Suit.H``; anything else raises ``InvalidInputError``."""
        try:
            return cls[text.strip().upper()]
        except (KeyError, AttributeError):
            raise InvalidInputError(f"unknown suit {text!r}: expected one of C D H S (R0)") from None


_RANK_LETTERS = "6789TJQKA"


class Rank(IntEnum):
    """The nine ranks in natural order (R0): used for runs; trick order is R1.2."""

    SIX = 0
    SEVEN = 1
    EIGHT = 2
    NINE = 3
    TEN = 4
    JACK = 5
    QUEEN = 6
    KING = 7
    ACE = 8

    def __str__(self) -> str:
        return _RANK_LETTERS[self.value]

    @classmethod
    def parse(cls, text: str) -> Rank:
        """``"T"``, ``"10"``, ``"q"`` … to a rank; anything else raises ``InvalidInputError``."""
        letter = text.strip().upper()
        if letter == "10":
            letter = "T"
        if len(letter) != 1 or letter not in _RANK_LETTERS:
            raise InvalidInputError(
                f"unknown rank {text!r}: expected one of 6 7 8 9 T(10) J Q K A (R0)"
            )
        return cls(_RANK_LETTERS.index(letter))


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """One of the 36 cards (R1.1). ``str(card)`` is rank then suit, e.g. ``"JH"``."""

    suit: Suit
    rank: Rank

    def __post_init__(self) -> None:
        if not isinstance(self.suit, Suit) or not isinstance(self.rank, Rank):
            raise InvalidInputError(
                f"Card needs a Suit and a Rank, got {self.suit!r} and {self.rank!r}"
            )

    @property
    def index(self) -> int:
        """``suit * 9 + rank`` (0-35), also the action id that plays this card (R0)."""
        return int(self.suit) * 9 + int(self.rank)

    @classmethod
    def from_index(cls, index: int) -> Card:
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < 36:
            raise InvalidInputError(f"card index {index!r} is not in 0..35 (R0)")
        return _ALL_CARDS[index]

    @classmethod
    def parse(cls, text: str) -> Card:
        """``"JH"``, ``"10s"``, ``"th"`` … to a card; anything else raises ``InvalidInputError``."""
        if not isinstance(text, str):
            raise InvalidInputError(f"a card is text like 'JH', got {text!r}")
        body = text.strip()
        if len(body) < 2:
            raise InvalidInputError(f"unknown card {text!r}: expected rank then suit, like 'JH'")
        try:
            return cls(Suit.parse(body[-1]), Rank.parse(body[:-1]))
        except InvalidInputError:
            raise InvalidInputError(
                f"unknown card {text!r}: expected rank (6-9 T J Q K A) then suit (C D H S)"
            ) from None

    def __str__(self) -> str:
        return f"{self.rank}{self.suit}"

    def __repr__(self) -> str:
        return f"Card({self})"


_ALL_CARDS = tuple(Card(Suit(i // 9), Rank(i % 9)) for i in range(36))
DECK: tuple[Card, ...] = _ALL_CARDS
"""The 36 cards in index order."""


def parse_cards(text: str | Iterable[str | Card]) -> list[Card]:
    """``"JH 9H AS"`` (spaces or commas) or an iterable of card texts/cards, in the given order."""
    items: Iterable[str | Card] = text.replace(",", " ").split() if isinstance(text, str) else text
    return [item if isinstance(item, Card) else Card.parse(item) for item in items]


def format_cards(cards: Iterable[Card]) -> str:
    return " ".join(str(card) for card in cards)
