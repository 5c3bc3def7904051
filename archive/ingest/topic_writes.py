"""The topic pass's side of the store: names embedded once each, one transaction per batch.

A batch's chunks are read and their topics extracted (:mod:`archive.ingest.topics`); the names
the ontology lacks start embedding at once (pieces shared out to the workers), and the batch is
written later, with its new names, links and counts, in one transaction.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from archive.ingest.workers import Embedder
from archive.store.database import Store

#: Names per embedding call: the pieces go to the workers side by side.
EMBED_PIECE = 64
#: Batches whose names embed while the oldest one is written.
AHEAD = 2


@dataclass
class TopicBatch:
    """Chunks read together and the topics found in each."""

    scanned: list[str]  # every chunk id read (also those that yielded no topic)
    found: dict[str, list[tuple[str, float]]]  # chunk id -> (topic name, weight), best first
    missing: list[str] = field(default_factory=list)  # names the ontology lacked when read

    @property
    def names(self) -> set[str]:
        return {name for topics in self.found.values() for name, _ in topics}


class NameVectors:
    """Vectors of the names a pass adds: each embedded once, however many batches name it."""

    def __init__(self, embed: Embedder) -> None:
        self._embed = embed
        self._pending: dict[str, tuple[asyncio.Future[Sequence[Sequence[float]]], int]] = {}

    def want(self, names: list[str]) -> None:
        """Start embedding those of ``names`` not already on their way."""
        todo = [n for n in names if n not in self._pending]
        for start in range(0, len(todo), EMBED_PIECE):
            piece = todo[start : start + EMBED_PIECE]
            future = asyncio.ensure_future(self._embed(piece))
            self._pending.update((name, (future, row)) for row, name in enumerate(piece))

    async def take(self, names: list[str]) -> dict[str, np.ndarray]:
        """The vectors of those of ``names`` still pending (an earlier batch wrote the others),
        forgotten here once returned."""
        mine = [n for n in names if n in self._pending]
        vectors = {}
        for name in mine:
            future, row = self._pending.pop(name)
            vectors[name] = np.asarray((await future)[row], dtype=np.float32)
        return vectors

    def cancel(self) -> None:
        """Drop what is still embedding (the pass stopped)."""
        for future, _ in self._pending.values():
            future.cancel()
        self._pending.clear()


async def write_batch(store: Store, batch: TopicBatch, new: dict[str, np.ndarray]) -> int:
    """Write ``batch`` in one transaction: the ``new`` names with their vectors, the links, the
    topic counts and the read markers; returns the links written.

    Counts are kept here, not by a trigger per link (migration 010): a new name is inserted
    with its count, and each name the ontology had is raised once, by the links actually added.
    """
    pairs = [(cid, name, w) for cid, topics in batch.found.items() for name, w in topics]
    counts = Counter(name for _, name, _ in pairs)
    async with store.pool.connection() as conn, conn.transaction(), conn.cursor() as cur:
        await cur.executemany(
            "INSERT INTO topics (name, embedding, chunk_count) VALUES (%s, %s, %s)",
            [(name, vector, counts[name]) for name, vector in new.items()],
        )
        await cur.execute(
            "SELECT name, topic_id FROM topics WHERE name = ANY(%s)", (sorted(counts),)
        )
        ids = {r["name"]: r["topic_id"] for r in await cur.fetchall()}
        await cur.execute(
            """WITH added AS (
                   INSERT INTO chunk_topics (chunk_id, topic_id, weight)
                   SELECT * FROM unnest(%(chunks)s::text[], %(topics)s::integer[],
                                        %(weights)s::real[])
                   ON CONFLICT DO NOTHING
                   RETURNING topic_id
               )
               UPDATE topics t SET chunk_count = t.chunk_count + a.n
               FROM (SELECT topic_id, count(*) AS n FROM added
                     WHERE topic_id <> ALL(%(new)s::integer[]) GROUP BY topic_id) a
               WHERE t.topic_id = a.topic_id""",
            {
                "chunks": [cid for cid, _, _ in pairs],
                "topics": [ids[name] for _, name, _ in pairs],
                "weights": [w for _, _, w in pairs],
                "new": [ids[name] for name in new],
            },
        )
        await cur.execute(
            "INSERT INTO topic_scanned (chunk_id) SELECT unnest(%s::text[]) ON CONFLICT DO NOTHING",
            (batch.scanned,),
        )
        await cur.execute("DELETE FROM topic_pending WHERE chunk_id = ANY(%s)", (batch.scanned,))
    return len(pairs)
