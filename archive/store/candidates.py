"""The two retrieval arms in SQL, every candidate scored on both arms, with its passage.

The lexical arm finds the chunk top k by Okapi BM25 (:mod:`archive.store.lexical` in SQL, or the
compacted blocks of :mod:`archive.store.lexical_blocks`: the same exact top k), ranks their
documents by document-level BM25 (:mod:`archive.store.document_bm25`) and returns each document's
best chunk with its cosine against the query vector; the dense arm ranks by HNSW cosine and
scores its top rows' BM25 from their postings. Each arm returns its passages from one statement
after its top k, so a hybrid search is two arms run side by side on two connections (measured on
the 6,140 NTSB reports: benchmarks/retrieval_speed.py).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import numpy as np
from psycopg import sql

from archive.store.database import Store
from archive.store.document_bm25 import DOC_RANKED, DOC_WEIGHTS, pool_size
from archive.store.lexical import BM25_SUM, BM25_WEIGHTS, K1, B, bm25_restriction, bm25_top
from archive.store.lexical_blocks import block_search
from archive.store.passages import PASSAGE_COLUMNS, Passage, passage_of
from archive.store.search_filters import SearchFilters

logger = logging.getLogger(__name__)

# The chunks of a chunk top k (``ranked``: in the order of their documents' BM25, or as found), as
# passages with the chunk's BM25, the document's (NULL: not scored) and the cosine.
_LEXICAL = """
WITH {ctes}
SELECT {columns}, ranked.score AS bm25, ranked.doc_score AS doc_bm25, {cosine} AS cosine
FROM ranked JOIN chunks c ON c.chunk_id = ranked.chunk_id JOIN documents d ON d.doc_id = c.doc_id
"""
_AS_FOUND = """ranked AS (
    SELECT t.chunk_id, t.score, NULL::float8 AS doc_score
    FROM unnest(%(ids)s::text[], %(scores)s::float8[]) AS t(chunk_id, score)
)"""

# The nearest rows: from the HNSW index (ef_search and the iterative scan are session settings of
# every pooled connection, see Store.open), or, under a filter that :data:`EXACT_BELOW` rows or
# fewer match, by an exact scan of those rows (the subquery behind OFFSET 0 keeps the planner
# from ordering them through the index). Their BM25 is read from the postings of the query terms
# by one index probe per (row, term) on (lexeme, chunk_id) (OFFSET 0 keeps the planner from
# reading every posting of the term instead).
_NEAR_INDEX = """SELECT c.chunk_id, 1 - (c.embedding <=> %(vector)s) AS cosine
    FROM chunks c
    WHERE {where}
    ORDER BY c.embedding <=> %(vector)s
    LIMIT %(limit)s"""
_NEAR_EXACT = """SELECT f.chunk_id, 1 - (f.embedding <=> %(vector)s) AS cosine
    FROM (SELECT c.chunk_id, c.embedding FROM chunks c WHERE {where} OFFSET 0) f
    ORDER BY f.embedding <=> %(vector)s
    LIMIT %(limit)s"""
_DENSE = """
WITH near AS MATERIALIZED ({near}), {weights},
lex AS (
    SELECT near.chunk_id, {bm25} AS bm25
    FROM near CROSS JOIN w CROSS JOIN st CROSS JOIN LATERAL (
        SELECT p.tf, p.len FROM bm25_postings p
        WHERE p.lexeme = w.lexeme AND p.chunk_id = near.chunk_id OFFSET 0
    ) p
    GROUP BY near.chunk_id
)
SELECT {columns}, coalesce(lex.bm25, 0) AS bm25, near.cosine
FROM near JOIN chunks c USING (chunk_id) JOIN documents d USING (doc_id)
LEFT JOIN lex USING (chunk_id)
WHERE near.cosine >= %(floor)s
"""

#: A filter matching at most this many chunks is searched exactly. pgvector's iterative scan
#: gives up after ``hnsw.max_scan_tuples`` (20,000) index tuples, so through the index a filter
#: matching 0.1 % of a million chunks returned 4.6 of 10 rows (README "HNSW at a million
#: chunks"); exactly, that filter's 1,000 rows took 8.9 ms p50.
EXACT_BELOW = 20_000
#: How much wider than k the unfiltered BM25 top is read for a filter matching more chunks.
WIDEN = (4, 16, 64)
_MATCHING = "SELECT count(*) AS n FROM (SELECT 1 FROM chunks c WHERE {where} LIMIT %(cap)s) m"


async def bm25_search(
    store: Store,
    query: str,
    filters: SearchFilters,
    *,
    limit: int = 100,
    k1: float = K1,
    b: float = B,
    selective: bool | None = None,
) -> list[tuple[str, float]]:
    """Chunks ranked by BM25 for ``query`` under ``filters``, best first (the store's
    ``BM25_MODES`` mode); ``selective`` is :func:`is_selective` of ``filters`` if known."""
    found = await _block_top(store, query, filters, limit, k1, b, selective)
    if found is not None:
        return found
    restrict, params = bm25_restriction(filters)
    params.update({"query": query, "k1": k1, "b": b, "limit": limit})
    statement = sql.SQL(
        "WITH {weights}, top AS ({top}) SELECT chunk_id, score FROM top"
        " ORDER BY round(score * 1e9) DESC, chunk_id"
    ).format(weights=sql.SQL(BM25_WEIGHTS), top=bm25_top(restrict))
    async with store.pool.connection() as conn:
        cur = await conn.execute(statement, params)
        return [(row["chunk_id"], float(row["score"])) for row in await cur.fetchall()]


async def _block_top(
    store: Store,
    query: str,
    filters: SearchFilters,
    limit: int,
    k1: float,
    b: float,
    selective: bool | None,
) -> list[tuple[str, float]] | None:
    """The top k from the compacted blocks, or None where exact SQL ranks: mode ``exact``, no
    usable segment, or a filter matching at most :data:`EXACT_BELOW` chunks (SQL joins those few
    to the postings: a vessel, 0.1 % of a million chunks, in ~0.1-0.2 s).

    A wider filter is applied to the unfiltered top ``limit x`` each of :data:`WIDEN`: the
    matching rows keep their order, and a match outside that top ranks below all of it, so the
    first ``limit`` matches are the exact filtered top k (or every match, if the top held every
    chunk with a score). Through SQL, a filter matching most of a million chunks took 4.5-6.6 s.
    """
    if store.bm25 == "exact":
        return None
    auto = store.bm25 == "auto"
    if filters.is_empty():
        return await block_search(store, query, limit=limit, k1=k1, b=b, auto=auto)
    if await _selective(store, filters, selective):
        return None
    where, params = filters.where("c")
    for times in WIDEN:
        found = await block_search(store, query, limit=limit * times, k1=k1, b=b, auto=auto)
        if found is None:
            return None
        kept = await _within(store, where, params, [c for c, _ in found])
        hits = [(c, s) for c, s in found if c in kept]
        if len(hits) >= limit or len(found) < limit * times:
            return hits[:limit]
    logger.info("BM25: the filter kept under %d of the top %d: exact SQL", limit, limit * times)
    return None


async def _within(
    store: Store, where: sql.Composable, params: dict[str, Any], chunk_ids: list[str]
) -> set[str]:
    """Those of ``chunk_ids`` that ``where`` matches."""
    statement = sql.SQL("SELECT c.chunk_id FROM chunks c WHERE c.chunk_id = ANY(%(ids)s) AND {}")
    async with store.pool.connection() as conn:
        cur = await conn.execute(statement.format(where), {**params, "ids": chunk_ids})
        return {row["chunk_id"] for row in await cur.fetchall()}


async def lexical_candidates(
    store: Store,
    query: str,
    filters: SearchFilters,
    *,
    limit: int,
    vector: Sequence[float] | None = None,
    selective: bool | None = None,
    by_document: bool = True,
) -> list[Passage]:
    """The first ``limit`` chunks of the exact chunk top
    :func:`~archive.store.document_bm25.pool_size` under ``filters`` in the order of their
    documents' BM25, then their own (``bm25`` the chunk's, ``doc_bm25`` the document's), with
    their cosine to ``vector`` if given (0 otherwise); ``selective`` is :func:`is_selective` of
    ``filters`` if known. Without ``by_document``: the exact chunk top ``limit`` by the chunks'
    own BM25 (no ``doc_bm25``), the pool the hybrid's fusion and reranker were fitted on."""
    pool = pool_size(limit) if by_document else limit
    found = await bm25_search(store, query, filters, limit=pool, selective=selective)
    if not found:
        return []
    cosine = sql.SQL("1 - (c.embedding <=> %(vector)s)" if vector is not None else "NULL")
    params: dict[str, Any] = {
        "query": query,
        "k1": K1,
        "b": B,
        "limit": limit,
        "ids": [c for c, _ in found],
        "scores": [s for _, s in found],
    }
    if vector is not None:
        params["vector"] = np.asarray(vector, dtype=np.float32)
    parts = (DOC_WEIGHTS, DOC_RANKED) if by_document else (_AS_FOUND,)
    statement = sql.SQL(_LEXICAL).format(
        ctes=sql.SQL(", ").join(sql.SQL(part) for part in parts),
        columns=sql.SQL(PASSAGE_COLUMNS),
        cosine=cosine,
    )
    rows = await _rows(store, statement, params)
    if not by_document:
        return [
            _scored(r) for r in sorted(rows, key=lambda r: (-round(r["bm25"] * 1e9), r["chunk_id"]))
        ]
    ranked = sorted(
        rows,
        key=lambda r: (
            -round(r["doc_bm25"] * 1e9),
            r["doc_id"],
            -round(r["bm25"] * 1e9),
            r["chunk_id"],
        ),
    )
    return [_scored(r) for r in ranked]


