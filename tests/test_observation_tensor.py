"""A Python bot's tensor (python/tarabish/_views.py): ``Observation.tensor()`` equals
``information_state_tensor(seat)`` of the state the observation was taken from, for every seat
at every step of random hands (auto and table mode, docs/TABLE.md) and matches."""

from __future__ import annotations

import random

import numpy as np
import tarabish as tb
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import (
    TableHabits,
    choose_action,
    choose_table_action,
    hand_setup_from_seed,
    table_setup_from_seed,
)

SEATS = 4
# Each example checks every seat at every step of a whole hand (about 200 tensors).
EXAMPLES = settings(max_examples=max(30, settings.default.max_examples // 100))


def _same_tensor(state: tb.HandState | tb.MatchState) -> None:
    for seat in range(SEATS):
        tensor = state.observation(seat).tensor()
        assert tensor.dtype == np.float32
        assert np.array_equal(tensor, state.information_state_tensor(seat))


@EXAMPLES
@given(st.integers(0, 2**64 - 1), st.booleans())
def test_the_observation_s_tensor_is_the_information_state_tensor(seed: int, table: bool) -> None:
    setup = table_setup_from_seed(seed) if table else hand_setup_from_seed(seed)
    state = tb.HandState(setup.dealer, **setup.kwargs())  # type: ignore[arg-type]
    rng, habits = random.Random(setup.action_seed), TableHabits.from_rng(random.Random(seed))
    _same_tensor(state)
    while not state.is_terminal:
        if table:
            seat, action = choose_table_action(state, rng, habits, setup.pass_bias)
        else:
            seat, action = state.to_move, choose_action(state.legal_action_ids(), rng, 0.3)
        state.apply(action, seat)
        _same_tensor(state)


@EXAMPLES
@given(st.integers(0, 2**64 - 1))
def test_the_tensor_of_a_match_s_observation(seed: int) -> None:
    match = tb.MatchState(seed=seed, rules=tb.Rules(target=200), first_dealer=seed % SEATS)
    rng = random.Random(seed)
    while not match.is_terminal:
        _same_tensor(match)
        match.apply(rng.choice(match.legal_action_ids()))
    _same_tensor(match)
