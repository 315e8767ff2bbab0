"""Running a batch of games ``0 .. total - 1`` (hands, matches or duplicate pairs) in the Rust
core: locally in chunks on every core, or as ranges on a Ray cluster (``_ray``). A range's
result is a dict of integer counts; counts of ranges add up, and game ``i`` depends only on the
batch seed and ``i``, so the total is the same in any chunking, on any threads or cluster."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Protocol

Counts = dict[str, Any]
"""Integer counts and sums by name; a value is an int or a list of ints."""

Progress = Callable[[int, int], None]
"""``progress(done, total)``, called as chunks or ranges finish."""


class PlayRange(Protocol):
    """Plays games ``start .. stop`` of one batch on ``threads`` threads (0: all cores): a
    ``functools.partial`` of ``_core.simulate`` or ``_core.tournament`` with the batch's
    arguments."""

    def __call__(self, *, start: int, stop: int, threads: int) -> Counts: ...


def add_counts(a: Counts, b: Counts) -> Counts:
    """The counts of two disjoint ranges of one batch, added key by key."""
    return {
        key: [x + y for x, y in zip(value, b[key], strict=True)]
        if isinstance(value, list)
        else value + b[key]
        for key, value in a.items()
    }


def run_batch(
    play: PlayRange,
    total: int,
    *,
    per_chunk: int,
    threads: int,
    progress: Progress | None,
    ray_address: str | None,
) -> tuple[Counts, int, float]:
    """Plays the whole batch: locally in chunks of ``per_chunk`` games with ``progress`` after
    each (in one call without ``progress``), or on the Ray cluster at ``ray_address``.
    Returns the counts, the threads used (the cluster's CPUs on Ray) and the seconds taken.
    The arguments are checked here first, by playing an empty range, so nothing bad is sent to
    a cluster."""
    totals = play(start=0, stop=0, threads=threads)
    start = time.perf_counter()
    if ray_address is not None:
        from . import _ray

        totals, threads = _ray.run(ray_address, _OnOneCore(play), total, add_counts, progress)
        return totals, threads, time.perf_counter() - start
    # Chunks only to report progress: without a callback the batch is one call (each call has
    # a fixed cost, and the core keeps its thread pool between calls anyway).
    chunk = per_chunk if progress is not None else max(1, total)
    done = 0
    while done < total:
        stop = min(total, done + chunk)
        totals = add_counts(totals, play(start=done, stop=stop, threads=threads))
        done = stop
        if progress is not None:
            progress(done, total)
    if progress is not None and total == 0:
        progress(0, 0)
    return totals, threads, time.perf_counter() - start


class _OnOneCore:
    """``play`` on one thread: a Ray task takes one CPU (picklable, unlike a lambda)."""

    def __init__(self, play: PlayRange) -> None:
        self.play = play

    def __call__(self, start: int, stop: int) -> Counts:
        return self.play(start=start, stop=stop, threads=1)
