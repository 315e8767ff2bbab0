"""``tarabish serve`` under ``kill -9``: with SQLite and with PostgreSQL (a throwaway cluster
started here), the server is killed mid-hand while people, bots and spectators play; after a
restart every unfinished table resumes where it was, the clients resume from the last ``seq``
they saw, and each table's record equals what its clients saw: no event lost or doubled. Two
server processes share one PostgreSQL, each hosting the tables it created; while the database
is down an action is refused (P3.5) and changes nothing, and it is taken once the database is
back. Every other store fault is the same: a full disk (a small tmpfs), a file made read-only
(immutable), a corrupt file, a read-only PostgreSQL; meanwhile ``/healthz`` says "degraded",
POST answers 503, and the bots pause with one log line. Operations: the database's files are
0600, an access line a request, a malformed frame one warning, and on SIGTERM ``/healthz``
answers 503 until the process exits."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
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
    raw_websocket,
    receive_until,
    record_actions,
    send_frame,
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
                status, health = server.request("GET", "/healthz")
                assert (status, health["status"]) == (503, "degraded")
                status, answer = server.request("POST", "/api/tables", {})
                assert (status, answer["code"]) == (503, "unavailable")
            finally:
                cluster.start()
            ws.send(json.dumps({"type": "action", "action": action}))  # the same, once more
            accepted, _ = receive_until(ws, "events")
            assert accepted["events"][0]["seat"] == 0
            assert server.request("GET", "/healthz")[1]["status"] == "ready"
        assert server.wait_for_log("database unavailable")["level"] == "error"
    finally:
        assert server.stop() == 0


def _choice(view: dict[str, Any]) -> int:
    return int(next(i for i in view["legal"] if i not in CALLS))


# -- store faults other than a lost connection, and operations ---------------------------------

DISK_BYTES = 8 * 2**20
FAST = 5.0


@contextlib.contextmanager
def _small_disk(folder: Path) -> Iterator[Path]:
    """A tmpfs of ``DISK_BYTES`` mounted at ``folder`` (the test runs as root, as the cluster's
    harness allows): a disk that really fills up."""
    folder.mkdir()
    subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={DISK_BYTES}", "tmpfs", str(folder)], check=True
    )
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def _fill(folder: Path) -> Path:
    """Fill the disk of ``folder`` to the last byte; the filler file."""
    filler = folder / "filler"
    with open(filler, "wb", buffering=0) as file:
        for size in (65536, 4096, 1):  # down to the last byte
            with contextlib.suppress(OSError):
                while True:
                    file.write(b"\0" * size)
    return filler


def _at_seat_0s_turn(server: Server, ws: Any) -> tuple[str, dict[str, Any]]:
    """A table where seat 0 (a person, on ``ws``) is to move first, and its view."""
    table = server.create(
        rules={"target": 40}, seats=[None, "random", "random", "random"], first_dealer=3
    )
    hello(ws, {"type": "join", "table": table, "seat": 0})
    message, _ = receive_until(ws, "events")
    assert message["view"]["to_move"] == 0
    return table, message["view"]


def _degraded(server: Server, table: str, ws: Any, action: int) -> dict[str, Any]:
    """Check what a failed store must look like; the table's summary."""
    before = server.request("GET", f"/api/tables/{table}")[1]
    ws.send(json.dumps({"type": "action", "action": action}))
    refused, _ = receive_until(ws, "error", FAST)
    assert (refused["code"], refused["rule"]) == ("unavailable", "P3.5")
    assert server.request("GET", f"/api/tables/{table}")[1] == before  # nothing changed
    status, health = server.request("GET", "/healthz")
    assert (status, health["status"]) == (503, "degraded")
    status, answer = server.request("POST", "/api/tables", {})
    assert (status, answer["code"]) == (503, "unavailable")
    return dict(before)


def _no_tracebacks(server: Server) -> None:
    assert not [entry for entry in server.logs() if "exception" in entry]


def test_a_full_disk_and_a_read_only_file_are_unavailable_until_fixed(tmp_path: Path) -> None:
    with _small_disk(tmp_path / "disk") as disk, contextlib.ExitStack() as stack:
        db = disk / "tables.sqlite3"
        server = Server(f"sqlite:///{db}")
        try:
            bots = server.create(rules={"target": 65535}, seats=["random"] * 4, bot_seconds=0.05)
            ws = stack.enter_context(open_socket(server))
            table, view = _at_seat_0s_turn(server, ws)
            action = _choice(view)
            filler = _fill(disk)
            _degraded(server, table, ws, action)
            paused = server.wait_for_log("bots paused", table=bots)
            assert paused["level"] == "warning"
            # While it is down, make the file read-only (immutable: even root may not write it,
            # nor open it to write), and free the disk: still unavailable.
            subprocess.run(["chattr", "+i", str(db)], check=True)
            filler.unlink()
            try:
                time.sleep(2)
                _degraded(server, table, ws, action)
            finally:
                subprocess.run(["chattr", "-i", str(db)], check=True)
            ws.send(json.dumps({"type": "action", "action": action}))  # the same, once more
            accepted, _ = receive_until(ws, "events", FAST)
            assert accepted["events"][0]["seat"] == 0
            assert server.request("GET", "/healthz")[1]["status"] == "ready"
            assert server.wait_for_log("bots resumed", table=bots)["level"] == "info"
            # One line when the bots stopped and one when they went on, not one a retry.
            lines = [e for e in server.logs() if e.get("table") == bots and "bots" in e["message"]]
            assert [e["message"] for e in lines] == ["bots paused", "bots resumed"]
            _no_tracebacks(server)
        finally:
            assert server.stop() == 0


