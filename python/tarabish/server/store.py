"""The server's database: every table, its seat tokens and every accepted action, durable.

A table is stored as what makes its ``tarabish-record/1`` form and its future deals: its
configuration (rules, match seed, first dealer, seats) and its action log, one row per accepted
action in order. The log is appended before an action is broadcast (docs/PROTOCOL.md
"Durability"); a restart rebuilds each unfinished table by replaying its log on a fresh
``MatchState`` with the same seed, which gives exactly the state, the events and the record of
before.

Two backends behind one interface: SQLite (a file in WAL mode with ``synchronous=FULL``: the
default, one server process) and PostgreSQL through psycopg 3 (``postgresql://...``: several
server processes share one database, each owning the tables it created). All database work runs
on one writer thread per store. Writes are grouped twice (group commit): every write asked for
in one turn of the event loop goes to the thread as one batch, and the thread commits whatever
batches are waiting in one transaction, so a commit costs one fsync however many tables are
writing; the results go back to the event loop in one call per transaction. On PostgreSQL a
transaction of appended actions alone (the server's hot path) is one statement (``unnest`` of
the rows' columns) in its own implicit transaction: one round trip to the database instead of
three (``BEGIN``, the rows, ``COMMIT``), and less of the server's CPU (measured: 30 % less
for a transaction of one row, half for one of 32).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import json
import os
import queue
import sqlite3
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .._errors import InvalidInputError

MAX_BATCH = 512
"""A transaction takes in more waiting batches while it has fewer jobs than this."""
FILE_MODE = 0o600
"""The SQLite file and its WAL and shared-memory files: the owner's alone (seeds, tokens'
hashes)."""
SQLITE_SIDE_FILES = ("", "-wal", "-shm")

SCHEMA = (
    """CREATE TABLE IF NOT EXISTS tables (
        id TEXT PRIMARY KEY,
        owner TEXT NOT NULL,
        created DOUBLE PRECISION NOT NULL,
        config TEXT NOT NULL,
        finished INTEGER NOT NULL DEFAULT 0)""",
    """CREATE TABLE IF NOT EXISTS seats (
        table_id TEXT NOT NULL,
        seat INTEGER NOT NULL,
        token_hash TEXT NOT NULL,
        PRIMARY KEY (table_id, seat))""",
    """CREATE TABLE IF NOT EXISTS actions (
        table_id TEXT NOT NULL,
        n INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        action TEXT NOT NULL,
        at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (table_id, n))""",
    "CREATE INDEX IF NOT EXISTS tables_open ON tables (owner, finished)",
)

APPEND_AT_ONCE = (
    "INSERT INTO actions (table_id, n, seat, action, at) SELECT * FROM "
    "unnest(%s::text[], %s::integer[], %s::integer[], %s::text[], %s::double precision[])"
)
"""PostgreSQL: appended actions as one statement, each column an array."""

_SCHEMA_LOCK = 0x7461726162  # the PostgreSQL advisory lock that serialises schema creation


class StoreUnavailable(Exception):
    """The database could not commit (it is down, the connection to it was lost, the disk is
    full, the file is corrupt or read-only ...): nothing was stored. The store opens a new
    connection for the next write, and is ``degraded`` until a commit succeeds again."""


class StoreBatchFailed(Exception):
    """The rows appended together could not be committed together: each is tried alone."""


class StoreConflict(InvalidInputError):
    """A write that the database refuses because the row exists: a seat already taken, or an
    action number already written (another process wrote this table, docs/PROTOCOL.md)."""


@dataclass(frozen=True, slots=True)
class StoredTable:
    """One table as stored: its id, configuration (JSON object), seat token hashes by seat and
    action texts in order."""

    id: str
    config: dict[str, Any]
    tokens: dict[int, str]
    actions: tuple[str, ...]
    finished: bool


def token_hash(token: str) -> str:
    """What the database keeps of a seat token (a leaked database gives no usable token)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


_Job = tuple[Callable[[Any], Any], asyncio.Future[Any]]
_Row = tuple[str, int, int, str, float, bool]
"""An appended action: table id, number, seat, text, time, and whether it ends the match."""


