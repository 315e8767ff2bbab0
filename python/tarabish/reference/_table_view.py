"""The table view (RULES.md R8.4; docs/TABLE.md "The table view"): what a person at one seat
sees on the table now. Only the current trick and the last completed trick are face up; the
rest is what the seat's observation (R2.4, R4.4, R4.5) already shows, plus what the seat may do.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._views import TableView
from ._observe import observe

if TYPE_CHECKING:
    from ._hand import HandState


def table_view(state: HandState, seat: int) -> TableView:
    """The ``TableView`` of ``state`` for ``seat`` (a checked seat 0..3)."""
    obs = observe(state, seat)
    won = [trick.winner % 2 for trick in obs.tricks]
    shown = [
        tuple(sorted((card for run in runs for card in run.cards), key=lambda card: card.index))
        for runs in obs.shown
    ]
    return TableView(
        seat=seat,
        dealer=obs.dealer,
        phase=obs.phase,
        to_move=obs.to_move,
        scores=obs.scores_before,
        hand=obs.hand,
        unseen_kitty=obs.unseen_kitty,
        auction=obs.auction,
        trump=obs.trump,
        caller=obs.caller,
        trick_leader=obs.trick_leader,
        trick=obs.trick,
        last_trick=obs.tricks[-1] if obs.tricks else None,  # R8.4: earlier tricks turned down
        tricks_won=(won.count(0), won.count(1)),
        announced=obs.announced,
        shown=(shown[0], shown[1], shown[2], shown[3]),
        bella=obs.bella,
        bella_forfeited=state._declared.bella_forfeited,
        points=obs.points,
        hand_sizes=obs.hand_sizes,
        allowed=tuple(state.allowed_action_ids(seat)),
        legal=tuple(state.legal_action_ids(seat)),
    )
