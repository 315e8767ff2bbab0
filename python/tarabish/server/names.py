"""The display names of a table's people, for the page (docs/PROTOCOL.md P5.4):
``POST /api/tables/{id}/names`` names the seat of a seat token, ``GET`` reads the four names.

A name is what the person typed when sitting down, shown to everyone at the table; it is no
account and proves nothing, so only the holder of a seat's token may set that seat's name.
Names live in the memory of the process hosting the table, for the most recent tables only
(``KEPT_TABLES``); the page sends its name again whenever it joins or resumes, so a restart
loses a name only until its person is back.
"""

from __future__ import annotations

import hmac
import json
import unicodedata
from collections import OrderedDict

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from .analysis import FindTable, read_body
from .protocol import refusal
from .store import token_hash

MAX_NAME = 20
"""Characters in a display name."""
MAX_BODY_BYTES = 1024
KEPT_TABLES = 4096
"""Tables whose names are kept (the least recently named leave first)."""
SEATS = 4


def clean_name(value: object) -> str:
    """A display name: 1-20 characters after trimming, no control characters; ``ValueError``
    otherwise."""
    if not isinstance(value, str):
        raise ValueError("a name is a string")
    name = " ".join(value.split())
    if not 1 <= len(name) <= MAX_NAME:
        raise ValueError(f"a name is 1 to {MAX_NAME} characters")
    if any(unicodedata.category(character).startswith("C") for character in name):
        raise ValueError("a name has no control characters")
    return name


def names_routes(live_table: FindTable) -> list[Route]:
    """The routes of the names (P5.4); ``live_table`` finds the table of a request's path (or
    the answer why not)."""
    kept: OrderedDict[str, list[str | None]] = OrderedDict()

    def names_of(table_id: str) -> list[str | None]:
        return list(kept.get(table_id, [None] * SEATS))

    async def read(request: Request) -> Response:
        table = await live_table(request)
        if isinstance(table, Response):
            return table
        return JSONResponse({"names": names_of(table.id)})

    async def write(request: Request) -> Response:
        table = await live_table(request)
        if isinstance(table, Response):
            return table
        body = await read_body(request, MAX_BODY_BYTES)
        if body is None:
            return _refused(413, "too_large", f"at most {MAX_BODY_BYTES} bytes")
        try:
            data = json.loads(body)
            token, name = data["token"], clean_name(data["name"])
        except (ValueError, TypeError, KeyError, RecursionError) as error:
            return _refused(400, "malformed", f'{{"token": T, "name": N}} expected: {error}')
        digest = token_hash(token) if isinstance(token, str) else ""
        seat = next(
            (s for s, held in table.tokens.items() if hmac.compare_digest(digest, held)), None
        )
        if seat is None:
            return _refused(403, "bad_token", "this token holds no seat at this table")
        names = names_of(table.id)
        names[seat] = name
        kept[table.id] = names
        kept.move_to_end(table.id)
        while len(kept) > KEPT_TABLES:
            kept.popitem(last=False)
        return JSONResponse({"names": names})

    return [
        Route("/api/tables/{table}/names", read, methods=["GET"]),
        Route("/api/tables/{table}/names", write, methods=["POST"]),
    ]


def _refused(status: int, code: str, message: str) -> Response:
    return refusal(status, code, "P5.4", message)
