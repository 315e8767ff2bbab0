"""What one seat may know: the ``Observation`` of a hand, its 1708-float information-state
tensor and its information-state string (docs/ENGINE.md).

Rules implemented here: R2.4 (before trump is named a player knows only the first six cards
received; the kitty stays unseen), R4.4 (auto mode: a seat's best run size becomes public as it
plays its first card, its run cards as it plays its second; manual mode: as it announces and
shows; the runs winner once runs are credited), R4.5 (bella, once credited). The tensor and
the string are built from the ``Observation`` alone, so they can never show more than it does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from .._actions import Action, ActionKind, Phase
from .._cards import Card
from .._runs import Run
from .._views import Observation

if TYPE_CHECKING:
    from ._hand import HandState

KITTY_SIZE = 3  # R2.4: a player's third packet of three is the kitty
FIRST_SEEN = 6  # R2.4: before trump a player knows only their first six cards

TENSOR_SIZE = 1708
# Offsets of the tensor blocks (docs/ENGINE.md, "Information-state tensor").
OBSERVER = 0
DEALER = 4
PHASE = 8
HAND = 11
KITTY = 47
AUCTION = 48
TRUMP = 56
TRICK = 60
TRICKS = 204
TRICK_LEADERS = 1500
LEADER = 1536
ANNOUNCED = 1540
SHOWN = 1548
RUNS = 1692
BELLA = 1696
POINTS = 1700
SCORES_BEFORE = 1702
TO_MOVE = 1704
# R6.1: the most points a team can be credited in a hand: 162 in cards and last (R1.4), two
# fifties of the run winner and two of its partner (nine cards hold at most two runs of four;
# R4.3 with team_runs) and bella's 20 (R4.5). Points enter the tensor divided by it.
MAX_TEAM_POINTS = 162 + 4 * 50 + 20
# The match total read as 1 in the tensor (twice the default target of 500); more reads as 1.
SCORE_SCALE = 1000
PHASES = (Phase.AUCTION, Phase.PLAY, Phase.DONE)
AUCTION_KINDS = (ActionKind.PASS, ActionKind.CALL)


def observe(state: HandState, seat: int) -> Observation:
    """The ``Observation`` of ``state`` for ``seat`` (a checked seat 0..3)."""
    trump_named = state._trump is not None
    held = state._held[seat]
    if trump_named:
        visible = sorted(held)
    else:
        # R2.4: the kitty (the last three cards received) is unseen until trump is named.
        visible = sorted(card for card in state._deal[seat][:FIRST_SEEN] if card in held)
    playing = state._phase is Phase.PLAY
    # R4.4: the best run's size once announced, the runs once shown (auto mode: with the first
    # and second card; manual mode: by the seat's own announce and show).
    announced = [state._announced(s) for s in range(4)]
    shown = [state._shown(s) for s in range(4)]
    return Observation(
        seat=seat,
        dealer=state._dealer,
        phase=state._phase,
        to_move=state._to_move,
        scores_before=state._scores_before,
        hand=tuple(Card.from_index(card) for card in visible),
        unseen_kitty=0 if trump_named else KITTY_SIZE,
        auction=tuple(action for action in state._actions if action.kind in AUCTION_KINDS),
        trump=state.trump,
        caller=state._caller,
        trick_leader=state._leader if playing else None,
        trick=tuple(Card.from_index(card) for card in state._trick) if playing else (),
        tricks=tuple(state._tricks),
        announced=(announced[0], announced[1], announced[2], announced[3]),
        shown=(shown[0], shown[1], shown[2], shown[3]),
        runs=state._runs_result,
        bella=state._bella,
        points=state.points,
        hand_sizes=(
            len(state._held[0]),
            len(state._held[1]),
            len(state._held[2]),
            len(state._held[3]),
        ),
    )


def information_state_tensor(obs: Observation) -> npt.NDArray[np.float32]:
    """The 1708 float32 values of docs/ENGINE.md for an observation."""
    tensor = np.zeros(TENSOR_SIZE, dtype=np.float32)
    tensor[OBSERVER + obs.seat] = 1
    tensor[DEALER + obs.dealer] = 1
    tensor[PHASE + PHASES.index(obs.phase)] = 1
    for card in obs.hand:
        tensor[HAND + card.index] = 1
    tensor[KITTY] = 1 if obs.unseen_kitty else 0
    for action in obs.auction:
        tensor[AUCTION + 2 * action.seat + (1 if action.kind is ActionKind.CALL else 0)] = 1
    if obs.trump is not None:
        tensor[TRUMP + int(obs.trump)] = 1
    if obs.trick_leader is not None:
        tensor[LEADER + obs.trick_leader] = 1
        for position, card in enumerate(obs.trick):
            seat = (obs.trick_leader + position) % 4
            tensor[TRICK + 36 * seat + card.index] = 1
    for k, trick in enumerate(obs.tricks):
        tensor[TRICK_LEADERS + 4 * k + trick.leader] = 1
        for position, card in enumerate(trick.cards):
            seat = (trick.leader + position) % 4
            tensor[TRICKS + 36 * (4 * k + seat) + card.index] = 1
    for seat in range(4):
        size = obs.announced[seat]
        if size is not None:
            tensor[ANNOUNCED + 2 * seat + (1 if size == 50 else 0)] = 1
        for run in obs.shown[seat]:
            for card in run.cards:
                tensor[SHOWN + 36 * seat + card.index] = 1
    if obs.runs is not None:
        tensor[RUNS + obs.runs.seat] = 1
    if obs.bella is not None:
        tensor[BELLA + obs.bella] = 1
    for team in range(2):
        tensor[POINTS + team] = _fraction(obs.points[team], MAX_TEAM_POINTS)
        tensor[SCORES_BEFORE + team] = _fraction(obs.scores_before[team], SCORE_SCALE)
    if obs.to_move is not None:
        tensor[TO_MOVE + obs.to_move] = 1
    return tensor


def _fraction(count: int, maximum: int) -> np.float32:
    """``count / maximum`` capped at 1, divided in float32 so it is rounded once."""
    return np.float32(min(count, maximum)) / np.float32(maximum)


def _or_none(value: object) -> str:
    return "-" if value is None else str(value)


def _cards(cards: tuple[Card, ...]) -> str:
    return " ".join(str(card) for card in cards) if cards else "-"


def _run_text(run: Run) -> str:
    return f"{Card(run.suit, run.top)}{run.length}"


def _auction_text(auction: tuple[Action, ...]) -> str:
    return ", ".join(str(action) for action in auction) if auction else "-"


def information_state_string(obs: Observation) -> str:
    """The text form of docs/ENGINE.md for an observation (``-`` for none)."""
    tricks = " | ".join(
        f"{trick.leader}:{_cards(trick.cards)}>{trick.winner}" for trick in obs.tricks
    )
    trick = f"{obs.trick_leader}:{_cards(obs.trick)}" if obs.trick else "-"
    shown = " ".join(
        f"{seat}:" + ",".join(_run_text(run) for run in runs)
        for seat, runs in enumerate(obs.shown)
        if runs
    )
    runs = "-" if obs.runs is None else f"{obs.runs.seat} {obs.runs.points}"
    lines = [
        f"seat {obs.seat} dealer {obs.dealer} phase {obs.phase} to_move {_or_none(obs.to_move)} "
        f"scores {obs.scores_before[0]} {obs.scores_before[1]}",
        f"hand {_cards(obs.hand)}",
        f"kitty {obs.unseen_kitty}",
        f"auction {_auction_text(obs.auction)}",
        f"trump {_or_none(obs.trump)} caller {_or_none(obs.caller)}",
        f"tricks {tricks or '-'}",
        f"trick {trick}",
        "announced " + " ".join(_or_none(size) for size in obs.announced),
        f"shown {shown or '-'}",
        f"runs {runs}",
        f"bella {_or_none(obs.bella)}",
        f"points {obs.points[0]} {obs.points[1]}",
    ]
    return "\n".join(lines)
