"""Passages stored before planted instructions were marked (migration 012 left their mark NULL)
are read by the next ingest, a few hundred at a time, so an archive ingested earlier is
protected without being embedded again."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Any

from archive.ingest.admit import instructions_of, shown_beside
from archive.store.database import Store

logger = logging.getLogger(__name__)

#: Passages read per round trip.
BATCH = 500


def _marks(rows: Sequence[dict[str, Any]]) -> list[tuple[list[str], str]]:
    return [
        (
            list(
                instructions_of(r["content"], shown_beside(r["title"], r["subject"], r["summary"]))
            ),
            r["chunk_id"],
        )
        for r in rows
    ]


async def mark_unread(store: Store) -> int:
    """Mark every passage whose mark is not yet known; returns how many were read."""
    read = 0
    while True:
        async with store.pool.connection() as conn:
            cur = await conn.execute(
                "SELECT c.chunk_id, c.content, c.title, d.subject, d.summary"
                " FROM chunks c JOIN documents d USING (doc_id)"
                " WHERE c.instructions IS NULL ORDER BY c.chunk_id LIMIT %s",
                (BATCH,),
            )
            rows = await cur.fetchall()
        if not rows:
            break
        marks = await asyncio.to_thread(_marks, rows)  # milliseconds a passage, off the loop
        async with store.pool.connection() as conn, conn.cursor() as cur:
            await cur.executemany("UPDATE chunks SET instructions = %s WHERE chunk_id = %s", marks)
        read += len(rows)
    if read:
        logger.info("read %d passages stored before instructions were marked", read)
    return read
