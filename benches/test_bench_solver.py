"""The double-dummy solver (docs/SOLVER.md): a full solve (the value of every first play) of
random deals the moment trump is named, one deal at a time on one thread, beside colver's
double-dummy solver on Belote (``Env.solve_scores``: the value of every legal card, 32 cards)
in the same run; and ``solve_many`` on two threads against one.

Per-deal times are taken one solve at a time (the median and the 99th percentile matter, not
a mean), so each benchmark runs one round; the figures are in ``extra_info`` and printed.
``SOLVER_BENCH_DEALS`` changes the number of deals (default 1 000). colver is optional
(the ``bench`` extra: ``pip install -e ".[bench]"``); its row is skipped when it is missing.
"""

from __future__ import annotations

import os
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import pytest
import tarabish as tb
from tarabish._actions import CALL_BASE

DEALS = int(os.environ.get("SOLVER_BENCH_DEALS", "1000"))
MANY_DEALS = max(20, DEALS // 10)
GROUP = f"solver: full solve at trick one, one thread ({DEALS:,} deals)"
GROUP_MANY = f"solver: solve_many, {MANY_DEALS} deals"


def trick_one_states(count: int, seed: int = 2026) -> list[tb.HandState]:
    """``count`` random deals, a random trump called by eldest: nine tricks to play."""
    rng = random.Random(seed)
    states = []
    for index in range(count):
        state = tb.HandState(index % 4, seed=rng.getrandbits(63))
        state.apply(CALL_BASE + rng.randrange(4))
        states.append(state)
    return states


def per_call(benchmark: Any, items: list[Any], solve: Callable[[Any], Any]) -> list[Any]:
    """Times ``solve`` on each item; records median and 99th percentile (ms) in extra_info."""
    times: list[float] = []
    results: list[Any] = []

    def run() -> None:
        for item in items:
            start = time.perf_counter()
            results.append(solve(item))
            times.append(time.perf_counter() - start)

    benchmark.pedantic(run, rounds=1, iterations=1)
    times.sort()
    benchmark.extra_info["median_ms"] = statistics.median(times) * 1e3
    benchmark.extra_info["p99_ms"] = times[round(0.99 * (len(times) - 1))] * 1e3
    print(
        f"\n{benchmark.extra_info['engine']}: median {benchmark.extra_info['median_ms']:.2f} ms,"
        f" p99 {benchmark.extra_info['p99_ms']:.2f} ms over {len(times)} deals"
    )
    return results


MEDIANS: dict[str, float] = {}


@pytest.mark.benchmark(group=GROUP)
def test_full_solve_tarabish(benchmark: Any) -> None:
    benchmark.extra_info["engine"] = "tarabish"
    states = trick_one_states(DEALS)
    solutions = per_call(benchmark, states, tb.solve)
    for state, solution in zip(states, solutions, strict=True):
        assert solution.points_left == 162  # R1.4: everything still to win
        assert solution.value == max(solution.values.values()) <= 162
        assert sorted(solution.values) == state.legal_action_ids()
    MEDIANS["tarabish"] = benchmark.extra_info["median_ms"]


@pytest.mark.benchmark(group=GROUP)
def test_full_solve_colver(benchmark: Any) -> None:
    colver = pytest.importorskip("colver")
    benchmark.extra_info["engine"] = "colver"
    rng = random.Random(2026)
    envs = []
    for index in range(DEALS):
        env = colver.Env.deal(dealer=index % 4, seed=rng.getrandbits(31))
        env.set_contract(rng.randrange(4), 80, index % 2, 0)
        env.set_phase_playing()
        envs.append(env)
    results = per_call(benchmark, envs, lambda env: env.solve_scores())
    for env, result in zip(envs, results, strict=True):
        assert sorted(card for card, _ in result["scores"]) == sorted(env.legal_actions())
    MEDIANS["colver"] = benchmark.extra_info["median_ms"]
    if "tarabish" in MEDIANS:
        ratio = MEDIANS["colver"] / MEDIANS["tarabish"]
        benchmark.extra_info["colver_over_tarabish"] = ratio
        print(f"colver median / tarabish median: {ratio:.2f} (target: at least 2)")


@pytest.mark.benchmark(group=GROUP_MANY)
@pytest.mark.parametrize("threads", [1, 2])
def test_solve_many_threads(benchmark: Any, threads: int) -> None:
    benchmark.extra_info["engine"] = f"{threads} thread{'s' if threads > 1 else ''}"
    states = trick_one_states(MANY_DEALS, seed=7)
    solutions = benchmark.pedantic(lambda: tb.solve_many(states, threads), rounds=1)
    assert solutions == [tb.solve(state) for state in states[:5]] + solutions[5:]
    MEDIANS[f"many{threads}"] = benchmark.stats.stats.median
    if threads == 2 and "many1" in MEDIANS:
        speedup = MEDIANS["many1"] / MEDIANS["many2"]
        benchmark.extra_info["speedup"] = speedup
        print(f"\nsolve_many: 2 threads {speedup:.2f}x one thread (target: at least 1.8x)")
