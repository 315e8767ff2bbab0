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
HELLO_SECONDS = 10.0
"""P2.1: time a new connection has for its first message."""
MAX_SINCE = (1 << 53) - 1

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


def table_id(message: dict[str, Any]) -> str:
    value = message["table"]
    if not isinstance(value, str) or not 0 < len(value) <= 64:
        raise ProtocolError("malformed", "P2.1", f"'table' is a table id, got {value!r}")
    return value


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
    """P1.3: a token bucket of ``BURST`` messages refilled at ``RATE`` a second."""

    tokens: float = BURST
    last: float = 0.0
    refused_in_a_row: int = 0

    def allow(self, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        if self.last:
            self.tokens = min(BURST, self.tokens + (now - self.last) * RATE)
        self.last = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            self.refused_in_a_row = 0
            return True
        self.refused_in_a_row += 1
        return False
