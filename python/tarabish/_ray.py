"""Batches on a Ray cluster (optional extra ``ray``: ``pip install tarabish[ray]``).

A batch of games ``0 .. total - 1`` is cut into contiguous ranges; each Ray task plays one
range in the Rust core of the node it lands on, one core a task (Ray starts as many tasks a
node as it has CPUs), and returns exact integer counts. Game ``i`` depends only on the batch
seed and ``i`` (seed ``derive(seed, i)``, dealer ``i % 4``, docs/ENGINE.md), and the counts are
summed, so the result equals the local run's for the same seed, whatever the cluster.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from itertools import pairwise
from typing import Any, TypeVar

from ._errors import InvalidInputError

Counts = TypeVar("Counts")

# Ranges a CPU: enough for an even finish on a busy cluster and a progress bar that moves,
# few enough that the per-task overhead (about a millisecond) stays small.
RANGES_PER_CPU = 4


def connect(address: str) -> Any:
    """The ``ray`` module, connected: to ``address`` (``ray.init(address=...)``: "host:port",
    "auto", "ray://host:port", or "local" for a new single-machine instance) unless this process
    is already connected, in which case that connection is kept."""
    try:
        import ray
    except ImportError:
        raise InvalidInputError(
            "running on a Ray cluster needs the ray extra: pip install 'tarabish[ray]'"
        ) from None
    if not ray.is_initialized():
        try:
            ray.init(address=address, logging_level=logging.WARNING, log_to_driver=False)
        except (ConnectionError, ValueError, RuntimeError) as error:
            raise InvalidInputError(
                f"cannot connect to the Ray cluster at {address!r}: {error}"
            ) from error
    return ray


def ranges(total: int, cpus: int) -> list[tuple[int, int]]:
    """``0 .. total`` cut into at most ``RANGES_PER_CPU * cpus`` contiguous, nearly equal
    ranges, in order (none empty; one empty range for an empty batch)."""
    parts = max(1, min(total, RANGES_PER_CPU * max(1, cpus)))
    bounds = [total * k // parts for k in range(parts + 1)]
    return list(pairwise(bounds))


def run(
    address: str,
    play: Callable[[int, int], Counts],
    total: int,
    add: Callable[[Counts, Counts], Counts],
    progress: Callable[[int, int], None] | None = None,
) -> tuple[Counts, int]:
    """Plays games ``0 .. total`` as ``play(start, stop)`` tasks on the cluster at ``address``
    and returns the summed counts and the number of CPUs the cluster had. ``play`` must be a
    picklable callable (module-level functions and classes of the tarabish package, which
    every node imports).
    ``progress(done, total)`` is called as ranges finish."""
    ray = connect(address)
    cpus = int(ray.cluster_resources().get("CPU", 1))
    task = ray.remote(num_cpus=1, max_retries=0)(_play_range)
    pending = {task.remote(play, start, stop): stop - start for start, stop in ranges(total, cpus)}
    totals: Counts | None = None
    done = 0
    while pending:
        finished, _ = ray.wait(list(pending), num_returns=1)
        for ref in finished:
            part = ray.get(ref)
            totals = part if totals is None else add(totals, part)
            done += pending.pop(ref)
        if progress is not None:
            progress(done, total)
    assert totals is not None, "ranges() returns at least one range"
    return totals, cpus


def _play_range(play: Callable[[int, int], Counts], start: int, stop: int) -> Counts:
    """The body of a Ray task (Ray takes functions, not ``functools.partial`` objects)."""
    return play(start, stop)
