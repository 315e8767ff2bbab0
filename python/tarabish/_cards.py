"""Suits, ranks and cards: the values of RULES.md R0 and R1.1, with their notation.

Card index = suit * 9 + rank, ranks in natural order 6 7 8 9 T J Q K A (R0). ``10`` is accepted
for ``T`` on input.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import IntEnum
from functools import cache

from ._errors import InvalidInputError, excerpt

TYPE_CHECKING = False  # not `typing`'s: see __init__.py
if TYPE_CHECKING:
    import re

# Card text is ASCII (R0): only these count as blanks around or between cards, as in the Rust
# core's `is_ascii_whitespace`, so both engines read exactly the same texts.
_BLANKS = " \t\n\r\f"
_CARD_WORD = r"[^ \t\n\r\f,]+"
_WORD = r"[^ \t\n\r\f]+"

MAX_CARDS = 36
"""The most cards any input holds: the deck (R1.1). Longer card lists are refused as soon as the
next card is seen, before the rest is read (rust/cards.rs has the same)."""


@cache
def _pattern(expression: str) -> re.Pattern[str]:
    """``expression`` compiled, on first use: importing ``re`` would be a good part of
    ``import tarabish`` (benches/test_bench_import.py)."""
    import re

    return re.compile(expression)


def split_blanks(text: str) -> list[str]:
    """The words of ``text`` between ASCII blanks (R0's text is ASCII: a no-break space is not
    a blank)."""
    return _pattern(_WORD).findall(text)


def _card_words(text: str) -> Iterator[str]:
    """The words of ``text`` between ASCII blanks and commas, one at a time."""
    return (word.group() for word in _pattern(_CARD_WORD).finditer(text))


def ascii_lower(text: str) -> str:
    """``text`` lower-cased if it is ASCII; other text stays as it is (and so matches no
    keyword: ``str.lower`` would turn the Kelvin sign into k)."""
    return text.lower() if text.isascii() else text


def _ascii_upper(text: str) -> str:
    """``text`` without surrounding blanks, upper-cased; non-ASCII text stays as it is (and so
    matches no letter: ``str.upper`` would turn the long s into S)."""
    body = text.strip(_BLANKS)
    return body.upper() if body.isascii() else body


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
            return cls[_ascii_upper(text)]
        except (KeyError, AttributeError):
            raise InvalidInputError(
                f"unknown suit {excerpt(text)}: expected one of C D H S (R0)"
            ) from None


_RANK_LETTERS = "6789TJQKA"
_SUIT_LETTERS = "CDHS"


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
        if not isinstance(text, str):
            raise InvalidInputError(f"a rank is text like 'J', got {excerpt(text)}")
        letter = _ascii_upper(text)
        if letter == "10":
            letter = "T"
        if len(letter) != 1 or letter not in _RANK_LETTERS:
            raise InvalidInputError(
                f"unknown rank {excerpt(text)}: expected one of 6 7 8 9 T(10) J Q K A (R0)"
            )
        return cls(_RANK_LETTERS.index(letter))


class Card:
    """One of the 36 cards (R1.1). ``str(card)`` is rank then suit, e.g. ``"JH"``.

    Cards are immutable and interned: ``Card(Suit.H, Rank.JACK) is Card.parse("JH")``, so
    equality, hashing and ``index`` cost next to nothing. Ordered by index (suit, then rank).
    """

    __slots__ = ("_text", "index", "rank", "suit")
    index: int
    suit: Suit
    rank: Rank
    _text: str

    def __new__(cls, suit: Suit, rank: Rank) -> Card:
        if not isinstance(suit, Suit) or not isinstance(rank, Rank):
            raise InvalidInputError(
                f"Card needs a Suit and a Rank, got {excerpt(suit)} and {excerpt(rank)}"
            )
        return _ALL_CARDS[int(suit) * 9 + int(rank)]

    @classmethod
    def _make(cls, index: int) -> Card:
        card = object.__new__(cls)
        object.__setattr__(card, "index", index)
        object.__setattr__(card, "suit", Suit(index // 9))
        object.__setattr__(card, "rank", Rank(index % 9))
        object.__setattr__(card, "_text", f"{_RANK_LETTERS[index % 9]}{Suit(index // 9).name}")
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Card is immutable: cannot set {name}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"Card is immutable: cannot delete {name}")

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (Card.from_index, (self.index,))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self

    def __hash__(self) -> int:
        return self.index

    def __eq__(self, other: object) -> bool:
        return self is other

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index < other.index

    def __le__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index <= other.index

    def __gt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index > other.index

    def __ge__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index >= other.index

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card of index ``suit * 9 + rank`` (0-35, R0)."""
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < 36:
            raise InvalidInputError(f"card index {excerpt(index)} is not in 0..35 (R0)")
        return _ALL_CARDS[index]

    @classmethod
    def parse(cls, text: str) -> Card:
        """``"JH"``, ``"10s"``, ``"th"`` … to a card; anything else raises ``InvalidInputError``.

        R0's card text, ASCII only: rank then suit, any case, ``10`` for ``T``, blanks around the
        card but none inside it (``"J H"`` is two words, not a card)."""
        if not isinstance(text, str):
            raise InvalidInputError(f"a card is text like 'JH', got {excerpt(text)}")
        body = _ascii_upper(text)
        rank = "T" if body[:-1] == "10" else body[:-1]
        if len(rank) != 1 or rank not in _RANK_LETTERS or body[-1:] not in _SUIT_LETTERS:
            raise InvalidInputError(
                f"unknown card {excerpt(text)}: expected rank (6-9 T J Q K A) then suit (C D H S)"
            )
        return _ALL_CARDS[_SUIT_LETTERS.index(body[-1]) * 9 + _RANK_LETTERS.index(rank)]

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Card({self._text})"


_ALL_CARDS: tuple[Card, ...] = tuple(Card._make(i) for i in range(36))
DECK: tuple[Card, ...] = _ALL_CARDS
"""The 36 cards in index order."""


def parse_cards(text: str | Iterable[str | Card]) -> list[Card]:
    """``"JH 9H AS"`` (spaces or commas) or an iterable of card texts/cards, in the given order;
    at most ``MAX_CARDS``. Anything else raises ``InvalidInputError``."""
    items: Iterable[str | Card]
    if isinstance(text, str):
        items = _card_words(text)
    elif isinstance(text, Iterable) and not isinstance(text, bytes | dict):
        items = text
    else:
        raise InvalidInputError(f"expected cards (a list or a string), got {excerpt(text)}")
    cards: list[Card] = []
    for item in items:
        if len(cards) == MAX_CARDS:
            raise InvalidInputError(
                f"more than {MAX_CARDS} cards given: the deck has {MAX_CARDS} (R1.1)"
            )
        cards.append(item if isinstance(item, Card) else Card.parse(item))
    return cards


def format_cards(cards: Iterable[Card]) -> str:
    return " ".join(str(card) for card in cards)
