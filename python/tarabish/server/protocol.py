"""The client messages of docs/PROTOCOL.md: their limits, their checks, and the errors naming
the protocol rule (P1.1 ...) or, for an action the engine refuses, the game rule (R5.1b ...).

Every check here runs before a message touches a table, so a malformed message changes nothing.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from typing import Any

import orjson
from starlette.responses import JSONResponse, Response

from .._actions import NUM_ACTIONS, Action
from .._errors import IllegalActionError, TarabishError

MAX_MESSAGE_BYTES = 4096
"""P1.1: a larger message is refused with an error (the connection stays)."""
MAX_FRAME_BYTES = 65536
"""P1.1: a larger frame closes the connection (WebSocket close code 1009)."""
RATE = 20.0
"""P1.3: messages a second a client may send, on average ..."""
BURST = 40.0
"""... and at once."""
FLOOD_CLOSE = 100
"""P1.3: refusals for rate in a row after which the client is disconnected (close 1008)."""
MAX_SINCE = (1 << 53) - 1
TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
"""P2.1, P5.1: a table id, the same rule at creation, in a hello and in the page's address."""
MAX_JSON_DEPTH = 8
"""P6.2: the deepest nesting of a request body (a table's rules are two deep)."""

HELLOS = {
    "join": {"type", "table", "seat"},
    "resume": {"type", "table", "token", "since"},
    "watch": {"type", "table", "since"},
}
MESSAGES = {**HELLOS, "action": {"type", "action"}}
_RULE = re.compile(r"\bR\d+(?:\.\d+)?[a-z]?\b")


