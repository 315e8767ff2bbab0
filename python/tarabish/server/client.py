"""One client's WebSocket, outgoing side: what the server sends it, and when it gives up on it.

Game messages are not queued: the table's committed state holds every event, so a client only
remembers the last ``seq`` it was sent, and ``events(seat, since=that)`` (with the seat's
``table_view``) is sent whenever it is woken: at once if nothing is waiting for the client
(written straight to its transport as a frame while it has room, ``transport.SEND_NOW``, else
the ASGI send driven in place; so the four messages of an action cost no task switch), else by
its writer task when the client can take it. A slow client thus gets the events it missed in
pages of at most ``PAGE_BYTES`` (the next one only once the transport has taken the last; the
view comes with the last page), its memory stays bounded, and its table never waits for it.
Spectators' pages come from the table's one log of public events (``Table.public_events``).
Other messages (welcome, table, error) go through a short queue; a client that lets it overflow,
or that does not take a message within ``SEND_TIMEOUT`` seconds, is disconnected (it may
reconnect and resume from its last ``seq``, docs/PROTOCOL.md). The second is watched by one
sweep a second over all clients (``GameServer``), not by a timer per message: a message that is
taken at once (nearly all) costs no timer.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from collections import deque
from collections.abc import Awaitable, Coroutine
from types import CoroutineType
from typing import TYPE_CHECKING, Any

import orjson
from starlette.types import Message, Receive, Scope, Send

from .transport import ABORT, SEND_NOW

if TYPE_CHECKING:
    from .table import Table

log = logging.getLogger("tarabish.server.client")

SEND_TIMEOUT = 10.0
"""Seconds a client has to take one message before it is disconnected."""
MAX_QUEUED = 64
"""Messages other than game events that may wait for one client."""
CLOSE_SECONDS = 2.0
"""Seconds the close frame of a connection the server ends may wait to be sent."""
PAGE_BYTES = 16 * 1024
"""The events of one message at most (P1.4): with the view, a message stays well under the
64 KiB the protocol allows, and a client that stops reading holds one page here and about one
in its transport (``transport.WRITE_BUFFER_BYTES``)."""
CLOSE_TOO_SLOW = 4008


def encode(message: dict[str, Any]) -> str:
    """A server message as sent: compact JSON."""
    return orjson.dumps(message).decode()


class Socket:
    """One WebSocket as its raw ASGI calls (the server's hot path sends four messages an action:
    no framework layer sits between them and the server)."""

    __slots__ = ("_abort", "_receive", "_send", "_send_now")

    def __init__(self, scope: Scope, receive: Receive, send: Send) -> None:
        self._receive = receive
        self._send = send
        extensions = scope.get("extensions") or {}
        self._abort = extensions.get(ABORT)
        self._send_now = extensions.get(SEND_NOW)

    async def receive(self) -> Message:
        """The next ASGI event: ``websocket.connect``, ``.receive`` or ``.disconnect``."""
        return await self._receive()

    async def accept(self) -> None:
        await self._send({"type": "websocket.accept"})

    def send_now(self, text: str) -> bool:
        """Write a text message at once if the transport can take it (``transport.SEND_NOW``):
        True, or False and nothing is done (then ``send_text`` it)."""
        send_now = self._send_now
        return send_now is not None and bool(send_now(text.encode()))

    def send_text(self, text: str) -> Coroutine[Any, Any, None]:
        """The send of one text message, not yet begun: the ASGI server's own coroutine, with
        no frame of ours around it (``Client.wake`` drives it in place)."""
        sending = self._send({"type": "websocket.send", "text": text})
        if type(sending) is CoroutineType:
            return sending
        return _awaited(sending)

    async def close(self, code: int, reason: str) -> None:
        await self._send({"type": "websocket.close", "code": code, "reason": reason})

    def abort_later(self) -> None:
        """Drop the connection in a few seconds unless it has ended by then."""
        if self._abort is not None:
            self._abort()


class Client:
    """A connected player (``seat`` 0-3) or spectator (``seat`` None) of one table."""

    def __init__(self, websocket: Socket, table: Table, seat: int | None, since: int) -> None:
        self.websocket = websocket
        self.table = table
        self.seat = seat
        self.sent = since
        self._queue: deque[dict[str, Any]] = deque()
        self._wake = asyncio.Event()
        self._close: tuple[int, str] | None = None
        self._stopped = False
        self._greeted = False
        self._sending_since: float | None = None
        self._idle = False
        self._unfinished: tuple[Coroutine[Any, Any, None], Any] | None = None
        self._too_slow = False
        self.writer: asyncio.Task[None] | None = None
        self.left = asyncio.Event()
        """Set once the connection has ended and left its table (``Table.detach``)."""

    def wake(self) -> None:
        """New events may be there. With the writer idle they are sent at once, and nearly
        always the transport takes them without waiting (no task switch: four of these an
        action): written as a frame if it has room, else through the ASGI send, which, if it
        has to wait, the writer finishes when the client can take it. With the writer busy it
        sends them when it is done."""
        if self._idle and self._unfinished is None and not self._queue and self._close is None:
            message = self.game_message()
            if message is None:
                return
            text, self.sent, more = message
            if self.websocket.send_now(text):
                if more:
                    self._wake.set()  # taken: the writer sends the next page
                return
            sending = self.websocket.send_text(text)
            try:
                waiting = sending.send(None)
            except StopIteration:
                if more:
                    self._wake.set()  # taken: the writer sends the next page
                return
            except Exception:  # the socket is gone: the reader sees it too and cleans up
                return
            self._sending_since = time.monotonic()
            self._unfinished = (sending, waiting)
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

    def game_message(self) -> tuple[str, int, bool] | None:
        """The next page of the ``events`` the client has not been sent (with the seat's table
        view on the last page), as JSON text, the last ``seq`` in it and whether more pages
        follow; None if there is nothing new. The first one after a hello is sent even without
        events, so that a player always learns where the table stands (P2.4). The view comes
        from the engine as JSON text already (``table_view_json``)."""
        if self.seat is None:
            texts, last, more = self.table.public_events(self.sent, PAGE_BYTES)
            if not texts and self._greeted:
                return None
            self._greeted = True
            return '{"type":"events","events":[' + b",".join(texts).decode() + "]}", last, more
        state = self.table.state
        events = state.events(self.seat, self.sent)
        if not events and self._greeted:
            return None
        self._greeted = True
        body = orjson.dumps(events)
        more = len(body) > PAGE_BYTES
        if more:
            events = _first_page(events)
            body = orjson.dumps(events)
        last = events[-1]["seq"] if events else self.sent
        text = '{"type":"events","events":' + body.decode()
        if more:
            return text + "}", last, True
        return text + ',"view":' + state.table_view_json(self.seat) + "}", last, False

    def check_pace(self, now: float) -> None:
        """Disconnect the client if a message has waited more than ``SEND_TIMEOUT`` seconds
        for it (P1.4); ``now`` is ``time.monotonic()``. Called by the server's sweep."""
        since = self._sending_since
        if since is not None and now - since > SEND_TIMEOUT and not self._too_slow:
            self._too_slow = True
            if self.writer is not None:
                self.writer.cancel()

    async def _put(self, text: str) -> None:
        if self.websocket.send_now(text):
            return
        self._sending_since = time.monotonic()
        await self.websocket.send_text(text)
        self._sending_since = None

    async def _write(self) -> None:
        try:
            while not self._stopped:
                self._idle = True
                await self._wake.wait()
                self._idle = False
                self._wake.clear()
                if self._unfinished is not None:
                    await _finish(*self._unfinished)
                    self._unfinished = None
                    self._sending_since = None
                while self._queue:
                    await self._put(encode(self._queue.popleft()))
                if self._close is not None:
                    break
                message = self.game_message()
                if message is not None:
                    text, self.sent, more = message
                    await self._put(text)
                    if more:
                        self._wake.set()
        except asyncio.CancelledError:
            if not self._too_slow:
                raise
            task = asyncio.current_task()
            if task is not None:
                task.uncancel()  # this cancellation was the pace check's, handled here
            self._close = (CLOSE_TOO_SLOW, "P1.4 too slow: a message waited too long")
            log.info("client too slow", extra={"table": self.table.id, "seat": self.seat})
        except Exception:  # the socket is gone: the reader sees it too and cleans up
            return
        finally:
            self._idle = False
            if self._unfinished is not None:
                self._unfinished[0].close()
                self._unfinished = None
        if self._close is None:
            return
        code, reason = self._close
        with contextlib.suppress(Exception):
            async with asyncio.timeout(CLOSE_SECONDS):
                await self.websocket.close(code, reason)
        self.websocket.abort_later()  # a client that takes no close frame either is dropped


def _first_page(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The first events of ``events`` that fit in ``PAGE_BYTES`` as JSON (at least one)."""
    used = 0
    for count, event in enumerate(events):
        used += len(orjson.dumps(event)) + 1
        if used > PAGE_BYTES and count:
            return events[:count]
    return events


async def _finish(sending: Coroutine[Any, Any, None], waiting: Any) -> None:
    """The rest of a send that ``Client.wake`` began and that had to wait for ``waiting`` (the
    future it yielded): what a task does for a coroutine, step by step. The future is watched
    through one of our own (it was yielded once already, so it is not awaited again)."""
    loop = asyncio.get_running_loop()
    while True:
        if waiting is None:  # a bare yield: give the loop a turn
            await asyncio.sleep(0)
        else:
            ready: asyncio.Future[None] = loop.create_future()
            waiting.add_done_callback(functools.partial(_set_done, ready))
            await ready
        try:
            waiting = sending.send(None)
        except StopIteration:
            return


async def _awaited(sending: Awaitable[None]) -> None:
    await sending


def _set_done(ready: asyncio.Future[None], _: Any) -> None:
    if not ready.done():
        ready.set_result(None)
