"""The server's store (python/tarabish/server/store.py) on its own, on SQLite and on PostgreSQL:
the actions appended in one event-loop turn are committed together (group commit; on
PostgreSQL a batch of appends alone is one statement), and the grouping never changes what one
action's caller is told: a row the database refuses fails alone, and a caller that gives up
(a bot cancelled at shutdown) cancels no other caller (docs/PROTOCOL.md "Durability")."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest
from serverkit import Postgres, postgres
from tarabish.server.store import Store, StoreConflict

CONFIG = {"rules": {}, "seed": 1, "first_dealer": 0, "seats": [None] * 4}
_DATABASES = itertools.count()


@pytest.fixture(scope="module")
def cluster() -> Iterator[Postgres]:
    with postgres() as running:
        yield running


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A new, empty database of each backend."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 's.sqlite3'}"
    import psycopg

    cluster: Postgres = request.getfixturevalue("cluster")
    name = f"store{next(_DATABASES)}"
    with psycopg.connect(cluster.url, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    return cluster.url.rsplit("/", 1)[0] + "/" + name


async def _store_with_tables(url: str, *tables: str) -> Store:
    store = Store(url)
    await store.start()
    for table in tables:
        await store.create_table(table, "test", 0.0, {**CONFIG, "id": table})
    return store


def test_a_refused_row_fails_alone_and_the_rest_of_its_batch_commits(url: str) -> None:
    async def scenario() -> None:
        store = await _store_with_tables(url, "a", "b", "c")
        try:
            await store.append_action("a", 0, 1, "1 pass", 0.0, False)
            # One turn of the event loop: one batch, whose second row repeats action 0 of "a".
            results = await asyncio.gather(
                store.append_action("b", 0, 1, "1 pass", 0.0, False),
                store.append_action("a", 0, 1, "1 call H", 0.0, False),
                store.append_action("c", 0, 1, "1 pass", 0.0, True),
                return_exceptions=True,
            )
            assert results[0] is None and results[2] is None
            assert isinstance(results[1], StoreConflict)
            stored = [await store.load(table) for table in "abc"]
            assert [(s.actions, s.finished) for s in stored if s is not None] == [
                (("1 pass",), False),
                (("1 pass",), False),
                (("1 pass",), True),
            ]
            # A batch of appends alone, none ending a match (one statement on PostgreSQL).
            results = await asyncio.gather(
                store.append_action("b", 1, 2, "2 pass", 0.0, False),
                store.append_action("a", 0, 1, "1 call S", 0.0, False),
                store.append_action("a", 1, 2, "2 pass", 0.0, False),
                return_exceptions=True,
            )
            assert results[0] is None and results[2] is None
            assert isinstance(results[1], StoreConflict)
            stored = [await store.load(table) for table in "ab"]
            assert [s.actions for s in stored if s is not None] == [("1 pass", "2 pass")] * 2
        finally:
            await store.stop()

    asyncio.run(scenario())


def test_a_cancelled_caller_cancels_no_other_caller_of_its_batch(url: str) -> None:
    async def scenario() -> None:
        store = await _store_with_tables(url, "a", "b")
        try:
            given_up = asyncio.ensure_future(store.append_action("a", 0, 1, "1 pass", 0.0, False))
            kept = asyncio.ensure_future(store.append_action("b", 0, 1, "1 pass", 0.0, False))
            await asyncio.sleep(0)  # both rows are queued in one batch
            given_up.cancel()
            await kept  # committed: no CancelledError here
            assert not kept.cancelled()
            with pytest.raises(asyncio.CancelledError):
                await given_up
            # The row was handed to the database before its caller gave up: it is stored.
            for table in "ab":
                stored = await store.load(table)
                assert stored is not None and stored.actions == ("1 pass",)
        finally:
            await store.stop()

    asyncio.run(scenario())
