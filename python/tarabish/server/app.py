"""The server's web application: the WebSocket protocol of docs/PROTOCOL.md on raw ASGI, and on
Starlette the HTTP API to create and list tables, ``/healthz``, and the page.

``GameServer`` holds the live tables of this process and its store; ``create_app`` wires it to
routes. The WebSocket at ``/ws`` is served by ``Connection`` on the ASGI calls themselves
(``Socket``), not through Starlette's WebSocket and middleware: every action sends four
messages, and the framework's layers per message were a visible part of the server's CPU.
A table lives on the process that created it (``owner``, its server id); on start a
process resumes every unfinished table it owns from the database (with SQLite: every unfinished
table of the file). ``guard.Guard`` stands in front of every route (Origin, request bounds,
security headers, access log); the limits are ``limits.Limits`` (docs/SECURITY.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import math
import secrets
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import orjson
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send

from .._errors import TarabishError
from . import protocol
from .analysis import MAX_RECORD_BYTES, analysis_routes
from .bots import BotPool
from .client import SEND_TIMEOUT, Client, Socket, encode
from .guard import Guard
from .limits import Limits, address_group, flag
from .names import names_routes
from .protocol import AddressRates, ProtocolError, RateLimit
from .store import Store, StoreConflict, StoreUnavailable, token_hash
from .table import Table, TableConfig

log = logging.getLogger("tarabish.server")

STATIC = Path(__file__).with_name("static")
WEBSOCKET_PATH = "/ws"
SWEEP_SECONDS = 1.0
"""How often the server looks for clients too slow to take their messages (P1.4) and for
tables to let go (expired, or finished and left)."""
CLOSE_POLICY = 1008
TOKEN_BYTES = 18
LIST_DEFAULT = 50
LIST_MAX = 200
"""``GET /api/tables?limit=``: the page's size when not given, and the most it may be."""


