"""Okapi BM25 computed inside PostgreSQL from the postings the chunk triggers maintain."""

from __future__ import annotations

from typing import Any

from psycopg import sql

from archive.store.database import Store
from archive.store.search_filters import SearchFilters

K1 = 1.2
B = 0.75

# Terms of the query are ORed: every chunk holding any of them is scored, the sum over the terms
# it holds of idf(t) * tf * (k1 + 1) / (tf + k1 * (1 - b + b * len / avgdl)), with the
# Lucene idf ln(1 + (N - df + 0.5) / (df + 0.5)), which is never negative.
# Speed: ``w`` is MATERIALIZED and in float8, so idf is computed once per query term (inlined, it
# was recomputed in numeric arithmetic for every posting row: ~2 us a row); postings are read by
# an index-only scan of their primary key, which carries (tf, len) (migration 004).

#: CTEs ``q`` (query lexemes), ``st`` (collection statistics) and ``w`` (idf per query term);
#: parameter ``query``.
BM25_WEIGHTS = """q AS (
    SELECT DISTINCT t.lexeme FROM unnest(to_tsvector('english', %(query)s)) AS t
), st AS (
    SELECT n_chunks::float8 AS n, greatest(total_len::float8 / greatest(n_chunks, 1), 1) AS avgdl
    FROM bm25_stats
), w AS MATERIALIZED (
    SELECT t.lexeme, ln(1.0::float8 + (st.n - t.df + 0.5::float8) / (t.df + 0.5::float8)) AS idf
    FROM bm25_terms t JOIN q USING (lexeme) CROSS JOIN st
)"""

#: The BM25 aggregate over postings ``p`` joined to ``w`` and ``st``; parameters ``k1``, ``b``.
BM25_SUM = """sum(w.idf * p.tf * (%(k1)s + 1)
           / (p.tf + %(k1)s * (1 - %(b)s + %(b)s * p.len / st.avgdl)))"""

#: The ``limit`` best chunks with their BM25 ``score`` under the filter ``{restrict}``; needs
#: the CTEs of :data:`BM25_WEIGHTS`.
BM25_TOP = """SELECT p.chunk_id, {bm25} AS score
FROM bm25_postings p JOIN w USING (lexeme) CROSS JOIN st
WHERE {restrict}
GROUP BY p.chunk_id
ORDER BY score DESC, p.chunk_id
LIMIT %(limit)s"""


def bm25_restriction(filters: SearchFilters) -> tuple[sql.Composable, dict[str, Any]]:
    """The WHERE body over postings ``p`` for ``filters``, with its parameters."""
    if filters.is_empty():
        return sql.SQL("TRUE"), {}
    where, params = filters.where("c")
    return sql.SQL("p.chunk_id IN (SELECT c.chunk_id FROM chunks c WHERE {})").format(where), params


async def bm25_search(
    store: Store,
    query: str,
    filters: SearchFilters,
    *,
    limit: int = 100,
    k1: float = K1,
    b: float = B,
) -> list[tuple[str, float]]:
    """Chunks ranked by BM25 for ``query`` under ``filters``, best first."""
    restrict, params = bm25_restriction(filters)
    params.update({"query": query, "k1": k1, "b": b, "limit": limit})
    statement = sql.SQL("WITH {weights} {top}").format(
        weights=sql.SQL(BM25_WEIGHTS),
        top=sql.SQL(BM25_TOP).format(bm25=sql.SQL(BM25_SUM), restrict=restrict),
    )
    async with store.pool.connection() as conn:
        cur = await conn.execute(statement, params)
        return [(row["chunk_id"], float(row["score"])) for row in await cur.fetchall()]
