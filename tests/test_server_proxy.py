"""The server behind a reverse proxy (docs/SECURITY.md, ``--trusted-proxy``): Debian's nginx in
front, as its usual set-up for an ASGI server, and clients reaching it from several loopback
addresses. The per-address limits (P6.3, the connection cap) count each client by the address
nginx forwards, a header a client writes itself changes nothing, and nginx's own connections
are not capped as one address; the flag refuses what is not an address or a network."""

from __future__ import annotations

import http.client
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import pytest
from serverkit import ROOMY, Nginx, Server, hello
from websockets.exceptions import InvalidStatus
from websockets.sync.client import ClientConnection, connect

PROXY = "127.0.0.1"
"""nginx's address as the server sees it, the one trusted proxy."""
CLIENTS = ("127.0.0.2", "127.0.0.3")
"""Two clients' addresses: nginx forwards each as the client."""


@contextmanager
def _behind_nginx(
    folder: Path, *flags: str, host: str = "127.0.0.1"
) -> Iterator[tuple[Server, Nginx]]:
    server = Server(
        f"sqlite:///{folder / 'tables.sqlite3'}",
        host=host,
        flags=(*ROOMY, "--trusted-proxy", PROXY, *flags),
    )
    proxy = Nginx(folder / "nginx", server.port)
    try:
        yield server, proxy
    finally:
        proxy.stop()
        assert server.stop() == 0


def _get(proxy: Nginx, source: str, headers: dict[str, str] | None = None) -> int:
    """The status of ``GET /api/tables`` from ``source`` through the proxy."""
    return _request(proxy, source, "GET", headers or {})


def _create(proxy: Nginx, source: str) -> int:
    """The status of a table's creation (``POST /api/tables``) from ``source`` through the
    proxy."""
    return _request(proxy, source, "POST", {"Content-Type": "application/json"}, b"{}")


def _ask_to_connect(port: int, source: str) -> int:
    """The status of ``POST /api/connection`` (P6.5) from ``source`` to ``port``."""
    headers = {"Content-Type": "application/json"}
    return _request(port, source, "POST", headers, b"{}", "/api/connection")


def _request(
    proxy: Nginx | int,
    source: str,
    method: str,
    headers: dict[str, str],
    body: bytes | None = None,
    path: str = "/api/tables",
) -> int:
    """The status of a request from ``source`` through the proxy (or straight to a port)."""
    port = proxy if isinstance(proxy, int) else proxy.port
    connection = http.client.HTTPConnection(
        "127.0.0.1", port, timeout=10, source_address=(source, 0)
    )
    try:
        connection.request(method, path, body, headers)
        response = connection.getresponse()
        response.read()
        return response.status
    finally:
        connection.close()


def _socket_from(proxy: Nginx, source: str) -> ClientConnection:
    """A WebSocket from ``source`` through the proxy."""
    raw = socket.create_connection(
        ("127.0.0.1", proxy.port), timeout=10, source_address=(source, 0)
    )
    return connect(f"ws://127.0.0.1:{proxy.port}/ws", sock=raw, open_timeout=10)


# On a dual-stack listener (``::``) nginx's IPv4 address arrives IPv4-mapped
# (``::ffff:127.0.0.1``), and the IPv4 address given still names it.
@pytest.mark.parametrize("host", ["127.0.0.1", "::"])
def test_behind_a_trusted_proxy_each_client_has_its_own_request_rate(
    tmp_path: Path, host: str
) -> None:
    burst = 3
    rate = ("--requests-per-second", "0.01", "--request-burst", str(burst))
    with _behind_nginx(tmp_path, *rate, host=host) as (server, proxy):
        first, second = CLIENTS
        assert [_get(proxy, first) for _ in range(burst + 1)] == [200] * burst + [429]
        # A client naming another address itself is still counted as itself: nginx appends
        # the address it came from, and that last one is the client the server counts.
        assert _get(proxy, first, {"X-Forwarded-For": "198.51.100.7"}) == 429
        # The other client's bucket is its own, not the proxy's shared one.
        assert [_get(proxy, second) for _ in range(burst)] == [200] * burst
        logged = [entry for entry in server.logs() if entry["message"] == "request"]
        through = {entry["client"] for entry in logged if entry["path"] == "/api/tables"}
        assert through == set(CLIENTS)


