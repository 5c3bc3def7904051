"""Okapi BM25 computed inside PostgreSQL from the postings the chunk triggers maintain: the
reference statement every other way of finding the top k (:mod:`archive.store.lexical_blocks`)
must agree with."""

from __future__ import annotations

from typing import Any

from psycopg import sql

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
    SELECT n_chunks::float8 AS n, greatest(total_len::float8 / greatest(n_chunks, 1), 1) AS avgdl,
           ref_avgdl
    FROM bm25_stats LIMIT 1
), w AS MATERIALIZED (
    SELECT t.lexeme, ln(1.0::float8 + (st.n - t.df + 0.5::float8) / (t.df + 0.5::float8)) AS idf,
           t.df
    FROM bm25_terms t JOIN q USING (lexeme) CROSS JOIN st
)"""

#: The BM25 aggregate over postings ``p`` joined to ``w`` and ``st``; parameters ``k1``, ``b``.
BM25_SUM = """sum(w.idf * p.tf * (%(k1)s + 1)
           / (p.tf + %(k1)s * (1 - %(b)s + %(b)s * p.len / st.avgdl)))"""

#: The ``limit`` best chunks with their BM25 ``score`` under the filter ``{restrict}``, read from
#: every posting of every query term in ``{postings}`` (``bm25_postings``: the reference;
#: ``bm25_delta``: the chunks stored since the last compaction); needs the CTEs of
#: :data:`BM25_WEIGHTS`.
BM25_TOP = """SELECT p.chunk_id, {bm25} AS score
FROM {postings} p JOIN w USING (lexeme) CROSS JOIN st
WHERE {restrict}
GROUP BY p.chunk_id
ORDER BY round({bm25} * 1e9) DESC, p.chunk_id
LIMIT %(limit)s"""


def bm25_top(restrict: sql.Composable, postings: str = "bm25_postings") -> sql.Composed:
    """The exact top-k statement over ``postings`` (after the CTEs of :data:`BM25_WEIGHTS`),
    with columns ``chunk_id`` and ``score``; parameters ``k1``, ``b`` and ``limit``."""
    return sql.SQL(BM25_TOP).format(
        postings=sql.Identifier(postings), bm25=sql.SQL(BM25_SUM), restrict=restrict
    )


def bm25_restriction(filters: SearchFilters) -> tuple[sql.Composable, dict[str, Any]]:
    """The WHERE body over postings ``p`` for ``filters``, with its parameters."""
    if filters.is_empty():
        return sql.SQL("TRUE"), {}
    where, params = filters.where("c")
    return sql.SQL("p.chunk_id IN (SELECT c.chunk_id FROM chunks c WHERE {})").format(where), params
