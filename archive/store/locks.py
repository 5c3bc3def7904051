"""PostgreSQL advisory locks that let several ingest runs (processes or machines) share one
collection: claims on documents, so each is embedded and written by one run; one writer at a
time per collection; the derived stages (vessel tags, thread digests, topics) run only when no
run is writing documents; and `bosun adapt`, which re-embeds everything, runs alone.

Session-level locks live on one connection held for the run and are released explicitly, or by
the server when the process dies (its connection drops), so a killed run leaves no lock behind.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Callable, Sequence

from psycopg import AsyncConnection
from psycopg.rows import DictRow

from archive.store.database import Store
from archive.store.schema import StoreError, check_collection_name

logger = logging.getLogger(__name__)

_KEY = "hashtextextended(%s || %s, 0)"
#: The meta key recording the collection's object storage (absent: the local folder).
ORIGINALS_KEY = "originals_url"


def write_lock_sql(store: Store) -> tuple[str, tuple[str, str]]:
    """A transaction-level lock taken by every transaction that writes documents or chunks:
    concurrent writers would otherwise deadlock on the BM25 term and statistics rows, which the
    chunk triggers update in whatever order a document's terms come."""
    return f"SELECT pg_advisory_xact_lock({_KEY})", ("bosun:write:", store.schema)


class Claims:
    """Documents this run is embedding and writing: ``claim`` takes those no other run holds."""

    def __init__(self, conn: AsyncConnection[DictRow], schema: str) -> None:
        self._conn = conn
        self._prefix = f"bosun:doc:{schema}:"

    async def claim(self, doc_ids: Sequence[str]) -> set[str]:
        """The documents of ``doc_ids`` now held by this run (the others are held elsewhere)."""
        if not doc_ids:
            return set()
        cur = await self._conn.execute(
            "SELECT d FROM unnest(%s::text[]) AS d"
            " WHERE pg_try_advisory_lock(hashtextextended(%s || d, 0))",
            (list(doc_ids), self._prefix),
        )
        return {row["d"] for row in await cur.fetchall()}

    async def release(self, doc_ids: Sequence[str]) -> None:
        """Let other runs have ``doc_ids`` (claimed by :meth:`claim`)."""
        if doc_ids:
            await self._conn.execute(
                "SELECT pg_advisory_unlock(hashtextextended(%s || d, 0))"
                " FROM unnest(%s::text[]) AS d",
                (self._prefix, list(doc_ids)),
            )

    async def wait(self, doc_ids: Sequence[str]) -> None:
        """Return once no other run holds any of ``doc_ids``."""
        for doc_id in doc_ids:
            await self._conn.execute(f"SELECT pg_advisory_lock({_KEY})", (self._prefix, doc_id))
            await self._conn.execute(f"SELECT pg_advisory_unlock({_KEY})", (self._prefix, doc_id))


@contextlib.asynccontextmanager
async def held_connection(store: Store) -> AsyncIterator[AsyncConnection[DictRow]]:
    """A pooled connection for session-level advisory locks, returned with none held."""
    async with store.pool.connection() as conn:
        try:
            yield conn
        finally:
            await conn.execute("SELECT pg_advisory_unlock_all()")


@contextlib.asynccontextmanager
async def claims(store: Store) -> AsyncIterator[Claims]:
    """Document claims for one run, all released at its end."""
    async with held_connection(store) as conn:
        yield Claims(conn, store.schema)


@contextlib.asynccontextmanager
async def ingest_stage(store: Store, *, exclusive: bool) -> AsyncIterator[None]:
    """Hold the collection's ingest lock: shared while writing documents (runs write side by
    side), exclusive for the derived stages, which then see every document of every run that
    was writing (their result equals one run over all the inputs)."""
    mode = "" if exclusive else "_shared"
    key = _ingest_key(store.schema)
    async with held_connection(store) as conn:
        await conn.execute(f"SELECT pg_advisory_lock{mode}({_KEY})", key)
        try:
            await _check_model(conn, store)
            yield
        finally:
            await conn.execute(f"SELECT pg_advisory_unlock{mode}({_KEY})", key)


def _ingest_key(schema: str) -> tuple[str, str]:
    """The parameters of :data:`_KEY` for a collection's ingest lock (ingest, delete, adapt)."""
    return ("bosun:ingest:", schema)


async def _check_model(conn: AsyncConnection[DictRow], store: Store) -> None:
    """Raise StoreError when the collection's vectors are no longer the model this run embeds
    with (`bosun adapt` re-embedded it while the run waited for the lock), or its originals
    moved to object storage (`bosun archive migrate`)."""
    cur = await conn.execute(
        "SELECT key, value FROM meta WHERE key IN ('embedding_model', %s)", (ORIGINALS_KEY,)
    )
    meta = {row["key"]: row["value"] for row in await cur.fetchall()}
    model = meta.get("embedding_model")
    if model is not None and model != store.identity.model:
        raise StoreError(
            f"collection {store.schema!r} was re-embedded by {model} (bosun adapt) while "
            f"this run waited to write it with {store.identity.model}; run it again"
        )
    if meta.get(ORIGINALS_KEY) != store.originals_url:
        where = meta.get(ORIGINALS_KEY) or "the local folder"
        raise StoreError(
            f"collection {store.schema!r} now keeps its originals in {where} (bosun archive "
            "migrate) while this run waited; set BOSUN_ARCHIVE_URL accordingly and run it again"
        )


@contextlib.asynccontextmanager
async def rewriting(
    uri: str, collection: str, *, on_wait: Callable[[], None] | None = None
) -> AsyncIterator[None]:
    """The collection's ingest lock held exclusively, on a connection of its own, by a run that
    rewrites every vector and the meta (`bosun adapt`): it waits for the ingest and delete runs
    writing the collection and for another such run, and they wait for it. ``on_wait`` is called
    when it has to wait. Held until the connection closes, so a killed run leaves none."""
    key = _ingest_key(check_collection_name(collection))
    async with await AsyncConnection.connect(uri, autocommit=True) as conn:
        cur = await conn.execute(f"SELECT pg_try_advisory_lock({_KEY})", key)
        row = await cur.fetchone()
        if not (row and row[0]):
            if on_wait is not None:
                on_wait()
            await conn.execute(f"SELECT pg_advisory_lock({_KEY})", key)
        yield
