"""``tarabish serve`` under ``kill -9``: with SQLite and with PostgreSQL (a throwaway cluster
started here), the server is killed mid-hand while people, bots and spectators play; after a
restart every unfinished table resumes where it was, the clients resume from the last ``seq``
they saw, and each table's record equals what its clients saw: no event lost or doubled. Two
server processes share one PostgreSQL, each hosting the tables it created."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from serverkit import (
    Player,
    Server,
    actions_from_events,
    hello,
    open_socket,
    oracle_events,
    postgres,
    record_actions,
)

TABLE_RULES = {"target": 120, "declarations": "manual", "enforce_legal_play": False}
SEEDS = (31, 32, 33)
EVENTS_BEFORE_KILL = 25


@pytest.fixture(scope="module")
def postgres_url() -> Iterator[str]:
    with postgres() as url:
        yield url


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_kill_9_mid_hand_then_every_table_resumes_exactly(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    if backend == "sqlite":
        db = f"sqlite:///{tmp_path / 'tables.sqlite3'}"
    else:
        db = request.getfixturevalue("postgres_url")
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
    bots_only = server.create(rules=TABLE_RULES, seats=["random"] * 4, seed=34, bot_seconds=0.02)
    clients = {
        seed: [
            Player(server, table, 0, seed=seed, pause=0.01),
            Player(server, table, 2, seed=seed + 1, pause=0.01),
            Player(server, table, None),
        ]
        for seed, table in tables.items()
    }
    everyone = [client for group in clients.values() for client in group]
    for client in everyone:
        client.start()
    deadline = time.monotonic() + 30
    while min(len(client.events) for client in everyone) < EVENTS_BEFORE_KILL:
        assert time.monotonic() < deadline, "the tables did not get going"
        time.sleep(0.01)
    server.kill9()
    seen_before = {seed: len(group[2].events) for seed, group in clients.items()}
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


def test_several_processes_share_postgresql_each_hosting_its_own_tables(postgres_url: str) -> None:
    first = Server(postgres_url, server_id="first")
    second = Server(postgres_url, server_id="second")
    try:
        mine = first.create(rules={"target": 40}, seats=[None, "random", "random", "random"])
        theirs = second.create(rules={"target": 40}, seats=["random"] * 4)
        with open_socket(second) as ws:
            refused = hello(ws, {"type": "join", "table": mine, "seat": 0})
            assert (refused["code"], refused["rule"]) == ("elsewhere", "P2.1")
            assert "'first'" in refused["message"]
        with open_socket(first) as ws:
            assert hello(ws, {"type": "join", "table": mine, "seat": 0})["seat"] == 0
        assert second.request("GET", f"/api/tables/{theirs}")[0] == 200
        assert [t["table"] for t in first.request("GET", "/api/tables")[1]] == [mine]
    finally:
        assert first.stop() == 0 and second.stop() == 0
