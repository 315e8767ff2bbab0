"""No client can starve another (docs/SECURITY.md "Limits"), against real ``tarabish serve``
processes: catch-up in pages of at most 64 KiB; 200 spectators that never read cost under
100 MB and are gone within 30 s; a spectator cap; coalesced summaries; bounded requests (size
while reading, time, nesting); connection caps, in all and per address, loopback included, and
the answer a page gets when it asks why its WebSocket would be refused;
a creation rate limit; expiry; a paginated listing; and a greedy bot that twelve tables
searching at the cap do not delay past 2 s."""

from __future__ import annotations

import contextlib
import http.client
import itertools
import json
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from serverkit import (
    ROOMY,
    Server,
    hello,
    oracle_events,
    raw_websocket,
    receive,
    receive_until,
    record_actions,
    rss_bytes,
    send_frame,
)
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

PAGE_LIMIT = 64 * 1024
LONG = {"target": 65535, "declarations": "manual", "enforce_legal_play": False}
"""Table mode, and a target no table reaches in a test: a match that runs as long as needed."""
CROWD = 200
MEMORY_BUDGET = 100 * 2**20
GONE_SECONDS = 30.0
SEARCHING_TABLES = 12
GREEDY_GAP_SECONDS = 2.0
WIDE = ("--max-connections", "2000", "--max-connections-per-address", "2000")


@contextlib.contextmanager
def _server(tmp_path: Path, *flags: str) -> Iterator[Server]:
    running = Server(f"sqlite:///{tmp_path / 'tables.sqlite3'}", flags=(*ROOMY, *WIDE, *flags))
    try:
        yield running
    finally:
        assert running.stop() == 0


def _socket(server: Server) -> ClientConnection:
    return connect(server.ws_url, open_timeout=10, close_timeout=1, max_size=2**22)