class ProtocolError(Exception):
    """A refused message: ``code`` (a word), ``rule`` (P1.2, or a RULES.md id) and a message;
    ``server``, for ``elsewhere``: the server id of the process that hosts the table (P2.1)."""

    def __init__(self, code: str, rule: str, message: str, server: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.rule = rule
        self.server = server

    def to_message(self) -> dict[str, Any]:
        """The ``error`` message sent to the client."""
        message = {"type": "error", "code": self.code, "rule": self.rule, "message": str(self)}
        if self.server is not None:
            message["server"] = self.server
        return message


def refusal(status: int, code: str, rule: str, message: str) -> Response:
    """An HTTP error in the protocol's form (docs/PROTOCOL.md): the ``error`` message of a
    ``ProtocolError`` as the body, with ``status``."""
    return JSONResponse(ProtocolError(code, rule, message).to_message(), status)


def parse(frame: str | bytes | None) -> dict[str, Any]:
    """One client message: a JSON object of a known type with exactly its fields (P1.1, P1.2).
    Field values are checked by the handler of each type."""
    if not isinstance(frame, str):
        raise ProtocolError("malformed", "P1.1", "messages are text frames holding JSON")
    if len(frame) > MAX_MESSAGE_BYTES or len(frame.encode("utf-8")) > MAX_MESSAGE_BYTES:
        raise ProtocolError("too_large", "P1.1", f"a message is at most {MAX_MESSAGE_BYTES} bytes")
    try:
        message = orjson.loads(frame)  # strict JSON: no NaN or Infinity, nesting bounded
    except ValueError as error:
        raise ProtocolError("malformed", "P1.2", f"not JSON: {error}") from None
    if not isinstance(message, dict):
        raise ProtocolError("malformed", "P1.2", "a message is a JSON object")
    kind = message.get("type")
    if not isinstance(kind, str) or kind not in MESSAGES:
        raise ProtocolError(
            "malformed", "P1.2", f"unknown message type {kind!r}: one of {sorted(MESSAGES)}"
        )
    fields = set(message)
    if fields != MESSAGES[kind]:
        raise ProtocolError(
            "malformed",
            "P1.2",
            f"a {kind!r} message has exactly the fields {sorted(MESSAGES[kind])}, "
            f"got {sorted(fields)}",
        )
    return message


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def is_table_id(value: Any) -> bool:
    """Whether ``value`` is a table id: 1 to 64 of ``A-Z a-z 0-9 _ -``."""
    return isinstance(value, str) and TABLE_ID.fullmatch(value) is not None


def table_id(message: dict[str, Any]) -> str:
    value = message["table"]
    if not is_table_id(value):
        raise ProtocolError(
            "malformed", "P2.1", f"'table' is a table id ({TABLE_ID.pattern}), got {value!r}"
        )
    return str(value)


def json_depth(value: Any) -> int:
    """How deep ``value`` (parsed JSON) nests: 0 for a scalar, 1 for a flat list or object."""
    deepest = 0
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item
        if isinstance(item, dict | list):
            deepest = max(deepest, depth + 1)
            if deepest > MAX_JSON_DEPTH:
                return deepest
            stack.extend((child, depth + 1) for child in children)
    return deepest


def since(message: dict[str, Any]) -> int:
    """P2.4: the last event ``seq`` the client saw."""
    value = message["since"]
    if not _whole(value) or not 0 <= value <= MAX_SINCE:
        raise ProtocolError(
            "malformed", "P2.4", f"'since' is the last event seq seen (0 or more), got {value!r}"
        )
    return int(value)


def seat(message: dict[str, Any]) -> int:
    value = message["seat"]
    if not _whole(value) or not 0 <= value < 4:
        raise ProtocolError("malformed", "P2.2", f"'seat' is a seat 0..3 (R0), got {value!r}")
    return int(value)


def action_id(message: dict[str, Any], own_seat: int) -> int:
    """P3.2: the action id of an ``action`` message for ``own_seat``: an id 0-45 as is, or the
    text of an action (``"2 play JH"``), which must name ``own_seat``."""
    value = message["action"]
    if _whole(value):
        if not 0 <= value < NUM_ACTIONS:
            raise ProtocolError(
                "malformed", "P3.2", f"an action id is 0..{NUM_ACTIONS - 1}, got {value}"
            )
        return int(value)
    if not isinstance(value, str):
        raise ProtocolError(
            "malformed", "P3.2", f"'action' is an id or text like '2 play JH', got {value!r}"
        )
    try:
        action = Action.parse(value)
    except TarabishError as error:
        raise refused(error) from None
    if action.seat != own_seat:
        raise ProtocolError(
            "wrong_seat",
            "P3.2",
            f"action {value!r} is for seat {action.seat}; this connection plays seat {own_seat}",
        )
    return action.id


def refused(error: TarabishError) -> ProtocolError:
    """P3.3: the engine's refusal, naming the rule it gives."""
    if isinstance(error, IllegalActionError):
        return ProtocolError("illegal_action", error.rule, str(error))
    found = _RULE.search(str(error))
    return ProtocolError("invalid_action", found.group(0) if found else "R0", str(error))


@dataclass(slots=True)
class RateLimit:
    """A token bucket of ``burst`` at once refilled at ``rate`` a second (P1.3's messages:
    ``BURST`` and ``RATE``)."""

    rate: float = RATE
    burst: float = BURST
    tokens: float = BURST
    last: float = 0.0
    refused_in_a_row: int = 0

    def allow(self, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        if self.last:
            self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            self.refused_in_a_row = 0
            return True
        self.refused_in_a_row += 1
        return False

    def retry_after(self) -> float:
        """Seconds until the next token."""
        return max(0.0, (1.0 - self.tokens) / self.rate)


class AddressRates:
    """P6.3: a ``RateLimit`` per client address (``limits.address_group``: HTTP requests, table
    creation); buckets that have filled up again are dropped (``prune``), so the map holds only
    recent addresses."""

    def __init__(self, per_second: float, burst: int) -> None:
        self.rate = per_second
        self.burst = float(burst)
        self.buckets: dict[str, RateLimit] = {}

    def allow(self, address: str) -> float | None:
        """None if ``address`` may go on now, else the seconds until it may."""
        bucket = self.buckets.get(address)
        if bucket is None:
            bucket = self.buckets[address] = RateLimit(self.rate, self.burst, self.burst)
        if bucket.allow():
            return None
        return bucket.retry_after()

    def prune(self, now: float) -> None:
        """Forget the addresses whose bucket is full again."""
        full = [
            address
            for address, bucket in self.buckets.items()
            if bucket.tokens + (now - bucket.last) * self.rate >= self.burst
        ]
        for address in full:
            del self.buckets[address]
