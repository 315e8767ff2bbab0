"""The ``tarabish serve`` process: uvicorn configured for the server (its protocols behind the
connection gate, ``transport``), the listening socket, the signals and the shutdown.

On SIGINT or SIGTERM ``/healthz`` answers 503 at once; the listening socket stays open (every
request on a new connection answers 503 "stopping") while the open connections are closed, the
actions being committed finish and the store commits every queued write; then the process exits.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import resource
import socket
import sys
from types import FrameType

import uvicorn

from .app import GameServer, create_app
from .engine import ENGINE, engine_module
from .limits import Limits, proxy_networks
from .store import Store
from .transport import ConnectionGate, protocols, start_draining

log = logging.getLogger("tarabish.server")

DEFAULT_DB = "sqlite:///tarabish-server.sqlite3"
"""The database of ``tarabish serve`` without ``--db``: a SQLite file in the current folder."""
SEND_BUFFER_BYTES = 65536
"""The kernel send buffer of each connection (SO_SNDBUF; Linux doubles it): with the 64 KiB the
transport buffers above it, the most a client that does not read can have waiting for it."""
GC_THRESHOLDS = (50_000, 50, 100)
"""The garbage collector's thresholds in the server process (Python's are 700, 10, 10). A server
with thousands of connections holds many long-lived objects, which each collection of the older
generations walks again; with Python's thresholds that was a quarter of the server's CPU under
load. Nearly everything the server makes per action is freed by reference counting, so
collecting rarely costs little memory."""
GRACEFUL_SECONDS = 10
"""On SIGINT/SIGTERM, how long open connections have to close before they are cut."""
SPARE_FILES = 256
"""Open files beyond the connection cap that the process keeps for itself (the database ...)."""


class _Uvicorn(uvicorn.Server):
    """uvicorn's server, except that a SIGINT or SIGTERM first makes ``/healthz`` answer 503,
    that its listening socket keeps answering 503 while it shuts down (``spare``: a duplicate
    of it), and that after the graceful shutdown it returns (exit status 0) instead of raising
    the signal again."""

    def __init__(self, config: uvicorn.Config, game: GameServer, spare: socket.socket) -> None:
        super().__init__(config)
        self.game = game
        self.spare = spare
        self.draining: asyncio.Server | None = None

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        self.game.draining = True
        super().handle_exit(sig, frame)
        self._captured_signals.clear()

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        self.game.draining = True
        if self.started:
            self.draining = await start_draining(self.spare, self.game.limits.request_seconds)
        await super().shutdown(sockets)


async def _run(server: uvicorn.Server, host: str, listening: socket.socket) -> None:
    task = asyncio.ensure_future(server.serve(sockets=[listening]))
    while not server.started and not task.done():
        await asyncio.sleep(0.02)
    if server.started:
        gc.freeze()  # what startup made (modules, resumed tables) lives on: never walk it again
        port = server.servers[0].sockets[0].getsockname()[1]
        shown = f"[{host}]" if ":" in host else host
        print(f"tarabish serve: open http://{shown}:{port}/", flush=True)
    await task


def _enough_files(limits: Limits) -> None:
    """Raise the open-file limit to the connection cap and some (as far as the hard limit
    allows), so that the cap, not the system, refuses connections; warn if it cannot."""
    wanted = limits.max_connections + SPARE_FILES
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(wanted, hard), hard))
    if min(wanted, hard) < wanted:
        log.warning(
            "open-file limit below the connection cap",
            extra={"max_connections": limits.max_connections, "open_files": hard},
        )


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str = DEFAULT_DB,
    *,
    engine: str = ENGINE,
    server_id: str | None = None,
    limits: Limits | None = None,
    log_level: str = "info",
) -> int:
    """Run the server until SIGINT or SIGTERM (a graceful shutdown: connections are closed,
    actions being committed finish, the store commits every queued write). Returns the exit
    status: 0, or 1 if it could not start (for instance, the port is in use)."""
    from . import logs
    from .protocol import MAX_FRAME_BYTES

    limits = limits or Limits()
    logs.configure(log_level)
    gc.set_threshold(*GC_THRESHOLDS)
    _enough_files(limits)
    game = GameServer(
        Store(db), engine_module(engine), server_id or f"{socket.gethostname()}:{port}", limits
    )
    gate = ConnectionGate(limits)
    game.connections = lambda: len(gate.open)
    game.connections_from = lambda address: gate.by_address.get(address, 0)
    http, websocket = protocols(gate)
    config = uvicorn.Config(
        create_app(game),
        host=host,
        port=port,
        http=http,
        ws=websocket,
        ws_max_size=MAX_FRAME_BYTES,
        ws_per_message_deflate=False,
        ws_ping_interval=20.0,
        ws_ping_timeout=20.0,
        lifespan="on",
        log_config=None,
        access_log=False,
        # The per-address limits count the peer's own address, or the client a trusted proxy
        # names (uvicorn's ProxyHeadersMiddleware: X-Forwarded-For's last address that is not a
        # trusted proxy). Never uvicorn's default, which trusts 127.0.0.1: any program on this
        # host could then name the address it is counted as.
        proxy_headers=bool(limits.trusted_proxy),
        forwarded_allow_ips=[str(network) for network in proxy_networks(limits.trusted_proxy)],
        timeout_graceful_shutdown=GRACEFUL_SECONDS,
    )
    try:
        listening = config.bind_socket()  # logs why it could not (the port is in use ...)
    except SystemExit:
        return 1
    # Accepted connections inherit it: a client that stops reading holds at most this much of
    # the kernel's memory, and its sends stop (then time out, P1.4) instead of piling up.
    listening.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER_BYTES)
    server = _Uvicorn(config, game, listening.dup())
    with asyncio.Runner(loop_factory=config.get_loop_factory()) as runner:
        runner.run(_run(server, host, listening))
    return 0 if server.started else 1


def main(
    host: str,
    port: int,
    db: str | None,
    engine: str,
    server_id: str | None,
    limits: Limits | None = None,
) -> int:
    """``tarabish serve``."""
    try:
        return serve(
            host, port, db or DEFAULT_DB, engine=engine, server_id=server_id, limits=limits
        )
    except KeyboardInterrupt:
        return 0
    finally:
        sys.stdout.flush()
