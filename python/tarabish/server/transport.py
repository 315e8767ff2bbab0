"""The server's connections below HTTP and WebSocket: uvicorn's own protocols (httptools and
websockets-sansio), with what a server in the open needs around them.

- A connection cap for the process and one for each client address (``ConnectionGate``; an
  IPv6 client's address is its /64, ``limits.address_group``): a connection over either is
  dropped at once; the ones open are unharmed. A trusted proxy's connections
  (``--trusted-proxy``) count only against the process's cap: its clients' WebSockets are
  counted by the address it forwards (``guard``).
- An HTTP request must send its headers within ``request_seconds`` (a connection that says
  nothing, or that sends its headers a byte at a time, is dropped); the body's own deadline is
  the application's (``guard``).
- A WebSocket's text message can be written at once as one frame (the scope extension
  ``SEND_NOW``), without the ASGI send and websockets' frame objects around it: the server
  sends four messages an action, and that layer was a tenth of its CPU. It is taken only
  while the connection is open and its transport is below its high-water mark; otherwise the
  message goes the ASGI way, which waits for the transport.
- A WebSocket the server closes is aborted if its peer has not gone a few seconds later: a
  client that does not read may never take the close frame, and a transport that waits to
  flush to it would stay open for ever (the application asks for it with the scope extension
  ``ABORT``).
- A malformed frame (invalid UTF-8, a broken frame) is logged as one warning, not a traceback.
- While the process shuts down its listening socket stays open, answering every request with
  503 ``{"status": "stopping"}`` (``start_draining``), so a load balancer's health check sees it
  going instead of a refused connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import struct
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.protocol import State

from .limits import Limits, address_group, is_trusted_proxy

log = logging.getLogger("tarabish.server.transport")

ABORT = "tarabish.abort"
"""The scope extension of a WebSocket: a callable that drops its connection ``ABORT_SECONDS``
later unless it has ended by then."""
ABORT_SECONDS = 5.0
SEND_NOW = "tarabish.send_now"
"""The scope extension of a WebSocket: a callable that writes one text message (UTF-8 bytes)
at once as one frame and returns True, or, if the connection is not open or its transport is
full, does nothing and returns False (then the message takes the ASGI send, which waits)."""
TEXT_FRAME = 0x81
"""RFC 6455: FIN and the text opcode; a server's frames are not masked."""
SHORT_LENGTH, MEDIUM_LENGTH = 126, 1 << 16
CLOSE_INVALID_UTF8 = 1007
LINGER_RESET = struct.pack("ii", 1, 0)
WRITE_BUFFER_BYTES = 16 * 1024
"""A WebSocket's send waits once this much waits in its transport (asyncio's default is 64 KiB):
what the process holds for a client that does not read, beside a page (``client.PAGE_BYTES``)."""
MAX_DRAIN_REQUEST = 8192
STOPPING = (
    b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n"
    b'content-length: 21\r\nconnection: close\r\n\r\n{"status":"stopping"}'
)


