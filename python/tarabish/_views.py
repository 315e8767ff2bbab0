"""Read-only views of a hand: its result (RULES.md R6, DESIGN.md ``result``) and what one seat
may know (R2.4, R4.4 auto mode, R4.5). Both engines build these same values."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from ._actions import Action, Phase
from ._cards import Card, Suit
from ._runs import Run


class Outcome(Enum):
    """How a hand ended (R6.2-R6.4, R3.3)."""

    MADE = "made"
    BAIT = "bait"
    HALF_BAIT = "half_bait"
    VOID = "void"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True, slots=True)
class TrickResult:
    """A completed trick: who led, the cards in play order, who won, and its card points
    (plus the 10 for the ninth trick, R1.4)."""

    leader: int
    cards: tuple[Card, ...]
    winner: int
    points: int

    def to_dict(self) -> dict[str, Any]:
        """The record form (DESIGN.md ``result.tricks``)."""
        return {"winner": self.winner, "points": self.points}


@dataclass(frozen=True, slots=True)
class RunsResult:
    """The runs scored in a hand (R4.3): the winning seat and all run points scored."""

    seat: int
    points: int

    def to_dict(self) -> dict[str, Any]:
        """The record form (DESIGN.md ``result.runs``)."""
        return {"seat": self.seat, "points": self.points}


@dataclass(frozen=True, slots=True)
class HandResult:
    """The result of a finished hand; ``to_dict`` is DESIGN.md's record ``result``."""

    outcome: Outcome
    trump: Suit | None
    caller: int | None
    points: tuple[int, int]
    score: tuple[int, int]
    runs: RunsResult | None
    bella: int | None
    tricks: tuple[TrickResult, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "outcome": self.outcome.value,
            "trump": None if self.trump is None else str(self.trump),
            "caller": self.caller,
            "points": list(self.points),
            "score": list(self.score),
            "runs": None if self.runs is None else self.runs.to_dict(),
            "bella": self.bella,
            "tricks": [trick.to_dict() for trick in self.tricks],
        }


@dataclass(frozen=True, slots=True)
class Observation:
    """Everything ``seat`` may know now, and nothing else.

    ``hand`` is the seat's visible cards, by index (before trump is named: its first six only,
    with ``unseen_kitty`` = 3). ``announced[s]`` is the size of seat s's best run (20 or 50)
    once s has played its first card, else None; ``shown[s]`` its runs once it has played its
    second card (R4.4, auto mode). ``runs`` is set once every player has played a second card
    and a run won (R4.3); ``bella`` once it is credited (R4.5). ``points`` are the team points
    credited so far (cards, last, runs, bella).
    """

    seat: int
    dealer: int
    phase: Phase
    to_move: int | None
    scores_before: tuple[int, int]
    hand: tuple[Card, ...]
    unseen_kitty: int
    auction: tuple[Action, ...]
    trump: Suit | None
    caller: int | None
    trick_leader: int | None
    trick: tuple[Card, ...]
    tricks: tuple[TrickResult, ...]
    announced: tuple[int | None, int | None, int | None, int | None]
    shown: tuple[tuple[Run, ...], tuple[Run, ...], tuple[Run, ...], tuple[Run, ...]]
    runs: RunsResult | None
    bella: int | None
    points: tuple[int, int]
    hand_sizes: tuple[int, int, int, int]
