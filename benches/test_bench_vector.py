"""The vectorized environment and self-play data against the loops a learner would otherwise
write, in one run (docs/RL.md).

- ``vector: one thread``: steps a second at 1,000 games, each step a decision in every game
  whose action is the first legal id of the mask (numpy's ``argmax``, the stand-in policy,
  part of the timed round; the note also gives the environment's own rate, ``step`` alone):
  ``VectorEnv(encoding="compact")`` and ``"tensor"`` on one thread; the best Python loop over
  1,000 ``HandState`` (seat to move, ``information_state_tensor``, ``legal_action_ids``, a mask,
  ``apply``, a new hand at the end); OpenSpiel's euchre (C++) driven the same way from Python
  (``information_state_tensor``, ``legal_actions``, ``apply_action``, chance nodes included)
  when ``pyspiel`` is installed. The note gives the thread's CPU-time rate (``time.thread_time``,
  less sensitive to a loaded machine) and each row's ratio to the Python loop.
- ``vector: two threads``: the same with ``threads=2``. The note gives the ratio to one thread
  of ``step`` alone by wall time, from rounds that alternate between a one-thread and a
  two-thread environment (so other work on the machine weighs on both alike), and the ratio of
  the whole rounds (the policy's ``argmax`` on the calling thread included). The control row
  is ``simulate`` (random hands, no step barriers) on two threads against one, alternating in
  the same way: it shows how much a second thread can give at all on the machine now.
- ``self_play``: decisions a second, random bots, compact rows, one thread; checked against
  ``simulate``'s totals.

Every round checks its result: the hands ended, and the last observation of a game equals the
scalar API's tensor of ``env.state``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import tarabish
from tarabish.vector import VectorEnv, unpack

ENVS = 1_000
VECTOR_STEPS = 100
LOOP_STEPS = 4
ROUNDS = 5
# Alternating rounds of the two-thread ratios: the ratio of one pair of rounds moves by a
# fifth from pair to pair on a busy host, so its median needs more of them than the timings.
RATIO_ROUNDS = 21
CONTROL_HANDS = 50_000
SELF_PLAY_HANDS = 20_000

GROUP_ONE = f"vector: {ENVS:,} games, one thread ({VECTOR_STEPS} steps a round)"
GROUP_TWO = f"vector: {ENVS:,} games, two threads ({VECTOR_STEPS} steps a round)"
GROUP_SELF_PLAY = f"self_play: {SELF_PLAY_HANDS:,} hands, random bots, one thread"

# Steps a second of each row, by label, for the ratios in the notes.
RATES: dict[str, float] = {}
PYTHON_LOOP = "python loop over HandState"


# The thread CPU time spent in ``VectorEnv.step`` alone, by label, over the timed rounds.
STEP_SECONDS: dict[str, float] = {}
# The wall time of the last round of ``_drive`` in ``step`` alone and in all.
LAST_ROUND: dict[str, float] = {}


def _drive(env: VectorEnv, steps: int, label: str = "") -> int:
    round_start = time.perf_counter()
    obs, _ = env.reset(seed=1)
    hands = 0
    spent = 0.0
    wall = 0.0
    for _ in range(steps):
        actions = obs["action_mask"].argmax(axis=1)
        start, wall_start = time.thread_time(), time.perf_counter()
        obs, _, _, _, infos = env.step(actions)
        spent += time.thread_time() - start
        wall += time.perf_counter() - wall_start
        hands += int(infos["_score"].sum())
    STEP_SECONDS[label] = STEP_SECONDS.get(label, 0.0) + spent
    LAST_ROUND.update(step=wall, whole=time.perf_counter() - round_start)
    return hands


def _median(values: list[float]) -> float:
    return sorted(values)[len(values) // 2]


def _check_vector(env: VectorEnv, hands: int, steps: int) -> None:
    # Each game's hand is at most 40 decisions (R3, R5) and one step starts the next.
    assert hands >= ENVS * (steps // 41)
    obs = env._obs
    seat = int(obs["seat"][0])
    row = obs["observation"][0]
    tensor = unpack(row) if env.encoding == "compact" else row
    assert np.array_equal(tensor, env.state(0).information_state_tensor(seat))


def _note(
    benchmark: Any, label: str, cpu_rate: float, baseline: str | None, step_rate: float = 0.0
) -> None:
    median = benchmark.stats.stats.median if benchmark.stats else 0.0
    if median <= 0:
        return
    rate = benchmark.extra_info["hands_per_second"]
    RATES[label] = rate
    RATES[label + " cpu"] = cpu_rate
    note = f"CPU time {cpu_rate / 1e6:.2f} M/s"
    if step_rate:
        note += f", step alone {step_rate / 1e6:.2f} M/s"
    if baseline is not None and baseline in RATES:
        base = RATES[baseline + " cpu"]
        note += f"; CPU: {cpu_rate / base:.1f}x {baseline}"
        if step_rate:
            note += f" ({step_rate / base:.1f}x step alone)"
    benchmark.extra_info["note"] = note


def _cpu_rate(play: Callable[[], Any], count: int) -> float:
    start = time.thread_time()
    play()
    return count / (time.thread_time() - start)


@pytest.mark.benchmark(group=GROUP_ONE)
def test_python_loop_over_hand_states(benchmark: Any, rate: Callable[..., None]) -> None:
    benchmark.extra_info["label"] = PYTHON_LOOP
    mask = np.zeros(46, dtype=np.int8)

    def play() -> int:
        states = [tarabish.HandState(i % 4, seed=i) for i in range(ENVS)]
        hands = 0
        for _ in range(LOOP_STEPS):
            for i, state in enumerate(states):
                seat = state.to_move
                state.information_state_tensor(seat)
                ids = state.legal_action_ids()
                mask[:] = 0
                mask[ids] = 1
                state.apply(ids[0])
                if state.is_terminal:
                    hands += 1
                    states[i] = tarabish.HandState(0, seed=hands)
        return len(states)

    assert benchmark.pedantic(play, rounds=ROUNDS, iterations=1) == ENVS
    rate(ENVS * LOOP_STEPS, "steps")
    _note(benchmark, PYTHON_LOOP, _cpu_rate(play, ENVS * LOOP_STEPS), None)


@pytest.mark.benchmark(group=GROUP_ONE)
def test_python_loop_over_openspiel_euchre(benchmark: Any, rate: Callable[..., None]) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    label = "python loop over openspiel euchre"
    benchmark.extra_info["label"] = label
    game = pyspiel.load_game("euchre")
    rng = random.Random(0)

    def play() -> int:
        states = [game.new_initial_state() for _ in range(ENVS)]
        decisions = 0
        while decisions < ENVS * LOOP_STEPS:
            for i, state in enumerate(states):
                while state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                state.information_state_tensor()
                actions = state.legal_actions()
                state.apply_action(actions[0])
                decisions += 1
                if state.is_terminal():
                    assert sum(state.returns()) == 0
                    states[i] = game.new_initial_state()
        return decisions

    assert benchmark.pedantic(play, rounds=ROUNDS, iterations=1) >= ENVS * LOOP_STEPS
    rate(ENVS * LOOP_STEPS, "steps")
    _note(benchmark, label, _cpu_rate(play, ENVS * LOOP_STEPS), PYTHON_LOOP)


@pytest.mark.parametrize("encoding", ["compact", "tensor"])
@pytest.mark.benchmark(group=GROUP_ONE)
def test_vector_one_thread(benchmark: Any, rate: Callable[..., None], encoding: str) -> None:
    label = f"VectorEnv {encoding}"
    benchmark.extra_info["label"] = label
    env = VectorEnv(ENVS, encoding=encoding, threads=1)
    hands = benchmark.pedantic(_drive, args=(env, VECTOR_STEPS, label), rounds=ROUNDS, iterations=1)
    _check_vector(env, hands, VECTOR_STEPS)
    rate(ENVS * VECTOR_STEPS, "steps")
    cpu = _cpu_rate(lambda: _drive(env, VECTOR_STEPS), ENVS * VECTOR_STEPS)
    step_rate = ROUNDS * ENVS * VECTOR_STEPS / STEP_SECONDS[label]
    _note(benchmark, label, cpu, PYTHON_LOOP, step_rate)


@pytest.mark.parametrize("encoding", ["compact", "tensor"])
@pytest.mark.benchmark(group=GROUP_TWO)
def test_vector_two_threads(benchmark: Any, rate: Callable[..., None], encoding: str) -> None:
    label = f"VectorEnv {encoding}, 2 threads"
    benchmark.extra_info["label"] = label
    env = VectorEnv(ENVS, encoding=encoding, threads=2)
    hands = benchmark.pedantic(_drive, args=(env, VECTOR_STEPS, label), rounds=ROUNDS, iterations=1)
    _check_vector(env, hands, VECTOR_STEPS)
    rate(ENVS * VECTOR_STEPS, "steps")
    one_thread = VectorEnv(ENVS, encoding=encoding, threads=1)
    step_ratios, whole_ratios = [], []
    for _ in range(RATIO_ROUNDS):
        _drive(one_thread, VECTOR_STEPS)
        one = dict(LAST_ROUND)
        _drive(env, VECTOR_STEPS)
        step_ratios.append(one["step"] / LAST_ROUND["step"])
        whole_ratios.append(one["whole"] / LAST_ROUND["whole"])
    benchmark.extra_info["note"] = (
        f"{_median(step_ratios):.2f}x one thread, step alone (wall); "
        f"{_median(whole_ratios):.2f}x with the argmax"
    )


@pytest.mark.benchmark(group=GROUP_TWO)
def test_simulate_two_threads_control(benchmark: Any, rate: Callable[..., None]) -> None:
    benchmark.extra_info["label"] = "control: simulate, 2 threads"
    hands = 200_000

    def play(threads: int) -> Any:
        return tarabish.simulate(hands=hands, seed=2, bots="random", threads=threads)

    two = benchmark.pedantic(play, args=(2,), rounds=ROUNDS, iterations=1)
    rate(hands, "hands")
    assert play(1).counts() == two.counts()
    ratios = []
    for _ in range(RATIO_ROUNDS):
        start = time.perf_counter()
        one = tarabish.simulate(hands=CONTROL_HANDS, seed=2, bots="random", threads=1)
        middle = time.perf_counter()
        both = tarabish.simulate(hands=CONTROL_HANDS, seed=2, bots="random", threads=2)
        ratios.append((middle - start) / (time.perf_counter() - middle))
        assert both.counts() == one.counts()
    benchmark.extra_info["note"] = f"{_median(ratios):.2f}x one thread (alternating)"


@pytest.mark.benchmark(group=GROUP_SELF_PLAY)
def test_self_play(benchmark: Any, rate: Callable[..., None]) -> None:
    benchmark.extra_info["label"] = "self_play compact"

    def play() -> Any:
        return tarabish.self_play(SELF_PLAY_HANDS, "random", seed=5, threads=1)

    data = benchmark.pedantic(play, rounds=ROUNDS, iterations=1)
    decisions = len(data.action)
    rate(decisions, "decisions")
    summary = tarabish.simulate(hands=SELF_PLAY_HANDS, seed=5, bots="random", threads=1)
    first = np.flatnonzero(np.diff(data.hand, prepend=-1))
    assert tuple(data.score[first].sum(axis=0)) == summary.score_by_team
    _note(benchmark, "self_play", _cpu_rate(play, decisions), None)
