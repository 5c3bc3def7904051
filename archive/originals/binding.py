"""Which store a collection's originals live in, recorded in its ``meta`` table, so every
machine that opens the collection agrees (or is told why not) before it cites anything."""

from __future__ import annotations

from psycopg import AsyncConnection
from psycopg.rows import DictRow

from archive.originals.base import OriginalsConfigError
from archive.store.database import Store
from archive.store.locks import ORIGINALS_KEY as LOCATION_KEY


async def recorded_location(conn: AsyncConnection[DictRow]) -> str | None:
    """The collection's object storage URL, None for the local folder."""
    cur = await conn.execute("SELECT value FROM meta WHERE key = %s", (LOCATION_KEY,))
    row = await cur.fetchone()
    return row["value"] if row else None


async def record_location(conn: AsyncConnection[DictRow], url: str | None) -> None:
    """Record ``url`` (None: the local folder) as where the collection's originals are."""
    if url is None:
        await conn.execute("DELETE FROM meta WHERE key = %s", (LOCATION_KEY,))
        return
    await conn.execute(
        "INSERT INTO meta (key, value) VALUES (%s, %s)"
        " ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
        (LOCATION_KEY, url),
    )


async def bind_collection(store: Store, url: str | None) -> None:
    """Check that the collection keeps its originals where ``url`` says (None: the local
    folder); a collection with no documents yet is recorded as kept there. Otherwise an
    :class:`OriginalsConfigError` that says what to set or run: citations checked against the
    wrong store would all be flagged as missing."""
    async with store.pool.connection() as conn:
        recorded = await recorded_location(conn)
        if recorded == url:
            store.originals_url = url
            return
        cur = await conn.execute("SELECT count(*) AS n FROM documents")
        row = await cur.fetchone()
        documents = int(row["n"]) if row else 0
        if documents == 0:
            await record_location(conn, url)
            store.originals_url = url
            return
    collection = f"collection {store.schema!r} ({documents} documents)"
    if recorded is None:
        raise OriginalsConfigError(
            f"{collection} keeps its originals in the local folder: copy them with `bosun "
            f"archive migrate --to {url}` first, or unset BOSUN_ARCHIVE_URL"
        )
    if url is None:
        raise OriginalsConfigError(
            f"{collection} keeps its originals in {recorded}: set BOSUN_ARCHIVE_URL={recorded} "
            "(and the storage's AWS_* credentials and endpoint)"
        )
    raise OriginalsConfigError(
        f"{collection} keeps its originals in {recorded}, not BOSUN_ARCHIVE_URL={url}"
    )
