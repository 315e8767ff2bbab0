"""``tarabish analyze``: the double-dummy loss of every card played in a ``tarabish-record/1``
record (docs/SOLVER.md, "Analysing records").

At each play, the solver gives the value of the position for the playing seat's team (the
points it still takes with best play by all four, every card known) and the value of the card
actually played; the difference is what that card lost. A hand's losses are summed per seat;
the worst plays are listed. Along a hand, a team's points taken in tricks equal its value when
trump was named, minus its own losses, plus the other team's.

A table-mode record (R8) is solved as legal play from the same cards: declarations (R4.4, R4.5)
change no trick, so they are passed over; the analysis of a hand stops at its first misplay
(R8.1: a card the solver would not play) and at a call (R8.2, R8.3), which ends the hand.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ._actions import ActionKind, Phase
from ._cards import Card
from ._record import Record, parse_record
from ._replay import play_record
from ._rules import Rules
from ._solve import solve_many
from ._views import Solution

FORMAT = "tarabish-analysis/1"
WORST_PLAYS = 10
"""How many of the worst plays the report lists by default."""
DECLARATIONS = frozenset({ActionKind.ANNOUNCE, ActionKind.SHOW, ActionKind.BELLA})
"""Table-mode verbs that change no trick (R4.4, R4.5): passed over by the analysis."""
CALLS = frozenset({ActionKind.MISPLAY, ActionKind.THROW})
"""Table-mode verbs that end the hand (R8.2, R8.3): the analysis of the hand stops there."""


@dataclass(frozen=True, slots=True)
class PlayLoss:
    """One card played: where (``hand`` of the record, ``action`` index in it, ``trick`` 0-8),
    by whom, the position's value and the played card's value for the seat's team, what it lost,
    the cards that were best and the value of every legal card (``values``, card order)."""

    hand: int
    action: int
    trick: int
    seat: int
    card: Card
    value: int
    played_value: int
    best: tuple[Card, ...]
    values: tuple[tuple[Card, int], ...] = ()

    @property
    def loss(self) -> int:
        """Points the seat's team lost with this card against the double-dummy best."""
        return self.value - self.played_value

    def to_dict(self) -> dict[str, Any]:
        return {
            "hand": self.hand,
            "action": self.action,
            "trick": self.trick,
            "seat": self.seat,
            "card": str(self.card),
            "value": self.value,
            "played_value": self.played_value,
            "loss": self.loss,
            "best": [str(card) for card in self.best],
            "values": {str(card): value for card, value in self.values},
        }


@dataclass(frozen=True, slots=True)
class HandAnalysis:
    """The plays of one hand of the record, with the double-dummy value of each team when
    trump was named (``start_values``; None for a hand never played, e.g. void). ``stopped``
    is the action index of a table-mode hand's first misplay (R8.1), where its analysis
    stops; None otherwise."""

    hand: int
    plays: tuple[PlayLoss, ...]
    start_values: tuple[int, int] | None
    stopped: int | None = None

    @property
    def loss_by_seat(self) -> tuple[int, int, int, int]:
        losses = [0, 0, 0, 0]
        for play in self.plays:
            losses[play.seat] += play.loss
        return (losses[0], losses[1], losses[2], losses[3])

    def to_dict(self) -> dict[str, Any]:
        by_seat = self.loss_by_seat
        return {
            "hand": self.hand,
            "start_values": None if self.start_values is None else list(self.start_values),
            "loss_by_seat": list(by_seat),
            "loss_by_team": [by_seat[0] + by_seat[2], by_seat[1] + by_seat[3]],
            "stopped": self.stopped,
            "plays": [play.to_dict() for play in self.plays],
        }


@dataclass(frozen=True, slots=True)
class Analysis:
    """Every hand of a record analysed."""

    hands: tuple[HandAnalysis, ...]

    @property
    def loss_by_seat(self) -> tuple[int, int, int, int]:
        totals = [0, 0, 0, 0]
        for hand in self.hands:
            for seat, loss in enumerate(hand.loss_by_seat):
                totals[seat] += loss
        return (totals[0], totals[1], totals[2], totals[3])

    def worst(self, count: int = WORST_PLAYS) -> list[PlayLoss]:
        """The ``count`` plays that lost most (ties in play order), losses above 0 only."""
        plays = [play for hand in self.hands for play in hand.plays if play.loss > 0]
        return sorted(plays, key=lambda play: -play.loss)[:count]

    def to_dict(self, worst: int = WORST_PLAYS) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "loss_by_seat": list(self.loss_by_seat),
            "hands": [hand.to_dict() for hand in self.hands],
            "worst": [play.to_dict() for play in self.worst(worst)],
        }


def analyze(record: str | bytes | dict[str, Any] | Record, threads: int = 0) -> Analysis:
    """The double-dummy loss of every card played in ``record`` (checked first, as
    ``replay`` does: a bad record raises ``RecordError``). A table-mode record is solved as
    legal play from the same cards, each hand up to its first misplay or call (module
    docstring). The positions are solved on ``threads`` threads (0: every core)."""
    from . import _core

    parsed = parse_record(record)
    play_record(parsed)  # every action checked, hands consecutive
    rules = legal_play_rules(parsed.rules)
    hands = []
    for index, hand in enumerate(parsed.hands):
        state = _core.HandState(
            hand.dealer,
            deal=[list(cards) for cards in hand.deal],
            rules=rules,
            scores_before=hand.scores_before,
        )
        positions: list[tuple[int, int, Card, _core.HandState]] = []
        stopped = None
        for number, action in enumerate(hand.actions):
            if action.kind in DECLARATIONS:
                continue
            if action.kind in CALLS:
                break
            if action.kind is ActionKind.PLAY and state.phase is Phase.PLAY:
                assert action.card is not None
                if action.card.index not in state.legal_action_ids():
                    stopped = number
                    break
                positions.append((number, action.seat, action.card, state.clone()))
            state.apply(str(action))
        solutions = solve_many([position[3] for position in positions], threads)
        plays = tuple(
            _play_loss(index, number, played // 4, seat, card, solution)
            for played, ((number, seat, card, _), solution) in enumerate(
                zip(positions, solutions, strict=True)
            )
        )
        start = None
        if solutions:
            first = solutions[0]
            team = first.seat % 2
            other = first.points_left - first.value
            start = (first.value, other) if team == 0 else (other, first.value)
        hands.append(HandAnalysis(index, plays, start, stopped))
    return Analysis(tuple(hands))


def legal_play_rules(rules: Rules) -> Rules:
    """The rules a record's plays are solved under: its own, with automatic declarations and
    legal play enforced (R9), since the solver plays R5.1-legal cards only."""
    if not rules.is_table_mode:
        return rules
    return replace(
        rules,
        declarations="auto",
        enforce_legal_play=True,
        first_bell_ok=False,
        late_twenty=False,
    )


def _play_loss(
    hand: int, number: int, trick: int, seat: int, card: Card, solution: Solution
) -> PlayLoss:
    return PlayLoss(
        hand=hand,
        action=number,
        trick=trick,
        seat=seat,
        card=card,
        value=solution.value,
        played_value=solution.values[card.index],
        best=tuple(Card.from_index(best) for best in solution.best),
        values=tuple((Card.from_index(i), v) for i, v in sorted(solution.values.items())),
    )