def _wait_until(condition: Any, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def test_a_catch_up_comes_in_pages_of_at_most_64_kib(tmp_path: Path) -> None:
    with _server(tmp_path) as server:
        # Seat 0 is a person whose every turn times out at once to a bot: a long match, fast.
        rules = {"target": 8000, "declarations": "manual", "enforce_legal_play": False}
        table = server.create(
            rules=rules,
            seats=[None, "random", "random", "random"],
            seed=5,
            turn_seconds=0,
            timeout_bot="random",
        )
        with _socket(server) as ws:
            token = hello(ws, {"type": "join", "table": table, "seat": 0})["token"]
        _wait_until(
            lambda: server.request("GET", f"/api/tables/{table}")[1]["over"], 120, "the match"
        )
        record = server.request("GET", f"/api/tables/{table}/record")[1]
        actions = record_actions(record)
        for seat, message in (
            (None, {"type": "watch", "table": table, "since": 0}),
            (0, {"type": "resume", "table": table, "token": token, "since": 0}),
        ):
            told = oracle_events(record["rules"], 5, actions, seat)
            assert len(json.dumps(told)) > 3 * PAGE_LIMIT  # the history takes several pages
            got: list[dict[str, Any]] = []
            sizes = []
            views = []
            with _socket(server) as ws:
                ws.send(json.dumps(message))
                while len(got) < len(told):
                    text = ws.recv(10)
                    answer = json.loads(text)
                    if answer["type"] == "events":
                        sizes.append(len(text.encode()))
                        got.extend(answer["events"])
                        views.append("view" in answer)
            assert got == told  # nothing lost, nothing doubled
            assert len(sizes) >= 4 and max(sizes) <= PAGE_LIMIT, sizes
            # A player's view comes with the last page only; a spectator never gets one.
            assert views == [False] * (len(views) - 1) + [seat is not None]


def _not_reading(server: Server, table: str) -> socket.socket:
    watch = {"type": "watch", "table": table, "since": 0}
    return raw_websocket(server, watch, rcvbuf=1024)


def _ended(raw: socket.socket) -> bool:
    """Whether the server has dropped this connection (what it had sent is read away)."""
    raw.settimeout(5)
    try:
        while raw.recv(1 << 20):
            pass
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False
    return True


@pytest.mark.long
def test_spectators_that_do_not_read_are_bounded_and_dropped(tmp_path: Path) -> None:
    with _server(tmp_path, "--max-spectators", str(CROWD + 10)) as server:
        table = server.create(rules=LONG, seats=["random"] * 4, seed=3)
        time.sleep(3)  # some history to catch up on
        before = rss_bytes(server.process.pid)
        hand_before = server.request("GET", f"/api/tables/{table}")[1]["hand"]
        started = time.monotonic()
        crowd = [_not_reading(server, table) for _ in range(CROWD)]
        peak = before
        spectators = CROWD
        while spectators:
            assert time.monotonic() - started < GONE_SECONDS, f"{spectators} spectators left"
            peak = max(peak, rss_bytes(server.process.pid))
            spectators = server.request("GET", f"/api/tables/{table}")[1]["spectators"]
            time.sleep(0.25)
        # Really disconnected, not only gone from the table: the server holds no connection.
        _wait_until(
            lambda: server.request("GET", "/healthz")[1]["connections"] <= 1,
            started + GONE_SECONDS - time.monotonic(),
            "the connections of the crowd",
        )
        print(f"memory: +{(peak - before) / 2**20:.0f} MB")
        assert peak - before < MEMORY_BUDGET, f"+{(peak - before) / 2**20:.0f} MB"
        assert server.wait_for_log("client too slow", table=table)["level"] == "info"
        assert all(_ended(raw) for raw in crowd)  # each socket ends
        for raw in crowd:
            raw.close()
        # The table played on while the crowd stalled: more hands dealt (on an idle machine
        # the bots may even finish the long match).
        after = server.request("GET", f"/api/tables/{table}")[1]
        assert after["over"] or after["hand"] > hand_before, (hand_before, after)


def test_a_table_takes_spectators_up_to_its_cap_and_summaries_are_coalesced(
    tmp_path: Path,
) -> None:
    cap = 30
    with _server(tmp_path, "--max-spectators", str(cap)) as server, _socket(server) as observer:
        table = server.create(rules=LONG)
        hello(observer, {"type": "watch", "table": table, "since": 0})
        receive_until(observer, "table")
        # The rest of the crowd joins at once; the observer is told in a few coalesced
        # summaries (at most one a 250 ms), the last of which counts everyone.
        began = time.monotonic()
        crowd = [
            raw_websocket(server, {"type": "watch", "table": table, "since": 0})
            for _ in range(cap - 1)
        ]
        summaries = []
        deadline = time.monotonic() + 2.0
        with contextlib.suppress(TimeoutError):
            while time.monotonic() < deadline:
                message = receive(observer, max(0.01, deadline - time.monotonic()))
                if message["type"] == "table":
                    summaries.append((time.monotonic(), message["spectators"]))
        assert summaries and summaries[-1][1] == cap, summaries
        # One a 250 ms at most (and one more around the window's edges): not one a join.
        elapsed = time.monotonic() - began
        assert len(summaries) <= elapsed / 0.25 + 2 and len(summaries) < cap - 1, summaries
        # Over the cap: `full`, and closed at once; a player is not a spectator.
        with _socket(server) as late:
            refused = hello(late, {"type": "watch", "table": table, "since": 0})
            assert (refused["code"], refused["rule"]) == ("full", "P2.5")
            with pytest.raises(ConnectionClosed):
                receive(late, 5)
        with _socket(server) as player:
            assert hello(player, {"type": "join", "table": table, "seat": 2})["seat"] == 2
        crowd.pop().close()
        _wait_until(
            lambda: server.request("GET", f"/api/tables/{table}")[1]["spectators"] == cap - 1,
            5,
            "the spectator that left",
        )
        with _socket(server) as again:
            assert hello(again, {"type": "watch", "table": table, "since": 0})["type"] == "welcome"
        for raw in crowd:
            raw.close()


def _raw_http(server: Server, head: bytes, *, source: str = "127.0.0.1") -> socket.socket:
    """A connection from ``source`` that sends ``head``; one the server refuses at once may be
    reset before ``connect`` returns (then it answers nothing: ``_status`` 0)."""
    ipv6 = ":" in source
    raw = socket.socket(socket.AF_INET6 if ipv6 else socket.AF_INET)
    raw.settimeout(10)
    raw.bind((source, 0))
    with contextlib.suppress(ConnectionResetError, BrokenPipeError):  # a refused connection
        raw.connect(("::1" if ipv6 else "127.0.0.1", server.port))
        raw.sendall(head)
    return raw


def _status(raw: socket.socket, seconds: float = 5.0) -> int:
    raw.settimeout(seconds)
    answer = b""
    with contextlib.suppress(OSError):  # reset, or never connected: refused
        while b"\r\n" not in answer:
            chunk = raw.recv(4096)
            if not chunk:
                break
            answer += chunk
    return int(answer.split()[1]) if answer else 0


def _closed_within(raw: socket.socket, seconds: float) -> float:
    """Seconds until the server ends the connection (reading away what it sent)."""
    started = time.monotonic()
    raw.settimeout(seconds)
    with contextlib.suppress(ConnectionResetError):
        while raw.recv(4096):
            pass
    return time.monotonic() - started


def _post_head(server: Server, extra: str) -> bytes:
    return (
        f"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
        f"Content-Type: application/json\r\n{extra}\r\n"
    ).encode()


def test_requests_are_bounded_in_size_time_and_depth(tmp_path: Path) -> None:
    with _server(tmp_path, "--request-seconds", "1") as server:
        before = rss_bytes(server.process.pid)
        # A body declared too large is refused before it is read ...
        raw = _raw_http(server, _post_head(server, f"Content-Length: {300 * 2**20}\r\n"))
        assert _status(raw) == 413
        raw.close()
        # ... and one that grows too large, while it is read.
        raw = _raw_http(server, _post_head(server, "Transfer-Encoding: chunked\r\n"))
        for _ in range(5):
            raw.sendall(b"400\r\n" + b" " * 1024 + b"\r\n")
        assert _status(raw) == 413
        raw.close()
        assert rss_bytes(server.process.pid) - before < 20 * 2**20
        status, refused = server.request_raw(
            "POST", "/api/tables", b"[" * 2000 + b"]" * 2000, {"Content-Type": "application/json"}
        )
        assert status == 400 and refused["type"] == "error"
        deep: Any = {}
        for _ in range(20):
            deep = {"rules": deep}
        status, refused = server.request("POST", "/api/tables", deep)
        assert (status, refused["code"]) == (400, "too_deep")
        # Slow or silent requests are closed in about --request-seconds.
        silent = _raw_http(server, b"")
        half = _raw_http(server, b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        slow_body = _raw_http(server, _post_head(server, "Content-Length: 100\r\n") + b"{")
        assert _closed_within(silent, 5) < 3.5
        assert _closed_within(half, 5) < 3.5
        assert _status(slow_body) == 408
        for raw in (silent, half, slow_body):
            raw.close()
        assert server.get("/healthz")[0] == 200


def test_connections_are_capped_in_all_and_per_address(tmp_path: Path) -> None:
    flags = ("--max-connections", "6", "--max-connections-per-address", "4")
    server = Server(f"sqlite:///{tmp_path / 'tables.sqlite3'}", flags=(*ROOMY, *flags))
    try:
        table = server.create()
        watch = {"type": "watch", "table": table, "since": 0}
        mine = [raw_websocket(server, watch) for _ in range(4)]
        # A fifth from the same address (loopback is not exempt) is dropped at once ...
        refused = _raw_http(server, b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        assert _status(refused) == 0
        # ... and another address still gets in, up to the process's cap.
        others = [
            _raw_http(server, b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n", source="127.0.0.2")
            for _ in range(2)
        ]
        assert [_status(raw) for raw in others] == [200, 200]
        third = _raw_http(server, b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n", source="127.0.0.3")
        assert _status(third) == 0
        # The open connections are unharmed: a spectator's action is refused as usual.
        for raw in mine:
            send_frame(raw, b'{"type":"action","action":40}')
        for raw in mine:
            raw.settimeout(5)
            assert b"spectator" in _until(raw, b"spectator")
        for raw in (*mine, *others, refused, third):
            raw.close()
        _wait_until(lambda: server.get("/healthz")[0] == 200, 10, "a connection after the cap")
    finally:
        assert server.stop() == 0


def test_a_page_can_ask_why_its_websocket_would_be_refused(tmp_path: Path) -> None:
    # P6.5: a browser learns nothing from a refused handshake; POST /api/connection makes the
    # same checks and says why in an answer the page can read.
    cap = 3
    flags = ("--max-connections-per-address", str(cap))
    server = Server(f"sqlite:///{tmp_path / 'tables.sqlite3'}", flags=(*ROOMY, *flags))
    try:
        watch = {"type": "watch", "table": server.create(), "since": 0}

        def ask(headers: dict[str, str] | None = None) -> tuple[int, Any]:
            return server.request("POST", "/api/connection", {}, headers)

        held = [raw_websocket(server, watch)]
        # One WebSocket and this request's own connection: room for another.
        assert ask() == (200, {"type": "connection", "ok": True})
        held.append(raw_websocket(server, watch))
        # Two and this one: the address is at its cap, and the answer names the limit.
        status, answer = ask()
        assert status == 429, answer
        assert (answer["code"], answer["rule"]) == ("too_many_connections", "P6.3")
        assert f"at most {cap} open connections" in answer["message"]
        assert "--max-connections-per-address" in answer["message"]
        # A page of another site is refused as its WebSocket is (P6.1).
        held.pop().close()
        status, answer = ask({"Origin": "http://elsewhere.example"})
        assert (status, answer["code"], answer["rule"]) == (403, "origin", "P6.1")
        # Once a WebSocket closes, the address has room again.
        _wait_until(lambda: ask()[0] == 200, 10, "a closed WebSocket kept its place")
        for raw in held:
            raw.close()
    finally:
        assert server.stop() == 0


def _until(raw: socket.socket, wanted: bytes) -> bytes:
    seen = b""
    while wanted not in seen:
        chunk = raw.recv(65536)
        assert chunk, seen
        seen += chunk
    return seen


def _requests_from(
    server: Server, source: str, method: str, path: str, count: int = 1
) -> list[tuple[int, str | None, str | None]]:
    """``count`` requests over one connection from ``source``: each one's status and its
    ``Retry-After`` and ``Connection`` headers (a request after a closed one is not sent)."""
    loopback = "::1" if ":" in source else "127.0.0.1"
    connection = http.client.HTTPConnection(
        loopback, server.port, timeout=10, source_address=(source, 0)
    )
    answers: list[tuple[int, str | None, str | None]] = []
    body, headers = (
        (b"{}", {"Content-Type": "application/json"}) if method == "POST" else (None, {})
    )
    try:
        for _ in range(count):
            connection.request(method, path, body, headers)
            response = connection.getresponse()
            response.read()
            closes = response.getheader("Connection")
            answers.append((response.status, response.getheader("Retry-After"), closes))
            if closes == "close":
                break
        return answers
    finally:
        connection.close()


def _create_from(server: Server, source: str) -> tuple[int, str | None]:
    status, retry, _ = _requests_from(server, source, "POST", "/api/tables")[0]
    return status, retry


def test_creation_is_rate_limited_per_address(tmp_path: Path) -> None:
    flags = ("--create-burst", "3", "--create-per-minute", "60")
    server = Server(f"sqlite:///{tmp_path / 'tables.sqlite3'}", flags=flags)
    try:
        assert [_create_from(server, "127.0.0.1")[0] for _ in range(3)] == [201] * 3
        status, retry = _create_from(server, "127.0.0.1")
        assert status == 429 and retry is not None and 1 <= int(retry) <= 2
        assert _create_from(server, "127.0.0.2")[0] == 201  # another address: its own bucket
        time.sleep(int(retry))
        assert _create_from(server, "127.0.0.1")[0] == 201
    finally:
        assert server.stop() == 0


def test_requests_are_rate_limited_per_address(tmp_path: Path) -> None:
    # A refill of one each 2 s: the burst's requests come well within one.
    flags = ("--requests-per-second", "0.5", "--request-burst", "5")
    server = Server(f"sqlite:///{tmp_path / 'tables.sqlite3'}", flags=flags)
    try:
        table = server.create()
        looping = "127.0.0.3"  # loopback is not exempt
        answers = _requests_from(server, looping, "GET", "/api/tables", 6)
        assert [status for status, _, _ in answers] == [200] * 5 + [429]
        _, retry, closes = answers[-1]
        assert retry is not None and 1 <= int(retry) <= 2 and closes != "close"
        # Every request counts, a record's, a POST's and a WebSocket's handshake alike; the
        # refused GET kept its connection, the refused POST closes it (its body is unread).
        assert (
            _requests_from(server, looping, "GET", f"/api/tables/{table}/record", 2)
            == [(429, retry, None)] * 2
        )
        status, _, closes = _requests_from(server, looping, "POST", "/api/tables")[0]
        assert (status, closes) == (429, "close")
        handshake = _raw_http(
            server,
            b"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
            source=looping,
        )
        assert _status(handshake) == 429
        handshake.close()
        # Another address has its own bucket, and the looping one is taken again in time.
        assert _requests_from(server, "127.0.0.4", "GET", "/api/tables")[0][0] == 200
        time.sleep(int(retry))
        assert _requests_from(server, looping, "GET", "/api/tables")[0][0] == 200
        refused = [
            entry
            for entry in server.logs()
            if entry["message"] == "request" and entry["status"] == 429
        ]
        assert len(refused) == 4 and {entry["client"] for entry in refused} == {looping}
    finally:
        assert server.stop() == 0


def test_a_forwarded_for_header_does_not_change_the_address_counted(tmp_path: Path) -> None:
    # From 127.0.0.1, the address uvicorn trusts such headers from by default (the harness's
    # start-up checks come from it too, so its bucket may be partly spent already).
    burst = 3
    flags = ("--requests-per-second", "0.5", "--request-burst", str(burst))
    server = Server(f"sqlite:///{tmp_path / 'tables.sqlite3'}", flags=flags)
    try:
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        statuses = []
        for k in range(burst + 1):
            connection.request("GET", "/api/tables", headers={"X-Forwarded-For": f"10.0.0.{k}"})
            response = connection.getresponse()
            response.read()
            statuses.append(response.status)
        connection.close()
        # One bucket for all: each header's own bucket would have let every request through.
        assert statuses[-1] == 429 and statuses.count(200) <= burst
        logged = {entry["client"] for entry in server.logs() if entry["message"] == "request"}
        assert logged == {"127.0.0.1"}
    finally:
        assert server.stop() == 0


IPV6_HOSTS = {
    "first": ("2001:db8:1::1", "2001:db8:1::2", "2001:db8:1::3"),
    "second": ("2001:db8:2::1", "2001:db8:2::2"),
    "third": ("2001:db8:3::1", "2001:db8:3::2"),
}
"""The addresses of three /64 prefixes (RFC 3849's documentation range) that the IPv6 test
gives a loopback of its own."""


def _probe_address_groups(folder: Path) -> dict[str, Any]:
    """In a network namespace of its own (``test_an_ipv6_64_is_one_address_...``): a server on
    the dual-stack ``::`` with small per-address caps, tried from several addresses of a /64,
    from another /64, and from two IPv4 addresses (which reach it as IPv4-mapped IPv6)."""
    for addresses in IPV6_HOSTS.values():
        for address in addresses:
            subprocess.run(
                ["ip", "-6", "addr", "add", f"{address}/64", "dev", "lo", "nodad"], check=True
            )
    flags = (
        *("--max-connections-per-address", "2", "--request-seconds", "30"),
        *("--requests-per-second", "0.1", "--request-burst", "2"),
        *("--create-per-minute", "1", "--create-burst", "1"),
    )
    server = Server(f"sqlite:///{folder / 'tables.sqlite3'}", host="::", flags=flags)
    head = b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"
    try:
        first = IPV6_HOSTS["first"]
        held = [_raw_http(server, b"GET", source=address) for address in first[:2]]
        connections = {
            "first /64, third address": _status(_raw_http(server, head, source=first[2])),
            "second /64": _status(_raw_http(server, head, source=IPV6_HOSTS["second"][0])),
        }
        v4 = [_raw_http(server, b"GET", source="127.0.0.1") for _ in range(2)]
        connections["127.0.0.1, third"] = _status(_raw_http(server, head, source="127.0.0.1"))
        connections["127.0.0.2"] = _status(_raw_http(server, head, source="127.0.0.2"))
        for raw in (*held, *v4):
            raw.close()
        second, third = IPV6_HOSTS["second"], IPV6_HOSTS["third"]
        # The second /64 made one request already (above): one more of its burst of two.
        requests = [_requests_from(server, a, "GET", "/api/tables")[0][0] for a in second]
        creations = [_create_from(server, address)[0] for address in third]
        return {"connections": connections, "requests": requests, "creations": creations}
    finally:
        server.stop()


def test_an_ipv6_64_is_one_address_and_a_mapped_ipv4_its_ipv4(tmp_path: Path) -> None:
    # unshare: a user and network namespace of our own (no privilege needed), whose loopback
    # gets addresses of three /64s; the server and the clients run in it (this file as a
    # script, ``_probe_address_groups``).
    probe = subprocess.run(
        [
            "unshare",
            "--user",
            "--map-root-user",
            "--net",
            "sh",
            "-c",
            'ip link set lo up && exec "$0" "$@"',
            sys.executable,
            __file__,
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert probe.returncode == 0, probe.stderr[-3000:]
    found = json.loads(probe.stdout.splitlines()[-1])
    # Two connections held from two addresses of one /64 fill its cap of 2: a third address
    # of it is refused at once, another /64 is not. IPv4 clients of the dual-stack listener
    # are counted by their IPv4 address, not as one IPv4-mapped /64.
    assert found["connections"] == {
        "first /64, third address": 0,
        "second /64": 200,
        "127.0.0.1, third": 0,
        "127.0.0.2": 200,
    }
    # The request rate (2 at once) and the creation rate (1 at once: the second creation is
    # within the request rate) are a /64's too.
    assert found["requests"] == [200, 429]
    assert found["creations"] == [201, 429]


def test_idle_tables_expire_finished_ones_leave_memory_and_the_listing_pages(
    tmp_path: Path,
) -> None:
    flags = ("--idle-table-seconds", "2", "--finished-table-seconds", "1")
    with _server(tmp_path, *flags) as server:
        empty = server.create()
        seated = server.create()
        with _socket(server) as ws:
            hello(ws, {"type": "join", "table": seated, "seat": 1})
        quick = server.create(rules={"target": 40}, seats=["random"] * 4)
        _wait_until(lambda: server.get(f"/api/tables/{empty}")[0] == 404, 6, "expiry")
        assert server.get(f"/api/tables/{seated}")[0] == 200  # a person sat: it stays
        assert server.wait_for_log("table expired", table=empty)["level"] == "info"

        def listed() -> list[str]:
            return [t["table"] for t in server.request("GET", "/api/tables?limit=200")[1]["tables"]]

        _wait_until(lambda: quick not in listed(), 6, "the finished table leaving memory")
        assert server.get(f"/api/tables/{quick}/record")[0] == 200  # its record stays
        # The listing: pages in creation order, `after` exclusive, `next` null at the end.
        made = [server.create() for _ in range(7)]
        pages, after = [], None
        while True:
            query = "?limit=3" + ("" if after is None else f"&after={after}")
            status, page = server.request("GET", "/api/tables" + query)
            assert status == 200 and len(page["tables"]) <= 3
            pages.append([t["table"] for t in page["tables"]])
            after = page["next"]
            if after is None:
                break
            assert after == pages[-1][-1]
        everything = [table for page in pages for table in page]
        assert len(everything) == len(set(everything))
        assert [t for t in everything if t in made] == made
        assert len(server.request("GET", "/api/tables?limit=100000")[1]["tables"]) <= 200
        assert len(server.request("GET", "/api/tables")[1]["tables"]) <= 50
        for query in ("?limit=0", "?limit=x", "?after=nope", "?after=" + "z" * 80):
            assert server.get("/api/tables" + query)[0] == 400


@pytest.mark.long
def test_twelve_searches_at_the_cap_delay_no_greedy_bot(tmp_path: Path) -> None:
    with _server(tmp_path) as server:
        searching = "ismcts:millis=2000,bid=0"
        for _ in range(SEARCHING_TABLES):
            server.create(rules=LONG, seats=[searching] * 4)
        greedy = server.create(rules=LONG, seats=["greedy"] * 4)
        arrivals: list[float] = []
        stop = threading.Event()

        def watch() -> None:
            with _socket(server) as ws:
                hello(ws, {"type": "watch", "table": greedy, "since": 0})
                while not stop.is_set():
                    with contextlib.suppress(TimeoutError):
                        message = receive(ws, 0.5)
                        if message["type"] == "events" and message["events"]:
                            arrivals.append(time.monotonic())

        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
        time.sleep(2 * GREEDY_GAP_SECONDS)  # every search table is thinking by now
        arrivals.clear()
        window = time.monotonic()
        time.sleep(4 * GREEDY_GAP_SECONDS)
        stop.set()
        watcher.join(10)
        marks = [window, *arrivals, time.monotonic() - 0.5]
        gaps = [later - earlier for earlier, later in itertools.pairwise(marks)]
        assert len(arrivals) > 10 and max(gaps) < GREEDY_GAP_SECONDS, max(gaps)


if __name__ == "__main__":  # in the namespace of test_an_ipv6_64_is_one_address_...
    print(json.dumps(_probe_address_groups(Path(sys.argv[1]))))
