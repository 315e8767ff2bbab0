"""Load benchmark of ``tarabish serve`` (docs/PROTOCOL.md), loopback only, bounded in time and
count: N tables, four scripted WebSocket clients each (4N connections), every client playing a
seeded random legal action whenever its view says it is to move. It reports the actions per
second the server took and the latency from an action's send to the acting client's receipt of
its broadcast (p50, p99), beside the same play on the engine alone (no network, no database):
bare ``apply``, and ``apply`` plus the per-seat messages the server builds (``events`` and
``table_view`` for four seats, JSON), so the cost of the server's own layers is visible.

``python benches/server_load.py --tables 1000 --seconds 20`` runs it as a command;
benches/test_bench_server.py runs it under pytest-benchmark.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tarabish
from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from serverkit import Server

RULES = {"target": 65535, "declarations": "manual", "enforce_legal_play": False}
"""Table mode, and a target no table reaches within a run."""
CALLS = (44, 45)
ACTION_EVENTS = frozenset(("pass", "call", "play", "announce", "show", "bella"))
CONNECT_BATCH = 200
"""Connections opened at once while the tables fill up."""
MAX_TABLES = 2000
MAX_SECONDS = 120.0


@dataclass
class Load:
    """What the clients measured inside the window."""

    latencies: list[float] = field(default_factory=list)
    errors: list[dict[str, Any]] = field(default_factory=list)
    tables_moved: set[str] = field(default_factory=set)
    server_cpu: float = 0.0


@dataclass(frozen=True)
class Report:
    """One run: the server's figures and the engine's alone."""

    tables: int
    connections: int
    seconds: float
    actions: int
    errors: int
    tables_moved: int
    p50_ms: float
    p99_ms: float
    server_cpu_ms_per_action: float
    engine_apply_per_second: float
    engine_messages_per_second: float

    @property
    def actions_per_second(self) -> float:
        return self.actions / self.seconds

    def lines(self) -> list[str]:
        return [
            f"server: {self.tables} tables, {self.connections} connections, "
            f"{self.actions_per_second:,.0f} actions/s over {self.seconds:.0f} s, "
            f"latency p50 {self.p50_ms:.1f} ms, p99 {self.p99_ms:.1f} ms, "
            f"{self.errors} errors, {self.tables_moved} tables moved, server CPU "
            f"{self.server_cpu_ms_per_action:.2f} ms an action",
            f"engine alone: {self.engine_apply_per_second:,.0f} actions a CPU second (apply), "
            f"{self.engine_messages_per_second:,.0f} (apply + 4 seats' events, table_view, "
            f"JSON: {1000 / self.engine_messages_per_second:.2f} ms an action)",
        ]


def _choices(view: dict[str, Any], seat: int) -> list[int]:
    ids = [i for i in view["legal"] if i not in CALLS]
    return ids or [i for i in view["allowed"] if i not in CALLS]


async def _client(
    url: str, table: str, seat: int, load: Load, started: asyncio.Event, window: list[float]
) -> None:
    rng = random.Random(f"{table}/{seat}")
    async with connect(url, max_size=2**22, compression=None, ping_interval=None) as ws:
        await ws.send(json.dumps({"type": "join", "table": table, "seat": seat}))
        sent_at: float | None = None
        async for raw in ws:
            message = json.loads(raw)
            now = time.perf_counter()
            if message["type"] == "error":
                load.errors.append(message)
                continue
            if message["type"] != "events":
                continue
            if sent_at is not None and any(
                event["kind"] in ACTION_EVENTS and event.get("seat") == seat
                for event in message["events"]
            ):
                if window[0] <= sent_at and now <= window[1]:
                    load.latencies.append(now - sent_at)
                    load.tables_moved.add(table)
                sent_at = None
            view = message["view"]
            if now > window[1]:
                return
            if sent_at is None and view["to_move"] == seat and view["phase"] != "done":
                await started.wait()
                choices = _choices(view, seat)
                if choices:
                    sent_at = time.perf_counter()
                    await ws.send(json.dumps({"type": "action", "action": rng.choice(choices)}))


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def _drive(server: Server, tables: list[str], seconds: float) -> tuple[Load, float]:
    load = Load()
    started = asyncio.Event()
    window = [float("inf"), float("inf")]
    tasks = []
    for start in range(0, len(tables), CONNECT_BATCH // 4):
        for table in tables[start : start + CONNECT_BATCH // 4]:
            for seat in range(4):
                tasks.append(
                    asyncio.create_task(_client(server.ws_url, table, seat, load, started, window))
                )
        await asyncio.sleep(0.05)
    await asyncio.sleep(1.0)  # every hello answered before the clock starts
    window[0] = time.perf_counter()
    window[1] = window[0] + seconds
    cpu_before = cpu_seconds(server.process.pid)
    started.set()
    await asyncio.sleep(seconds)
    load.server_cpu = cpu_seconds(server.process.pid) - cpu_before
    await asyncio.wait(tasks, timeout=10)
    for task in tasks:
        task.cancel()
    return load, seconds


def engine_alone(tables: int, actions: int, *, messages: bool) -> float:
    """Actions per CPU second of the same random play on the engine alone, round robin over
    ``tables`` matches: bare ``apply``, or (``messages``) also what the server builds for the
    four seats after each action (``events(seat, since)``, ``table_view(seat)``, JSON)."""
    rules = tarabish.Rules.from_dict(RULES)
    matches = [tarabish.MatchState(seed=seed, rules=rules) for seed in range(tables)]
    sent = [[0] * 4 for _ in range(tables)]
    rng = random.Random(1)
    started = time.process_time()  # CPU time: comparable with the server's, whatever the load
    for number in range(actions):
        index = number % tables
        match = matches[index]
        seat = match.to_move
        view = match.table_view(seat).to_dict()
        match.apply(rng.choice(_choices(view, seat)), seat)
        if messages:
            for other in range(4):
                events = match.events(other, sent[index][other])
                text = json.dumps(
                    {"type": "events", "events": events, "view": match.table_view(other).to_dict()}
                )
                sent[index][other] = events[-1]["seq"] if events else sent[index][other]
                assert text
    return actions / (time.process_time() - started)


def run(tables: int, seconds: float, db: str | None = None) -> Report:
    """One bounded run on a new server (SQLite in a temp folder unless ``db`` is given)."""
    if not 0 < tables <= MAX_TABLES or not 0 < seconds <= MAX_SECONDS:
        raise ValueError(f"tables 1..{MAX_TABLES} and seconds up to {MAX_SECONDS}")
    with tempfile.TemporaryDirectory() as folder:
        server = Server(db or f"sqlite:///{Path(folder) / 'load.sqlite3'}")
        try:
            ids = [server.create(rules=RULES, seed=seed) for seed in range(tables)]
            load, elapsed = asyncio.run(_drive(server, ids, seconds))
        finally:
            server.stop()
    latencies = sorted(load.latencies) or [0.0]
    count = len(load.latencies)
    return Report(
        tables=tables,
        connections=4 * tables,
        seconds=elapsed,
        actions=count,
        errors=len(load.errors),
        tables_moved=len(load.tables_moved),
        p50_ms=1000 * statistics.median(latencies),
        p99_ms=1000 * latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))],
        server_cpu_ms_per_action=1000 * load.server_cpu / max(count, 1),
        engine_apply_per_second=engine_alone(tables, max(count, 1000), messages=False),
        engine_messages_per_second=engine_alone(tables, max(count, 1000), messages=True),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--db", default=None, help="a database URL (default: SQLite in a temp dir)")
    args = parser.parse_args()
    for line in run(args.tables, args.seconds, args.db).lines():
        print(line)


if __name__ == "__main__":
    main()
