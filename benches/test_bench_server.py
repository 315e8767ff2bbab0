"""``tarabish serve`` under load (benches/server_load.py): N concurrent tables of four scripted
WebSocket clients each, over loopback, bounded in time; actions per second, p50/p99 latency
from an action to its broadcast, and the CPU time an action of the server and of the load
generator apart, beside the same play on the engine alone. The target on 2 cores
shared with the load generator: 1,000 tables (4,000 connections), at least 5,000 actions a
second, p99 under 50 ms. The figures are recorded in ``extra_info`` and printed; the checks are
on the run itself (no protocol error, every table played, every stored log a valid match of
exactly the actions its clients saw broadcast), not on speed.

``TARABISH_LOAD_TABLES`` and ``TARABISH_LOAD_SECONDS`` change the size (defaults 1000, 20);
``TARABISH_LOAD_SERVERS=2`` runs it on two server processes sharing a throwaway PostgreSQL
(docs/PROTOCOL.md "Several server processes").
"""

from __future__ import annotations

import os
from typing import Any

from server_load import THROWAWAY_POSTGRESQL, run

TABLES = int(os.environ.get("TARABISH_LOAD_TABLES", "1000"))
SECONDS = float(os.environ.get("TARABISH_LOAD_SECONDS", "20"))
SERVERS = int(os.environ.get("TARABISH_LOAD_SERVERS", "1"))


def test_server_load(benchmark: Any) -> None:
    db = THROWAWAY_POSTGRESQL if SERVERS > 1 else None
    report = benchmark.pedantic(
        run, args=(TABLES, SECONDS, db), kwargs={"servers": SERVERS}, rounds=1, iterations=1
    )
    benchmark.extra_info.update(
        tables=report.tables,
        servers=report.servers,
        connections=report.connections,
        actions_per_second=round(report.actions_per_second),
        p50_ms=round(report.p50_ms, 1),
        p99_ms=round(report.p99_ms, 1),
        server_cpu_ms_per_action=round(report.server_cpu_ms_per_action, 3),
        generator_cpu_ms_per_action=round(report.generator_cpu_ms_per_action, 3),
        database_cpu_ms_per_action=report.database_cpu_ms_per_action,
        engine_apply_ms_per_action=round(report.engine_apply_ms_per_action, 4),
        engine_messages_ms_per_action=round(report.engine_messages_ms_per_action, 4),
        load_average=report.load_average,
    )
    for line in report.lines():
        print(line)
    assert report.errors == 0  # no protocol error under load
    assert report.tables_moved == report.tables  # every table played
    assert report.actions > 0 and report.total_actions >= report.actions
    assert report.engine_apply_ms_per_action < report.engine_messages_ms_per_action
