"""Read-only views of a hand: its result (RULES.md R6, R8.2-R8.3, docs/RECORDS.md ``result``),
what one seat may know (R2.4, R4.4 auto mode, R4.5), what a person at a table sees (R8.4,
docs/TABLE.md) and a double-dummy solution (docs/SOLVER.md). Both engines build these same
values."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any

from ._actions import Action, Phase
from ._cards import Card, Suit
from ._runs import Run

if TYPE_CHECKING:  # numpy is imported by the tensor's encoder, when a tensor is asked for
    import numpy as np
    import numpy.typing as npt


class Outcome(Enum):
    """How a hand ended (R6.2-R6.4, R3.3), or the call that ended it (R8.2, R8.3)."""

    MADE = "made"
    BAIT = "bait"
    HALF_BAIT = "half_bait"
    VOID = "void"
    MISPLAY = "misplay"
    THROW_IN = "throw_in"

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
        """The record form (docs/RECORDS.md ``result.tricks``)."""
        return {"winner": self.winner, "points": self.points}


@dataclass(frozen=True, slots=True)
class RunsResult:
    """The runs scored in a hand (R4.3): the winning seat and all run points scored."""

    seat: int
    points: int

    def to_dict(self) -> dict[str, Any]:
        """The record form (docs/RECORDS.md ``result.runs``)."""
        return {"seat": self.seat, "points": self.points}


@dataclass(frozen=True, slots=True)
class Misplay:
    """A play that broke R5.1 (R8.1): the seat, its card and the trick's index (0-8)."""

    seat: int
    card: Card
    trick: int

    def to_dict(self) -> dict[str, Any]:
        """The record and event form (docs/TABLE.md "Results")."""
        return {"seat": self.seat, "card": str(self.card), "trick": self.trick}


@dataclass(frozen=True, slots=True)
class CallResult:
    """The call that ended a hand (R8.2, R8.3): ``verb`` ``"misplay"`` or ``"throw"``, the
    calling ``seat``, whether a misplay call was ``correct`` (None for a throw), the ``team``
    awarded the ``count``, and every misplay made in the hand so far, in play order (empty for
    a throw)."""

    verb: str
    seat: int
    correct: bool | None
    team: int
    count: int
    misplays: tuple[Misplay, ...]

    def to_dict(self) -> dict[str, Any]:
        """The record form (docs/TABLE.md "Results")."""
        return {
            "verb": self.verb,
            "seat": self.seat,
            "correct": self.correct,
            "team": self.team,
            "count": self.count,
            "misplays": [misplay.to_dict() for misplay in self.misplays],
        }


@dataclass(frozen=True, slots=True)
class HandResult:
    """The result of a finished hand; ``to_dict`` is the record's ``result`` (docs/RECORDS.md).
    ``call`` is set only for a hand ended by a call (R8.2, R8.3)."""

    outcome: Outcome
    trump: Suit | None
    caller: int | None
    points: tuple[int, int]
    score: tuple[int, int]
    runs: RunsResult | None
    bella: int | None
    tricks: tuple[TrickResult, ...]
    call: CallResult | None = None

    def to_dict(self) -> dict[str, Any]:
        """The record form; the key ``"call"`` only when the hand ended by a call, so auto-mode
        records are unchanged."""
        record: dict[str, Any] = {
            "outcome": self.outcome.value,
            "trump": None if self.trump is None else str(self.trump),
            "caller": self.caller,
            "points": list(self.points),
            "score": list(self.score),
            "runs": None if self.runs is None else self.runs.to_dict(),
            "bella": self.bella,
            "tricks": [trick.to_dict() for trick in self.tricks],
        }
        if self.call is not None:
            record["call"] = self.call.to_dict()
        return record


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

    def tensor(self) -> npt.NDArray[np.float32]:
        """This view as the information-state tensor of docs/ENGINE.md: equal to
        ``information_state_tensor(seat)`` of the state it was taken from (a Python bot's
        ``act(observation, legal_ids)`` can feed it to a network)."""
        # The reference's encoder reads nothing but the observation; imported here because the
        # reference imports these values.
        from .reference._observe import information_state_tensor

        return information_state_tensor(self)


@dataclass(frozen=True, slots=True)
class TableView:
    """What a person at ``seat`` sees on the table now (R8.4, docs/TABLE.md "The table view").

    ``scores`` are the match scores before this hand; ``trick`` the current trick's cards in play
    order; ``last_trick`` the last completed trick only (earlier tricks are turned down);
    ``tricks_won`` the number of completed tricks each team took; ``announced[s]`` the size seat
    s announced; ``shown[s]`` the cards of every run s showed (by index; a late twenty: its three
    cards); ``bella`` the seat credited with bella, ``bella_forfeited`` the seat whose bella was
    lost as table talk (R4.5); ``points`` the team points credited so far; ``allowed`` and
    ``legal`` the seat's action ids now (docs/TABLE.md "Allowed and legal").
    """

    seat: int
    dealer: int
    phase: Phase
    to_move: int | None
    scores: tuple[int, int]
    hand: tuple[Card, ...]
    unseen_kitty: int
    auction: tuple[Action, ...]
    trump: Suit | None
    caller: int | None
    trick_leader: int | None
    trick: tuple[Card, ...]
    last_trick: TrickResult | None
    tricks_won: tuple[int, int]
    announced: tuple[int | None, int | None, int | None, int | None]
    shown: tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]
    bella: int | None
    bella_forfeited: int | None
    points: tuple[int, int]
    hand_sizes: tuple[int, int, int, int]
    allowed: tuple[int, ...]
    legal: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        """The JSON form of docs/TABLE.md "The table view"."""
        last = self.last_trick
        return {
            "seat": self.seat,
            "dealer": self.dealer,
            "phase": self.phase.value,
            "to_move": self.to_move,
            "scores": list(self.scores),
            "hand": [str(card) for card in self.hand],
            "unseen_kitty": self.unseen_kitty,
            "auction": [str(action) for action in self.auction],
            "trump": None if self.trump is None else str(self.trump),
            "caller": self.caller,
            "trick_leader": self.trick_leader,
            "trick": [str(card) for card in self.trick],
            "last_trick": None
            if last is None
            else {
                "leader": last.leader,
                "cards": [str(card) for card in last.cards],
                "winner": last.winner,
                "points": last.points,
            },
            "tricks_won": list(self.tricks_won),
            "announced": list(self.announced),
            "shown": [[str(card) for card in cards] for cards in self.shown],
            "bella": self.bella,
            "bella_forfeited": self.bella_forfeited,
            "points": list(self.points),
            "hand_sizes": list(self.hand_sizes),
            "allowed": list(self.allowed),
            "legal": list(self.legal),
        }


@dataclass(frozen=True, slots=True)
class Solution:
    """A solved position, from the point of view of the seat to move.

    ``value`` is the number of points the team of the seat to move takes from the tricks not
    yet complete (the current trick's cards included, plus the last 10 if it takes the ninth
    trick, R1.3 and R1.4) with best play by all four seats. ``values`` maps each legal action
    id (a card index) to the value after playing it, same meaning; ``best`` lists the ids that
    reach ``value``. ``points_left`` is everything still to be won: the other team's value is
    ``points_left - value``. Runs (R4.3) and bella (R4.5) are decided by the position whatever
    is played, so they are reported beside the value, not in it: ``runs`` is the run winner
    and all run points it scores, ``bella`` the seat that scores bella."""

    seat: int
    value: int
    values: dict[int, int]
    best: list[int]
    points_left: int
    runs: RunsResult | None
    bella: int | None
