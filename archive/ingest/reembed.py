"""Re-embed a whole collection with another model, switching vectors and model record at once.

All vectors (passages and topic names) are computed first, outside any transaction; then one
transaction drops the HNSW indexes, writes every vector, rebuilds the indexes and records the
model, so a collection never holds vectors of two models: a run stopped before the commit leaves
the old vectors and the old record.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from langchain_core.embeddings import Embeddings
from psycopg import AsyncConnection, sql

from archive.ingest.writer import reads_as_text
from archive.store.database import Store

logger = logging.getLogger(__name__)

_TEXTS = """
SELECT c.chunk_id, c.content, d.title, d.embedding_mode, d.summary
FROM chunks c JOIN documents d USING (doc_id) ORDER BY c.chunk_id
"""


@dataclass(frozen=True)
class ReembedReport:
    """What re-embedding did."""

    chunks: int
    topics: int
    embed_seconds: float
    write_seconds: float


def stored_embedding_text(title: str, content: str, mode: str, summary: str) -> str:
    """What the writer embedded for a stored chunk (as :func:`writer.embedding_text`)."""
    if mode == "summary" and summary:
        return summary
    return f"{title}\n{content}" if reads_as_text(title) else content


async def reembed_collection(
    store: Store,
    embeddings: Embeddings,
    meta: Mapping[str, str],
    *,
    drop: tuple[str, ...] = (),
    batch: int = 512,
    on_batch: Callable[[int], None] | None = None,
) -> ReembedReport:
    """Embed every chunk and topic name of ``store`` with ``embeddings`` and write the vectors and
    ``meta`` (``embedding_model`` and friends; the ``drop`` keys removed) in one transaction."""
    async with store.pool.connection() as conn:
        chunks = await (await conn.execute(_TEXTS)).fetchall()
        topics = await (await conn.execute("SELECT topic_id, name FROM topics")).fetchall()
    texts = [
        stored_embedding_text(r["title"], r["content"], r["embedding_mode"], r["summary"])
        for r in chunks
    ] + [r["name"] for r in topics]
    started = time.perf_counter()
    parts: list[np.ndarray] = []
    for start in range(0, len(texts), batch):
        vectors = await asyncio.to_thread(embeddings.embed_documents, texts[start : start + batch])
        parts.append(np.asarray(vectors, dtype=np.float32))
        if on_batch:
            on_batch(len(vectors))
    embed_seconds = time.perf_counter() - started
    started = time.perf_counter()
    matrix = np.concatenate(parts) if parts else np.empty((0, 0), dtype=np.float32)
    await _replace_vectors(store, chunks, topics, matrix, meta, drop)
    report = ReembedReport(len(chunks), len(topics), embed_seconds, time.perf_counter() - started)
    logger.info("re-embedded %s: %s", store.schema, report)
    return report


async def _replace_vectors(
    store: Store,
    chunks: Sequence[Mapping[str, Any]],
    topics: Sequence[Mapping[str, Any]],
    matrix: np.ndarray,
    meta: Mapping[str, str],
    drop: tuple[str, ...],
) -> None:
    """Swap in ``matrix`` (the chunks' rows, then the topics') and write ``meta`` in one
    transaction, then refresh the planner's statistics."""
    async with store.pool.connection() as conn, conn.transaction():
        await _swap(
            conn, "chunks", "chunk_id", [r["chunk_id"] for r in chunks], matrix[: len(chunks)]
        )
        ids = [str(r["topic_id"]) for r in topics]
        await _swap(conn, "topics", "topic_id", ids, matrix[len(chunks) :])
        await _write_meta(conn, meta, drop)
    async with store.pool.connection() as conn:
        await conn.execute("VACUUM (ANALYZE) chunks, topics")


async def transform_collection(
    store: Store,
    transform: Callable[[np.ndarray], np.ndarray],
    meta: Mapping[str, str],
    *,
    drop: tuple[str, ...] = (),
) -> ReembedReport:
    """Replace every stored vector (passages and topic names) ``v`` by ``transform(v)`` (rows in,
    rows out) and write ``meta``, in one transaction: how a linear head re-embeds a collection."""
    started = time.perf_counter()
    async with store.pool.connection() as conn, conn.cursor(binary=True) as cur:
        await cur.execute("SELECT chunk_id, embedding FROM chunks ORDER BY chunk_id")
        chunks = await cur.fetchall()
        await cur.execute("SELECT topic_id, embedding FROM topics ORDER BY topic_id")
        topics = await cur.fetchall()
    rows = [np.asarray(r["embedding"], dtype=np.float32) for r in [*chunks, *topics]]
    matrix = transform(np.stack(rows)) if rows else np.empty((0, 0), dtype=np.float32)
    embed_seconds = time.perf_counter() - started
    started = time.perf_counter()
    await _replace_vectors(store, chunks, topics, matrix, meta, drop)
    return ReembedReport(len(chunks), len(topics), embed_seconds, time.perf_counter() - started)


async def _write_meta(
    conn: AsyncConnection[Any], meta: Mapping[str, str], drop: tuple[str, ...]
) -> None:
    await conn.execute("DELETE FROM meta WHERE key = ANY(%s)", (list(drop),))
    for key, value in meta.items():
        await conn.execute(
            "INSERT INTO meta (key, value) VALUES (%s, %s)"
            " ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
            (key, value),
        )


async def stored_vectors(store: Store) -> dict[str, np.ndarray]:
    """Every passage's stored vector by chunk id."""
    async with store.pool.connection() as conn, conn.cursor(binary=True) as cur:
        await cur.execute("SELECT chunk_id, embedding FROM chunks")
        rows = await cur.fetchall()
    return {r["chunk_id"]: np.asarray(r["embedding"], dtype=np.float32) for r in rows}


async def _swap(
    conn: AsyncConnection[Any], table: str, key: str, ids: list[str], vectors: np.ndarray
) -> None:
    """Replace the ``embedding`` of every row of ``table`` (HNSW index rebuilt once, after)."""
    index = sql.Identifier(f"{table}_embedding_hnsw")
    await conn.execute(sql.SQL("DROP INDEX IF EXISTS {}").format(index))
    await conn.execute(
        "CREATE TEMP TABLE new_vectors (id text PRIMARY KEY, embedding vector) ON COMMIT DROP"
    )
    async with conn.cursor().copy("COPY new_vectors (id, embedding) FROM STDIN") as copy:
        for row_id, vector in zip(ids, vectors, strict=True):
            await copy.write_row((row_id, "[" + ",".join(f"{x:.7g}" for x in vector) + "]"))
    await conn.execute(
        sql.SQL(
            "UPDATE {table} SET embedding = n.embedding FROM new_vectors n"
            " WHERE {table}.{key}::text = n.id"
        ).format(table=sql.Identifier(table), key=sql.Identifier(key))
    )
    await conn.execute("DROP TABLE new_vectors")
    await conn.execute(
        sql.SQL("CREATE INDEX {} ON {} USING hnsw (embedding vector_cosine_ops)").format(
            index, sql.Identifier(table)
        )
    )
