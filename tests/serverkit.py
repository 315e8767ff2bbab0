"""Test harness of ``tarabish serve`` (tests/test_server_*.py): the real command in a
subprocess, scripted WebSocket clients that play by the protocol (docs/PROTOCOL.md), an oracle
that rebuilds what each seat should have been sent, a leak check, and a throwaway PostgreSQL.
"""

from __future__ import annotations

import atexit
import base64
import contextlib
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tarabish.server.client import PAGE_BYTES
from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.sync.client import ClientConnection, connect

ENGINE = "rust"
"""The engine the server tests run (``tarabish serve --engine``): the default, the Rust core."""
START_SECONDS = 30.0
CARD = re.compile(r"^[6789TJQKA][CDHS]$")
CALLS = (44, 45)


ROOMY = (
    "--create-burst",
    "100000",
    "--create-per-minute",
    "100000",
    "--request-burst",
    "100000",
    "--requests-per-second",
    "100000",
)
"""The flags every test server gets unless it asks otherwise: the suite creates tables and
makes requests faster than the default limits allow one address (tests/test_server_limits.py
tests them)."""

_STARTED: list[subprocess.Popen[str]] = []


@atexit.register
def _kill_leftovers() -> None:
    """A test that failed half-way may leave a server running: end it with the test run."""
    for process in _STARTED:
        if process.poll() is None:
            process.kill()


