"""``tarabish serve`` under ``kill -9``: with SQLite and with PostgreSQL (a throwaway cluster
started here), the server is killed mid-hand while people, bots and spectators play; after a
restart every unfinished table resumes where it was, the clients resume from the last ``seq``
they saw, and each table's record equals what its clients saw: no event lost or doubled. Two
server processes share one PostgreSQL, each hosting the tables it created; while the database
is down an action is refused (P3.5) and changes nothing, and it is taken once the database is
back."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from serverkit import (
    CALLS,
    Player,
    Postgres,
    Server,
    actions_from_events,
    hello,
    open_socket,
    oracle_events,
    postgres,
    receive_until,
    record_actions,
)

TABLE_RULES = {"target": 500, "declarations": "manual", "enforce_legal_play": False}
SEEDS = (31, 32, 33)
EVENTS_BEFORE_KILL = 25


@pytest.fixture(scope="module")
def cluster() -> Iterator[Postgres]:
    with postgres() as running:
        yield running


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_kill_9_mid_hand_then_every_table_resumes_exactly(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    if backend == "sqlite":
        db = f"sqlite:///{tmp_path / 'tables.sqlite3'}"
    else:
        db = request.getfixturevalue("cluster").url
    server = Server(db, server_id="fault")
    tables = {
        seed: server.create(
            rules=TABLE_RULES,
            seats=[None, "random", None, "random"],
            seed=seed,
            bot_seconds=0.01,
        )
        for seed in SEEDS
    }
    go = threading.Event()
    clients = {
        seed: [
            Player(server, table, 0, seed=seed, pause=0.005, go=go),
            Player(server, table, 2, seed=seed + 1, pause=0.005, go=go),
            Player(server, table, None),
        ]
        for seed, table in tables.items()
    }
    everyone = [client for group in clients.values() for client in group]
    for client in everyone:
        client.start()
    deadline = time.monotonic() + 30
    while not all(client.events for client in everyone):  # every client is in ...
        assert time.monotonic() < deadline, "the clients did not all join"
        time.sleep(0.01)
    bots_only = server.create(rules=TABLE_RULES, seats=["random"] * 4, seed=34, bot_seconds=0.02)
    go.set()  # ... before any table gets going
    while min(len(client.events) for client in everyone) < EVENTS_BEFORE_KILL:
        assert time.monotonic() < deadline, "the tables did not get going"
        time.sleep(0.01)
    assert not server.request("GET", f"/api/tables/{bots_only}")[1]["over"]
    server.kill9()
    seen_before = {seed: len(group[2].events) for seed, group in clients.items()}
    failures = [repr(client.failure) for client in everyone if client.failure is not None]
    assert not failures, failures
    assert not any(client.done.is_set() for client in everyone), "killed too late"

    restarted = Server(db, port=server.port, server_id="fault")
    for client in everyone:
        client.finish()
    for seed, table in tables.items():
        status, record = restarted.request("GET", f"/api/tables/{table}/record")
        assert status == 200, record
        actions = record_actions(record)
        people_and_spectator = clients[seed]
        assert actions_from_events(people_and_spectator[2].events) == actions
        for client in people_and_spectator:
            assert client.reconnects >= 1
            assert client.events == oracle_events(record["rules"], seed, actions, client.seat)
        assert len(people_and_spectator[2].events) > seen_before[seed]
        for seat in (0, 2):
            dealt = [e["cards"] for e in clients[seed][seat // 2].events if e["kind"] == "deal"]
            assert dealt == [hand["deal"][seat].split()[:6] for hand in record["hands"]]
    deadline = time.monotonic() + 60
    while not restarted.request("GET", f"/api/tables/{bots_only}")[1]["over"]:
        assert time.monotonic() < deadline, "the bots' table did not resume"
        time.sleep(0.05)
    assert restarted.stop() == 0
    assert restarted.wait_for_log("stopped")["level"] == "info"


def test_several_processes_share_postgresql_each_hosting_its_own_tables(cluster: Postgres) -> None:
    first = Server(cluster.url, server_id="first")
    second = Server(cluster.url, server_id="second")
    try:
        mine = first.create(rules={"target": 40}, seats=[None, "random", "random", "random"])
        theirs = second.create(rules={"target": 40}, seats=["random"] * 4)
        with open_socket(second) as ws:
            refused = hello(ws, {"type": "join", "table": mine, "seat": 0})
            assert (refused["code"], refused["rule"]) == ("elsewhere", "P2.1")
            assert refused["server"] == "first" and "'first'" in refused["message"]
        with open_socket(first) as ws:
            assert hello(ws, {"type": "join", "table": mine, "seat": 0})["seat"] == 0
        # A client finds a table's process by its summary's ``server``, or by the
        # ``elsewhere`` answer of any other process (docs/PROTOCOL.md).
        status, summary = second.request("GET", f"/api/tables/{theirs}")
        assert (status, summary["server"]) == (200, "second")
        status, refused = first.request("GET", f"/api/tables/{theirs}")
        assert (status, refused["code"], refused["server"]) == (404, "elsewhere", "second")
        assert [t["table"] for t in first.request("GET", "/api/tables")[1]["tables"]] == [mine]
    finally:
        assert first.stop() == 0 and second.stop() == 0


def test_an_action_the_database_cannot_commit_is_refused_and_changes_nothing(
    cluster: Postgres,
) -> None:
    server = Server(cluster.url, server_id="outage")
    try:
        table = server.create(rules={"target": 40}, seats=[None, "random", "random", "random"])
        with open_socket(server) as ws:
            hello(ws, {"type": "join", "table": table, "seat": 0})
            message, _ = receive_until(ws, "events")
            while message["view"]["to_move"] != 0:  # the bots play up to seat 0's turn
                message, _ = receive_until(ws, "events")
            action = _choice(message["view"])
            before = server.request("GET", f"/api/tables/{table}")[1]
            cluster.stop()
            try:
                ws.send(json.dumps({"type": "action", "action": action}))
                refused, _ = receive_until(ws, "error")
                assert (refused["code"], refused["rule"]) == ("unavailable", "P3.5")
                assert server.request("GET", f"/api/tables/{table}")[1] == before
            finally:
                cluster.start()
            ws.send(json.dumps({"type": "action", "action": action}))  # the same, once more
            accepted, _ = receive_until(ws, "events")
            assert accepted["events"][0]["seat"] == 0
        assert server.wait_for_log("database unavailable")["level"] == "error"
    finally:
        assert server.stop() == 0


def _choice(view: dict[str, Any]) -> int:
    return int(next(i for i in view["legal"] if i not in CALLS))