def test_behind_a_trusted_proxy_each_client_has_its_own_creation_rate(tmp_path: Path) -> None:
    burst = 2
    rate = ("--create-per-minute", "0.1", "--create-burst", str(burst))
    with _behind_nginx(tmp_path, *rate) as (_, proxy):
        first, second = CLIENTS
        assert [_create(proxy, first) for _ in range(burst + 1)] == [201] * burst + [429]
        assert [_create(proxy, second) for _ in range(burst)] == [201] * burst


def test_behind_a_trusted_proxy_connections_are_capped_by_client(tmp_path: Path) -> None:
    cap = 2
    flags = ("--max-connections-per-address", str(cap))
    with _behind_nginx(tmp_path, *flags) as (server, proxy), ExitStack() as sockets:
        table = server.create()
        watch = {"type": "watch", "table": table, "since": 0}
        first, second = CLIENTS
        mine = [sockets.enter_context(_socket_from(proxy, first)) for _ in range(cap)]
        assert [hello(ws, watch)["type"] for ws in mine] == ["welcome"] * cap
        with pytest.raises(InvalidStatus) as refused:
            _socket_from(proxy, first)
        assert refused.value.response.status_code == 429
        assert b"too_many_connections" in refused.value.response.body
        # A page asking why hears the same (P6.5), and the other client hears there is room.
        assert _ask_to_connect(proxy.port, first) == 429
        assert _ask_to_connect(proxy.port, second) == 200
        # The proxy's own address, straight to the server, is not capped either: its
        # connections count only against the process's cap, so the answer is 200 and a
        # WebSocket from there is taken.
        assert _ask_to_connect(server.port, PROXY) == 200
        direct = sockets.enter_context(connect(server.ws_url, open_timeout=10))
        assert hello(direct, watch)["type"] == "welcome"
        # nginx holds more than the cap of connections to the server, and another client
        # still gets in: the proxy is not one address.
        with _socket_from(proxy, second) as other:
            assert hello(other, watch)["type"] == "welcome"
        # A closed WebSocket frees its place (once the server has seen it end).
        mine[0].close()
        deadline = time.monotonic() + 5
        while True:
            try:
                again = _socket_from(proxy, first)
                break
            except InvalidStatus:
                assert time.monotonic() < deadline, "a closed WebSocket kept its place"
                time.sleep(0.05)
        with again:
            assert hello(again, watch)["type"] == "welcome"


def test_without_the_flag_a_proxy_is_one_address(tmp_path: Path) -> None:
    burst = 3
    flags = ("--requests-per-second", "0.01", "--request-burst", str(burst))
    server = Server(f"sqlite:///{tmp_path / 'tables.sqlite3'}", flags=(*ROOMY, *flags))
    proxy = Nginx(tmp_path / "nginx", server.port)
    try:
        first, second = CLIENTS
        # The harness's start-up checks came from 127.0.0.1, nginx's address, too.
        statuses = [_get(proxy, first) for _ in range(burst)] + [_get(proxy, second)]
        assert statuses[-1] == 429 and statuses.count(200) <= burst
    finally:
        proxy.stop()
        assert server.stop() == 0


@pytest.mark.parametrize("proxy", ["nginx.internal", "10.0.0.0/33", ""])
def test_a_trusted_proxy_must_be_an_address_or_a_network(proxy: str) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "tarabish", "serve", "--port", "0", "--trusted-proxy", proxy],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 2
    assert "--trusted-proxy takes an IP address or network" in run.stderr
    assert repr(proxy) in run.stderr
