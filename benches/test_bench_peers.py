"""Peers measured beside tarabish in one run: random hands (games) per second.

Optional: a peer that is not installed is skipped (``pytest.importorskip``); the peers are not
dependencies of the project. Install them into the environment to compare::

    pip install -e ".[bench]"   (colver; OpenSpiel comes with the test extra)

- OpenSpiel (``open-spiel``, import ``pyspiel``): its ``euchre`` game. One OpenSpiel game of
  euchre is one deal (a hand), with the deal itself made of chance nodes (uniform outcomes).
- colver (a Belote Contree engine in Rust): ``Env.deal(dealer, seed)``, ``legal_actions`` +
  ``step``, and ``Env.rollout(n)`` (``n`` random playouts, auction included, from a state).

Three groups, each row a different engine playing random hands with uniform random choices:

- a Python loop of "legal actions + apply" per decision;
- one Python call per hand (``tarabish.play_random_hand``, ``pyspiel.evaluate_bots`` with
  uniform random bots, colver ``Env.deal`` + ``rollout(1)``);
- a batch played in native code on one thread (``tarabish.simulate(threads=1)``, colver
  ``rollout(n)``; OpenSpiel has no such batch call).

The games differ (Tarabish 36 cards and up to 40 decisions, euchre 24 cards and 22 chance nodes
plus about 21 decisions, Belote 32 cards and 32 plays plus the auction), so the figures compare
the engines' overheads, not equal work.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

import pytest
import tarabish

LOOP_HANDS = 200
CALL_HANDS = 1_000
BATCH_HANDS = 100_000
BATCH_ROUNDS = 5

GROUP_LOOP = f"peers: Python loop of legal actions + apply ({LOOP_HANDS} hands a round)"
GROUP_CALL = f"peers: one Python call per hand ({CALL_HANDS:,} hands a round)"
GROUP_BATCH = f"peers: native batch on one thread ({BATCH_HANDS:,} hands a round)"


def _choices(seed: int, count: int) -> list[int]:
    rng = random.Random(seed)
    return [rng.getrandbits(30) for _ in range(count)]


def _label(benchmark: Any, name: str) -> None:
    benchmark.extra_info["engine"] = name
    benchmark.extra_info["label"] = name


def _check_tarabish(state: Any) -> None:
    result = state.result
    assert state.is_terminal and result is not None
    runs = result.runs.points if result.runs is not None else 0
    bella = 20 if result.bella is not None else 0
    assert sum(result.points) == 162 + runs + bella  # R6.1


def _check_euchre(returns: list[float]) -> None:
    assert len(returns) == 4
    assert returns[0] == returns[2] and returns[1] == returns[3]  # partners share a score
    assert returns[0] == -returns[1] != 0


# --- a Python loop of legal actions + apply ------------------------------------------------


@pytest.mark.benchmark(group=GROUP_LOOP)
def test_loop_tarabish(benchmark: Any, rate: Callable[[int], None]) -> None:
    _label(benchmark, "tarabish")
    picks = [_choices(seed, 40) for seed in range(LOOP_HANDS)]

    def play() -> list[Any]:
        finished = []
        for seed in range(LOOP_HANDS):
            state, choice, k = tarabish.HandState(seed=seed), picks[seed], 0
            while not state.is_terminal:
                ids = state.legal_action_ids()
                state.apply(ids[choice[k] % len(ids)])
                k += 1
            finished.append(state)
        return finished

    finished = benchmark(play)
    rate(LOOP_HANDS)
    for state in finished:
        _check_tarabish(state)


@pytest.mark.benchmark(group=GROUP_LOOP)
def test_loop_openspiel_euchre(benchmark: Any, rate: Callable[[int], None]) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    _label(benchmark, "openspiel euchre")
    game = pyspiel.load_game("euchre")
    picks = [_choices(seed, game.max_history_length()) for seed in range(LOOP_HANDS)]

    def play() -> list[list[float]]:
        returns = []
        for choice in picks:
            state, k = game.new_initial_state(), 0
            while not state.is_terminal():
                # Chance nodes too: euchre's chance outcomes (the deal) are uniform.
                actions = state.legal_actions()
                state.apply_action(actions[choice[k] % len(actions)])
                k += 1
            returns.append(state.returns())
        return returns

    for returns in benchmark(play):
        _check_euchre(returns)
    rate(LOOP_HANDS)


@pytest.mark.benchmark(group=GROUP_LOOP)
def test_loop_colver(benchmark: Any, rate: Callable[[int], None]) -> None:
    colver = pytest.importorskip("colver")
    _label(benchmark, "colver")
    picks = [_choices(seed, 200) for seed in range(LOOP_HANDS)]

    def play() -> list[Any]:
        finished = []
        for seed in range(LOOP_HANDS):
            env, choice, k = colver.Env.deal(dealer=seed % 4, seed=seed), picks[seed], 0
            while not env.is_terminal():
                actions = env.legal_actions()
                env.step(actions[choice[k] % len(actions)])
                k += 1
            finished.append(env)
        return finished

    for env in benchmark(play):
        # Card points and last trick make 162; a capot (every trick) scores 252.
        assert env.is_terminal() and sum(env.get_points()) in (162, 252)
    rate(LOOP_HANDS)


# --- one Python call per hand --------------------------------------------------------------


@pytest.mark.benchmark(group=GROUP_CALL)
def test_call_tarabish(benchmark: Any, rate: Callable[[int], None]) -> None:
    _label(benchmark, "tarabish play_random_hand")

    def play() -> list[Any]:
        return [tarabish.play_random_hand(seed, seed % 4) for seed in range(CALL_HANDS)]

    finished = benchmark(play)
    rate(CALL_HANDS)
    for state in finished:
        _check_tarabish(state)


@pytest.mark.benchmark(group=GROUP_CALL)
def test_call_openspiel_evaluate_bots(benchmark: Any, rate: Callable[[int], None]) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    if not hasattr(pyspiel, "evaluate_bots") or not hasattr(pyspiel, "make_uniform_random_bot"):
        pytest.skip("this pyspiel has no evaluate_bots / make_uniform_random_bot")
    _label(benchmark, "openspiel euchre evaluate_bots")
    game = pyspiel.load_game("euchre")
    bots = [pyspiel.make_uniform_random_bot(player, 1 + player) for player in range(4)]

    def play() -> list[list[float]]:
        return [
            pyspiel.evaluate_bots(game.new_initial_state(), bots, seed)
            for seed in range(CALL_HANDS)
        ]

    for returns in benchmark(play):
        _check_euchre(returns)
    rate(CALL_HANDS)


@pytest.mark.benchmark(group=GROUP_CALL)
def test_call_colver_rollout(benchmark: Any, rate: Callable[[int], None]) -> None:
    colver = pytest.importorskip("colver")
    _label(benchmark, "colver deal + rollout(1)")

    def play() -> list[Any]:
        return [
            colver.Env.deal(dealer=seed % 4, seed=seed).rollout(1) for seed in range(CALL_HANDS)
        ]

    for rewards in benchmark(play):
        assert len(rewards) == 2 and all(math.isfinite(r) and r >= 0 for r in rewards)
    rate(CALL_HANDS)


# --- a batch in native code, one thread ----------------------------------------------------


@pytest.mark.benchmark(group=GROUP_BATCH)
def test_batch_tarabish(benchmark: Any, rate: Callable[[int], None]) -> None:
    _label(benchmark, "tarabish simulate(threads=1)")
    summary = benchmark.pedantic(
        tarabish.simulate,
        kwargs={"hands": BATCH_HANDS, "seed": 5, "threads": 1},
        rounds=BATCH_ROUNDS,
    )
    rate(BATCH_HANDS)
    assert summary.hands == BATCH_HANDS
    assert summary.made + summary.bait + summary.half_bait + summary.void == BATCH_HANDS


@pytest.mark.benchmark(group=GROUP_BATCH)
def test_batch_colver_rollout(benchmark: Any, rate: Callable[[int], None]) -> None:
    colver = pytest.importorskip("colver")
    _label(benchmark, "colver rollout(n)")
    env = colver.Env.deal(dealer=0, seed=5)
    rewards = benchmark.pedantic(env.rollout, args=(BATCH_HANDS,), rounds=BATCH_ROUNDS)
    rate(BATCH_HANDS)
    # The mean rewards of random playouts of one deal: the auction is random too, so both teams
    # score on average.
    assert len(rewards) == 2 and all(math.isfinite(r) and r > 0 for r in rewards)
    assert env.phase() == 0 and not env.is_terminal()  # rollouts leave the state as it was
