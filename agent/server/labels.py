"""Feedback as labels: what an answered turn showed, and what its user then did with it.

Every passage in a turn's source list is a row of ``bosun_shown`` (schema.sql) with the question,
the place it was shown at and its place in the reranked retrieval; opening its citation
(``GET /api/citations/{chunk_id}``) and downloading its original (``GET /api/files``) stamp that
row, from the requests the page makes anyway. Thumbs and comments are ``bosun_feedback`` rows of
the same answer. `bosun adapt` reads them (:mod:`adapt.feedback`); nothing here leaves the
database.

An open or a download names a passage or a file, not a turn: it is credited to the caller's
latest turn in the served collection that showed it (an older turn showing the same passage
keeps what it had).
"""

from __future__ import annotations

import logging
from typing import Any

from psycopg import AsyncConnection, sql
from psycopg.rows import DictRow

from text.storable import storable

logger = logging.getLogger(__name__)

#: The longest question or query kept with a label (the turn's own limit is 4,000 characters).
MAX_QUESTION_CHARS = 4000


def shown_rows(state: dict[str, Any]) -> list[tuple[str, int, int | None, str, str]]:
    """(chunk id, position shown, retrieval rank or None, source id, archive path) for each
    citation of a turn's ``state``, in the order the source list shows them."""
    ranks = {p["chunk_id"]: i for i, p in enumerate(state.get("ranked") or [], start=1)}
    rows = []
    for position, citation in enumerate(state.get("citations") or [], start=1):
        chunk_id = citation["id"]
        rank = ranks.get(chunk_id)
        rows.append(
            (
                chunk_id,
                int(citation.get("number") or position),
                rank if rank is not None and rank < 32768 else None,
                citation["source_id"],
                citation["archive_path"],
            )
        )
    return rows


async def record_shown(
    conn: AsyncConnection[DictRow],
    *,
    message_id: str,
    thread_id: str,
    user_id: str,
    collection: str,
    state: dict[str, Any],
    question: str,
) -> int:
    """Store the passages the turn ``message_id`` showed; returns how many."""
    rows = shown_rows(state)
    if not rows:
        return 0
    asked = storable(str(state.get("question") or question))[:MAX_QUESTION_CHARS]
    query = storable(str(state.get("query") or asked))[:MAX_QUESTION_CHARS]
    async with conn.cursor() as cur:
        await cur.executemany(
            """INSERT INTO bosun_shown (message_id, chunk_id, thread_id, user_id, collection,
                   question, query, position, rank, source_id, archive_path)
               VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)
               ON CONFLICT (message_id, chunk_id) DO NOTHING""",
            [
                (message_id, chunk, thread_id, user_id, collection, asked, query, *rest)
                for chunk, *rest in rows
            ],
        )
    return len(rows)


async def record_open(
    conn: AsyncConnection[DictRow], *, user_id: str, collection: str, chunk_id: str
) -> bool:
    """Stamp the caller's latest turn that showed ``chunk_id`` as opened; False when none did
    (a passage reached another way: an attachment's message, a link from elsewhere)."""
    return await _stamp(conn, "opened_at", "chunk_id", user_id, collection, chunk_id)


async def record_download(
    conn: AsyncConnection[DictRow], *, user_id: str, collection: str, archive_path: str
) -> bool:
    """Stamp the caller's latest turn that showed a passage of the file ``archive_path`` as
    downloaded; False when none did."""
    return await _stamp(conn, "downloaded_at", "archive_path", user_id, collection, archive_path)


_STAMP = sql.SQL("""UPDATE bosun_shown SET {column} = coalesce({column}, now())
WHERE (message_id, chunk_id) IN (
    SELECT message_id, chunk_id FROM bosun_shown
    WHERE user_id = %s AND collection = %s AND {key} = %s
    ORDER BY created_at DESC, position LIMIT 1)
RETURNING message_id""")


async def _stamp(
    conn: AsyncConnection[DictRow], column: str, key: str, user: str, collection: str, value: str
) -> bool:
    query = _STAMP.format(column=sql.Identifier(column), key=sql.Identifier(key))
    cur = await conn.execute(query, (user, collection, value))
    found = await cur.fetchone() is not None
    if not found:
        logger.debug("%s of %s by %s: no turn showed it", column, value, user)
    return found


async def forget_thread(conn: AsyncConnection[DictRow], thread_id: str) -> None:
    """Delete a thread's labels: what its turns showed and the thumbs and comments on them."""
    await conn.execute("DELETE FROM bosun_shown WHERE thread_id = %s", (thread_id,))
    await conn.execute("DELETE FROM bosun_feedback WHERE thread_id = %s", (thread_id,))


__all__ = ["forget_thread", "record_download", "record_open", "record_shown", "shown_rows"]
