"""The exact BM25 top k read from the compacted segment (migrations 009, 011) in a few round trips.

A segment is every chunk's postings copied, at compaction, into impact-ordered blocks per term
(``bm25_blocks``); chunks stored since are the delta (``bm25_delta``), compacted chunks deleted
since are the dead (``bm25_dead``). One query, in one REPEATABLE READ snapshot: the segment's
size and dead, the terms' idf and block bounds (``bm25_heads``); rounds of block reads chosen by
:class:`archive.store.block_topk.BlockTopK` until it can stop; one lookup of the missing terms of
the remaining candidates in ``bm25_postings``; the delta's exact SQL top k; the merge. Statistics
(df, N, mean length) are the live global ones, so every score is the exact BM25 score of
:mod:`archive.store.lexical`. Blocks already decoded by an earlier query come from the store's
:class:`archive.store.block_cache.BlockCache` instead of the database.
"""

from __future__ import annotations

import logging
import time
from typing import Any

import numpy as np
from psycopg import AsyncConnection, sql
from psycopg.rows import DictRow

from archive.store.block_cache import BlockCache
from archive.store.block_topk import MAX_TERMS, Block, BlockTopK, Term, block_bounds, decode
from archive.store.database import Store
from archive.store.lexical import BM25_WEIGHTS, K1, B, bm25_top

logger = logging.getLogger(__name__)

#: Block size of a compaction (postings per block).
BLOCK_SIZE = 1024
#: ``auto`` reads blocks from segments of at least this many chunks (smaller: exact SQL), and
#: ingest compacts collections of at least this many chunks.
MIN_CHUNKS = 20_000
#: Ingest compacts once the chunks stored or deleted since the last compaction reach this share
#: of the collection: adding 1 % rebuilds nothing global, and the delta's SQL stays small.
COMPACT_SHARE = 0.10

# The segment's tables are locked before the snapshot is taken: a compaction swapping in the next
# segment (migration 011) then waits for the search, or the search for the swap's commit.
_SNAPSHOT = """SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY;
LOCK TABLE bm25_segment, bm25_docnos, bm25_blocks, bm25_heads, bm25_delta, bm25_dead
IN ACCESS SHARE MODE"""

_SEGMENT = """SELECT s.chunks, s.avgdl, s.compacted_at,
       (SELECT array_agg(chunk_no) FROM bm25_dead) AS dead,
       EXISTS (SELECT 1 FROM bm25_delta) AS delta
FROM bm25_segment s"""

_TERMS = sql.SQL(
    "WITH {weights} SELECT w.lexeme, w.idf, st.avgdl, h.bounds"
    " FROM w CROSS JOIN st LEFT JOIN bm25_heads h USING (lexeme) ORDER BY w.lexeme"
).format(weights=sql.SQL(BM25_WEIGHTS))

_BLOCKS = """SELECT b.lexeme, b.block, b.data
FROM unnest(%s::text[], %s::integer[]) AS q(lexeme, block)
JOIN bm25_blocks b USING (lexeme, block)"""

_LOOKUP = """SELECT q.term, q.no, p.tf, p.len
FROM unnest(%s::integer[], %s::integer[], %s::text[]) AS q(no, term, lexeme)
JOIN bm25_docnos d ON d.chunk_no = q.no
JOIN bm25_postings p ON p.lexeme = q.lexeme AND p.chunk_id = d.chunk_id"""

_IDS = "SELECT chunk_no, chunk_id FROM bm25_docnos WHERE chunk_no = ANY(%s)"

_DELTA = sql.SQL("WITH {weights}, top AS ({top}) SELECT chunk_id, score FROM top").format(
    weights=sql.SQL(BM25_WEIGHTS), top=bm25_top(sql.SQL("TRUE"), "bm25_delta")
)


