"""Batches on a Ray cluster (python/tarabish/_ray.py, extra ``ray``): a local Ray instance of two
CPUs, started by the test, plays ranges of games (simulate) and of duplicate pairs (tournaments);
the counts equal the local run's for the same seed, because game i always uses seed
derive(seed, i) and dealer i % 4 (docs/ENGINE.md)."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from itertools import pairwise
from typing import Any

import pytest
import ray
import tarabish as tb
from tarabish._ray import RANGES_PER_CPU, ranges
from terminal import run_tarabish


@pytest.mark.parametrize(("total", "cpus"), [(0, 2), (1, 2), (7, 2), (1000, 3), (5, 0)])
def test_ranges_cover_the_batch_in_order(total: int, cpus: int) -> None:
    parts = ranges(total, cpus)
    assert parts[0][0] == 0 and parts[-1][1] == total
    assert all(a[1] == b[0] for a, b in pairwise(parts))
    assert len(parts) <= RANGES_PER_CPU * max(1, cpus)
    assert total == 0 or all(stop > start for start, stop in parts)


def test_without_the_extra_the_message_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # what `import ray` meets without the extra
    with pytest.raises(tb.InvalidInputError, match=r"pip install 'tarabish\[ray\]'"):
        tb.simulate(hands=10, ray_address="auto")
    with pytest.raises(tb.InvalidInputError, match=r"pip install 'tarabish\[ray\]'"):
        tb.tournament("greedy", "random", 10, ray_address="auto")


USAGE_STATS = "RAY_USAGE_STATS_ENABLED"


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """A fresh local Ray instance on loopback with two CPUs; its address for other processes.
    Ray's usage statistics (sent to its makers by default) stay off, here and in the command
    lines started from this process, which inherit the environment."""
    saved = os.environ.get(USAGE_STATS)
    os.environ[USAGE_STATS] = "0"
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield ray.get_runtime_context().gcs_address
    finally:
        ray.shutdown()
        if saved is None:
            del os.environ[USAGE_STATS]
        else:
            os.environ[USAGE_STATS] = saved


# One test for everything that needs the cluster, so that parallel test workers do not each start
# a Ray instance (a few seconds each).
def test_ray_runs_equal_local_runs(cluster: str) -> None:
    rules = tb.Rules(forced_at=400, dealer_may_pass=True)
    for games, seed, bots in [
        ({"hands": 30_001}, 9, ("greedy", "random")),
        ({"matches": 301}, 2**64 - 1, ("random",)),
    ]:
        seen: list[tuple[int, int]] = []
        remote = tb.simulate(
            **games,
            seed=seed,
            bots=bots,
            rules=rules,
            ray_address=cluster,
            progress=lambda done, total, seen=seen: seen.append((done, total)),
        )
        local = tb.simulate(**games, seed=seed, bots=bots, rules=rules)
        assert remote.counts() == local.counts()
        assert remote.threads == 2  # the cluster's CPUs
        total = next(iter(games.values()))
        assert seen[-1] == (total, total) and len(seen) == len(ranges(total, 2))
    assert tb.simulate(hands=0, ray_address=cluster).hands == 0

    # Bad arguments are refused here, before anything goes to the cluster.
    with pytest.raises(tb.InvalidInputError, match="seed"):
        tb.simulate(hands=10, seed=2**64, ray_address=cluster)

    remote_tournament = tb.tournament("greedy", "random", 203, seed=3, ray_address=cluster)
    local_tournament = tb.tournament("greedy", "random", 203, seed=3)
    assert remote_tournament.counts() == local_tournament.counts()
    assert remote_tournament.threads == 2

    # The command line connects to the same cluster by its address.
    summary = cli("simulate", "--hands", "20000", "--seed", "4", "--ray", cluster)
    expected = tb.simulate(hands=20000, seed=4).counts()
    assert {key: summary[key] for key in expected} == expected
    shown = cli("tournament", "greedy", "random", "--deals", "100", "--ray", cluster)
    expected = tb.tournament("greedy", "random", 100).counts()
    assert {key: shown[key] for key in expected} == expected


def cli(*args: str) -> Any:
    """The JSON that ``tarabish ARGS --json`` prints."""
    done = run_tarabish(*args, "--json", "--no-progress")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)
