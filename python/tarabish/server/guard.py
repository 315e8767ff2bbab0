"""The browser boundary and the bounds of an HTTP request, in front of every route (P6.1, P6.2
of docs/PROTOCOL.md; docs/SECURITY.md), and the access log.

- Every HTTP request, a WebSocket's handshake included, counts against its address's request
  rate (``requests_per_second``, ``request_burst``; an IPv6 client's address is its /64): over
  it, 429 ``rate_limited`` with ``Retry-After`` before any work, so a client looping on a
  listing, a record or a reconnection takes no more of the server than the rate allows.
  An address is the peer's, or behind a trusted proxy (``--trusted-proxy``) the client's that
  the proxy names (uvicorn's proxy-headers middleware, in front, sets the scope's client).
- An address has at most ``max_connections_per_address`` WebSockets open (429
  ``too_many_connections`` at the handshake): the cap the connection gate keeps on the peer,
  kept here on the client a trusted proxy names.
- ``/ws`` and every request that changes something (POST ...) are taken only from an allowed
  ``Origin``: the origin of the request's own ``Host`` (``http://HOST`` or ``https://HOST``), or
  one given with ``--allow-origin``. Any other is refused with 403 before any work, ``null``
  included; a request without ``Origin`` (a program, not a browser) is taken. So a page of
  another site can neither create a table nor open a seat's WebSocket in its visitor's browser.
- ``POST /api/connection`` answers whether a WebSocket from the request's address would be
  taken now (P6.5): a browser's page learns nothing from a refused handshake but a close, so
  it asks this, by the same checks (origin, rate), after a WebSocket that never opened. The
  address is at its cap when its WebSockets (counted here) or its open connections (the
  connection gate's, this one included) reach ``max_connections_per_address``.
- Such a request must say ``Content-Type: application/json`` (415 otherwise): a form of another
  site cannot send it without the browser asking first.
- Its body is read here, at most ``max_body_bytes`` or the route's own limit (413 as soon as
  it passes, the connection closed) and within ``request_seconds`` (408), then handed to the
  route whole.
- Every HTTP answer carries a Content-Security-Policy (``default-src 'self'``; WebSockets to the
  server itself; ``frame-ancestors 'none'``), ``X-Content-Type-Options: nosniff`` and a
  ``Referrer-Policy``: the page runs only its own files and cannot be framed.
- One access log line per HTTP request: method, path, status, milliseconds, client address
  (never the query string or a body, where a token could be).
"""

from __future__ import annotations

import asyncio
import logging
import math
import re
import time
from collections.abc import Callable, Mapping, Sequence

import orjson
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .limits import Limits, address_group, flag
from .protocol import AddressRates

access = logging.getLogger("tarabish.server.access")

SAFE_METHODS = frozenset(("GET", "HEAD", "OPTIONS"))
JSON_TYPE = "application/json"
HOST = re.compile(r"^[A-Za-z0-9.\-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$")
"""A ``Host`` header the server builds origins and its policy from (anything else: none)."""
REFERRER_POLICY = b"no-referrer"
CONNECTION_PATH = "/api/connection"
"""P6.5: whether a WebSocket from this address would be taken now."""


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope["headers"]:
        if key == name:
            return bytes(value).decode("latin-1")
    return None


def _host(scope: Scope) -> str | None:
    host = _header(scope, b"host")
    return host.lower() if host is not None and HOST.match(host) else None


