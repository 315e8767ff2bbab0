"""The server's web application: the WebSocket protocol of docs/PROTOCOL.md on raw ASGI, and on
Starlette the HTTP API to create and list tables, ``/healthz``, and the page.

``GameServer`` holds the live tables of this process and its store; ``create_app`` wires it to
routes. The WebSocket at ``/ws`` is served by ``Connection`` on the ASGI calls themselves
(``Socket``), not through Starlette's WebSocket and middleware: every action sends four
messages, and the framework's layers per message were a visible part of the server's CPU.
A table lives on the process that created it (``owner``, its server id); on start a
process resumes every unfinished table it owns from the database (with SQLite: every unfinished
table of the file).
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
import secrets
import time
from collections.abc import AsyncIterator
from pathlib import Path
from types import ModuleType
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send

from .._errors import TarabishError
from .._record import to_record
from . import protocol
from .analysis import analysis_routes
from .client import SEND_TIMEOUT, Client, Socket, encode
from .names import names_routes
from .protocol import ProtocolError, RateLimit
from .store import Store, StoreConflict, StoreUnavailable, token_hash
from .table import Table, TableConfig

log = logging.getLogger("tarabish.server")

STATIC = Path(__file__).with_name("static")
WEBSOCKET_PATH = "/ws"
SWEEP_SECONDS = 1.0
"""How often the server looks for clients too slow to take their messages (P1.4)."""
CLOSE_POLICY = 1008
TOKEN_BYTES = 18


class GameServer:
    """The tables of one server process, its store and its engine module."""

    def __init__(self, store: Store, module: ModuleType, server_id: str) -> None:
        self.store = store
        self.module = module
        self.server_id = server_id
        self.tables: dict[str, Table] = {}
        self.ready = False
        self.stopping = False
        self._sweeper: asyncio.Task[None] | None = None

    async def startup(self) -> None:
        """Open the store and resume every unfinished table this server owns."""
        await self.store.start()
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep())
        owner = self.server_id if self.store.is_postgres else None
        for stored in await self.store.unfinished(owner):
            table = Table.from_stored(stored, self.module, self.store, self.server_id)
            self.tables[table.id] = table
            table.changed()
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
        log.info("stopped", extra={"tables": len(self.tables)})

    async def _sweep(self) -> None:
        """Once a second, disconnect every client a message has waited for too long (P1.4)."""
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            now = time.monotonic()
            for table in list(self.tables.values()):
                for client in list(table.clients):
                    client.check_pace(now)

    async def create_table(self, data: Any) -> Table:
        config = TableConfig.from_request(data, self.module)
        table = Table(config, self.module, self.store, self.server_id)
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
            self.tables[table_id] = Table.from_stored(
                stored, self.module, self.store, self.server_id
            )
            self.tables[table_id].changed()
        return self.tables[table_id]

    def forget_if_idle(self, table: Table) -> None:
        """A finished table without clients leaves memory (the database keeps it)."""
        if table.state.is_terminal and not table.clients and not self.stopping:
            self.tables.pop(table.id, None)


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
                self.server.forget_if_idle(client.table)
                log.info("left", extra={"table": client.table.id, "seat": client.seat})

    async def _read(self) -> None:
        deadline = asyncio.get_running_loop().time() + protocol.HELLO_SECONDS
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
        else:
            since = protocol.since(message)
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
    """The ASGI application of ``server``: ``/ws`` to ``Connection``, the rest to Starlette."""

    async def healthz(request: Request) -> Response:
        if server.ready and not server.stopping:
            return JSONResponse({"status": "ready", "tables": len(server.tables)})
        return JSONResponse({"status": "starting" if not server.stopping else "stopping"}, 503)

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def list_tables(request: Request) -> Response:
        return JSONResponse([table.summary() for table in server.tables.values()])

    async def create_table(request: Request) -> Response:
        body = await request.body()
        if len(body) > protocol.MAX_MESSAGE_BYTES:
            return _error(413, "too_large", "P1.1", "a request is at most 4096 bytes")
        try:
            data = json.loads(body or b"{}")
        except ValueError as error:
            return _error(400, "malformed", "P5.1", f"not JSON: {error}")
        if server.stopping:
            return _error(503, "stopping", "P3.4", "the server is shutting down")
        try:
            table = await server.create_table(data)
        except StoreConflict as error:
            return _error(409, "exists", "P5.1", str(error))
        except StoreUnavailable as error:
            return _error(503, "unavailable", "P3.5", str(error))
        except TarabishError as error:
            return _error(400, "invalid", "P5.1", str(error))
        return JSONResponse(table.summary(), 201)

    async def show_table(request: Request) -> Response:
        try:
            table = await server.table(request.path_params["table"])
        except ProtocolError as error:
            return JSONResponse(error.to_message(), 404)
        return JSONResponse(table.summary())

    async def record(request: Request) -> Response:
        try:
            table = await server.table(request.path_params["table"])
        except ProtocolError as error:
            return JSONResponse(error.to_message(), 404)
        if not table.state.is_terminal:
            return _error(
                403,
                "not_over",
                "P5.2",
                "the record shows every seat's cards: it is published when the match is over",
            )
        return JSONResponse(to_record(table.state))

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
            *analysis_routes(server),
            *names_routes(server),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        lifespan=lifespan,
    )

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and scope["path"] == WEBSOCKET_PATH:
            await Connection(server, Socket(receive, send)).run()
        else:
            await http(scope, receive, send)

    return app


def _error(status: int, code: str, rule: str, message: str) -> Response:
    return JSONResponse({"type": "error", "code": code, "rule": rule, "message": message}, status)
