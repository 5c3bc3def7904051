"""Document-level BM25: the second stage of the lexical arm.

A document of several chunks used to be ranked by its best chunk, so a document whose matching
terms are spread over two chunks lost to one whose single chunk holds one of them, and a
narrative's length was judged against 1,000-character passages. The lexical arm now takes the
exact chunk top :data:`RESCORED` (SQL or blocks: :func:`archive.store.candidates.bm25_search`),
and ranks their documents by BM25 over documents — a document's term counts and length summed
over its chunks (migration 015 keeps them, ``bm25_doc_*``), df and mean length over documents,
the same formula and k1, b as :mod:`archive.store.lexical`. The chunks come back in the order of
their documents, each document's best first (a report asked about keeps its several passages);
each keeps its own passage BM25 (``bm25``: what fusion, the reranker's features and the cutoff
were fitted on) beside its document's (``doc_bm25``: the lexical arm's order).

Both ways of finding the chunk top k return the same exact chunks and scores, and this stage
reads only those and the document tables, so the two paths rank documents identically.
"""

from __future__ import annotations

from collections.abc import Sequence

from archive.store.database import Store

#: Chunks whose documents the second stage ranks (at least the rows asked for). On the shared dev
#: splits, reordering the documents of the chunk top 300 scored what ranking every document by
#: this score did (docs/retrieval.md, "BM25 beside a plain BM25 library").
RESCORED = 300

#: CTEs ``dq`` (query lexemes), ``ds`` (document statistics) and ``dw`` (idf per query term over
#: documents); parameter ``query``.
DOC_WEIGHTS = """dq AS (
    SELECT DISTINCT t.lexeme FROM unnest(to_tsvector('english', %(query)s)) AS t
), ds AS (
    SELECT n_docs::float8 AS n, greatest(total_len::float8 / greatest(n_docs, 1), 1) AS avgdl
    FROM bm25_doc_stats LIMIT 1
), dw AS MATERIALIZED (
    SELECT t.lexeme, ln(1.0::float8 + (ds.n - t.df + 0.5::float8) / (t.df + 0.5::float8)) AS idf
    FROM bm25_doc_terms t JOIN dq USING (lexeme) CROSS JOIN ds
)"""

#: The chunk top k given as ``ids`` / ``scores`` (best first), each chunk with its document's
#: BM25 ``doc_score``, the first ``limit`` in the order of their documents' scores, then their
#: own (ties by chunk id); needs :data:`DOC_WEIGHTS`; parameters ``k1``, ``b``, ``limit``.
#: Postings are read by one index probe per (document, term) on (lexeme, doc_id) (OFFSET 0 keeps
#: the planner from scanning every document posting of the terms: 140 ms against a few on the
#: NTSB narratives).
DOC_RANKED = """top AS MATERIALIZED (
    SELECT t.chunk_id, t.score, c.doc_id
    FROM unnest(%(ids)s::text[], %(scores)s::float8[]) AS t(chunk_id, score)
    JOIN chunks c USING (chunk_id)
), docs AS (
    SELECT DISTINCT doc_id FROM top
), scored AS (
    SELECT docs.doc_id,
           sum(dw.idf * p.tf * (%(k1)s + 1)
               / (p.tf + %(k1)s * (1 - %(b)s + %(b)s * l.len / ds.avgdl))) AS doc_score
    FROM docs CROSS JOIN ds CROSS JOIN dw CROSS JOIN LATERAL (
        SELECT p.tf FROM bm25_doc_postings p
        WHERE p.lexeme = dw.lexeme AND p.doc_id = docs.doc_id OFFSET 0
    ) p CROSS JOIN LATERAL (
        SELECT l.len FROM bm25_doc_lens l WHERE l.doc_id = docs.doc_id OFFSET 0
    ) l
    GROUP BY docs.doc_id
), ranked AS MATERIALIZED (
    SELECT top.chunk_id, top.score, scored.doc_score
    FROM top JOIN scored USING (doc_id)
    ORDER BY round(scored.doc_score * 1e9) DESC, top.doc_id, round(top.score * 1e9) DESC,
             top.chunk_id
    LIMIT %(limit)s
)"""


def pool_size(limit: int) -> int:
    """Chunks to rank before their documents are: :data:`RESCORED`, or ``limit`` if larger."""
    return max(limit, RESCORED)


#: Of ``words``, those each of whose terms some document holds (a word with no terms is held by
#: none); parameter ``words``.
HELD_WORDS = """SELECT w.word FROM unnest(%(words)s::text[]) AS w(word)
WHERE to_tsvector('english', w.word) <> ''::tsvector
  AND NOT EXISTS (
    SELECT 1 FROM unnest(to_tsvector('english', w.word)) AS t
    WHERE NOT EXISTS (SELECT 1 FROM bm25_doc_terms d WHERE d.lexeme = t.lexeme AND d.df > 0)
)"""


async def held_words(store: Store, words: Sequence[str]) -> set[str]:
    """The ``words`` the collection holds as written: each of their terms is in some document
    ("PA-28" is held by an archive that writes "PA-28", "PA28" is not)."""
    if not words:
        return set()
    async with store.pool.connection() as conn:
        cur = await conn.execute(HELD_WORDS, {"words": list(words)})
        return {row["word"] for row in await cur.fetchall()}