class GameServer:
    """The tables of one server process, its store, its engine module and its limits."""

    def __init__(
        self, store: Store, module: ModuleType, server_id: str, limits: Limits | None = None
    ) -> None:
        self.store = store
        self.module = module
        self.server_id = server_id
        self.limits = limits or Limits()
        self.pool = BotPool(self.limits)
        self.creations = AddressRates(self.limits.create_per_minute / 60, self.limits.create_burst)
        self.requests = AddressRates(self.limits.requests_per_second, self.limits.request_burst)
        """Every HTTP request's rate, per address (``guard.Guard`` asks it)."""
        self.tables: dict[str, Table] = {}
        self.ready = False
        self.stopping = False
        self.draining = False
        """Set at SIGTERM: ``/healthz`` answers 503 from then on."""
        self._sweeper: asyncio.Task[None] | None = None
        self.connections: Callable[[], int] = lambda: 0
        """How many connections the process has open (set by the process to its gate's)."""
        self.connections_from: Callable[[str], int] = lambda address: 0
        """How many connections the process has open from one address (likewise)."""

    def _host(self, stored: Any) -> Table:
        table = Table.from_stored(
            stored, self.module, self.store, self.server_id, self.pool, self.limits
        )
        self.tables[table.id] = table
        table.changed()
        return table

    async def startup(self) -> None:
        """Open the store and resume every unfinished table this server owns."""
        await self.store.start()
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep())
        owner = self.server_id if self.store.is_postgres else None
        for stored in await self.store.unfinished(owner):
            self._host(stored)
        self.ready = True
        log.info(
            "ready",
            extra={
                "db": self.store.description,
                "engine": self.module.__name__,
                "server_id": self.server_id,
                "resumed_tables": len(self.tables),
            },
        )

    async def shutdown(self) -> None:
        """Refuse new actions, let the ones being committed finish, commit every queued write."""
        self.stopping = True
        self.ready = False
        if self._sweeper is not None:
            self._sweeper.cancel()
        for table in list(self.tables.values()):
            await table.close()
            for client in list(table.clients):
                client.close(1001, "the server is shutting down")
        await self.store.stop()
        self.pool.shutdown()
        log.info("stopped", extra={"tables": len(self.tables)})

    @property
    def health(self) -> str:
        """``ready``, or why not: ``starting``, ``stopping`` or ``degraded`` (the database's
        last commit failed)."""
        if self.stopping or self.draining:
            return "stopping"
        if not self.ready:
            return "starting"
        return "degraded" if self.store.degraded else "ready"

    async def _sweep(self) -> None:
        """Once a second: disconnect every client a message has waited for too long (P1.4),
        and let go of the tables whose time is up."""
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            now = time.monotonic()
            for table in list(self.tables.values()):
                for client in list(table.clients):
                    client.check_pace(now)
                if not table.clients and not self.stopping:
                    await self._let_go(table, now - table.idle_since)
            self.creations.prune(now)
            self.requests.prune(now)

    async def _let_go(self, table: Table, idle: float) -> None:
        """A finished table leaves memory ``finished_table_seconds`` after its last client
        (the database keeps it); a table nobody sat at or watched for ``idle_table_seconds``
        expires, and is deleted."""
        if table.state.is_terminal:
            if idle >= self.limits.finished_table_seconds:
                self.tables.pop(table.id, None)
                await table.close()
        elif not table.tokens and idle >= self.limits.idle_table_seconds:
            self.tables.pop(table.id, None)
            await table.close()
            with contextlib.suppress(StoreUnavailable):
                await self.store.forget(table.id)
            log.info("table expired", extra={"table": table.id})

    async def create_table(self, data: Any) -> Table:
        config = TableConfig.from_request(data, self.module, self.limits)
        table = Table(config, self.module, self.store, self.server_id, self.pool)
        await self.store.create_table(config.id, self.server_id, time.time(), config.to_dict())
        self.tables[config.id] = table
        log.info("table created", extra={"table": config.id, "seats": list(config.seats)})
        table.changed()
        return table

    async def table(self, table_id: str) -> Table:
        """The live table ``table_id`` (a finished one is loaded again); ``ProtocolError``
        P2.1 if there is none, or if another server process owns it."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        owner = await self.store.owner_of(table_id)
        if owner is None:
            raise ProtocolError("no_table", "P2.1", f"there is no table {table_id!r}")
        if owner != self.server_id and self.store.is_postgres:
            raise ProtocolError(
                "elsewhere", "P2.1", f"table {table_id!r} is hosted by server {owner!r}", owner
            )
        stored = await self.store.load(table_id)
        if stored is None:
            raise ProtocolError("no_table", "P2.1", f"there is no table {table_id!r}")
        if table_id not in self.tables:  # another hello may have loaded it meanwhile
            return self._host(stored)
        return self.tables[table_id]

    def listing(self, limit: int, after: str | None) -> dict[str, Any]:
        """A page of this process's live tables in creation order: ``limit`` summaries after
        the table ``after`` (exclusive), and the id to ask ``after`` next (None at the end).
        ``ProtocolError`` if ``after`` is not a live table."""
        tables = iter(self.tables.values())
        if after is not None:
            if after not in self.tables:
                raise ProtocolError(
                    "no_table", "P6.4", f"'after': no live table {after!r} (list from the start)"
                )
            for table in tables:
                if table.id == after:
                    break
        page = []
        for table in tables:
            page.append(table)
            if len(page) == limit:
                break
        more = bool(page) and next(tables, None) is not None
        return {
            "tables": [table.summary() for table in page],
            "next": page[-1].id if more else None,
        }


# -- the WebSocket protocol ------------------------------------------------------------------


class Connection:
    """The reading side of one WebSocket: hello, then actions (docs/PROTOCOL.md P1-P3)."""

    def __init__(self, server: GameServer, websocket: Socket) -> None:
        self.server = server
        self.websocket = websocket
        self.client: Client | None = None
        self.rate = RateLimit()

    async def reply(self, message: dict[str, Any]) -> None:
        if self.client is not None:
            self.client.send(message)
        else:
            async with asyncio.timeout(SEND_TIMEOUT):
                await self.websocket.send_text(encode(message))

    async def run(self) -> None:
        if (await self.websocket.receive())["type"] != "websocket.connect":
            return
        try:
            await self.websocket.accept()
            await self._read()
        except (OSError, RuntimeError):  # the client went away while being sent to
            pass
        finally:
            client = self.client
            if client is not None:
                client.table.detach(client)
                await client.stop()
                log.info("left", extra={"table": client.table.id, "seat": client.seat})

    async def _read(self) -> None:
        deadline = asyncio.get_running_loop().time() + self.server.limits.hello_seconds
        while True:
            if self.client is not None:  # joined: no deadline (and no timer an action)
                frame = await self.websocket.receive()
            else:
                try:
                    async with asyncio.timeout_at(deadline):
                        frame = await self.websocket.receive()
                except TimeoutError:
                    await self.websocket.close(
                        CLOSE_POLICY, "P2.1 no join, resume or watch in time"
                    )
                    return
            if frame["type"] == "websocket.disconnect":
                return
            if not self.rate.allow():
                if self.rate.refused_in_a_row >= protocol.FLOOD_CLOSE:
                    await self.websocket.close(CLOSE_POLICY, "P1.3 flood")
                    return
                if self.rate.refused_in_a_row == 1:
                    await self.reply(
                        ProtocolError(
                            "rate_limited",
                            "P1.3",
                            f"at most {protocol.RATE:g} messages a second "
                            f"({protocol.BURST:g} at once): messages are dropped",
                        ).to_message()
                    )
                continue
            try:
                await self._handle(protocol.parse(frame.get("text")))
            except ProtocolError as error:
                await self.reply(error.to_message())
                if error.code == "full":  # P2.5: closed at once
                    await self.websocket.close(CLOSE_POLICY, "P2.5 the table is full")
                    self.websocket.abort_later()
                    return
            except StoreUnavailable as error:
                log.error("database unavailable", extra={"error": str(error)})
                refusal = ProtocolError("unavailable", "P3.5", f"{error}; nothing changed")
                await self.reply(refusal.to_message())

    async def _handle(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "action":
            await self._action(message)
            return
        if self.client is not None:
            raise ProtocolError(
                "already_joined", "P2.1", "this connection is at a table already; open another"
            )
        table = await self.server.table(protocol.table_id(message))
        seat: int | None = None
        token: str | None = None
        since = 0
        if kind == "join":
            seat, token = await self._join(table, protocol.seat(message))
        elif kind == "resume":
            since = protocol.since(message)
            seat = self._resume(table, message["token"])
            await table.settle(seat)
        else:
            since = protocol.since(message)
            cap = self.server.limits.max_spectators
            if table.spectators >= cap:
                raise ProtocolError(
                    "full",
                    "P2.5",
                    f"table {table.id!r} has its {cap} spectators ({flag('max_spectators')})",
                )
        client = Client(self.websocket, table, seat, since)
        welcome: dict[str, Any] = {"type": "welcome", "table": table.id, "seat": seat}
        if token is not None:
            welcome["token"] = token
        client.send(welcome)
        self.client = client
        table.attach(client)
        client.start()
        client.wake()
        log.info("joined", extra={"table": table.id, "seat": seat, "hello": kind})

    async def _join(self, table: Table, seat: int) -> tuple[int, str]:
        if table.config.seats[seat] is not None:
            raise ProtocolError("seat_taken", "P2.2", f"seat {seat} is played by a bot")
        if seat in table.tokens:
            raise ProtocolError(
                "seat_taken", "P2.2", f"seat {seat} is taken (its player resumes with its token)"
            )
        token = secrets.token_urlsafe(TOKEN_BYTES)
        try:
            await self.server.store.claim_seat(table.id, seat, token)
        except StoreConflict:
            raise ProtocolError("seat_taken", "P2.2", f"seat {seat} is taken") from None
        table.tokens[seat] = token_hash(token)
        return seat, token

    def _resume(self, table: Table, token: Any) -> int:
        if isinstance(token, str):
            digest = token_hash(token)
            for seat, stored in table.tokens.items():
                if hmac.compare_digest(digest, stored):
                    return seat
        raise ProtocolError("bad_token", "P2.3", f"this token holds no seat at table {table.id!r}")

    async def _action(self, message: dict[str, Any]) -> None:
        client = self.client
        if client is None:
            raise ProtocolError("not_joined", "P3.1", "join or resume a seat before acting")
        if client.seat is None:
            raise ProtocolError("spectator", "P3.1", "a spectator does not act")
        seat = client.seat
        action = protocol.action_id(message, seat)
        try:
            await client.table.act(seat, action)
        except TarabishError as error:
            raise protocol.refused(error) from None


# -- HTTP ------------------------------------------------------------------------------------


def create_app(server: GameServer) -> ASGIApp:
    """The ASGI application of ``server``: ``/ws`` to ``Connection``, the rest to Starlette,
    all behind ``Guard``."""

    async def healthz(request: Request) -> Response:
        health = server.health
        if health == "ready":
            return JSONResponse(
                {
                    "status": health,
                    "tables": len(server.tables),
                    "connections": server.connections(),
                }
            )
        return JSONResponse({"status": health}, 503)

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def list_tables(request: Request) -> Response:
        limit_text = request.query_params.get("limit", str(LIST_DEFAULT))
        after = request.query_params.get("after")
        if not limit_text.isdigit() or int(limit_text) < 1:
            return protocol.refusal(
                400, "malformed", "P6.4", f"'limit' is a whole number 1 or more, got {limit_text!r}"
            )
        if after is not None and not protocol.is_table_id(after):
            return protocol.refusal(
                400, "malformed", "P6.4", f"'after' is a table id, got {after!r}"
            )
        try:
            return JSONResponse(server.listing(min(int(limit_text), LIST_MAX), after))
        except ProtocolError as error:
            return JSONResponse(error.to_message(), 400)

    async def create_table(request: Request) -> Response:
        if server.stopping or server.draining:
            return protocol.refusal(503, "stopping", "P3.4", "the server is shutting down")
        client = request.client
        wait = server.creations.allow(address_group(client.host) if client else "?")
        if wait is not None:
            response = protocol.refusal(
                429,
                "rate_limited",
                "P6.3",
                f"at most {server.limits.create_per_minute:g} tables a minute from one address "
                f"({server.limits.create_burst} at once; {flag('create_per_minute')})",
            )
            response.headers["Retry-After"] = str(max(1, math.ceil(wait)))
            return response
        try:
            data = orjson.loads(await request.body() or b"{}")
        except ValueError as error:
            return protocol.refusal(400, "malformed", "P5.1", f"not JSON: {error}")
        if protocol.json_depth(data) > protocol.MAX_JSON_DEPTH:
            return protocol.refusal(
                400, "too_deep", "P6.2", f"JSON nests at most {protocol.MAX_JSON_DEPTH} deep"
            )
        try:
            table = await server.create_table(data)
        except StoreConflict as error:
            return protocol.refusal(409, "exists", "P5.1", str(error))
        except StoreUnavailable as error:
            return protocol.refusal(503, "unavailable", "P3.5", str(error))
        except TarabishError as error:
            return protocol.refusal(400, "invalid", "P5.1", str(error))
        return JSONResponse(table.summary(), 201)

    async def live_table(request: Request) -> Table | Response:
        """The table of the path, or the answer why not (404, or 503 without the database)."""
        table_id = request.path_params["table"]
        if not protocol.is_table_id(table_id):
            return protocol.refusal(404, "no_table", "P2.1", f"there is no table {table_id!r}")
        try:
            return await server.table(table_id)
        except ProtocolError as error:
            return JSONResponse(error.to_message(), 404)
        except StoreUnavailable as error:
            return protocol.refusal(503, "unavailable", "P3.5", str(error))

    async def show_table(request: Request) -> Response:
        table = await live_table(request)
        return table if isinstance(table, Response) else JSONResponse(table.summary())

    async def record(request: Request) -> Response:
        table = await live_table(request)
        if isinstance(table, Response):
            return table
        if not table.state.is_terminal:
            return protocol.refusal(
                403,
                "not_over",
                "P5.2",
                "the record shows every seat's cards: it is published when the match is over",
            )
        return JSONResponse(table.record())

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await server.startup()
        try:
            yield
        finally:
            await server.shutdown()

    http = Starlette(
        routes=[
            Route("/", page),
            Route("/healthz", healthz),
            Route("/api/tables", list_tables, methods=["GET"]),
            Route("/api/tables", create_table, methods=["POST"]),
            Route("/api/tables/{table}", show_table),
            Route("/api/tables/{table}/record", record),
            *analysis_routes(live_table),
            *names_routes(live_table),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        lifespan=lifespan,
    )

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and scope["path"] == WEBSOCKET_PATH:
            await Connection(server, Socket(scope, receive, send)).run()
        else:
            await http(scope, receive, send)

    return Guard(
        app,
        server.limits,
        server.requests,
        {"/api/analysis": MAX_RECORD_BYTES},
        connections_from=lambda address: server.connections_from(address),
    )
