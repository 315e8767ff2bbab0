"""Random playouts: ``play_random_hand`` (docs/ENGINE.md "Random playouts").

The generator that dealt the hand (R2.3-R2.4, ``_deal``) goes on choosing: at every decision
the legal action ids are sorted, ``k = below(number of legal ids)`` and the ``k``-th smallest
id is played, until the hand is over (R5.3, or void under R3.3).
"""

from __future__ import annotations

from typing import Any

from .._rules import Rules
from ._deal import SplitMix64, deal_with
from ._hand import HandState
from ._input import rules_value, score_pair, seat_number, seed_number


def play_random_hand(
    seed: Any,
    dealer: Any = 0,
    rules: Rules = Rules(),  # noqa: B008
    scores_before: Any = (0, 0),
) -> HandState:
    """The finished ``HandState`` of the random playout of hand seed ``seed``."""
    checked_seed = seed_number(seed)
    checked_dealer = seat_number(dealer, "dealer")
    checked_rules = rules_value(rules)
    checked_scores = score_pair(scores_before, "scores_before")
    rng = SplitMix64(checked_seed)
    deal = deal_with(rng, checked_dealer)
    state = HandState._from_indices(checked_rules, checked_dealer, checked_scores, deal)
    while not state.is_terminal:
        ids = state.legal_action_ids()
        state.apply(ids[rng.below(len(ids))])
    return state
