"""The replay and analysis of a finished match, for the page's replay screen:
``GET /api/tables/{id}/analysis`` (once the match is over, like its record) and
``POST /api/analysis`` (any ``tarabish-record/1`` document a person opens in the page).

The answer is ``{"replay": ..., "analysis": ...}``: the record played back as ``tarabish
replay`` prints it (every hand's result, the totals and the winner, docs/RECORDS.md) and the
``tarabish-analysis/1`` document of ``tarabish analyze`` (python/tarabish/_analyze.py: the
double-dummy value of every legal card at every play, the played card's loss; a table-mode
match solved as legal play up to a hand's first misplay, R8.1). Solving a match takes seconds,
so it runs on a worker thread, one analysis at a time on one solver thread (the bots of every
table keep the other cores), and each answer is cached by the record's hash: a second request
for the same match costs nothing, and no table ever waits for it.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from .._analyze import analyze
from .._errors import TarabishError
from .._record import to_record
from .._replay import replay
from .protocol import ProtocolError, refusal

if TYPE_CHECKING:
    from .table import Table

FindTable = Callable[[Request], Awaitable["Table | Response"]]
"""The server's lookup of the table named in a request's path (app.py ``live_table``)."""

MAX_RECORD_BYTES = 128 * 1024
"""The largest record ``POST /api/analysis`` takes (a 500-point match is some 10 KB) ..."""
MAX_HANDS = 64
"""... and the most hands (a 500-point match has about ten): solving is about a second a hand."""
MAX_WAITING = 8
"""Analyses that may wait for the solver at once; more are refused with 503 (P5.3)."""
CACHED = 64
"""How many analyses are kept (the least recently asked for leaves first)."""
SOLVER_THREADS = 1
BUSY_RETRY_SECONDS = 5


def analysis_document(record: Any) -> dict[str, Any]:
    """The replay and the analysis of ``record`` (``RecordError`` for a bad record); slow:
    call it on a worker thread."""
    return {"replay": replay(record), "analysis": analyze(record, SOLVER_THREADS).to_dict()}


class Busy(Exception):
    """Too many analyses are waiting for the solver."""


class Analyses:
    """Analyses computed off the event loop, one at a time, and cached by key."""

    def __init__(self, cached: int = CACHED) -> None:
        self._cached = cached
        self._done: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self._running: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._solver = asyncio.Semaphore(1)

    async def of(self, key: str, record: Any) -> dict[str, Any]:
        """The analysis document of ``record``, known by ``key``: from the cache, or from the
        analysis already running for it, or computed on a worker thread. Raises what
        ``analysis_document`` raises, or ``Busy``."""
        done = self._done.get(key)
        if done is not None:
            self._done.move_to_end(key)
            return done
        running = self._running.get(key)
        if running is not None:
            return await asyncio.shield(running)
        if len(self._running) >= MAX_WAITING:
            raise Busy
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._running[key] = future
        try:
            async with self._solver:
                document = await asyncio.to_thread(analysis_document, record)
        except asyncio.CancelledError:
            future.cancel()
            raise
        except Exception as error:
            future.set_exception(error)
            future.exception()  # retrieved, so that no waiter is not a warning
            raise
        finally:
            del self._running[key]
        future.set_result(document)
        self._done[key] = document
        while len(self._done) > self._cached:
            self._done.popitem(last=False)
        return document


def analysis_routes(live_table: FindTable) -> list[Route]:
    """The two routes of the analysis (docs/PROTOCOL.md P5.3); ``live_table`` finds the table
    of a request's path (or the answer why not: 404, or 503 without the database)."""
    analyses = Analyses()

    async def answer(key: str, record: Any) -> Response:
        try:
            return JSONResponse(await analyses.of(key, record))
        except Busy:
            refusal = ProtocolError("busy", "P5.3", "the solver is busy: try again shortly")
            return JSONResponse(
                refusal.to_message(), 503, headers={"Retry-After": str(BUSY_RETRY_SECONDS)}
            )
        except TarabishError as error:
            return _refused(400, "invalid", " ".join(str(error).split()))

    async def of_table(request: Request) -> Response:
        table = await live_table(request)
        if isinstance(table, Response):
            return table
        if not table.state.is_terminal:
            return _refused(
                403,
                "not_over",
                "the analysis shows every seat's cards: it is published when the match is over",
                rule="P5.2",
            )
        return await answer("table:" + table.id, to_record(table.state))

    async def of_posted(request: Request) -> Response:
        body = await read_body(request, MAX_RECORD_BYTES)
        if body is None:
            return _refused(413, "too_large", f"a record is at most {MAX_RECORD_BYTES} bytes")
        try:
            record = json.loads(body)
        except (ValueError, RecursionError) as error:
            return _refused(400, "malformed", f"not JSON: {error}")
        hands = record.get("hands") if isinstance(record, dict) else None
        if isinstance(hands, list) and len(hands) > MAX_HANDS:
            return _refused(413, "too_large", f"a record is at most {MAX_HANDS} hands")
        return await answer("posted:" + hashlib.sha256(body).hexdigest(), record)

    return [
        Route("/api/tables/{table}/analysis", of_table, methods=["GET"]),
        Route("/api/analysis", of_posted, methods=["POST"]),
    ]


async def read_body(request: Request, limit: int) -> bytes | None:
    """The request's body, read while counting: None as soon as it passes ``limit`` bytes."""
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            return None
    return bytes(body)


def _refused(status: int, code: str, message: str, rule: str = "P5.3") -> Response:
    return refusal(status, code, rule, message)
