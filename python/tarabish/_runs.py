"""The run value of RULES.md R4.1: a twenty (three cards) or a fifty (four cards) in one suit."""

from __future__ import annotations

from dataclasses import dataclass

from ._cards import Card, Rank, Suit
from ._errors import InvalidInputError, excerpt

RUN_POINTS = {3: 20, 4: 50}


@dataclass(frozen=True, slots=True)
class Run:
    """A run of ``length`` cards of ``suit`` whose highest card (natural order) is ``top``.

    ``points`` follows from the length (R4.1: 3 -> 20, 4 -> 50); passing it is optional and it
    must then agree.
    """

    suit: Suit
    top: Rank
    length: int
    points: int = 0

    def __post_init__(self) -> None:
        self.check()

    def check(self) -> None:
        """Raise ``InvalidInputError`` unless this is a run R4.1 allows. The constructor runs it;
        the engines run it again on the runs they are given (a ``Run`` changed behind the
        constructor's back is refused, never read)."""
        if type(self.suit) is not Suit or type(self.top) is not Rank:
            raise InvalidInputError(
                f"Run needs a Suit and a Rank, got {excerpt(self.suit)}, {excerpt(self.top)}"
            )
        if type(self.length) is not int or self.length not in RUN_POINTS:
            raise InvalidInputError(
                f"a run has 3 or 4 cards (R4.1), got length {excerpt(self.length)}"
            )
        if self.top < self.length - 1:
            raise InvalidInputError(
                f"no run of {self.length} cards can top at {self.top} (R4.1: natural order from 6)"
            )
        expected = RUN_POINTS[self.length]
        if type(self.points) is int and self.points == 0:
            object.__setattr__(self, "points", expected)
        elif type(self.points) is not int or self.points != expected:
            raise InvalidInputError(
                f"a run of {self.length} cards scores {expected}, not {excerpt(self.points)} (R4.1)"
            )

    @property
    def cards(self) -> list[Card]:
        """The run's cards, highest first."""
        return [Card(self.suit, Rank(self.top - k)) for k in range(self.length)]

    def __str__(self) -> str:
        name = "fifty" if self.length == 4 else "twenty"
        return f"{name} {'-'.join(str(card.rank) for card in self.cards)}{self.suit}"