def test_a_corrupt_database_file_is_unavailable_not_a_crash(tmp_path: Path) -> None:
    db = tmp_path / "tables.sqlite3"
    server = Server(f"sqlite:///{db}")
    stack = contextlib.ExitStack()
    try:
        ws = stack.enter_context(open_socket(server))
        table, view = _at_seat_0s_turn(server, ws)
        for suffix in ("", "-wal", "-shm"):
            assert (Path(f"{db}{suffix}").stat().st_mode & 0o777) == 0o600, suffix
        with open(db, "r+b") as file:  # every page after the header's is garbage
            size = file.seek(0, 2)
            file.seek(100)
            file.write(os.urandom(max(size, 64 * 1024) - 100))
        Path(f"{db}-wal").write_bytes(b"")  # the log that could have hidden it, gone
        Path(f"{db}-shm").write_bytes(b"\0" * 32768)
        _degraded(server, table, ws, _choice(view))
        assert server.get(f"/api/tables/{table}")[0] == 200  # the live table still answers
        with open_socket(server) as other:  # and the connection and the server stay up
            assert hello(other, {"type": "watch", "table": table, "since": 0})["type"] == "welcome"
        _no_tracebacks(server)
    finally:
        stack.close()
        server.stop()


def test_a_read_only_postgresql_is_unavailable_until_writable(cluster: Postgres) -> None:
    import psycopg

    server = Server(cluster.url, server_id="read-only")
    admin = psycopg.connect(cluster.url, autocommit=True)
    stack = contextlib.ExitStack()
    try:
        bots = server.create(rules={"target": 65535}, seats=["random"] * 4, bot_seconds=0.05)
        ws = stack.enter_context(open_socket(server))
        table, view = _at_seat_0s_turn(server, ws)
        admin.execute("ALTER SYSTEM SET default_transaction_read_only = on")
        admin.execute("SELECT pg_reload_conf()")
        time.sleep(0.5)
        try:
            _degraded(server, table, ws, _choice(view))
            server.wait_for_log("bots paused", table=bots)
        finally:
            admin.execute("ALTER SYSTEM RESET default_transaction_read_only")
            admin.execute("SELECT pg_reload_conf()")
        ws.send(json.dumps({"type": "action", "action": _choice(view)}))
        accepted, _ = receive_until(ws, "events", FAST)
        assert accepted["events"][0]["seat"] == 0
        assert server.wait_for_log("bots resumed", table=bots)["level"] == "info"
        assert server.request("GET", "/healthz")[1]["status"] == "ready"
        _no_tracebacks(server)
    finally:
        stack.close()
        admin.close()
        assert server.stop() == 0


def test_operations_access_log_malformed_frames_and_sigterm(tmp_path: Path) -> None:
    server = Server(f"sqlite:///{tmp_path / 'tables.sqlite3'}")
    table = server.create(rules={"target": 65535}, seats=[None, "random", "random", "random"])
    with open_socket(server) as ws:
        token = hello(ws, {"type": "join", "table": table, "seat": 0})["token"]
    assert server.get(f"/api/tables/{table}")[0] == 200
    line = server.wait_for_log("request", path=f"/api/tables/{table}", method="GET")
    assert line["status"] == 200 and line["ms"] >= 0 and line["logger"] == "tarabish.server.access"
    # A text frame that is not UTF-8: one warning, no traceback, the server fine.
    raw = raw_websocket(server)
    send_frame(raw, b"\xff\xfe{}")
    assert server.wait_for_log("malformed frame")["level"] == "warning"
    raw.close()
    _no_tracebacks(server)
    assert not any(token in entry for entry in server.stderr)  # no token in any log line
    # SIGTERM: while a client that reads nothing holds the graceful shutdown open, the
    # listener answers /healthz with 503 until the process exits.
    stuck = raw_websocket(server, {"type": "watch", "table": table, "since": 0}, rcvbuf=1024)
    time.sleep(1)
    server.process.send_signal(signal.SIGTERM)
    answers = []
    while server.process.poll() is None:
        status, health = server.get("/healthz")
        if status:
            answers.append((status, health))
        time.sleep(0.05)
    assert answers and all(a == (503, {"status": "stopping"}) for a in answers), answers
    assert server.process.wait(30) == 0
    stuck.close()
