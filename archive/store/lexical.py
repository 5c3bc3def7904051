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
#: every posting of every query term (the reference); needs the CTEs of :data:`BM25_WEIGHTS`.
BM25_TOP = """SELECT p.chunk_id, {bm25} AS score
FROM bm25_postings p JOIN w USING (lexeme) CROSS JOIN st
WHERE {restrict}
GROUP BY p.chunk_id
ORDER BY round({bm25} * 1e9) DESC, p.chunk_id
LIMIT %(limit)s"""

# The same top k reading a bounded number of postings (impact-ordered postings, migration 007):
# 1. lists: each term's %(depth)s highest-impact postings (index-only scan of (lexeme, impact
#    DESC)), weighted exactly from (tf, len). A term with at most that many postings is read whole.
# 2. best: the %(rescore)s chunks with the largest partial sums.
# 3. Their exact scores: the weights of the terms read whole, plus, for each term whose list was
#    cut (df > depth), their postings of it read by (lexeme, chunk_id).
# The cost is terms x depth rows plus rescore x (cut terms) lookups, whatever the lists' length.
# A chunk can be missed only if its postings of the rare terms (read whole) and the top of the
# common ones leave it outside the best %(rescore)s: recall@100 against BM25_TOP is measured
# (README "Scale"). Both orders compare scores rounded to 1e-9, as sums taken in another order
# differ in the last bits.
BM25_PRUNED_TOP = """WITH lists AS MATERIALIZED (
    SELECT s.chunk_id, {weight_s} AS weight, w.df > %(depth)s AS cut
    FROM w CROSS JOIN st CROSS JOIN LATERAL (
        SELECT p.chunk_id, p.tf, p.len FROM bm25_postings p
        WHERE p.lexeme = w.lexeme AND {restrict}
        ORDER BY p.impact DESC LIMIT %(depth)s
    ) s
), best AS MATERIALIZED (
    SELECT chunk_id, coalesce(sum(weight) FILTER (WHERE NOT cut), 0) AS whole
    FROM lists
    GROUP BY chunk_id
    ORDER BY sum(weight) DESC, chunk_id
    LIMIT %(rescore)s
), probed AS (
    SELECT p.chunk_id, sum({weight_t}) AS part
    FROM w t CROSS JOIN st CROSS JOIN LATERAL ({probe}) p
    WHERE t.df > %(depth)s
    GROUP BY p.chunk_id
)
SELECT b.chunk_id, b.whole + coalesce(pr.part, 0) AS score
FROM best b LEFT JOIN probed pr USING (chunk_id)
ORDER BY round((b.whole + coalesce(pr.part, 0)) * 1e9) DESC, b.chunk_id
LIMIT %(limit)s"""

#: Postings read per query term, and chunks completed exactly, of the pruned top k. Recall@100
#: against the exact top 100 (24-word / 6-word questions, README "Scale"): on 100,000 chunks 0.81
#: at 2,000 / 300 and 0.9985 / 0.9955 at 10,000 / 400; on 300,000 chunks 0.984 (both sets) at
#: 10,000 / 2,000 and 0.991 / 0.992 at 10,000 / 3,000.
DEPTH = 10_000
RESCORE = 3_000

# The cut terms' postings of the best chunks, by one scan of (lexeme, chunk_id) per term with the
# chunk ids as an array (OFFSET 0 keeps the planner from flattening it into a join that reads
# every posting of the term). ``st`` is one row (LIMIT 1), so estimates do not multiply by a
# guess at bm25_stats' size.
_PROBE = """SELECT p.chunk_id, p.tf, p.len FROM bm25_postings p
WHERE p.lexeme = t.lexeme AND p.chunk_id = ANY(ARRAY(SELECT chunk_id FROM best)) OFFSET 0"""


def _weight(term: str, posting: str) -> str:
    """BM25 weight of ``posting`` (tf, len) for ``term`` (its idf), statistics ``st``."""
    return (
        f"{term}.idf * {posting}.tf * (%(k1)s + 1) / ({posting}.tf"
        f" + %(k1)s * (1 - %(b)s + %(b)s * {posting}.len / st.avgdl))"
    )


#: How BM25 finds its top k: ``auto`` (the default: exact unless pruning reads less than half the
#: postings), ``pruned`` (always) or ``exact`` (every posting read; the reference the pruned one
#: is measured against).
BM25_MODES = ("auto", "pruned", "exact")

# Both branches are gated by a one-time filter on the query terms' document frequencies: the exact
# statement reads sum(df) postings, the pruned one at most sum(least(df, depth)) plus its probes.
_AUTO = """SELECT * FROM ({exact}) e
WHERE (SELECT sum(df) FROM w) <= 2 * (SELECT sum(least(df, %(depth)s)) FROM w)
UNION ALL
SELECT * FROM ({pruned}) p
WHERE (SELECT sum(df) FROM w) > 2 * (SELECT sum(least(df, %(depth)s)) FROM w)"""


def bm25_top(mode: str, restrict: sql.Composable, *, k1: float = K1, b: float = B) -> sql.Composed:
    """The top-k statement of ``mode`` (after the CTEs of :data:`BM25_WEIGHTS`), with columns
    ``chunk_id`` and ``score``; parameters ``k1``, ``b`` and those of :func:`top_params`.
    Impacts are stored for the default ``k1`` and ``b``, so other values read every posting."""
    if mode not in BM25_MODES:
        raise ValueError(f"BM25 mode must be one of {', '.join(BM25_MODES)}, got {mode!r}")
    exact = sql.SQL(BM25_TOP).format(bm25=sql.SQL(BM25_SUM), restrict=restrict)
    if mode == "exact" or (k1, b) != (K1, B):
        return exact
    pruned = sql.SQL(BM25_PRUNED_TOP).format(
        restrict=restrict,
        weight_s=sql.SQL(_weight("w", "s")),
        weight_t=sql.SQL(_weight("t", "p")),
        probe=sql.SQL(_PROBE),
    )
    if mode == "pruned":
        return pruned
    return sql.SQL(_AUTO).format(exact=exact, pruned=pruned)


def top_params(limit: int) -> dict[str, int]:
    """``limit`` and the pruned statement's ``depth`` and ``rescore`` for it."""
    return {"limit": limit, "depth": DEPTH, "rescore": max(RESCORE, 4 * limit)}


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
    """Chunks ranked by BM25 for ``query`` under ``filters``, best first (the store's
    :data:`BM25_MODES` mode)."""
    restrict, params = bm25_restriction(filters)
    params.update({"query": query, "k1": k1, "b": b, **top_params(limit)})
    statement = sql.SQL(
        "WITH {weights}, top AS ({top}) SELECT chunk_id, score FROM top"
        " ORDER BY round(score * 1e9) DESC, chunk_id"
    ).format(weights=sql.SQL(BM25_WEIGHTS), top=bm25_top(store.bm25, restrict, k1=k1, b=b))
    async with store.pool.connection() as conn:
        cur = await conn.execute(statement, params)
        return [(row["chunk_id"], float(row["score"])) for row in await cur.fetchall()]
