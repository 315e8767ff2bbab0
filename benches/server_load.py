"""Load benchmark of ``tarabish serve`` (docs/PROTOCOL.md), loopback only, bounded in time and
count: N tables, four scripted WebSocket clients each (4N connections) playing every seat, each
sending a seeded random legal action whenever its view says it is to move. It reports the
actions per second the server took, the latency from an action's send to the acting client's
receipt of its broadcast (p50, p99), and the CPU time per action of the server process and of
this load generator apart, beside the same play on the engine alone (no network, no database):
bare ``apply``, and ``apply`` plus the per-seat messages the server builds (``events`` and
``table_view_json`` for four seats), so the cost of the server's own layers is visible.

The clock starts once every client has joined and the servers have finished the joining
(``QUIET_SECONDS``); the latency is each action's own, as its client sees it, from then on.

The run checks itself: no protocol error, every table moved, and after the run every table's
stored action log replays as a valid match (checked ``apply`` of each action) whose length is
exactly the number of actions its clients saw broadcast.

The generator is a tool and must not eat the CPU it measures: one process on uvloop, a bare
WebSocket client per connection on an asyncio ``Protocol`` (RFC 6455 framing written here; the
mask key is zero, which the protocol allows the server to accept), and a client parses a
message as JSON only when the message says it is to move.

``--servers N`` runs the same load on a deployment of N server processes sharing one
PostgreSQL database (docs/PROTOCOL.md "Several server processes"): each table is created on
one of them (round robin), is hosted by it (the summary's ``server``), and its four clients
connect to it; the server CPU is then the sum of the N processes', and the database's own CPU
(the cluster's processes, when the run starts the cluster) is reported beside it.

``python benches/server_load.py --tables 1000 --seconds 20`` runs it as a command;
benches/test_bench_server.py runs it under pytest-benchmark.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import gc
import os
import random
import resource
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import orjson
import tarabish
import uvloop

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from serverkit import ROOMY, Postgres, Server, free_port, postgres
from tarabish.server import GC_THRESHOLDS
from tarabish.server.store import Store
from tarabish.server.table import SUMMARY_SECONDS

RULES = {"target": 65535, "declarations": "manual", "enforce_legal_play": False}
"""Table mode, and a target no table reaches within a run."""
CALLS = (44, 45)
"""``misplay`` and ``throw``: the scripted players never call (each would end the hand)."""
CONNECT_BATCH = 400
"""Connections opened at once while the tables fill up."""
MAX_TABLES = 4000
MAX_SECONDS = 120.0
MAX_RATE = 100.0
MAX_SERVERS = 8
THROWAWAY_POSTGRESQL = "postgresql"
"""``--db postgresql``: a PostgreSQL cluster started for the run (tests/serverkit.py)."""
SETTLE_SECONDS = 10.0
"""How long the clients may take to join before the clock starts, and to hear the broadcast of
their last action after it stops."""
SEATS = 4
QUIET_SECONDS = 4 * SUMMARY_SECONDS
"""After the last client joined, the time the servers get to finish the joining (every join
announces the table's summary to its clients, coalesced over ``SUMMARY_SECONDS``) before the
clock starts: the window measures play, not the tail of the joins (which put the p99 of the
first second at 84 ms where the rest of a run had 33 ms, on the loaded machine)."""
JOINS_A_SECOND = 500
"""The least rate at which the clients are expected to join (the wait for them grows with the
count)."""
SCALING_TABLES = (200, 1000, 4000)
"""``--scaling``: the server's CPU an action at these many tables, one process."""
SCALING_BAR = 1.3
"""... the cost at the most tables within this factor of the cost at the fewest."""
OPEN_CONNECTIONS = SEATS * MAX_TABLES + 1000
OPEN_LIMITS = (
    *ROOMY,
    "--max-connections",
    str(OPEN_CONNECTIONS),
    "--max-connections-per-address",
    str(OPEN_CONNECTIONS),
    "--request-seconds",
    "60",
    "--hello-seconds",
    "60",
)
"""The load comes from one address, so the run raises the per-address limits (and the cap of the
process) with their flags, and gives the thousands of handshakes of the start the time they
take on a busy machine; the defaults protect a real deployment (docs/SECURITY.md)."""
# RFC 6455 framing: FIN + opcode, the mask bit, and a zero masking key.
TEXT, CLOSE, PING, PONG = 0x1, 0x8, 0x9, 0xA
FIN = 0x80
MASKED = 0x80
ZERO_MASK = b"\0\0\0\0"
EVENTS = b'{"type":"events"'
ERROR = b'{"type":"error"'


@dataclass
class Run:
    """The shared state of one run's clients."""

    started: bool = False
    sending: bool = False
    window: tuple[float, float] = (float("inf"), float("inf"))
    latencies: list[float] = field(default_factory=list)
    errors: list[bytes] = field(default_factory=list)
    clients: list[Seat] = field(default_factory=list)
    connections: int = 0
    ready: int = 0
    all_ready: asyncio.Event = field(default_factory=asyncio.Event)
    expected: int = 0
    interval: float | None = None
    """The mean time between two actions of a table (``1 / rate``), or None: at once."""
    due: dict[str, float] = field(default_factory=dict)
    """When each table's next action is due (``time.perf_counter``), with ``interval``."""
    server_sleeps: int = 0
    """Voluntary context switches of the server processes' threads in the window."""


class Seat(asyncio.Protocol):
    """One scripted player: a WebSocket on a bare asyncio ``Protocol``."""

    def __init__(self, run: Run, server: Server, table: str, seat: int) -> None:
        self.run = run
        self.host = urlsplit(server.url).netloc
        self.port = server.port
        self.table = table
        self.seat = seat
        self.rng = random.Random(f"{table}/{seat}")
        self.turn = b'"to_move":%d,' % seat
        self.buffer = bytearray()
        self.transport: Any = None  # uvloop's transport, an asyncio.Transport in all but name
        self.upgraded = False
        self.greeted = False
        self.waiting_turn: bytes | None = None
        self.sent_at: float | None = None
        self.acked = 0
        self.closed = asyncio.get_running_loop().create_future()

    def connection_made(self, transport: Any) -> None:
        self.transport = transport
        key = base64.b64encode(os.urandom(16)).decode()
        transport.write(
            f"GET /ws HTTP/1.1\r\nHost: {self.host}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n".encode()
        )

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.closed.done():
            self.closed.set_result(None)

    def send(self, payload: bytes, opcode: int = TEXT) -> None:
        """One masked client frame (payloads here are under 126 bytes)."""
        assert self.transport is not None and len(payload) < 126
        self.transport.write(bytes((FIN | opcode, MASKED | len(payload))) + ZERO_MASK + payload)

    def data_received(self, data: bytes) -> None:
        buffer = self.buffer
        buffer += data
        if not self.upgraded:
            end = buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            if not buffer.startswith(b"HTTP/1.1 101"):
                self.run.errors.append(bytes(buffer[:end]))
                return
            del buffer[: end + 4]
            self.upgraded = True
            self.send(b'{"type":"join","table":"%s","seat":%d}' % (self.table.encode(), self.seat))
        while len(buffer) >= 2:
            size = buffer[1] & 0x7F
            start = 2
            if size == 126:
                if len(buffer) < 4:
                    return
                size = int.from_bytes(buffer[2:4], "big")
                start = 4
            elif size == 127:
                if len(buffer) < 10:
                    return
                size = int.from_bytes(buffer[2:10], "big")
                start = 10
            if len(buffer) < start + size:
                return
            opcode = buffer[0] & 0x0F
            payload = bytes(buffer[start : start + size])
            del buffer[: start + size]
            if opcode == TEXT:
                self.message(payload)
            elif opcode == PING:
                self.send(payload, PONG)
            elif opcode == CLOSE and self.transport is not None:
                if self.run.sending or not self.run.started:  # not the run's own closes
                    self.run.errors.append(b"closed by the server: " + payload)
                self.transport.close()

    def message(self, payload: bytes) -> None:
        if not payload.startswith(EVENTS):
            if payload.startswith(ERROR):
                self.run.errors.append(payload)
            return
        run = self.run
        if self.sent_at is not None:
            # The first events after an action are its broadcast: no other seat may act
            # before it, and the server sends a connection its events in order.
            now = time.perf_counter()
            if run.window[0] <= self.sent_at and now <= run.window[1]:
                run.latencies.append(now - self.sent_at)
            self.sent_at = None
            self.acked += 1
            run.expected -= 1
        if not self.greeted:
            self.greeted = True
            run.ready += 1
            if run.ready == run.connections:
                run.all_ready.set()
        if self.turn in payload:
            if run.sending:
                self.turn_now(payload)
            elif not run.started:
                self.waiting_turn = payload

    def turn_now(self, payload: bytes) -> None:
        """Act at once (a closed loop: the load is what the server can take), or when the
        table's next action is due (a schedule of about ``rate`` actions a second a table, kept
        whatever the latency: a late action is sent at once, so the load is the rate asked for
        as long as the server keeps up)."""
        run = self.run
        if run.interval is None:
            self.act(payload)
            return
        now = time.perf_counter()
        due = run.due.get(self.table)
        if due is None:  # the table's first action: the tables start spread over an interval
            due = now + run.interval * self.rng.random()
        # The next action of this table is due one seeded interval (1/rate on average) later.
        run.due[self.table] = max(due, now - run.interval) + run.interval * (
            0.5 + self.rng.random()
        )
        if due <= now:
            self.act(payload)
        else:
            asyncio.get_running_loop().call_later(due - now, self.act, payload)

    def act(self, payload: bytes) -> None:
        if not self.run.sending:
            return
        view = orjson.loads(payload)["view"]
        if view["phase"] == "done":
            return
        ids = [i for i in view["legal"] if i not in CALLS] or [
            i for i in view["allowed"] if i not in CALLS
        ]
        self.sent_at = time.perf_counter()
        self.run.expected += 1
        self.send(b'{"type":"action","action":%d}' % self.rng.choice(ids))

    def start(self) -> None:
        if self.waiting_turn is not None:
            self.turn_now(self.waiting_turn)
            self.waiting_turn = None


def cpu_seconds(pid: int) -> tuple[float, float]:
    """User and system CPU time of a process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


def _spent(before: tuple[float, float], after: tuple[float, float]) -> tuple[float, float]:
    return after[0] - before[0], after[1] - before[1]


def cluster_pids(cluster: Postgres) -> list[int]:
    """The processes of a PostgreSQL cluster: its postmaster and the postmaster's children
    (one backend a server connection, and the background writers)."""
    postmaster = int((cluster.data / "postmaster.pid").read_text().split()[0])
    children = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == postmaster:
                children.append(int(stat.parent.name))
    return [postmaster, *children]


def cpu_of(pids: list[int]) -> dict[int, tuple[float, float]]:
    """``cpu_seconds`` of each of ``pids`` still running."""
    spent = {}
    for pid in pids:
        with contextlib.suppress(OSError):
            spent[pid] = cpu_seconds(pid)
    return spent


def sleeps(pids: list[int]) -> int:
    """How many times the threads of ``pids`` have gone to sleep so far (voluntary context
    switches, Linux /proc): each is a wake-up later, which costs CPU that no Python profile
    shows."""
    total = 0
    for pid in pids:
        for status in Path(f"/proc/{pid}/task").glob("*/status"):
            with contextlib.suppress(OSError):
                for line in status.read_text().splitlines():
                    if line.startswith("voluntary_ctxt_switches:"):
                        total += int(line.split()[1])
    return total


def spent_by(before: dict[int, tuple[float, float]], pids: list[int]) -> tuple[float, float]:
    """User and system CPU time ``pids`` spent since ``before`` (processes alive at both)."""
    after = cpu_of(pids)
    user = sum(after[pid][0] - before[pid][0] for pid in after if pid in before)
    system = sum(after[pid][1] - before[pid][1] for pid in after if pid in before)
    return user, system


@dataclass(frozen=True)
class Report:
    """One run: the server's figures, the generator's, and the engine's alone."""

    tables: int
    connections: int
    servers: int
    rate: float | None
    seconds: float
    actions: int
    total_actions: int
    errors: int
    tables_moved: int
    p50_ms: float
    p99_ms: float
    server_cpu_ms_per_action: float
    server_system_share: float
    server_sleeps_per_action: float
    """Times a server thread went to sleep (and so was woken), an action."""
    generator_cpu_ms_per_action: float
    generator_system_share: float
    database_cpu_ms_per_action: float | None
    """The PostgreSQL cluster's CPU an action, when the run started it (SQLite's is in the
    server's)."""
    engine_apply_ms_per_action: float
    engine_messages_ms_per_action: float
    load_average: tuple[float, float, float]

    @property
    def actions_per_second(self) -> float:
        return self.actions / self.seconds

    def lines(self) -> list[str]:
        load = ", ".join(f"{value:.2f}" for value in self.load_average)
        pace = (
            "each table as fast as the server answers"
            if self.rate is None
            else f"{self.rate:g} actions a second a table offered "
            f"({self.rate * self.tables:,.0f} in all)"
        )
        processes = "" if self.servers == 1 else f"{self.servers} server processes, "
        database = (
            ""
            if self.database_cpu_ms_per_action is None
            else f", database {self.database_cpu_ms_per_action:.3f} ms"
        )
        return [
            f"server: {processes}{self.tables} tables, {self.connections} connections, {pace}; "
            f"{self.actions_per_second:,.0f} actions/s over {self.seconds:.0f} s "
            f"({self.actions} actions; {self.total_actions} in all, each stored), "
            f"latency p50 {self.p50_ms:.1f} ms, p99 {self.p99_ms:.1f} ms, "
            f"{self.errors} errors, {self.tables_moved} tables moved",
            f"CPU an action: server {self.server_cpu_ms_per_action:.3f} ms "
            f"({100 * self.server_system_share:.0f} % in the kernel, "
            f"{self.server_sleeps_per_action:.2f} sleeps), "
            f"load generator {self.generator_cpu_ms_per_action:.3f} ms "
            f"({100 * self.generator_system_share:.0f} % in the kernel){database}; "
            f"load average {load} (at the end)",
            f"engine alone, CPU an action: {self.engine_apply_ms_per_action:.4f} ms (apply), "
            f"{self.engine_messages_ms_per_action:.4f} ms (apply + 4 seats' events and "
            f"table_view_json, as the server builds them)",
        ]


async def _drive(
    hosts: dict[str, Server], database: list[int], seconds: float, rate: float | None
) -> tuple[Run, tuple[float, float], tuple[float, float], tuple[float, float]]:
    """Play the tables of ``hosts`` (each table's id to the server that hosts it) for
    ``seconds``: the run, and the CPU time (user, system) in the window of the server
    processes, of this generator and of the ``database`` processes."""
    run = Run(interval=None if rate is None else 1.0 / rate)
    loop = asyncio.get_running_loop()
    tables = list(hosts)
    run.connections = SEATS * len(tables)
    for start in range(0, len(tables), CONNECT_BATCH // SEATS):
        batch = []
        for table in tables[start : start + CONNECT_BATCH // SEATS]:
            for seat in range(SEATS):
                client = Seat(run, hosts[table], table, seat)
                run.clients.append(client)
                batch.append(
                    loop.create_connection(lambda c=client: c, "127.0.0.1", client.port)  # type: ignore[misc]
                )
        await asyncio.gather(*batch)
    try:
        async with asyncio.timeout(SETTLE_SECONDS * 3 + run.connections / JOINS_A_SECOND):
            await run.all_ready.wait()
    except TimeoutError:
        raise RuntimeError(
            f"{run.ready} of {run.connections} clients joined in time; errors: {run.errors[:3]}"
        ) from None
    await asyncio.sleep(QUIET_SECONDS)
    gc.freeze()  # the clients live through the run: the collector need not walk them again
    # Nor collect while the clock runs: what the clients make an action is freed by reference
    # counting, and a collection of the young objects (some 10 ms at a time) would be counted
    # in the latency of every action whose broadcast arrived meanwhile (the server's is).
    gc.disable()
    servers = sorted({server.process.pid for server in hosts.values()})
    before = cpu_of([*servers, *database, os.getpid()])
    slept = sleeps(servers)
    begin = time.perf_counter()
    run.window = (begin, begin + seconds)
    run.started = run.sending = True
    for client in run.clients:
        client.start()
    await asyncio.sleep(seconds)
    run.sending = False
    gc.enable()
    server_cpu = spent_by(before, servers)
    run.server_sleeps = sleeps(servers) - slept
    mine_cpu = spent_by(before, [os.getpid()])
    database_cpu = spent_by(before, database)
    deadline = time.monotonic() + SETTLE_SECONDS
    while run.expected and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    for client in run.clients:
        if client.transport is not None:
            client.send(b"\x03\xe8", CLOSE)  # 1000, a normal close
    await asyncio.wait([client.closed for client in run.clients], timeout=SETTLE_SECONDS)
    return run, server_cpu, mine_cpu, database_cpu


async def _check_records(db: str, acked: dict[str, int]) -> None:
    """Every table's stored log replays as a valid match of exactly the actions its clients
    saw broadcast."""
    store = Store(db)
    await store.start()
    try:
        rules = tarabish.Rules.from_dict(RULES)
        for table, count in acked.items():
            stored = await store.load(table)
            assert stored is not None, table
            match = tarabish.MatchState(seed=stored.config["seed"], rules=rules)
            for action in stored.actions:
                match.apply(action)  # checked: an action the rules refuse raises
            assert len(stored.actions) == count, (table, len(stored.actions), count)
    finally:
        await store.stop()


def engine_alone(tables: int, actions: int, *, messages: bool) -> float:
    """CPU seconds an action of the same random play on the engine alone, round robin over
    ``tables`` matches: bare ``apply``, or (``messages``) also what the server builds for the
    four seats after each action (``events(seat, since)`` and ``table_view_json(seat)``, one
    JSON text each)."""
    rules = tarabish.Rules.from_dict(RULES)
    matches = [tarabish.MatchState(seed=seed, rules=rules) for seed in range(tables)]
    sent = [[0] * SEATS for _ in range(tables)]
    rng = random.Random(1)
    started = time.process_time()
    for number in range(actions):
        index = number % tables
        match = matches[index]
        seat = match.to_move
        ids = [i for i in match.legal_action_ids(seat) if i not in CALLS] or [
            i for i in match.allowed_action_ids(seat) if i not in CALLS
        ]
        match.apply(rng.choice(ids), seat)
        if messages:
            for other in range(SEATS):
                events = match.events(other, sent[index][other])
                text = (
                    '{"type":"events","events":'
                    + orjson.dumps(events).decode()
                    + ',"view":'
                    + match.table_view_json(other)
                    + "}"
                )
                assert text and events
                sent[index][other] = events[-1]["seq"]
    return (time.process_time() - started) / actions


def run(
    tables: int,
    seconds: float,
    db: str | None = None,
    rate: float | None = None,
    servers: int = 1,
) -> Report:
    """One bounded run on new servers (SQLite in a temp folder unless ``db`` is given;
    ``THROWAWAY_POSTGRESQL``: a PostgreSQL cluster started for the run): each table as fast as
    its clients hear their turn (``rate`` None: what the server can take, at the latency that
    gives), or about ``rate`` actions a second a table (an offered load of ``tables * rate``
    actions a second, and the latency at that load). ``servers`` processes share the database
    (more than one share PostgreSQL: a throwaway cluster if ``db`` is None), each hosting the
    tables created on it."""
    if not 0 < tables <= MAX_TABLES or not 0 < seconds <= MAX_SECONDS:
        raise ValueError(f"tables 1..{MAX_TABLES} and seconds up to {MAX_SECONDS}")
    if rate is not None and not 0 < rate <= MAX_RATE:
        raise ValueError(f"rate: actions a second a table, up to {MAX_RATE}")
    if not 0 < servers <= MAX_SERVERS:
        raise ValueError(f"servers: 1..{MAX_SERVERS} processes")
    if servers > 1:
        db = db or THROWAWAY_POSTGRESQL
        if not db.startswith("postgres"):
            raise ValueError("several server processes share a PostgreSQL database")
    # Two sockets a connection in one process each side: raise the open-file limit.
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = min(hard, max(soft, 2 * SEATS * tables + 1024))
    resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    gc.set_threshold(*GC_THRESHOLDS)  # as the server does, for the same reason
    with tempfile.TemporaryDirectory() as folder, contextlib.ExitStack() as stack:
        url = db or f"sqlite:///{Path(folder) / 'load.sqlite3'}"
        cluster = None
        if db == THROWAWAY_POSTGRESQL:
            cluster = stack.enter_context(postgres())
            url = cluster.url
        running: list[Server] = []
        try:
            for _ in range(servers):
                # Each process is known by the address its clients reach it at (its server id).
                port = free_port()
                running.append(
                    Server(url, port=port, server_id=f"127.0.0.1:{port}", flags=OPEN_LIMITS)
                )
            # Tables are spread over the processes; each table's clients go to the process its
            # summary names (``server``), as a client of a real deployment does.
            by_id = {server.server_id: server for server in running}
            hosts: dict[str, Server] = {}
            for seed in range(tables):
                status, summary = running[seed % servers].request(
                    "POST", "/api/tables", {"rules": RULES, "seed": seed, "practice": True}
                )
                assert status == 201, summary
                hosts[summary["table"]] = by_id[summary["server"]]
            database = [] if cluster is None else cluster_pids(cluster)
            with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
                load, server_cpu, mine_cpu, database_cpu = runner.run(
                    _drive(hosts, database, seconds, rate)
                )
        finally:
            for server in running:
                server.stop()
        acked: dict[str, int] = dict.fromkeys(hosts, 0)
        for client in load.clients:
            acked[client.table] += client.acked
        asyncio.run(_check_records(url, acked))
    count = len(load.latencies)
    latencies = sorted(load.latencies) or [0.0]
    total = sum(acked.values())
    sample = max(total, 1000)
    return Report(
        tables=tables,
        connections=SEATS * tables,
        servers=servers,
        rate=rate,
        seconds=seconds,
        actions=count,
        total_actions=total,
        errors=len(load.errors),
        tables_moved=sum(1 for value in acked.values() if value),
        p50_ms=1000 * statistics.median(latencies),
        p99_ms=1000 * latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))],
        server_cpu_ms_per_action=1000 * sum(server_cpu) / max(count, 1),
        server_system_share=server_cpu[1] / max(sum(server_cpu), 1e-9),
        server_sleeps_per_action=load.server_sleeps / max(count, 1),
        generator_cpu_ms_per_action=1000 * sum(mine_cpu) / max(count, 1),
        generator_system_share=mine_cpu[1] / max(sum(mine_cpu), 1e-9),
        database_cpu_ms_per_action=None
        if cluster is None
        else 1000 * sum(database_cpu) / max(count, 1),
        engine_apply_ms_per_action=1000 * engine_alone(tables, sample, messages=False),
        engine_messages_ms_per_action=1000 * engine_alone(tables, sample, messages=True),
        load_average=os.getloadavg(),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument(
        "--db",
        default=None,
        help="a database URL, or 'postgresql' for a throwaway PostgreSQL cluster started here "
        "(default: SQLite in a temp dir)",
    )
    parser.add_argument(
        "--rate",
        type=float,
        default=None,
        help="actions a second a table (default: each table as fast as the server answers)",
    )
    parser.add_argument(
        "--servers",
        type=int,
        default=1,
        help="server processes sharing the database, each hosting its share of the tables "
        "(more than one share PostgreSQL: a throwaway cluster unless --db names one)",
    )
    parser.add_argument(
        "--scaling",
        action="store_true",
        help="run at 200, 1,000 and 4,000 tables on one process and compare the server's CPU "
        "an action (the cost at 4,000 within 1.3x of the cost at 200)",
    )
    args = parser.parse_args()
    if args.scaling:
        scaling(args.seconds, args.db)
        return
    for line in run(args.tables, args.seconds, args.db, args.rate, args.servers).lines():
        print(line)


def scaling(seconds: float, db: str | None) -> list[Report]:
    """The same load at each of ``SCALING_TABLES`` on one process: each run's figures, then
    the server's CPU an action side by side and the ratio of the most tables' to the
    fewest's (``SCALING_BAR`` is the bar; printed, not asserted)."""
    reports = []
    for tables in SCALING_TABLES:
        report = run(tables, seconds, db)
        for line in report.lines():
            print(line)
        reports.append(report)
    costs = ", ".join(f"{r.tables:,} tables {r.server_cpu_ms_per_action:.3f} ms" for r in reports)
    ratio = reports[-1].server_cpu_ms_per_action / reports[0].server_cpu_ms_per_action
    verdict = "within" if ratio <= SCALING_BAR else "NOT within"
    print(
        f"server CPU an action: {costs}; {reports[-1].tables:,} / {reports[0].tables:,} = "
        f"{ratio:.2f} ({verdict} {SCALING_BAR}x)"
    )
    return reports


if __name__ == "__main__":
    main()