async def dense_candidates(
    store: Store,
    query: str,
    vector: Sequence[float],
    filters: SearchFilters,
    *,
    limit: int,
    floor: float,
    selective: bool | None = None,
) -> list[Passage]:
    """The ``limit`` nearest chunks with cosine ≥ ``floor``, nearest first, with their BM25;
    ``selective`` is :func:`is_selective` of ``filters`` if known."""
    where, params = filters.where("c")
    params.update(
        {
            "query": query,
            "k1": K1,
            "b": B,
            "limit": limit,
            "floor": floor,
            "vector": np.asarray(vector, dtype=np.float32),
        }
    )
    near = _NEAR_EXACT if await _selective(store, filters, selective) else _NEAR_INDEX
    statement = sql.SQL(_DENSE).format(
        near=sql.SQL(near).format(where=where),
        weights=sql.SQL(BM25_WEIGHTS),
        bm25=sql.SQL(BM25_SUM),
        columns=sql.SQL(PASSAGE_COLUMNS),
    )
    rows = await _rows(store, statement, params)
    ranked = sorted(rows, key=lambda r: (-r["cosine"], r["chunk_id"]))
    return [_scored(r) for r in ranked]


async def is_selective(store: Store, filters: SearchFilters) -> bool:
    """Whether ``filters`` match at most :data:`EXACT_BELOW` chunks (counted no further): both
    arms then rank those chunks exactly. False without a filter. A hybrid search counts once
    and passes the answer to both arms."""
    if filters.is_empty():
        return False
    where, params = filters.where("c")
    async with store.pool.connection() as conn:
        cur = await conn.execute(
            sql.SQL(_MATCHING).format(where=where), {**params, "cap": EXACT_BELOW + 1}
        )
        row = await cur.fetchone()
    return (int(row["n"]) if row else 0) <= EXACT_BELOW


async def _selective(store: Store, filters: SearchFilters, known: bool | None) -> bool:
    return await is_selective(store, filters) if known is None else known


def _scored(row: dict[str, Any]) -> Passage:
    cosine = 0.0 if row["cosine"] is None else float(row["cosine"])
    passage = passage_of(row, bm25=float(row["bm25"]), cosine=cosine)
    if row.get("doc_bm25") is not None:
        passage["doc_bm25"] = float(row["doc_bm25"])
    return passage


async def _rows(store: Store, statement: sql.Composed, params: dict[str, Any]) -> list[Any]:
    # Binary transfer: vectors come back as float arrays, not text to parse.
    async with store.pool.connection() as conn, conn.cursor(binary=True) as cur:
        await cur.execute(statement, params)
        return await cur.fetchall()