class Store:
    """A database behind a writer thread; every method is a coroutine that resolves once its
    transaction has committed (or raises what the database raised)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.is_postgres = url.startswith(("postgresql://", "postgres://"))
        if not self.is_postgres and not url.startswith("sqlite:///") and "://" in url:
            raise InvalidInputError(
                f"--db must be sqlite:///PATH, a file path or postgresql://..., got {url!r}"
            )
        self._jobs: queue.SimpleQueue[list[_Job] | None] = queue.SimpleQueue()
        self._pending: list[_Job] = []
        self._rows: list[_Row] = []
        self._rows_waiting: list[asyncio.Future[None]] | None = None
        self._thread: threading.Thread | None = None
        self._connection: Any = None
        self.degraded = False
        """Whether the last transaction failed on the database (not on a refused row): set
        and cleared by the writer thread."""

    @property
    def description(self) -> str:
        """The database for logs: the SQLite path, or PostgreSQL without its password."""
        if self.is_postgres:
            return "postgresql://" + self.url.split("@")[-1]
        return self._sqlite_path()

    def _sqlite_path(self) -> str:
        return self.url.removeprefix("sqlite:///") if self.url.startswith("sqlite:") else self.url

    # -- the writer thread ---------------------------------------------------------------------

    def _connect(self) -> Any:
        if self.is_postgres:
            import psycopg

            # Transactions are begun explicitly, as on SQLite, so that one statement alone
            # can be its own transaction (``_transaction``).
            shared = psycopg.connect(self.url, autocommit=True)
            with shared.cursor() as cursor:
                cursor.execute("BEGIN")
                cursor.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK,))
                for statement in SCHEMA:
                    cursor.execute(statement)
            shared.commit()
            return shared
        path = self._sqlite_path()
        if path != ":memory:":
            # Created the owner's alone; SQLite gives its WAL and -shm files the same mode.
            os.close(os.open(path, os.O_CREAT | os.O_RDWR, FILE_MODE))
            for suffix in SQLITE_SIDE_FILES:
                with contextlib.suppress(FileNotFoundError):
                    os.chmod(path + suffix, FILE_MODE)
        local = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        local.execute("PRAGMA journal_mode=WAL")
        local.execute("PRAGMA synchronous=FULL")
        for statement in SCHEMA:
            local.execute(statement)
        return local

    def _sql(self, statement: str) -> str:
        return statement.replace("?", "%s") if self.is_postgres else statement

    def _transaction(self, jobs: list[_Job]) -> list[tuple[bool, Any]]:
        """Run ``jobs`` in one transaction: each job's (ok, result or error). A row the
        database refuses (``StoreConflict``, a unique key) fails its job alone; any other
        failure (the connection lost, the disk full, the file corrupt or read-only ...) fails
        every job with ``StoreUnavailable``, closes the connection (a new one is opened next
        time) and leaves the store ``degraded`` until a commit succeeds."""
        try:
            if self._connection is None:
                self._connection = self._connect()
            connection = self._connection
            cursor = connection.cursor()
        except Exception as error:
            return self._unavailable(jobs, error)
        try:
            if self.is_postgres and _appends_only(jobs):
                rows = [row for f, _ in jobs if isinstance(f, _Appends) for row in f.rows]
                self._append_rows_at_once(cursor, rows)
                self.degraded = False
                return [(True, None)] * len(jobs)
            cursor.execute("BEGIN")
            results = [(True, function(cursor)) for function, _ in jobs]
            connection.commit()
            self.degraded = False
            return results
        except Exception as error:
            with contextlib.suppress(Exception):
                connection.rollback()
            if not isinstance(error, StoreConflict) and not _is_unique_violation(error):
                return self._unavailable(jobs, error)
            if len(jobs) == 1:
                return [(False, error)]
        finally:
            with contextlib.suppress(Exception):
                cursor.close()
        # One job's row was refused: run each alone so the others still commit.
        return [self._transaction([job])[0] for job in jobs]

    def _unavailable(self, jobs: list[_Job], error: Exception) -> list[tuple[bool, Any]]:
        self.degraded = True
        if self._connection is not None:
            with contextlib.suppress(Exception):
                self._connection.close()
            self._connection = None
        unavailable = StoreUnavailable(f"the database is unavailable: {_one_line(error)}")
        return [(False, unavailable)] * len(jobs)

    def _run(self, ready: asyncio.Future[None], loop: asyncio.AbstractEventLoop) -> None:
        try:
            self._connection = self._connect()
        except Exception as error:
            loop.call_soon_threadsafe(_settle, ready, False, error)
            return
        loop.call_soon_threadsafe(_settle, ready, True, None)
        stopping = False
        while not stopping:
            first = self._jobs.get()
            batch: list[_Job] = []
            if first is None:
                stopping = True
            else:
                batch.extend(first)
            while len(batch) < MAX_BATCH:
                try:
                    more = self._jobs.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stopping = True
                else:
                    batch.extend(more)
            if batch:
                loop.call_soon_threadsafe(_settle_all, batch, self._transaction(batch))
        if self._connection is not None:
            self._connection.close()

    def _flush(self) -> None:
        """Hand the writes of this event-loop turn to the writer thread as one batch."""
        self._rows_waiting = None
        if self._pending:
            self._jobs.put(self._pending)
            self._pending = []

    async def _submit(self, function: Callable[[Any], Any]) -> Any:
        if self._thread is None:
            raise RuntimeError("the store is not started")
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        if not self._pending:
            loop.call_soon(self._flush)
        self._pending.append((function, future))
        return await future

    # -- lifecycle -----------------------------------------------------------------------------

    async def start(self) -> None:
        """Open the database (creating the schema) on the writer thread."""
        loop = asyncio.get_running_loop()
        ready: asyncio.Future[None] = loop.create_future()
        self._thread = threading.Thread(
            target=self._run, args=(ready, loop), name="tarabish-store", daemon=True
        )
        self._thread.start()
        await ready

    async def stop(self) -> None:
        """Commit every queued write, then close the database."""
        if self._thread is None:
            return
        self._flush()
        self._jobs.put(None)
        await asyncio.to_thread(self._thread.join)
        self._thread = None

    # -- writes --------------------------------------------------------------------------------

    def _insert(self, cursor: Any, statement: str, values: tuple[Any, ...], what: str) -> None:
        try:
            cursor.execute(self._sql(statement), values)
        except Exception as error:
            if _is_unique_violation(error):
                raise StoreConflict(what) from None
            raise

    async def create_table(
        self, table_id: str, owner: str, created: float, config: dict[str, Any]
    ) -> None:
        text = json.dumps(config, separators=(",", ":"))

        def job(cursor: Any) -> None:
            self._insert(
                cursor,
                "INSERT INTO tables (id, owner, created, config) VALUES (?, ?, ?, ?)",
                (table_id, owner, created, text),
                f"table {table_id} exists",
            )

        await self._submit(job)

    async def claim_seat(self, table_id: str, seat: int, token: str) -> None:
        """Store ``token`` for ``seat``; ``StoreConflict`` if the seat is taken."""

        def job(cursor: Any) -> None:
            self._insert(
                cursor,
                "INSERT INTO seats (table_id, seat, token_hash) VALUES (?, ?, ?)",
                (table_id, seat, token_hash(token)),
                f"seat {seat} of table {table_id} is taken",
            )

        await self._submit(job)

    async def append_action(
        self, table_id: str, n: int, seat: int, action: str, at: float, finished: bool
    ) -> None:
        """Append action number ``n`` (0-based) of a table; ``finished`` marks the match over.
        ``StoreConflict`` if number ``n`` is written already.

        The actions appended in one event-loop turn share one job and one ``executemany``
        (the server's hot path: one action after another, from every table); each waits on a
        future of its own, settled with the job's, so that a cancelled action (a bot's, at
        shutdown) cancels no other. If that job fails, none of its rows was committed, and each
        row is tried alone, so that only the rows the database refuses fail."""
        loop = asyncio.get_running_loop()
        waiting = self._rows_waiting
        if waiting is None:
            rows: list[_Row] = []
            waiting = []
            done: asyncio.Future[Any] = loop.create_future()
            done.add_done_callback(functools.partial(_settle_rows, waiting))
            self._rows, self._rows_waiting = rows, waiting
            loop.call_soon(self._flush)
            self._pending.append((_Appends(self, rows), done))
        mine: asyncio.Future[None] = loop.create_future()
        self._rows.append((table_id, n, seat, action, at, finished))
        waiting.append(mine)
        try:
            await mine
        except StoreBatchFailed:
            await self._append_one(table_id, n, seat, action, at, finished)

    def _append_rows(self, cursor: Any, rows: list[_Row]) -> None:
        cursor.executemany(
            self._sql("INSERT INTO actions (table_id, n, seat, action, at) VALUES (?, ?, ?, ?, ?)"),
            [row[:5] for row in rows],
        )
        over = [(row[0],) for row in rows if row[5]]
        if over:
            cursor.executemany(self._sql("UPDATE tables SET finished = 1 WHERE id = ?"), over)

    def _append_rows_at_once(self, cursor: Any, rows: list[_Row]) -> None:
        """PostgreSQL: ``rows`` (none ends a match) in one statement, committed by itself."""
        columns = [list(column) for column in zip(*(row[:5] for row in rows), strict=True)]
        cursor.execute(APPEND_AT_ONCE, columns)

    async def _append_one(
        self, table_id: str, n: int, seat: int, action: str, at: float, finished: bool
    ) -> None:
        def job(cursor: Any) -> None:
            self._insert(
                cursor,
                "INSERT INTO actions (table_id, n, seat, action, at) VALUES (?, ?, ?, ?, ?)",
                (table_id, n, seat, action, at),
                f"action {n} of table {table_id} is written already",
            )
            if finished:
                cursor.execute(
                    self._sql("UPDATE tables SET finished = 1 WHERE id = ?"), (table_id,)
                )

        await self._submit(job)

    async def forget(self, table_id: str) -> None:
        """Delete a table with everything stored of it (an expired table: nobody sat at it)."""

        def job(cursor: Any) -> None:
            for table, key in (("actions", "table_id"), ("seats", "table_id"), ("tables", "id")):
                cursor.execute(self._sql(f"DELETE FROM {table} WHERE {key} = ?"), (table_id,))

        await self._submit(job)

    # -- reads ---------------------------------------------------------------------------------

    def _load(self, cursor: Any, table_id: str) -> StoredTable | None:
        cursor.execute(self._sql("SELECT config, finished FROM tables WHERE id = ?"), (table_id,))
        row = cursor.fetchone()
        if row is None:
            return None
        cursor.execute(
            self._sql("SELECT seat, token_hash FROM seats WHERE table_id = ?"), (table_id,)
        )
        tokens = {int(seat): str(digest) for seat, digest in cursor.fetchall()}
        cursor.execute(
            self._sql("SELECT action FROM actions WHERE table_id = ? ORDER BY n"), (table_id,)
        )
        actions = tuple(str(action) for (action,) in cursor.fetchall())
        return StoredTable(table_id, json.loads(row[0]), tokens, actions, bool(row[1]))

    async def load(self, table_id: str) -> StoredTable | None:
        """One table, or None if there is no such table."""
        return await self._submit(lambda cursor: self._load(cursor, table_id))  # type: ignore[no-any-return]

    async def unfinished(self, owner: str | None) -> list[StoredTable]:
        """Every table of ``owner`` (None: of every owner) whose match is not over, oldest
        first."""

        def job(cursor: Any) -> list[StoredTable]:
            mine = "" if owner is None else "owner = ? AND "
            cursor.execute(
                self._sql(f"SELECT id FROM tables WHERE {mine}finished = 0 ORDER BY created, id"),
                () if owner is None else (owner,),
            )
            ids = [str(table_id) for (table_id,) in cursor.fetchall()]
            return [table for table in (self._load(cursor, i) for i in ids) if table is not None]

        return await self._submit(job)  # type: ignore[no-any-return]

    async def owner_of(self, table_id: str) -> str | None:
        """The owner (server address) of a table, or None if there is no such table."""

        def job(cursor: Any) -> str | None:
            cursor.execute(self._sql("SELECT owner FROM tables WHERE id = ?"), (table_id,))
            row = cursor.fetchone()
            return None if row is None else str(row[0])

        return await self._submit(job)  # type: ignore[no-any-return]


class _Appends:
    """The job of the actions appended in one event-loop turn (``Store.append_action``): a
    callable on a cursor like every job, whose rows ``Store._transaction`` can also see."""

    __slots__ = ("rows", "store")

    def __init__(self, store: Store, rows: list[_Row]) -> None:
        self.store = store
        self.rows = rows

    def __call__(self, cursor: Any) -> None:
        self.store._append_rows(cursor, self.rows)


def _appends_only(jobs: list[_Job]) -> bool:
    """Whether ``jobs`` only append actions, none of which ends a match."""
    return all(
        isinstance(function, _Appends) and not any(row[5] for row in function.rows)
        for function, _ in jobs
    )


def _settle(future: asyncio.Future[Any], ok: bool, value: Any) -> None:
    if future.done():
        return
    if ok:
        future.set_result(value)
    else:
        future.set_exception(value)


def _settle_rows(waiting: list[asyncio.Future[None]], done: asyncio.Future[Any]) -> None:
    """The rows appended together are committed (or not): tell each action that waits (a
    database that failed fails them all; a refused row has each tried alone)."""
    error = None if done.cancelled() else done.exception()
    failed = done.cancelled() or error is not None
    for future in waiting:
        if not future.done():
            if isinstance(error, StoreUnavailable):
                future.set_exception(StoreUnavailable(str(error)))
            elif failed:
                future.set_exception(StoreBatchFailed())
            else:
                future.set_result(None)


def _settle_all(jobs: list[_Job], results: list[tuple[bool, Any]]) -> None:
    for (_, future), (ok, value) in zip(jobs, results, strict=True):
        _settle(future, ok, value)


def _one_line(error: Exception) -> str:
    return " ".join(str(error).split()) or type(error).__name__


def _is_unique_violation(error: Exception) -> bool:
    if isinstance(error, sqlite3.IntegrityError):
        return True
    return getattr(error, "sqlstate", None) == "23505"  # PostgreSQL unique_violation
