"""The server's bots: which specs a table may ask for, and where their decisions run.

A spec is checked by parsing it (``tarabish._core.bot_spec``: a spec that parses always
builds), never by running the bot, and against the process's caps (``Limits``): a search's
time, iterations, worlds and threads. A table's request over a cap is refused; a stored table's
spec (read back after a restart, perhaps with lower caps) is clamped to them instead
(``clamp=True``), so that no table searches past what the process allows now and the people
seated at it keep their match. Decisions never run on the event loop: each goes to a
worker thread. Two lanes, each a bounded pool with a queue per table served in turn: the quick
bots (random, greedy, heuristic: microseconds a decision) and the searches (ISMCTS, PIMC: up to
the caps). So a table whose search takes the whole time allowed delays no quick bot of another
table, and tables that search take the search workers in turn, one decision each. Search
workers run at a lower CPU priority than the event loop, which keeps every table's messages
going while they think.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
import threading
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from .._errors import InvalidInputError
from .engine import bot_choice
from .limits import Limits, flag

log = logging.getLogger("tarabish.server.bots")

QUICK_BOTS = frozenset(("random", "greedy", "heuristic"))
"""Bots whose decision takes microseconds: they never wait behind a search."""
QUICK_WORKERS = 2
MAX_SPEC_CHARS = 200
SEARCH_NICE = 5
"""How much lower than the event loop the search workers' CPU priority is (Linux nice)."""


@dataclass(frozen=True, slots=True)
class BotSpec:
    """A bot spec that parses and is within the caps: its canonical text and its lane, and,
    if it was clamped to the caps, the canonical text it had."""

    text: str
    quick: bool
    clamped_from: str | None = None


CAPS = {
    "ismcts": (
        ("millis", "max_bot_millis"),
        ("iterations", "max_bot_iterations"),
        ("threads", "max_bot_threads"),
    ),
    "pimc": (("worlds", "max_bot_worlds"),),
}
"""The parameters of each search bot that a cap bounds, and the field of ``Limits`` that holds
it (an ISMCTS search with ``millis`` is bounded by its time, its iterations then unused)."""


def check_spec(module: ModuleType, spec: Any, limits: Limits, *, clamp: bool = False) -> BotSpec:
    """The checked spec, or ``InvalidInputError`` naming what is wrong (P5.1) or the cap it
    passes (with its flag); with ``clamp`` a value over its cap is taken down to the cap
    instead (the spec's text then says so)."""
    if not isinstance(spec, str) or not spec or len(spec) > MAX_SPEC_CHARS:
        raise InvalidInputError(f"P5.1 a bot is a spec like 'random' or 'greedy', got {spec!r}")
    if module.__name__ != "tarabish":  # the reference engine: only the seeded random choice
        if spec.strip().lower() != "random":
            raise InvalidInputError(
                f"P5.1 bot {spec!r} needs the Rust core; this engine has only 'random'"
            )
        return BotSpec("random", True)
    from .. import _core

    text = str(_core.bot_spec(spec))  # InvalidInputError for an unknown bot or parameter
    name, _, rest = text.partition(":")
    params = dict(item.split("=", 1) for item in rest.split(",") if item)
    over = {}
    for key, field in CAPS.get(name, ()):
        if key == "iterations" and int(params.get("millis", 0)):
            continue
        value, cap = int(params.get(key, 0)), getattr(limits, field)
        if value > cap:
            if not clamp:
                raise InvalidInputError(
                    f"P5.1 bot {text!r}: {key}={value} is over this server's cap of {cap} "
                    f"({flag(field)})"
                )
            over[key] = cap
    if not over:
        return BotSpec(text, name in QUICK_BOTS)
    clamped = ",".join(f"{key}={value}" for key, value in (params | over).items())
    return BotSpec(str(_core.bot_spec(f"{name}:{clamped}")), name in QUICK_BOTS, text)


class _Lane:
    """A bounded pool of worker threads with a queue per table: the tables with work take the
    workers in turn, one decision each."""

    def __init__(self, name: str, workers: int, nice: int) -> None:
        self.workers = workers
        self._nice = nice
        self._executor = ThreadPoolExecutor(
            workers, thread_name_prefix=f"tarabish-{name}", initializer=self._start_worker
        )
        self._queues: dict[str, deque[tuple[Callable[[], int], asyncio.Future[int]]]] = {}
        self._turns: deque[str] = deque()
        self._running = 0

    def _start_worker(self) -> None:
        if self._nice:
            with contextlib.suppress(OSError):  # a platform without per-thread priorities
                os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), self._nice)

    def submit(self, table: str, job: Callable[[], int]) -> asyncio.Future[int]:
        future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        queue = self._queues.get(table)
        if queue is None:
            queue = self._queues[table] = deque()
            self._turns.append(table)
        queue.append((job, future))
        self._pump()
        return future

    def _pump(self) -> None:
        loop = asyncio.get_running_loop()
        while self._running < self.workers and self._turns:
            table = self._turns.popleft()
            queue = self._queues[table]
            job, future = queue.popleft()
            if queue:
                self._turns.append(table)  # its next decision waits for the others' turns
            else:
                del self._queues[table]
            if future.cancelled():
                continue
            self._running += 1
            running = loop.run_in_executor(self._executor, job)
            running.add_done_callback(functools.partial(self._finished, future))

    def _finished(self, future: asyncio.Future[int], done: asyncio.Future[int]) -> None:
        self._running -= 1
        if future.cancelled():
            pass
        elif done.cancelled():
            future.cancel()
        else:
            error = done.exception()
            if error is not None:
                future.set_exception(error)
            else:
                future.set_result(done.result())
        self._pump()

    def shutdown(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)


class BotPool:
    """Where every bot decision of a server process runs (module docstring)."""

    def __init__(self, limits: Limits) -> None:
        self._quick = _Lane("quick-bot", QUICK_WORKERS, 0)
        self._search = _Lane("search-bot", limits.bot_workers, SEARCH_NICE)

    async def decide(self, table: str, spec: BotSpec, match: Any, seat: int, seed: int) -> int:
        """The action id ``spec`` takes for ``seat`` in ``match`` (a copy: the worker reads it
        while the table goes on), decided on a worker of the spec's lane in the table's turn."""
        lane = self._quick if spec.quick else self._search
        return await lane.submit(table, lambda: bot_choice(match, seat, spec.text, seed))

    def shutdown(self) -> None:
        """Stop the workers (a decision under way finishes on its thread, unheard)."""
        self._quick.shutdown()
        self._search.shutdown()
