"""One client's WebSocket, outgoing side: what the server sends it, and when it gives up on it.

Game messages are not queued: the table's committed state holds every event, so a client only
remembers the last ``seq`` it was sent, and its writer sends ``events(seat, since=that)`` (with
the seat's ``table_view``) whenever it is woken. A slow client thus gets the events it missed in
one message, its memory stays bounded, and its table never waits for it. Other messages
(welcome, table, error) go through a short queue; a client that lets it overflow, or that does
not take a message within ``SEND_TIMEOUT`` seconds, is disconnected (it may reconnect and resume
from its last ``seq``, docs/PROTOCOL.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import deque
from typing import TYPE_CHECKING, Any

from starlette.websockets import WebSocket

if TYPE_CHECKING:
    from .table import Table

log = logging.getLogger("tarabish.server.client")

SEND_TIMEOUT = 10.0
"""Seconds a client has to take one message before it is disconnected."""
MAX_QUEUED = 64
"""Messages other than game events that may wait for one client."""
CLOSE_TOO_SLOW = 4008


def encode(message: dict[str, Any]) -> str:
    """A server message as sent: compact JSON."""
    return json.dumps(message, separators=(",", ":"))


class Client:
    """A connected player (``seat`` 0-3) or spectator (``seat`` None) of one table."""

    def __init__(self, websocket: WebSocket, table: Table, seat: int | None, since: int) -> None:
        self.websocket = websocket
        self.table = table
        self.seat = seat
        self.sent = since
        self._queue: deque[dict[str, Any]] = deque()
        self._wake = asyncio.Event()
        self._close: tuple[int, str] | None = None
        self._stopped = False
        self._greeted = False
        self.writer: asyncio.Task[None] | None = None

    def wake(self) -> None:
        """New events may be there: the writer sends them when the client can take them."""
        self._wake.set()

    def send(self, message: dict[str, Any]) -> None:
        """Queue a message that is not a game event."""
        if len(self._queue) >= MAX_QUEUED:
            self.close(CLOSE_TOO_SLOW, "P1.4 too slow: messages are waiting")
            return
        self._queue.append(message)
        self._wake.set()

    def close(self, code: int, reason: str) -> None:
        """Close the connection once what is queued before it has been sent."""
        if self._close is None:
            self._close = (code, reason)
        self._wake.set()

    def start(self) -> None:
        self.writer = asyncio.get_running_loop().create_task(self._write())

    async def stop(self) -> None:
        """End the writer (the connection is gone)."""
        # The flag ends the writer even if its cancellation is lost (a cancellation that
        # arrives as a send completes can be swallowed in Python 3.11).
        self._stopped = True
        self._wake.set()
        if self.writer is not None:
            self.writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.writer

    def game_message(self) -> dict[str, Any] | None:
        """The events the client has not been sent (with the seat's table view), or None if
        there are none. The first one after a hello is sent even without events, so that a
        player always learns where the table stands (P2.4)."""
        state = self.table.state
        events = state.events(self.seat, self.sent)
        if not events and self._greeted:
            return None
        self._greeted = True
        message: dict[str, Any] = {"type": "events", "events": events}
        if self.seat is not None:
            message["view"] = state.table_view(self.seat).to_dict()
        return message

    async def _put(self, message: dict[str, Any]) -> None:
        async with asyncio.timeout(SEND_TIMEOUT):  # no task a send, unlike wait_for
            await self.websocket.send_text(encode(message))

    async def _write(self) -> None:
        try:
            while not self._stopped:
                await self._wake.wait()
                self._wake.clear()
                while self._queue:
                    await self._put(self._queue.popleft())
                if self._close is not None:
                    break
                message = self.game_message()
                if message is not None:
                    await self._put(message)
                    if message["events"]:
                        self.sent = message["events"][-1]["seq"]
        except TimeoutError:
            self._close = (CLOSE_TOO_SLOW, "P1.4 too slow: a message waited too long")
            log.info("client too slow", extra={"table": self.table.id, "seat": self.seat})
        except Exception:  # the socket is gone: the reader sees it too and cleans up
            return
        if self._close is None:
            return
        code, reason = self._close
        with contextlib.suppress(Exception):
            async with asyncio.timeout(SEND_TIMEOUT):
                await self.websocket.close(code, reason)
