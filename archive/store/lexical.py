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
    FROM bm25_stats
), w AS MATERIALIZED (
    SELECT t.lexeme, ln(1.0::float8 + (st.n - t.df + 0.5::float8) / (t.df + 0.5::float8)) AS idf,
           t.max_impact
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

# The same top k without reading every posting (MaxScore over impact-ordered postings, migration
# 007). Safe: it returns the exact top k and scores of BM25_TOP.
# 1. seed: each term's %(seed)s highest-impact postings; the %(limit)s chunks with the best
#    partial sums are scored exactly and the worst of them, theta, is at most the true k-th score.
# 2. Each term's bound is idf * max_impact * drift (drift = max(1, avgdl / ref_avgdl) keeps the
#    impacts of migration 007 upper bounds as the mean length moves). Terms by increasing bound:
#    the prefix summing below theta is non-essential (no chunk holding only those reaches theta);
#    the others are scanned, each only down to the weight that can still matter,
#    need = theta - (every other term's bound): a "full" term (need <= 0) is read whole.
# 3. alive: scanned chunks whose partial score plus what they can still gain (bounds of the
#    non-essential terms, need of the terms they were not seen in) reaches theta; those get the
#    weights of the terms not read whole by index probes on (lexeme, chunk_id).
# The tolerances (1e-9, 1e-6) absorb float8 rounding and impacts stored as real; both orders
# compare scores rounded to 1e-9, as sums taken in another order differ in the last bits.
BM25_PRUNED_TOP = """WITH seed AS MATERIALIZED (
    SELECT s.chunk_id, sum({weight_s}) AS part
    FROM w CROSS JOIN st CROSS JOIN LATERAL (
        SELECT p.chunk_id, p.tf, p.len FROM bm25_postings p
        WHERE p.lexeme = w.lexeme AND {restrict}
        ORDER BY p.impact DESC LIMIT %(seed)s
    ) s
    GROUP BY s.chunk_id
    ORDER BY part DESC, s.chunk_id
    LIMIT %(limit)s
), seeded AS MATERIALIZED (
    SELECT s.chunk_id, sum({weight_p}) AS score
    FROM seed s CROSS JOIN w CROSS JOIN st CROSS JOIN LATERAL ({probe_w}) p
    GROUP BY s.chunk_id
), theta AS MATERIALIZED (
    SELECT CASE WHEN count(*) < %(limit)s THEN 0 ELSE min(score) * (1 - 1e-9) END AS theta
    FROM seeded
), ranked AS MATERIALIZED (
    SELECT b.*, sum(b.ub) OVER (ORDER BY b.ub, b.lexeme) AS below, sum(b.ub) OVER () AS total
    FROM (
        SELECT w.lexeme, w.idf, greatest(1, st.avgdl / st.ref_avgdl) AS drift,
               w.idf * least(%(k1)s + 1, w.max_impact * (1 + 1e-6)
                             * greatest(1, st.avgdl / st.ref_avgdl)) AS ub
        FROM w CROSS JOIN st
    ) b
), terms AS MATERIALIZED (
    SELECT r.lexeme, r.idf, r.drift, r.ub, r.below >= th.theta AS essential,
           greatest(th.theta - (r.total - r.ub), 0) AS need
    FROM ranked r CROSS JOIN theta th
), slack AS MATERIALIZED (
    SELECT th.theta, coalesce(sum(CASE WHEN t.essential THEN t.need ELSE t.ub END), 0) AS rest
    FROM theta th LEFT JOIN terms t ON TRUE
    GROUP BY th.theta
), cand AS (
    SELECT x.chunk_id, sum(x.weight) AS part, sum(x.weight) FILTER (WHERE x.need = 0) AS full,
           sum(x.need) AS seen_need
    FROM (
        SELECT p.chunk_id, t.need, {weight_t} AS weight
        FROM terms t CROSS JOIN st CROSS JOIN LATERAL (
            SELECT p.chunk_id, p.tf, p.len FROM bm25_postings p
            WHERE p.lexeme = t.lexeme AND p.impact >= t.need * (1 - 1e-6) / (t.idf * t.drift)
              AND {restrict}
        ) p
        WHERE t.essential
    ) x
    GROUP BY x.chunk_id
), alive AS MATERIALIZED (
    SELECT c.chunk_id, coalesce(c.full, 0) AS full FROM cand c CROSS JOIN slack sl
    WHERE c.part + sl.rest - c.seen_need >= sl.theta
), probed AS (
    SELECT a.chunk_id, sum({weight_t}) AS part
    FROM alive a CROSS JOIN terms t CROSS JOIN st CROSS JOIN LATERAL ({probe_t}) p
    WHERE NOT (t.essential AND t.need = 0)
    GROUP BY a.chunk_id
)
SELECT a.chunk_id, a.full + coalesce(pr.part, 0) AS score
FROM alive a LEFT JOIN probed pr USING (chunk_id)
ORDER BY round((a.full + coalesce(pr.part, 0)) * 1e9) DESC, a.chunk_id
LIMIT %(limit)s"""


# One index probe on (lexeme, chunk_id); OFFSET 0 keeps the planner from turning it into a join
# that reads every posting of the term.
_PROBE = """SELECT p.tf, p.len FROM bm25_postings p
WHERE p.lexeme = {term}.lexeme AND p.chunk_id = {chunk}.chunk_id OFFSET 0"""


def _weight(term: str, posting: str) -> str:
    """BM25 weight of ``posting`` (tf, len) for ``term`` (its idf), statistics ``st``."""
    return (
        f"{term}.idf * {posting}.tf * (%(k1)s + 1) / ({posting}.tf"
        f" + %(k1)s * (1 - %(b)s + %(b)s * {posting}.len / st.avgdl))"
    )


#: How BM25 finds its top k: ``pruned`` (early termination, the default) or ``exact`` (every
#: posting read; the reference the pruned one is tested against).
BM25_MODES = ("pruned", "exact")


def bm25_top(mode: str, restrict: sql.Composable, *, k1: float = K1, b: float = B) -> sql.Composed:
    """The top-k statement of ``mode`` (after the CTEs of :data:`BM25_WEIGHTS`); parameters
    ``k1``, ``b``, ``limit`` and, when pruned, ``seed``. The impacts are stored for the default
    ``k1`` and ``b``, so other values read every posting."""
    if mode not in BM25_MODES:
        raise ValueError(f"BM25 mode must be one of {', '.join(BM25_MODES)}, got {mode!r}")
    pruned = mode == "pruned" and (k1, b) == (K1, B)
    if not pruned:
        return sql.SQL(BM25_TOP).format(bm25=sql.SQL(BM25_SUM), restrict=restrict)
    return sql.SQL(BM25_PRUNED_TOP).format(
        restrict=restrict,
        weight_s=sql.SQL(_weight("w", "s")),
        weight_p=sql.SQL(_weight("w", "p")),
        weight_t=sql.SQL(_weight("t", "p")),
        probe_w=sql.SQL(_PROBE.format(term="w", chunk="s")),
        probe_t=sql.SQL(_PROBE.format(term="t", chunk="a")),
    )


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
    params.update({"query": query, "k1": k1, "b": b, "limit": limit, "seed": limit})
    statement = sql.SQL(
        "WITH {weights}, top AS ({top}) SELECT chunk_id, score FROM top"
        " ORDER BY round(score * 1e9) DESC, chunk_id"
    ).format(weights=sql.SQL(BM25_WEIGHTS), top=bm25_top(store.bm25, restrict, k1=k1, b=b))
    async with store.pool.connection() as conn:
        cur = await conn.execute(statement, params)
        return [(row["chunk_id"], float(row["score"])) for row in await cur.fetchall()]
