"""Duplicate tournaments and batches on Ray (docs/SEARCH.md).

1. ``tarabish.tournament("greedy", "random")`` on one thread and on every thread: the two results
   must be equal, every match has a winner (R7.1); matches per second in
   ``benchmark.extra_info["matches_per_second"]``.
2. The same with a Python bot (``act(observation, legal_ids)``) against greedy: the slower path.
3. Ray's overhead: the same ``simulate`` batch locally and on a local Ray instance of two CPUs
   (started outside the timing); the counts must be equal.
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from typing import Any

import pytest
import tarabish

SEED = 20_261_130
DEALS = 5_000
PYTHON_DEALS = 100
ROUNDS = 3
RAY_HANDS = 1_000_000


def _matches_per_second(benchmark: Any, matches: int) -> None:
    benchmark.extra_info["matches_per_second"] = matches / benchmark.stats.stats.median


@pytest.mark.parametrize("threads", [1, 0], ids=["1 thread", "all threads"])
def test_tournament(benchmark: Any, threads: int) -> None:
    benchmark.group = f"tournament, greedy against random ({DEALS:,} deals a round)"
    benchmark.extra_info["label"] = f"threads={threads}"
    result = benchmark.pedantic(
        tarabish.tournament,
        args=("greedy", "random", DEALS),
        kwargs={"seed": SEED, "threads": threads},
        rounds=ROUNDS,
    )
    _matches_per_second(benchmark, result.matches)
    assert sum(result.wins) == result.matches == 2 * DEALS  # R7.1: every match has a winner
    serial = tarabish.tournament("greedy", "random", DEALS, seed=SEED, threads=1)
    assert result.counts() == serial.counts(), "threads do not change the result"
    assert result.win_rate_interval[0] > 0.9  # greedy beats random


class RandomPythonBot:
    """A uniformly random legal action, from its own seeded generator."""

    def __init__(self) -> None:
        self.rng = random.Random(SEED)

    def act(self, observation: tarabish.Observation, legal_ids: list[int]) -> int:
        return self.rng.choice(legal_ids)


def test_tournament_with_a_python_bot(benchmark: Any) -> None:
    benchmark.group = f"tournament, a Python bot against greedy ({PYTHON_DEALS} deals a round)"
    result = benchmark.pedantic(
        lambda: tarabish.tournament(RandomPythonBot(), "greedy", PYTHON_DEALS, seed=SEED),
        rounds=ROUNDS,
    )
    _matches_per_second(benchmark, result.matches)
    assert sum(result.wins) == result.matches == 2 * PYTHON_DEALS
    assert result.win_rate < 0.3  # greedy beats random play from Python too


@pytest.fixture(scope="module")
def ray_cluster() -> Iterator[str]:
    ray = pytest.importorskip("ray")
    os.environ["RAY_USAGE_STATS_ENABLED"] = "0"  # no statistics sent to Ray's makers
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    tarabish.simulate(hands=100, ray_address="auto")  # the workers start outside the timing
    try:
        yield "auto"
    finally:
        ray.shutdown()


@pytest.mark.parametrize("where", ["local", "ray"])
def test_simulate_local_and_on_ray(benchmark: Any, ray_cluster: str, where: str) -> None:
    benchmark.group = f"simulate, random bots, local or on Ray ({RAY_HANDS:,} hands a round)"
    benchmark.extra_info["label"] = where
    address = ray_cluster if where == "ray" else None
    summary = benchmark.pedantic(
        tarabish.simulate,
        kwargs={"hands": RAY_HANDS, "seed": SEED, "ray_address": address},
        rounds=ROUNDS,
    )
    benchmark.extra_info["hands_per_second"] = RAY_HANDS / benchmark.stats.stats.median
    assert summary.counts() == tarabish.simulate(hands=RAY_HANDS, seed=SEED).counts()