class Guard:
    """The ASGI application in front of ``app`` (module docstring)."""

    def __init__(
        self,
        app: ASGIApp,
        limits: Limits,
        rates: AddressRates,
        bodies: dict[str, int] | None = None,
        connections_from: Callable[[str], int] = lambda address: 0,
    ) -> None:
        self.app = app
        self.limits = limits
        self.rates = rates
        """Every HTTP request's rate, per address."""
        self.bodies = dict(bodies or {})
        """The paths whose bodies may be larger than ``max_body_bytes``, and their limit."""
        self.allowed = frozenset(origin.rstrip("/").lower() for origin in limits.allow_origin)
        self.sockets: dict[str, int] = {}
        """Open WebSockets by address: behind a trusted proxy, the cap on one address's
        connections (transport.ConnectionGate counts the peer, there the proxy)."""
        self.connections_from = connections_from
        """The connections open from an address (the connection gate's count, which caps a
        peer's connections of every kind)."""

    def origin_allowed(self, scope: Scope) -> bool:
        """Whether the request has no ``Origin`` or an allowed one."""
        origin = _header(scope, b"origin")
        if origin is None:
            return True
        origin = origin.rstrip("/").lower()
        if origin in self.allowed:
            return True
        host = _host(scope)
        return host is not None and origin in (f"http://{host}", f"https://{host}")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind == "websocket":
            wait = self._wait(scope)
            if wait is not None:
                await _refuse(_as_handshake(send), *self._too_many(), retry_after=wait)
                return
            if not self.origin_allowed(scope):
                access.warning(
                    "origin refused",
                    extra={"path": scope["path"], "origin": _header(scope, b"origin")},
                )
                await send({"type": "websocket.close", "code": 1008})  # 403, no handshake
                return
            address = self._address(scope)
            mine = self.sockets.get(address, 0)
            if mine >= self.limits.max_connections_per_address:
                await _refuse(_as_handshake(send), *self._too_many_sockets())
                return
            self.sockets[address] = mine + 1
            try:
                await self.app(scope, receive, send)
            finally:
                left = self.sockets[address] - 1
                if left:
                    self.sockets[address] = left
                else:
                    del self.sockets[address]
        elif kind == "http":
            await self._http(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        started = time.perf_counter()
        status = 0
        policy = self._policy(scope)

        async def respond(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message["headers"] = [*message.get("headers", ()), *policy]
            await send(message)

        try:
            wait = self._wait(scope)
            if wait is not None:
                keep = scope["method"] in SAFE_METHODS
                await _refuse(respond, *self._too_many(), retry_after=wait, keep=keep)
                return
            refusal = await self._check(scope, receive)
            if isinstance(refusal, tuple):
                await _refuse(respond, *refusal)
            elif scope["path"] == CONNECTION_PATH and scope["method"] == "POST":
                await self._connection(scope, respond)
            else:
                await self.app(scope, refusal, respond)
        finally:
            client = scope.get("client")
            access.info(
                "request",
                extra={
                    "method": scope["method"],
                    "path": scope["path"],
                    "status": status,
                    "ms": round(1000 * (time.perf_counter() - started), 1),
                    "client": client[0] if client else None,
                },
            )

    @staticmethod
    def _address(scope: Scope) -> str:
        """What the per-address limits count the request as (``address_group`` of its client:
        the peer, or the client a trusted proxy names)."""
        client = scope.get("client")
        return address_group(client[0]) if client else "?"

    def _wait(self, scope: Scope) -> float | None:
        """None if the request's address is within its request rate (the request is counted),
        else the seconds until it is."""
        return self.rates.allow(self._address(scope))

    async def _connection(self, scope: Scope, send: Send) -> None:
        """``POST /api/connection`` once the origin and rate checks passed: 429
        ``too_many_connections`` if the address is at its cap of connections, else 200."""
        address = self._address(scope)
        held = max(self.sockets.get(address, 0), self.connections_from(address))
        if held >= self.limits.max_connections_per_address:
            await _refuse(send, *self._too_many_sockets(), keep=True)
            return
        await _answer(send, 200, {"type": "connection", "ok": True})

    def _too_many_sockets(self) -> tuple[int, str, str, str]:
        return (
            429,
            "too_many_connections",
            "P6.3",
            f"at most {self.limits.max_connections_per_address} open connections from one "
            f"address ({flag('max_connections_per_address')})",
        )

    def _too_many(self) -> tuple[int, str, str, str]:
        limits = self.limits
        return (
            429,
            "rate_limited",
            "P6.3",
            f"at most {limits.requests_per_second:g} requests a second from one address "
            f"({limits.request_burst} at once; {flag('requests_per_second')})",
        )

    async def _check(self, scope: Scope, receive: Receive) -> Receive | tuple[int, str, str, str]:
        """The ``receive`` the route gets (with the body read, for a request that changes
        something), or the refusal: status, code, rule, message."""
        if scope["method"] in SAFE_METHODS:
            return receive
        if not self.origin_allowed(scope):
            return 403, "origin", "P6.1", "this origin may not use this server (--allow-origin)"
        content_type = (_header(scope, b"content-type") or "").split(";")[0].strip().lower()
        if content_type != JSON_TYPE:
            return 415, "content_type", "P6.1", f"a request body is {JSON_TYPE}"
        limit = self.bodies.get(scope["path"], self.limits.max_body_bytes)
        too_large = 413, "too_large", "P6.2", f"a request body is at most {limit} bytes"
        declared = _header(scope, b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > limit):
            return too_large
        chunks: list[bytes] = []
        size = 0
        try:
            async with asyncio.timeout(self.limits.request_seconds):
                while True:
                    message = await receive()
                    if message["type"] != "http.request":
                        return receive  # the client left: the route sees it too
                    chunk = message.get("body", b"")
                    size += len(chunk)
                    if size > limit:
                        return too_large
                    chunks.append(chunk)
                    if not message.get("more_body", False):
                        break
        except TimeoutError:
            return 408, "too_slow", "P6.2", "the request body did not arrive in time"
        body = b"".join(chunks)

        async def replay() -> Message:
            nonlocal body
            if body is None:
                return await receive()
            message: Message = {"type": "http.request", "body": body, "more_body": False}
            body = None  # type: ignore[assignment]
            return message

        return replay

    def _policy(self, scope: Scope) -> list[tuple[bytes, bytes]]:
        host = _host(scope)
        sockets = f" ws://{host} wss://{host}" if host else ""
        csp = (
            f"default-src 'self'; connect-src 'self'{sockets}; frame-ancestors 'none'; "
            "base-uri 'none'; form-action 'self'"
        )
        return [
            (b"content-security-policy", csp.encode()),
            (b"x-content-type-options", b"nosniff"),
            (b"referrer-policy", REFERRER_POLICY),
            (b"x-frame-options", b"DENY"),
        ]


async def _refuse(
    send: Send,
    status: int,
    code: str,
    rule: str,
    message: str,
    *,
    retry_after: float | None = None,
    keep: bool = False,
) -> None:
    """The refusal of a request, in the protocol's error form, with ``Retry-After`` (whole
    seconds) if given. The connection is closed (the body may be unread) unless ``keep``: a
    request without a body refused for its rate."""
    headers: list[tuple[bytes, bytes]] = []
    if retry_after is not None:
        headers.append((b"retry-after", str(max(1, math.ceil(retry_after))).encode()))
    if not keep:
        headers.append((b"connection", b"close"))
    error = {"type": "error", "code": code, "rule": rule, "message": message}
    await _answer(send, status, error, headers)


async def _answer(
    send: Send,
    status: int,
    payload: Mapping[str, object],
    headers: Sequence[tuple[bytes, bytes]] = (),
) -> None:
    """An answer of ``status`` with ``payload`` as its JSON body, and ``headers`` too."""
    body = orjson.dumps(payload)
    json_headers = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(body))]
    await send(
        {"type": "http.response.start", "status": status, "headers": [*json_headers, *headers]}
    )
    await send({"type": "http.response.body", "body": body})


def _as_handshake(send: Send) -> Send:
    """``send`` for an HTTP answer to a WebSocket's handshake (ASGI's ``websocket.http.response``
    extension): the upgrade is refused with that answer."""

    async def answer(message: Message) -> None:
        await send({**message, "type": "websocket." + message["type"]})

    return answer
