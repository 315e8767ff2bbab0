"""Differential tests of whole hands and matches: the Rust core and ``tarabish.reference`` are
driven by the same random actions and must agree at every step (docs/ENGINE.md).

At every step of every hand: ``legal_action_ids``, ``legal_actions``, ``to_move``, ``phase``,
``points``, ``trump``, ``caller``, ``is_terminal`` and the four seats' observations are identical;
illegal action ids are rejected by both with ``IllegalActionError`` naming the same rule, and
both states are left unchanged. The held cards that are not legal and a forbidden pass (the
rulings that matter) are tried at every step, plus a random sample of the other illegal ids
(all 41 ids, and actions of seats not to move, at every step in
``test_hands_agree_on_everything``); tensors and strings are
compared for one random seat at a random quarter of the steps (for all four seats at every step
in ``test_hands_agree_on_everything``). At the end the results, the states' JSON and
cross-loading (one engine's JSON loaded by the other) agree.

Example counts follow the hypothesis profile (tests/conftest.py): with ``ci`` (10 000 examples
a property) at least 2 500 + 50 whole hands, 125 whole matches and 5 000 random playouts; with
``dev`` (300) a few dozen of each.
"""

from __future__ import annotations

import random
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st
from strategies import HandSetup, choose_action, game_rules, hand_setups, score_pairs
from tarabish import (
    TENSOR_SIZE,
    Action,
    IllegalActionError,
    InvalidInputError,
    Phase,
    Rules,
)

Engines = tuple[ModuleType, ModuleType]