async def compact(conn: AsyncConnection[Any], block_size: int = BLOCK_SIZE) -> int:
    """Rebuild the segment from every posting (``bm25_compact``: built beside the live one,
    which searches keep reading, then swapped in) and analyze it; the chunks compacted.
    ``conn`` is in autocommit mode, its search_path on the collection."""
    cur = await conn.execute("SELECT bm25_compact(%s)", (block_size,))
    row = await cur.fetchone()
    assert row is not None
    await conn.execute("ANALYZE bm25_docnos, bm25_blocks, bm25_heads, bm25_delta, bm25_dead")
    return int(next(iter(row.values())) if isinstance(row, dict) else row[0])


_STALE = """SELECT st.n_chunks AS chunks, d.dead, st.n_chunks - (s.chunks - d.dead) AS delta
FROM bm25_segment s CROSS JOIN bm25_stats st
CROSS JOIN (SELECT count(*) AS dead FROM bm25_dead) d"""


async def compact_if_stale(store: Store, block_size: int = BLOCK_SIZE) -> int:
    """Compact when the collection holds at least :data:`MIN_CHUNKS` chunks and those stored
    (the delta) or deleted (the dead) since the last compaction reach :data:`COMPACT_SHARE` of
    it; the chunks compacted (0: nothing done)."""
    async with store.pool.connection() as conn:
        row = await (await conn.execute(_STALE)).fetchone()
        assert row is not None
        stale = row["delta"] + row["dead"]
        if row["chunks"] < MIN_CHUNKS or stale < COMPACT_SHARE * row["chunks"]:
            return 0
        started = time.perf_counter()
        compacted = await compact(conn, block_size)
    logger.info(
        "BM25 segment rebuilt: %d chunks (%d stored or deleted since) in %.1f s",
        compacted,
        stale,
        time.perf_counter() - started,
    )
    return compacted


async def block_search(
    store: Store, query: str, *, limit: int, k1: float, b: float, auto: bool
) -> list[tuple[str, float]] | None:
    """The exact BM25 top ``limit`` for ``query``, best first; None when there is no segment
    (or, with ``auto``, one under :data:`MIN_CHUNKS`), the query has over 63 terms, or ``k1``
    and ``b`` are not the ones the blocks are ordered and bounded for: the caller's exact SQL
    then ranks."""
    if (k1, b) != (K1, B):
        return None
    params = {"query": query, "k1": k1, "b": b, "limit": limit}
    async with store.pool.connection() as conn:
        # One statement decides, so a collection without a usable segment pays no snapshot.
        size = await (await conn.execute("SELECT chunks FROM bm25_segment")).fetchone()
        if size is None or size["chunks"] == 0 or (auto and size["chunks"] < MIN_CHUNKS):
            return None
    async with store.pool.connection() as conn, conn.transaction():
        await conn.execute(_SNAPSHOT)
        segment = await (await conn.execute(_SEGMENT)).fetchone()
        assert segment is not None
        if segment["chunks"] == 0:  # compacted empty between the two statements
            return None
        rows = await (await conn.execute(_TERMS, params)).fetchall()
        if len(rows) > MAX_TERMS:
            logger.info("BM25: %d query terms, more than blocks track: exact SQL", len(rows))
            return None
        found = await _segment_top(conn, store, rows, segment, limit)
        if segment["delta"]:
            cur = await conn.execute(_DELTA, params)
            found += [(r["chunk_id"], float(r["score"])) for r in await cur.fetchall()]
    return sorted(found, key=lambda r: (-round(r[1] * 1e9), r[0]))[:limit]


