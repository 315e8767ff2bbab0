"""Whole hands per second, and the per-call cost of the game API from Python.

1. ``tarabish.simulate``: random hands inside Rust, one thread and every thread (``threads=0``);
   the two summaries must be equal and count every hand once.
2. The same with the ``greedy`` bots.
3. A Python loop of ``legal_action_ids()`` + ``apply()`` playing random hands on the Rust core;
4. the same loop, with the same choices, on the reference: every hand must end with the same
   ``to_json`` as on the Rust core, and every result must count 162 + runs + bella (R6.1).
5. The per-call cost of ``HandState`` methods on one mid-hand state, Rust beside reference
   (``legal_action_ids``, ``clone``, ``apply``, ``observation``, ``information_state_tensor``,
   the constructor, ``legal_actions`` and ``to_json``).

Hands per second go to ``benchmark.extra_info["hands_per_second"]`` and the summary at the end.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest
import tarabish
from engines import on_each_engine, on_the_other
from tarabish import TENSOR_SIZE, HandResult

# --- 1, 2: tarabish.simulate -----------------------------------------------------------------

SIM_SEED = 20_240_601
SIM_HANDS = {"random": 200_000, "greedy": 100_000}
SIM_ROUNDS = 5


@pytest.fixture(scope="module")
def simulate_counts() -> Callable[[str], dict[str, Any]]:
    """The exact counts of each batch, worked out once (outside the timing) on every thread."""
    cache: dict[str, dict[str, Any]] = {}

    def counts(bots: str) -> dict[str, Any]:
        if bots not in cache:
            cache[bots] = tarabish.simulate(
                hands=SIM_HANDS[bots], seed=SIM_SEED, bots=bots, threads=0
            ).counts()
        return cache[bots]

    return counts


def _check_summary(summary: tarabish.Summary, hands: int) -> None:
    assert summary.hands == hands
    assert summary.made + summary.bait + summary.half_bait + summary.void == hands
    played = hands - summary.void
    # Every played hand deals out 162 in cards and last (R1.4), and its count is 162 + runs +
    # bella (R6.1); nothing is lost between seats and teams.
    assert sum(summary.trick_points_by_seat) == 162 * played
    assert sum(summary.points_by_team) == (
        162 * played + summary.run_points + 20 * summary.hands_with_bella
    )
    assert sum(summary.calls_by_seat) == played


@pytest.mark.parametrize("threads", [1, 0], ids=["1 thread", "all threads"])
@pytest.mark.parametrize("bots", ["random", "greedy"])
def test_simulate(
    benchmark: Any,
    rate: Callable[[int], None],
    simulate_counts: Callable[[str], dict[str, Any]],
    bots: str,
    threads: int,
) -> None:
    hands = SIM_HANDS[bots]
    benchmark.group = f"simulate, {bots} bots (Rust, {hands:,} hands a round)"
    benchmark.extra_info["label"] = f"threads={threads}"
    summary = benchmark.pedantic(
        tarabish.simulate,
        kwargs={"hands": hands, "seed": SIM_SEED, "bots": bots, "threads": threads},
        rounds=SIM_ROUNDS,
    )
    rate(hands)
    _check_summary(summary, hands)
    assert summary.counts() == simulate_counts(bots), "threads do not change the summary"


SMALL_BATCH = 200


@pytest.mark.parametrize("threads", [1, 0], ids=["1 thread", "all threads"])
def test_simulate_small_batch(benchmark: Any, rate: Callable[[int], None], threads: int) -> None:
    """The per-call cost of a small batch: one call into the core (no chunks without a progress
    callback; the thread pool is kept between calls)."""
    benchmark.group = f"simulate, random bots (Rust, {SMALL_BATCH} hands a call)"
    benchmark.extra_info["label"] = f"threads={threads}"
    summary = benchmark(tarabish.simulate, hands=SMALL_BATCH, seed=SIM_SEED, threads=threads)
    rate(SMALL_BATCH)
    _check_summary(summary, SMALL_BATCH)
    serial = tarabish.simulate(hands=SMALL_BATCH, seed=SIM_SEED, threads=1)
    assert summary.counts() == serial.counts(), "threads do not change the summary"


# --- 3, 4: a Python loop of legal_action_ids + apply ---------------------------------------

LOOP_HANDS = 200
MAX_DECISIONS = 40  # at most 4 auction actions and 36 plays


def _choices(seed: int) -> list[int]:
    rng = random.Random(seed)
    return [rng.getrandbits(30) for _ in range(MAX_DECISIONS)]


LOOP_SEEDS = list(range(LOOP_HANDS))
LOOP_CHOICES = [_choices(seed) for seed in LOOP_SEEDS]


def play_hands(engine: ModuleType, seeds: list[int], choices: list[list[int]]) -> list[Any]:
    """Plays hand seed ``seeds[i]`` taking, at decision ``k``, legal id ``choices[i][k] % n``."""
    state_type = engine.HandState
    finished = []
    for seed, picks in zip(seeds, choices, strict=True):
        state = state_type(seed=seed)
        k = 0
        while not state.is_terminal:
            ids = state.legal_action_ids()
            state.apply(ids[picks[k] % len(ids)])
            k += 1
        finished.append(state)
    return finished


def count_of(result: HandResult) -> int:
    """162 + runs + bella (R6.1)."""
    runs = result.runs.points if result.runs is not None else 0
    bella = 20 if result.bella is not None else 0
    return 162 + runs + bella


@pytest.fixture(scope="module")
def rust_loop_json() -> list[str]:
    return [state.to_json() for state in play_hands(tarabish, LOOP_SEEDS, LOOP_CHOICES)]


@pytest.mark.benchmark(group=f"Python loop: legal_action_ids + apply ({LOOP_HANDS} hands a round)")
def test_python_loop(
    benchmark: Any,
    rate: Callable[[int], None],
    engine: ModuleType,
    rust_loop_json: list[str],
) -> None:
    finished = benchmark(play_hands, engine, LOOP_SEEDS, LOOP_CHOICES)
    rate(LOOP_HANDS)
    assert len(finished) == LOOP_HANDS
    for state in finished:
        assert state.is_terminal
        result = state.result
        assert result is not None
        assert sum(result.points) == count_of(result)
    assert [state.to_json() for state in finished] == rust_loop_json


# --- 5: the per-call cost of HandState methods ---------------------------------------------

MID_SEED = 77
MID_DEALER = 1
MID_ACTIONS = 15  # a call, three whole tricks and two cards of the fourth
# Each timed round makes many calls (at least 200 µs of them), so that the timer's cost is spread,
# and the calibration warms up first (else one slow first call means one call a round).
PER_CALL: dict[str, Any] = {"min_time": 2e-4, "warmup": True, "warmup_iterations": 2_000}


def mid_hand(engine: ModuleType) -> Any:
    """A state in the play: trump named, tricks taken, runs announced and a trick under way."""
    state = engine.HandState(MID_DEALER, seed=MID_SEED)
    for _ in range(MID_ACTIONS):
        state.apply(state.legal_action_ids()[0])
    return state


@pytest.fixture(scope="module")
def mid_states() -> dict[str, Any]:
    return on_each_engine(mid_hand)


@pytest.mark.benchmark(group="HandState(seed=...)", **PER_CALL)
def test_new_hand(benchmark: Any, engine: ModuleType) -> None:
    state = benchmark(engine.HandState, MID_DEALER, seed=MID_SEED)
    assert state.deal == tarabish.deal_cards(MID_SEED, MID_DEALER)
    assert state.to_move == (MID_DEALER + 1) % 4


@pytest.mark.benchmark(group="HandState.legal_action_ids", **PER_CALL)
def test_legal_action_ids(benchmark: Any, engine: ModuleType, mid_states: dict[str, Any]) -> None:
    state = mid_states[benchmark.extra_info["engine"]]
    ids = benchmark(state.legal_action_ids)
    seat = state.to_move
    # During the play the legal ids are the indices of the legal cards (R0, R5.1).
    trick = state.observation(seat).trick
    expected = tarabish.reference.legal_plays(state.hands[seat], trick, state.trump)
    assert ids == [card.index for card in expected]
    assert ids == on_the_other(engine, mid_states).legal_action_ids()


@pytest.mark.benchmark(group="HandState.legal_actions", **PER_CALL)
def test_legal_actions(benchmark: Any, engine: ModuleType, mid_states: dict[str, Any]) -> None:
    state = mid_states[benchmark.extra_info["engine"]]
    actions = benchmark(state.legal_actions)
    assert [action.id for action in actions] == state.legal_action_ids()
    assert all(action.seat == state.to_move for action in actions)
    assert actions == on_the_other(engine, mid_states).legal_actions()


def _clone_and_apply(state: Any, action_id: int) -> Any:
    child = state.clone()
    child.apply(action_id)
    return child


@pytest.mark.benchmark(group="HandState.clone + apply", **PER_CALL)
def test_apply(benchmark: Any, engine: ModuleType, mid_states: dict[str, Any]) -> None:
    """``apply`` on a fresh clone each call: subtract the ``clone`` group for apply alone."""
    state = mid_states[benchmark.extra_info["engine"]]
    action_id = state.legal_action_ids()[-1]
    child = benchmark(_clone_and_apply, state, action_id)
    assert len(child.actions) == MID_ACTIONS + 1 and len(state.actions) == MID_ACTIONS
    assert child.actions[-1].id == action_id
    assert (
        child.to_json() == _clone_and_apply(on_the_other(engine, mid_states), action_id).to_json()
    )


@pytest.mark.benchmark(group="HandState.clone", **PER_CALL)
def test_clone(benchmark: Any, engine: ModuleType, mid_states: dict[str, Any]) -> None:
    state = mid_states[benchmark.extra_info["engine"]]
    copy = benchmark(state.clone)
    assert copy == state and copy is not state


@pytest.mark.benchmark(group="HandState.observation", **PER_CALL)
def test_observation(benchmark: Any, engine: ModuleType, mid_states: dict[str, Any]) -> None:
    state = mid_states[benchmark.extra_info["engine"]]
    seat = state.to_move
    observation = benchmark(state.observation, seat)
    assert observation.seat == seat and observation.hand == state.hands[seat]
    assert len(observation.tricks) == (MID_ACTIONS - 1) // 4
    assert observation == on_the_other(engine, mid_states).observation(seat)


@pytest.mark.benchmark(group="HandState.information_state_tensor", **PER_CALL)
def test_information_state_tensor(
    benchmark: Any, engine: ModuleType, mid_states: dict[str, Any]
) -> None:
    state = mid_states[benchmark.extra_info["engine"]]
    seat = state.to_move
    tensor = benchmark(state.information_state_tensor, seat)
    assert tensor.dtype == np.float32 and tensor.shape == (TENSOR_SIZE,)
    assert tensor[seat] == 1.0 and tensor[11:47].sum() == len(state.hands[seat])
    assert np.array_equal(tensor, on_the_other(engine, mid_states).information_state_tensor(seat))


@pytest.mark.benchmark(group="HandState.to_json", **PER_CALL)
def test_to_json(benchmark: Any, engine: ModuleType, mid_states: dict[str, Any]) -> None:
    state = mid_states[benchmark.extra_info["engine"]]
    text = benchmark(state.to_json)
    assert text == on_the_other(engine, mid_states).to_json()
    assert engine.HandState.from_json(text) == state