BASE_EXAMPLES = settings.default.max_examples  # dev 300, ci 10 000
HAND_EXAMPLES = max(60, BASE_EXAMPLES // 4)  # ci: 2 500 hands
FULL_HAND_EXAMPLES = max(10, BASE_EXAMPLES // 200)  # ci: 50 hands, every check every step
MATCH_EXAMPLES = max(8, BASE_EXAMPLES // 80)  # ci: 125 matches
PLAYOUT_EXAMPLES = max(25, BASE_EXAMPLES // 8)  # ci: 1 250 examples, 5 000 playouts

OUT_OF_RANGE = (-1, 46, 100, 2**63, -(2**70))


# --------------------------------------------------------------------------------------------
# Comparing the two states
# --------------------------------------------------------------------------------------------


def same_basics(rust: Any, ref: Any) -> list[int]:
    """The cheap per-step comparison; returns the legal ids."""
    ids = rust.legal_action_ids()
    assert ids == ref.legal_action_ids()
    assert ids == sorted(set(ids))
    assert rust.legal_actions() == ref.legal_actions()
    assert [action.id for action in rust.legal_actions()] == ids
    assert rust.to_move == ref.to_move
    assert rust.phase is ref.phase
    assert rust.is_terminal == ref.is_terminal
    assert (ids == []) == rust.is_terminal
    return ids


def same_hand_basics(rust: Any, ref: Any) -> list[int]:
    ids = same_basics(rust, ref)
    assert rust.points == ref.points
    assert rust.hands == ref.hands
    assert rust.trump == ref.trump
    assert rust.caller == ref.caller
    return ids


def same_views(rust: Any, ref: Any, observe: range | list[int], tensors: range | list[int]) -> None:
    for seat in observe:
        assert rust.observation(seat) == ref.observation(seat), seat
    for seat in tensors:
        got_rust = rust.information_state_tensor(seat)
        got_ref = ref.information_state_tensor(seat)
        assert got_rust.dtype == np.float32 and got_ref.dtype == np.float32
        assert got_rust.shape == got_ref.shape == (TENSOR_SIZE,)
        assert np.array_equal(got_rust, got_ref), np.nonzero(got_rust != got_ref)
        assert ((got_rust >= 0) & (got_rust <= 1)).all(), np.nonzero(got_rust > 1)
        assert rust.information_state_string(seat) == ref.information_state_string(seat)


def rejection(state: Any, action: Any) -> IllegalActionError:
    try:
        state.apply(action)
    except IllegalActionError as error:
        assert str(error)
        return error
    raise AssertionError(f"{type(state).__module__}: illegal action {action!r} was accepted")


def fingerprint(state: Any) -> tuple[Any, ...]:
    """What a rejected action must not change, beyond ``==`` (which compares the deal and the
    actions): the legal ids, the seat to move and what that seat (or seat 0) observes."""
    seat = state.to_move if state.to_move is not None else 0
    return (state.legal_action_ids(), state.to_move, state.observation(seat))


def same_rejection(rust: Any, ref: Any, action: Any, every: bool) -> None:
    """Both engines reject ``action`` naming the same rule and stay unchanged."""
    if every:
        copies = (rust.clone(), ref.clone())
        before = (fingerprint(rust), fingerprint(ref))
    error_rust = rejection(rust, action)
    error_ref = rejection(ref, action)
    assert error_rust.rule == error_ref.rule, (action, str(error_rust), str(error_ref))
    if rust.to_move is not None:
        # (with no seat to move the two engines word ``action`` differently for an id)
        assert error_rust.action == error_ref.action
    if every:
        assert rust == copies[0] and ref == copies[1]
        assert (fingerprint(rust), fingerprint(ref)) == before


def rejected_ids(state: Any, ids: list[int], rng: random.Random, every: bool) -> list[int]:
    """The illegal ids to try: all of them, or the interesting ones (held cards that may not
    be played, a forbidden pass) and one other at random."""
    legal = set(ids)
    illegal = [action_id for action_id in range(41) if action_id not in legal]
    if every:
        return illegal
    seat = state.to_move
    if seat is None:
        interesting: list[int] = []
    elif state.phase is Phase.PLAY:
        held = {card.index for card in state.observation(seat).hand}
        interesting = [action_id for action_id in illegal if action_id in held]
    else:
        interesting = [40] if 40 in illegal else []
    others = [action_id for action_id in illegal if action_id not in interesting]
    return interesting + rng.sample(others, min(1, len(others)))


def same_rejections(rust: Any, ref: Any, ids: list[int], rng: random.Random, every: bool) -> None:
    copies = (rust.clone(), ref.clone())
    json_check = every or rng.random() < 0.05
    if json_check:
        before = (rust.to_json(), ref.to_json())
    for action_id in rejected_ids(rust, ids, rng, every):
        same_rejection(rust, ref, action_id, every)
    # An action of a seat that is not to move (as an Action and as text).
    if rust.to_move is not None and (every or rng.random() < 0.2):
        other = (rust.to_move + rng.randrange(1, 4)) % 4
        action = Action.from_id(rng.randrange(41), other)
        same_rejection(rust, ref, action, every)
        same_rejection(rust, ref, str(action), every)
    if every or rng.random() < 0.1:
        for bad in OUT_OF_RANGE:
            for state in (rust, ref):
                try:
                    state.apply(bad)
                except InvalidInputError:
                    pass
                else:
                    raise AssertionError(f"action id {bad} was accepted")
    assert rust == copies[0] and ref == copies[1]
    if json_check:
        assert (rust.to_json(), ref.to_json()) == before


def action_form(action_id: int, state: Any, rng: random.Random) -> Any:
    """The same action as an int, a numpy integer, an ``Action`` or action text."""
    form = rng.randrange(4)
    if form == 0:
        return action_id
    if form == 1:
        return np.int64(action_id)
    action = Action.from_id(action_id, state.to_move)
    return action if form == 2 else str(action)


# --------------------------------------------------------------------------------------------
# Whole hands
# --------------------------------------------------------------------------------------------


def drive_hand(engines: Engines, setup: HandSetup, every: bool) -> None:
    note(repr(setup))
    rust_engine, ref_engine = engines
    rust = rust_engine.HandState(setup.dealer, **setup.kwargs())
    ref = ref_engine.HandState(setup.dealer, **setup.kwargs())
    assert rust.to_json() == ref.to_json()
    assert rust.deal == ref.deal
    assert rust.rules == ref.rules == setup.rules
    assert rust.scores_before == ref.scores_before == setup.scores_before
    rng = random.Random(setup.action_seed)
    while True:
        ids = same_hand_basics(rust, ref)
        same_rejections(rust, ref, ids, rng, every)
        if every:
            same_views(rust, ref, range(4), range(4))
            assert rust.hands == ref.hands
            assert rust.actions == ref.actions
        else:
            tensors = [rng.randrange(4)] if rng.random() < 0.25 else []
            same_views(rust, ref, range(4), tensors)
        if rust.is_terminal:
            break
        action_id = choose_action(ids, rng, setup.pass_bias)
        action = action_form(action_id, rust, rng)
        rust.apply(action)
        ref.apply(action)
    same_end_of_hand(engines, rust, ref, cross_load=every or rng.random() < 0.25)


def same_end_of_hand(engines: Engines, rust: Any, ref: Any, cross_load: bool) -> None:
    rust_engine, ref_engine = engines
    assert rust.result is not None
    assert rust.result == ref.result
    assert rust.hands == ref.hands
    assert rust.actions == ref.actions
    text = rust.to_json()
    assert text == ref.to_json()
    if cross_load:  # each engine loads the other's JSON to an equal state
        assert rust_engine.HandState.from_json(ref.to_json()) == rust
        assert ref_engine.HandState.from_json(text) == ref


@pytest.mark.long
@settings(max_examples=HAND_EXAMPLES)
@given(setup=hand_setups())
def test_hands_agree(engine_pair: Engines, setup: HandSetup) -> None:
    drive_hand(engine_pair, setup, every=False)


@pytest.mark.long
@settings(max_examples=FULL_HAND_EXAMPLES)
@given(setup=hand_setups())
def test_hands_agree_on_everything(engine_pair: Engines, setup: HandSetup) -> None:
    drive_hand(engine_pair, setup, every=True)


@pytest.mark.long
@settings(max_examples=PLAYOUT_EXAMPLES)
@given(seed=st.integers(0, 2**64 - 1), rules=game_rules(), scores_before=score_pairs())
def test_play_random_hand_agrees(
    engine_pair: Engines, seed: int, rules: Rules, scores_before: tuple[int, int]
) -> None:
    rust_engine, ref_engine = engine_pair
    for dealer in range(4):
        rust = rust_engine.play_random_hand(seed, dealer, rules, scores_before)
        ref = ref_engine.play_random_hand(seed, dealer, rules, scores_before)
        assert rust.is_terminal and ref.is_terminal
        assert rust.to_json() == ref.to_json()
        assert rust.result == ref.result
        assert rust.deal == ref_engine.deal_cards(seed, dealer)


@settings(max_examples=max(20, BASE_EXAMPLES // 100))
@given(
    seed=st.integers(0, 2**64 - 1),
    scores=st.tuples(st.integers(0, 2**30 - 1), st.integers(0, 2**30 - 1)),
)
def test_large_scores_agree(engine_pair: Engines, seed: int, scores: tuple[int, int]) -> None:
    """Scores up to 2**30-1 (docs/DECISIONS.md) in the tensor (capped at 1000, over 1000) and
    the string."""
    rust_engine, ref_engine = engine_pair
    rules = Rules(forced_at=65535)
    rust = rust_engine.play_random_hand(seed, 1, rules, scores)
    ref = ref_engine.play_random_hand(seed, 1, rules, scores)
    assert rust.to_json() == ref.to_json()
    same_views(rust, ref, range(4), range(4))
    expected = np.float32(min(scores[0], 1000)) / np.float32(1000)
    assert rust.information_state_tensor(0)[1702] == expected


def test_the_most_points_a_team_takes_read_as_one(engine_pair: Engines) -> None:
    """A hand where team 0 is credited MAX_TEAM_POINTS = 382 (R6.1): seat 0 holds every heart
    (two fifties and the trump K and Q, R4.1 and R4.5), its partner every spade (two fifties
    that score with team_runs, R4.3), and hearts led from the top take every trick (162, R1.4).
    The tensor's points entry reaches exactly 1, in both engines."""
    deal = ["6H 7H 8H 9H TH JH QH KH AH", "6C 7C 8C 9C TC JC QC KC AC"]
    deal += ["6S 7S 8S 9S TS JS QS KS AS", "6D 7D 8D 9D TD JD QD KD AD"]
    for engine in engine_pair:
        state = engine.HandState(dealer=3, deal=deal, rules=Rules(team_runs=True))
        state.apply("0 call H")
        while not state.is_terminal:
            state.apply(state.legal_action_ids()[-1])
        assert state.points == (382, 0)
        tensor = state.information_state_tensor(1)
        assert tensor[1700] == 1.0 and tensor[1701] == 0.0
        assert ((tensor >= 0) & (tensor <= 1)).all()


def test_tensor_size(engine_pair: Engines) -> None:
    rust_engine, ref_engine = engine_pair
    assert rust_engine.TENSOR_SIZE == ref_engine.TENSOR_SIZE == TENSOR_SIZE == 1708


@settings(max_examples=max(20, BASE_EXAMPLES // 20))
@given(seed=st.integers(0, 2**64 - 1))
def test_play_random_hand_defaults_agree(engine_pair: Engines, seed: int) -> None:
    rust_engine, ref_engine = engine_pair
    rust = rust_engine.play_random_hand(seed)
    ref = ref_engine.play_random_hand(seed)
    assert rust.dealer == ref.dealer == 0
    assert rust.rules == ref.rules == Rules()
    assert rust.to_json() == ref.to_json()


# --------------------------------------------------------------------------------------------
# Whole matches
# --------------------------------------------------------------------------------------------


def same_match(rust: Any, ref: Any) -> None:
    assert rust.scores == ref.scores
    assert rust.hand_index == ref.hand_index
    assert rust.dealer == ref.dealer
    assert rust.winner == ref.winner


@settings(max_examples=MATCH_EXAMPLES)
@given(
    rules=game_rules(targets=(101, 200, 300, 500)),
    seed=st.integers(0, 2**64 - 1),
    first_dealer=st.integers(0, 3),
    scores=st.one_of(st.just((0, 0)), score_pairs(high=450)),
    action_seed=st.integers(0, 2**32 - 1),
    pass_bias=st.sampled_from((0.0, 0.5)),
)
def test_matches_agree(
    engine_pair: Engines,
    rules: Rules,
    seed: int,
    first_dealer: int,
    scores: tuple[int, int],
    action_seed: int,
    pass_bias: float,
) -> None:
    rust_engine, ref_engine = engine_pair
    rust = rust_engine.MatchState(seed=seed, rules=rules, first_dealer=first_dealer, scores=scores)
    ref = ref_engine.MatchState(seed=seed, rules=rules, first_dealer=first_dealer, scores=scores)
    assert rust.to_json() == ref.to_json()
    rng = random.Random(action_seed)
    hand_index = 0
    while True:
        ids = same_basics(rust, ref)
        same_match(rust, ref)
        same_rejections(rust, ref, ids, rng, every=False)
        if rng.random() < 0.25:
            same_views(rust, ref, range(4), [rng.randrange(4)])
        if rust.hand_index != hand_index:  # a hand just ended
            hand_index = rust.hand_index
            assert rust.history[-1].to_json() == ref.history[-1].to_json()
            assert rust.history[-1].result == ref.history[-1].result
            assert rust.hand.to_json() == ref.hand.to_json()
        if rust.is_terminal:
            break
        action_id = choose_action(ids, rng, pass_bias)
        action = action_form(action_id, rust, rng)
        rust.apply(action)
        ref.apply(action)
    same_match(rust, ref)
    assert rust.winner is not None
    history_rust, history_ref = rust.history, ref.history
    assert [h.to_json() for h in history_rust] == [h.to_json() for h in history_ref]
    assert [h.result for h in history_rust] == [h.result for h in history_ref]
    text = rust.to_json()
    assert text == ref.to_json()
    assert rust_engine.MatchState.from_json(ref.to_json()) == rust
    assert ref_engine.MatchState.from_json(text) == ref