class ConnectionGate:
    """The open connections of a process, by client address (``address_group``), against the
    caps."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.open: dict[Any, str | None] = {}
        """Every open connection, with the address the per-address cap counts it under (None
        for a trusted proxy's: only the process's cap counts them)."""
        self.by_address: dict[str, int] = {}
        """The connections the per-address cap counts, by address."""
        self.refused = 0

    def admit(self, transport: Any) -> bool:
        """Count a new connection in; False (and it is not counted) if it is over a cap."""
        peer = transport.get_extra_info("peername")
        host = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
        address = address_group(host)
        mine = self.by_address.get(address, 0)
        # A trusted proxy carries many clients: the server counts them by the address it names
        # (guard.Guard, each WebSocket), not by the proxy's.
        proxies = self.limits.trusted_proxy
        capped = not (proxies and is_trusted_proxy(host, proxies))
        if len(self.open) >= self.limits.max_connections or (
            capped and mine >= self.limits.max_connections_per_address
        ):
            self.refused += 1
            if self.refused == 1 or self.refused % 1000 == 0:
                log.warning(
                    "connection refused",
                    extra={"address": address, "open": len(self.open), "refused": self.refused},
                )
            return False
        self.open[transport] = address if capped else None
        if capped:
            self.by_address[address] = mine + 1
        return True

    def release(self, transport: Any) -> None:
        """Count a connection out (once, whichever protocol saw it end)."""
        if transport not in self.open:
            return
        address = self.open.pop(transport)
        if address is not None:
            left = self.by_address[address] - 1
            if left:
                self.by_address[address] = left
            else:
                del self.by_address[address]


def protocols(gate: ConnectionGate) -> tuple[type[asyncio.Protocol], type[asyncio.Protocol]]:
    """uvicorn's HTTP and WebSocket protocol classes bound to ``gate``."""

    class GatedHttp(HttpToolsProtocol):
        """HTTP/1.1 (httptools) behind the gate, with a deadline for each request's headers."""

        _deadline: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            if not gate.admit(transport):
                reset(transport)
                return
            self._start_deadline()

        def connection_lost(self, exc: Exception | None) -> None:
            self._stop_deadline()
            gate.release(self.transport)
            super().connection_lost(exc)

        def on_message_begin(self) -> None:
            super().on_message_begin()
            if self._deadline is None:
                self._start_deadline()

        def on_headers_complete(self) -> None:
            self._stop_deadline()
            super().on_headers_complete()

        def handle_websocket_upgrade(self) -> None:
            self._stop_deadline()
            super().handle_websocket_upgrade()

        def _start_deadline(self) -> None:
            self._deadline = self.loop.call_later(gate.limits.request_seconds, self.transport.abort)

        def _stop_deadline(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

    class GatedWebSocket(WebSocketsSansIOProtocol):
        """A WebSocket (websockets' sans-I/O protocol) that the application can drop, and
        whose malformed frames are one warning."""

        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            super().connection_made(transport)
            self.transport.set_write_buffer_limits(high=WRITE_BUFFER_BYTES)

        def connection_lost(self, exc: Exception | None) -> None:
            gate.release(self.transport)
            super().connection_lost(exc)

        def handle_connect(self, event: Any) -> None:
            super().handle_connect(event)
            scope = getattr(self, "scope", None)
            if scope is not None:  # the upgrade was accepted: the application gets the scope
                scope["extensions"][ABORT] = self._abort_later
                scope["extensions"][SEND_NOW] = self._send_now

        def _send_now(self, payload: bytes) -> bool:
            if (
                not self.writable.is_set()
                or self.close_sent
                or self.disconnected
                or self.conn.state is not State.OPEN
            ):
                return False
            self.transport.write(text_frame_header(len(payload)) + payload)
            return True

        def _abort_later(self) -> None:
            self.loop.call_later(ABORT_SECONDS, self._abort)

        def _abort(self) -> None:
            if not self.disconnected:
                reset(self.transport)

        def send_receive_event_to_app(self) -> None:
            if self.curr_msg_data_type == "text":
                try:
                    b"".join(self.frames).decode()
                except UnicodeDecodeError:
                    self._malformed("a text frame is not UTF-8", CLOSE_INVALID_UTF8)
                    return
            super().send_receive_event_to_app()

        def handle_parser_exception(self) -> None:
            error = self.conn.parser_exc
            log.warning(
                "malformed frame",
                extra={"client": _address(self.client), "error": str(error)},
            )
            super().handle_parser_exception()

        def _malformed(self, reason: str, code: int) -> None:
            log.warning("malformed frame", extra={"client": _address(self.client), "error": reason})
            self.frames = []
            self.conn.send_close(code, reason)
            super().handle_parser_exception()

    return GatedHttp, GatedWebSocket


def text_frame_header(size: int) -> bytes:
    """The header of an unmasked, unfragmented text frame of ``size`` bytes (RFC 6455 5.2)."""
    if size < SHORT_LENGTH:
        return bytes((TEXT_FRAME, size))
    if size < MEDIUM_LENGTH:
        return bytes((TEXT_FRAME, SHORT_LENGTH)) + size.to_bytes(2, "big")
    return bytes((TEXT_FRAME, SHORT_LENGTH + 1)) + size.to_bytes(8, "big")


def reset(transport: asyncio.Transport) -> None:
    """Drop a connection at once, with what waits to be sent to it: a reset (``SO_LINGER`` 0),
    so that not even the kernel keeps trying to deliver to a client that does not read."""
    sock = transport.get_extra_info("socket")
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, LINGER_RESET)
    transport.abort()


def _address(client: Any) -> str:
    return f"{client[0]}:{client[1]}" if isinstance(client, tuple) else "?"


class _Draining(asyncio.Protocol):
    """One connection while the process shuts down: any request gets 503 "stopping"."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.received = b""
        self.transport: asyncio.Transport | None = None
        self.deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        self.deadline = asyncio.get_running_loop().call_later(self.seconds, transport.abort)

    def data_received(self, data: bytes) -> None:
        assert self.transport is not None
        self.received += data
        if b"\r\n\r\n" in self.received or len(self.received) > MAX_DRAIN_REQUEST:
            self.transport.write(STOPPING)
            self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.deadline is not None:
            self.deadline.cancel()


async def start_draining(listening: socket.socket, seconds: float) -> asyncio.Server:
    """Answer 503 on ``listening`` (a duplicate of the server's socket) until closed."""
    loop = asyncio.get_running_loop()
    return await loop.create_server(lambda: _Draining(seconds), sock=listening)