class Server:
    """``tarabish serve`` running in a subprocess on a free loopback port."""

    def __init__(
        self,
        db: str,
        *,
        port: int = 0,
        host: str = "127.0.0.1",
        server_id: str = "test",
        flags: tuple[str, ...] = ROOMY,
        limits: dict[int, int] | None = None,
    ) -> None:
        self.db = db
        self.server_id = server_id
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tarabish",
                "serve",
                "--host",
                host,
                "--port",
                str(port),
                "--db",
                db,
                "--engine",
                ENGINE,
                "--server-id",
                server_id,
                *flags,
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            preexec_fn=None if limits is None else lambda: _set_limits(limits),
        )
        _STARTED.append(self.process)
        self.stderr: list[str] = []
        threading.Thread(target=self._drain_stderr, daemon=True).start()
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        found = re.search(r"open (http://(?:[\d.]+|\[[\da-f:]+\]):(\d+)/)", line)
        if not found:
            self.process.kill()
            raise RuntimeError(f"tarabish serve did not start: {line!r} {self.stderr[-5:]}")
        self.url = found.group(1)
        self.port = int(found.group(2))
        self.ws_url = f"ws://127.0.0.1:{self.port}/ws"
        deadline = time.monotonic() + START_SECONDS
        while self.get("/healthz")[0] != 200:
            if time.monotonic() > deadline:
                raise RuntimeError("/healthz never answered 200")
            time.sleep(0.05)

    def _drain_stderr(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.stderr.append(line)

    def logs(self) -> list[dict[str, Any]]:
        """The structured log lines so far (JSON objects)."""
        return [json.loads(line) for line in self.stderr if line.startswith("{")]

    def wait_for_log(self, message: str, timeout: float = 10.0, **fields: Any) -> dict[str, Any]:
        """The first log entry with this message and these fields (the log is read from the
        process's standard error by a thread, so a line may come a moment after its cause)."""
        deadline = time.monotonic() + timeout
        while True:
            for entry in self.logs():
                if entry["message"] == message and fields.items() <= entry.items():
                    return entry
            assert time.monotonic() < deadline, f"no log entry {message!r} {fields}"
            time.sleep(0.02)

    def request(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> tuple[int, Any]:
        """An HTTP request with a JSON body (if any): the status and the JSON answer."""
        data = None if body is None else json.dumps(body).encode()
        sent = {"Content-Type": "application/json"} if data is not None else {}
        return self.request_raw(method, path, data, sent | (headers or {}))

    def request_raw(
        self, method: str, path: str, data: bytes | None, headers: dict[str, str]
    ) -> tuple[int, Any]:
        """An HTTP request with exactly these body bytes and headers."""
        request = urllib.request.Request(
            self.url.rstrip("/") + path, data=data, method=method, headers=headers
        )
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, json.loads(response.read() or b"null")
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"null")

    def get(self, path: str) -> tuple[int, Any]:
        try:
            return self.request("GET", path)
        except OSError:
            return 0, None

    def create(self, **config: Any) -> str:
        """A new table's id; a chosen ``seed`` makes it a practice table (the oracle of a test
        needs the seed before the match is over)."""
        if "seed" in config:
            config.setdefault("practice", True)
        status, answer = self.request("POST", "/api/tables", config)
        assert status == 201, answer
        return str(answer["table"])

    def kill9(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> int:
        """SIGTERM (graceful shutdown); the exit status."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        return self.process.returncode


def _set_limits(limits: dict[int, int]) -> None:
    """In the child before it runs the server: resource limits (``resource.RLIMIT_...``)."""
    import resource

    for kind, value in limits.items():
        resource.setrlimit(kind, (value, value))


def rss_bytes(pid: int) -> int:
    """A process's resident memory (Linux /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError(f"no VmRSS for process {pid}")


@contextlib.contextmanager
def sqlite_server(folder: Path) -> Iterator[Server]:
    """A server on a new SQLite file in ``folder``; afterwards it must stop gracefully."""
    running = Server(f"sqlite:///{folder / 'tables.sqlite3'}")
    try:
        yield running
    finally:
        assert running.stop() == 0


def open_socket(server: Server) -> ClientConnection:
    return connect(server.ws_url, open_timeout=10, close_timeout=1, max_size=2**22)


def hello(ws: ClientConnection, message: dict[str, Any]) -> dict[str, Any]:
    ws.send(json.dumps(message))
    return receive(ws)


def receive(ws: ClientConnection, timeout: float = 10.0) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(ws.recv(timeout))
    return message


def receive_until(
    ws: ClientConnection, wanted: str, timeout: float = 10.0
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Messages until one of type ``wanted``: (that one, all of them)."""
    seen = []
    deadline = time.monotonic() + timeout
    while True:
        message = receive(ws, max(0.01, deadline - time.monotonic()))
        seen.append(message)
        if message["type"] == wanted:
            return message, seen


class Visibility:
    """What one seat (or a spectator, ``seat`` None) may know of the cards, kept from its own
    events in order: its deal and kitty, every card played or shown. A message that carries any
    other card, or another seat's deal or kitty, is a leak."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.seen: set[str] = set()

    def check(self, message: dict[str, Any]) -> None:
        for event in message.get("events", ()):
            kind = event["kind"]
            if kind == "hand_start":
                self.seen = set()
            if kind in ("deal", "kitty"):
                assert event["seat"] == self.seat, f"seat {self.seat} was sent {event}"
                self.seen.update(event["cards"])
            elif kind == "play":
                self.seen.add(event["card"])
            elif kind == "show":
                self.seen.update(event["cards"])
            leaked = _cards(event) - self.seen
            assert not leaked, f"seat {self.seat} was sent hidden cards {leaked} in {event}"
        if "view" in message:
            assert self.seat is not None, "a spectator was sent a table view"
            assert message["view"]["seat"] == self.seat, message["view"]
            leaked = _cards(message["view"]) - self.seen
            assert not leaked, f"seat {self.seat} was sent hidden cards {leaked} in its view"


def _cards(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value} if CARD.match(value) else set()
    if isinstance(value, dict):
        return set().union(*(_cards(item) for item in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(_cards(item) for item in value)) if value else set()
    return set()


class Player(threading.Thread):
    """A scripted client in its own thread: joins (or resumes) a seat and, whenever its view
    says it is to move, sends a seeded choice among its legal ids (never a call) until the
    match is over (its first action waits for ``go``, if given). Keeps every message, checks
    each for leaks, and can drop its connection after ``drop_after`` actions and resume with
    the last seq it saw."""

    def __init__(
        self,
        server: Server,
        table: str,
        seat: int | None,
        *,
        seed: int = 0,
        drop_after: int | None = None,
        pause: float = 0.0,
        go: threading.Event | None = None,
    ) -> None:
        super().__init__(daemon=True)
        self.server = server
        self.table = table
        self.seat = seat
        self.rng = random.Random(seed)
        self.drop_after = drop_after
        self.pause = pause
        self.go = go
        self.token: str | None = None
        self.events: list[dict[str, Any]] = []
        self.messages: list[dict[str, Any]] = []
        self.errors: list[dict[str, Any]] = []
        self.acted = 0
        self.reconnects = 0
        self.failure: BaseException | None = None
        self.visibility = Visibility(seat)
        self.done = threading.Event()

    @property
    def last_seq(self) -> int:
        return self.events[-1]["seq"] if self.events else 0

    def _hello(self) -> dict[str, Any]:
        if self.seat is None:
            return {"type": "watch", "table": self.table, "since": self.last_seq}
        if self.token is None:
            return {"type": "join", "table": self.table, "seat": self.seat}
        return {"type": "resume", "table": self.table, "token": self.token, "since": self.last_seq}

    def run(self) -> None:
        try:
            while not self.done.is_set():
                self._session()
        except BaseException as error:
            self.failure = error
            self.done.set()

    def _session(self) -> None:
        try:
            with open_socket(self.server) as ws:
                ws.send(json.dumps(self._hello()))
                while not self.done.is_set():
                    message = receive(ws, 60.0)
                    self._take(message)
                    if message["type"] == "events" and self._act(ws, message):
                        return  # dropped on purpose: resume at once
                return
        except TimeoutError:
            raise
        except (OSError, ConnectionClosed, InvalidHandshake):  # the server went away: reconnect
            pass
        self._wait_for_server()

    def _wait_for_server(self) -> None:
        self.reconnects += 1
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError):
                socket.create_connection(("127.0.0.1", self.server.port), 0.2).close()
                return
            time.sleep(0.05)

    def _take(self, message: dict[str, Any]) -> None:
        self.messages.append(message)
        self.visibility.check(message)
        if message["type"] == "welcome" and "token" in message:
            self.token = message["token"]
        elif message["type"] == "error":
            # A scripted player only acts when its view says it may: any refusal is a fault,
            # reported at once (a seat taken for "no seat" is refused, and the match would
            # otherwise stall until the receive timeout).
            self.errors.append(message)
            raise AssertionError(f"seat {self.seat}: the server refused: {message}")
        elif message["type"] == "events":
            # A seat's last page of events carries its view, and only a page cut at the page
            # size comes without one: a short page without a view means the seat was served
            # as a spectator (seat 0 taken for "no seat"), and it would never be asked to act.
            if self.seat is not None and "view" not in message:
                size = len(json.dumps(message["events"]))
                assert size > PAGE_BYTES // 2, f"seat {self.seat} got a spectator's page"
            for event in message["events"]:
                assert event["seq"] > self.last_seq, f"seq went back or doubled: {event}"
                self.events.append(event)
                if event["kind"] == "match_over":
                    self.done.set()

    def _act(self, ws: ClientConnection, message: dict[str, Any]) -> bool:
        view = message.get("view")
        if view is None or view["to_move"] != self.seat or view["phase"] == "done":
            return False
        choices = [i for i in view["legal"] if i not in CALLS] or [
            i for i in view["allowed"] if i not in CALLS
        ]
        if not choices:
            return False
        if self.go is not None:
            self.go.wait()
        if self.pause:
            time.sleep(self.pause)
        ws.send(json.dumps({"type": "action", "action": self.rng.choice(choices)}))
        self.acted += 1
        if self.drop_after is not None and self.acted == self.drop_after:
            self.drop_after = None
            ws.close()
            return True
        return False

    def finish(self, timeout: float = 120.0) -> None:
        self.join(timeout)
        if self.failure is not None:
            raise self.failure
        assert not self.is_alive(), f"seat {self.seat} did not see the match end"


def oracle_events(rules: dict[str, Any], seed: int, actions: list[str], seat: int | None) -> Any:
    """What ``seat`` should have been sent: the events of a fresh match with the table's seed
    after the record's actions (the engine's own ``events``)."""
    import tarabish
    from tarabish.server.engine import engine_module

    state = engine_module(ENGINE).MatchState(seed=seed, rules=tarabish.Rules.from_dict(rules))
    for action in actions:
        state.apply(action)
    return state.events(seat)


def record_actions(record: dict[str, Any]) -> list[str]:
    return [action for hand in record["hands"] for action in hand["actions"]]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


NGINX = "/usr/sbin/nginx"
NGINX_CONFIG = """
user root;
worker_processes 1;
daemon off;
pid {folder}/nginx.pid;
error_log {folder}/error.log warn;
events {{ worker_connections 256; }}
http {{
    access_log off;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
    map $http_upgrade $connection_upgrade {{ default upgrade; '' close; }}
    server {{
        listen 127.0.0.1:{port};
        location / {{
            proxy_pass http://127.0.0.1:{upstream};
            proxy_http_version 1.1;
            proxy_set_header Host $http_host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_read_timeout 60s;
        }}
    }}
}}
"""
"""A reverse proxy as its usual guides set one up for an ASGI server with WebSockets: the
client's address appended to ``X-Forwarded-For``, the ``Host`` kept, upgrades passed on."""


class Nginx:
    """Debian's nginx in front of a server (``NGINX_CONFIG``), on a free loopback port."""

    def __init__(self, folder: Path, upstream: int) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        config = folder / "nginx.conf"
        config.write_text(NGINX_CONFIG.format(folder=folder, port=self.port, upstream=upstream))
        self.process = subprocess.Popen(
            [NGINX, "-p", str(folder), "-c", str(config)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        _STARTED.append(self.process)
        deadline = time.monotonic() + START_SECONDS
        while True:
            with (
                contextlib.suppress(OSError),
                socket.create_connection(("127.0.0.1", self.port), timeout=1),
            ):
                break
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.process.kill()
                raise RuntimeError(f"nginx did not start: {self.process.communicate()[1]}")
            time.sleep(0.05)

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)


class Postgres:
    """A throwaway PostgreSQL cluster (Debian's, installed by .ci/system-deps.sh) in a temp
    folder on a loopback port, run as the ``postgres`` user when we are root."""

    def __init__(self) -> None:
        bins = sorted(Path("/usr/lib/postgresql").glob("*/bin"))
        assert bins, "PostgreSQL is not installed: run .ci/system-deps.sh"
        self.bin = bins[-1]
        self.folder = Path(tempfile.mkdtemp(prefix="tarabish-pg-"))
        self.as_user: list[str] = []
        if os.geteuid() == 0:
            shutil.chown(self.folder, "postgres")
            self.as_user = ["runuser", "-u", "postgres", "--"]
        self.data = self.folder / "data"
        self.port = free_port()
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "--no-sync")

    def _run(self, program: str, *arguments: str) -> None:
        command = [*self.as_user, str(self.bin / program), *arguments]
        subprocess.run(command, check=True, capture_output=True, timeout=60)

    def start(self) -> None:
        options = f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.folder}"
        self._run(
            "pg_ctl",
            "-D",
            str(self.data),
            "-l",
            str(self.folder / "log"),
            "-w",
            "-o",
            options,
            "start",
        )

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")

    def remove(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):
            self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)


@contextlib.contextmanager
def postgres() -> Iterator[Postgres]:
    """A running throwaway cluster, removed afterwards."""
    cluster = Postgres()
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.remove()


def actions_from_events(events: list[dict[str, Any]]) -> list[str]:
    """The record actions a client saw, read back from its public events (table mode with
    manual declarations, where every announce, show and bella is an action)."""
    actions = []
    for event in events:
        kind = event["kind"]
        if kind == "pass":
            actions.append(f"{event['seat']} pass")
        elif kind == "call":
            actions.append(f"{event['seat']} call {event['suit']}")
        elif kind == "play":
            actions.append(f"{event['seat']} play {event['card']}")
        elif kind in ("announce", "show", "bella", "misplay", "throw"):
            actions.append(f"{event['seat']} {kind}")
    return actions


def raw_websocket(
    server: Server,
    message: dict[str, Any] | None = None,
    *,
    rcvbuf: int | None = None,
    headers: dict[str, str] | None = None,
) -> socket.socket:
    """A WebSocket on a bare socket (RFC 6455 by hand: a client that does not read, or sends
    what no library would, is exactly what a library's reader thread would hide), optionally
    with a small receive buffer, extra handshake headers, and a first message sent."""
    raw = socket.socket()
    if rcvbuf is not None:
        raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    raw.connect(("127.0.0.1", server.port))
    key = base64.b64encode(os.urandom(16)).decode()
    extra = "".join(f"{name}: {value}\r\n" for name, value in (headers or {}).items())
    raw.sendall(
        f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
        f"{extra}\r\n".encode()
    )
    answer = b""
    raw.settimeout(10)
    while b"\r\n\r\n" not in answer:
        chunk = raw.recv(1)
        assert chunk, f"the server closed the handshake: {answer!r}"
        answer += chunk
    assert answer.startswith(b"HTTP/1.1 101"), answer
    if message is not None:
        send_frame(raw, json.dumps(message).encode())
    return raw


def send_frame(raw: socket.socket, payload: bytes, opcode: int = 0x1) -> None:
    """One masked client frame (FIN; a zero mask key: the payload as is)."""
    size = len(payload)
    if size < 126:
        head = bytes((0x80 | opcode, 0x80 | size))
    else:
        head = bytes((0x80 | opcode, 0x80 | 126)) + size.to_bytes(2, "big")
    raw.sendall(head + b"\0\0\0\0" + payload)


def read_frames(raw: socket.socket, timeout: float) -> tuple[list[dict[str, Any]], int]:
    """What the server sends on ``raw`` up to its close frame: the text messages and the close
    code."""
    raw.settimeout(timeout)
    data = b""
    messages = []
    while True:
        opcode, size, start = (data[0] & 0x0F, data[1] & 0x7F, 2) if len(data) > 1 else (0, 0, 0)
        if size == 126 and len(data) >= 4:
            size, start = int.from_bytes(data[2:4], "big"), 4
        elif size == 127 and len(data) >= 10:
            size, start = int.from_bytes(data[2:10], "big"), 10
        if not start or (size >= 126 and start == 2) or len(data) < start + size:
            chunk = raw.recv(65536)
            assert chunk, "the connection ended without a close frame"
            data += chunk
            continue
        payload, data = data[start : start + size], data[start + size :]
        if opcode == 0x8:
            return messages, int.from_bytes(payload[:2], "big")
        if opcode == 0x1:
            messages.append(json.loads(payload))
