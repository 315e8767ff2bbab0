"""Invariants of table-mode hands (RULES.md R1.4, R4.3-R4.5, R6, R8.1-R8.3; docs/TABLE.md), on
both engines, over random table play (tests/strategies.py ``choose_table_action``).

After every action: the 36 cards are conserved (held + played), the seat to move may always do
something, seats not to move may only call, and the legal ids are within the allowed ones.
At the end: a played-out hand counts 162 + credited runs + credited bella (R1.4, R6.1) and is
scored by R6; a hand ended by a call awards its count (162 + runs and bella credited so far) to
one team and 0 to the other (R8.2, R8.3), the team being the caller's exactly when a seat of the
other team misplayed (R8.2), the other team's for a throw (R8.3); misplays are exactly the plays
that were not legal when made (R8.1).
"""

from __future__ import annotations

import random
from types import ModuleType
from typing import Any

from hypothesis import given, note
from hypothesis import strategies as st
from strategies import (
    CALL_IDS,
    TableHabits,
    choose_table_action,
    secondary,
    table_setup_from_seed,
)
from tarabish import Outcome

CARD_COUNT = 162
BELLA_POINTS = 20


def play_table_hand(engine: ModuleType, seed: int) -> tuple[Any, list[tuple[int, Any, int]]]:
    """A random table hand, checking the per-step invariants; returns it and every play that
    was not legal when made, as (seat, card, trick)."""
    setup = table_setup_from_seed(seed)
    note(repr(setup))
    state = engine.HandState(setup.dealer, **setup.kwargs())
    rng = random.Random(setup.action_seed)
    habits = TableHabits.from_rng(rng)
    misplays = []
    plays = 0
    while not state.is_terminal:
        held = sum(len(cards) for cards in state.hands)
        assert held + plays == 36, "R1.1: cards are conserved"
        mover = state.to_move
        assert state.allowed_action_ids(mover), "the seat to move may do something"
        for seat in range(4):
            allowed = set(state.allowed_action_ids(seat))
            assert set(state.legal_action_ids(seat)) <= allowed
            if seat != mover:
                assert allowed <= set(CALL_IDS), "R8.2, R8.3: only calls out of turn"
        seat, action_id = choose_table_action(state, rng, habits, setup.pass_bias)
        if action_id < 36:
            if action_id not in state.legal_action_ids(seat):
                card = next(c for c in state.hands[seat] if c.index == action_id)
                misplays.append((seat, card, plays // 4))
            plays += 1
        state.apply(action_id, seat)
    return state, misplays


@secondary()
@given(seed=st.integers(0, 2**64 - 1))
def test_table_hands_keep_the_invariants(engine: ModuleType, seed: int) -> None:
    state, misplays = play_table_hand(engine, seed)
    result = state.result
    runs = 0 if result.runs is None else result.runs.points
    bella = 0 if result.bella is None else BELLA_POINTS
    if result.outcome is Outcome.VOID:
        assert result.score == (0, 0)
        return
    if result.call is None:
        assert sum(result.points) == CARD_COUNT + runs + bella, "R1.4, R6.1"
        assert result.outcome in (Outcome.MADE, Outcome.BAIT, Outcome.HALF_BAIT)
        return
    call = result.call
    assert call.count == CARD_COUNT + runs + bella, "R8.2: the count"
    assert result.score[call.team] == call.count and result.score[1 - call.team] == 0
    assert sum(result.points) <= CARD_COUNT + runs + bella
    if call.verb == "throw":
        assert result.outcome is Outcome.THROW_IN
        assert call.team != call.seat % 2, "R8.3: the other team scores"
        return
    assert result.outcome is Outcome.MISPLAY
    assert [(m.seat, m.card, m.trick) for m in call.misplays] == misplays, "R8.1"
    other_team_misplayed = any(seat % 2 != call.seat % 2 for seat, _, _ in misplays)
    assert call.correct == other_team_misplayed, "R8.2"
    assert (call.team == call.seat % 2) == other_team_misplayed, "R8.2"