async def _segment_top(
    conn: AsyncConnection[DictRow], store: Store, rows: list[DictRow], segment: DictRow, limit: int
) -> list[tuple[str, float]]:
    rows = [r for r in rows if r["bounds"] is not None]
    if not rows:
        return []
    avgdl, mean = float(rows[0]["avgdl"]), float(segment["avgdl"])
    terms = [
        Term(float(r["idf"]), block_bounds(float(r["idf"]), r["bounds"], avgdl, mean)) for r in rows
    ]
    dead = np.asarray(segment["dead"] or [], dtype=np.int64)
    state = BlockTopK(terms, int(segment["chunks"]), dead, k=limit, avgdl=avgdl, k1=K1, b=B)
    reader = _Reader(conn, store.block_cache, [r["lexeme"] for r in rows], avgdl, segment)
    try:
        ids = await reader.top(state)
        scores = state.acc[ids].copy()
    finally:
        state.release()
    if len(ids) > limit:  # ties at the k-th score are ordered by chunk_id, as in SQL
        kth = np.round(np.partition(scores, len(ids) - limit)[len(ids) - limit] * 1e9)
        keep = np.round(scores * 1e9) >= kth
        ids, scores = ids[keep], scores[keep]
    cur = await conn.execute(_IDS, (ids.tolist(),))
    chunk_ids = {r["chunk_no"]: r["chunk_id"] for r in await cur.fetchall()}
    return [(chunk_ids[int(no)], float(s)) for no, s in zip(ids, scores, strict=True)]


class _Reader:
    """One query's reads: blocks (from the cache when an earlier query decoded them) and the
    lookups that complete the candidates."""

    def __init__(
        self,
        conn: AsyncConnection[DictRow],
        cache: BlockCache,
        lexemes: list[str],
        avgdl: float,
        segment: DictRow,
    ) -> None:
        self.conn, self.cache, self.lexemes, self.avgdl = conn, cache, lexemes, avgdl
        # A block is known by its compaction and the mean length its weights were taken at.
        self.key = (segment["compacted_at"], avgdl)
        self.fetched = 0

    async def top(self, state: BlockTopK) -> np.ndarray:
        """Rounds of block reads until ``state`` can stop, then the candidates' missing
        postings looked up; the candidates (their sums in ``state.acc`` are exact)."""
        budget = len(state.terms)
        while (ids := state.candidates()) is None:
            plan = state.plan(budget)
            blocks = await self._blocks(plan)
            for t in sorted({t for t, _ in plan}):
                mine = sorted(block for u, block in plan if u == t)
                state.add(t, mine[0], [blocks[t, block] for block in mine])
            budget *= 2
        pairs = state.missing(ids)
        logger.debug(
            "BM25 blocks: %d terms, %d blocks read (%d from the database), %d candidates,"
            " %d lookups",
            len(state.terms),
            sum(t.read for t in state.terms),
            self.fetched,
            len(ids),
            len(pairs),
        )
        if pairs:
            await self._complete(state, pairs)
        return ids

    async def _blocks(self, plan: list[tuple[int, int]]) -> dict[tuple[int, int], Block]:
        """The planned (term, block)s, decoded: cached ones as they are, the rest read."""
        out: dict[tuple[int, int], Block] = {}
        for t, block in plan:
            cached = self.cache.get((*self.key, self.lexemes[t], block))
            if cached is not None:
                out[t, block] = cached
        wanted = [(t, block) for t, block in plan if (t, block) not in out]
        if not wanted:
            return out
        term_of = {self.lexemes[t]: t for t, _ in wanted}
        cur = await self.conn.execute(
            _BLOCKS,
            ([self.lexemes[t] for t, _ in wanted], [block for _, block in wanted]),
            binary=True,
        )
        for row in await cur.fetchall():
            decoded = decode(row["data"], self.avgdl, K1, B)
            out[term_of[row["lexeme"]], row["block"]] = decoded
            self.cache.put((*self.key, row["lexeme"], row["block"]), decoded)
        self.fetched += len(wanted)
        return out

    async def _complete(self, state: BlockTopK, pairs: list[tuple[int, int]]) -> None:
        nos, ts = zip(*pairs, strict=True)
        cur = await self.conn.execute(_LOOKUP, (list(nos), list(ts), [self.lexemes[t] for t in ts]))
        found = await cur.fetchall()
        term = np.array([r["term"] for r in found], dtype=np.int64)
        got = np.array([(r["no"], r["tf"], r["len"]) for r in found], dtype=np.int64)
        for t in np.unique(term):
            mine = got[term == t]
            state.complete(int(t), mine[:, 0], mine[:, 1], mine[:, 2])
