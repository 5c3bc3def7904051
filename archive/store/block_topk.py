"""The exact BM25 top k over impact-ordered blocks, in numpy (no database: the caller reads).

Each query term's postings come in blocks sorted by weight; every block carries a bound on its
weights (:func:`block_bounds`). Blocks are read, a prefix per term, in the order of the terms'
largest remaining bound; every posting read adds its exact weight to its chunk and marks the
chunk as holding the term. With θ the k-th best partial sum, reading stops when the terms'
remaining bounds sum below θ (no chunk not yet seen can enter the top k) and few seen chunks can
still reach θ (partial sum plus the remaining bounds of the terms they have not shown); those
are completed exactly by random access, and the top k is taken among them. The result is the
exact BM25 top k (scores compared rounded to 1e-9, as :mod:`archive.store.lexical` orders them).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

#: One posting of a block's ``data``: chunk_no, tf, chunk length (big-endian, 10 bytes).
RECORD = np.dtype([("no", ">i4"), ("tf", ">i2"), ("len", ">i4")])
#: Slack on every comparison with θ: sums taken in another order differ in the last bits.
EPS = 1e-9
#: Most (chunk, term) postings looked up to complete the candidates; past it, more blocks are
#: read first. Measured on 1M chunks, 24-word questions, p50 with the other two at their values
#: (README "Scale"): 250 / 500 / 1,000 / 2,000 lookups 23.7 / 23.2 / 23.4 / 25.7 ms.
LOOKUPS = 500
#: Most chunks past k a candidate pool starts from; while more could still reach θ, blocks are
#: read: 1,000 / 4,000 / 16,000 / 64,000 25.2 / 25.3 / 25.0 / 25.0 ms (p95 44-50; with no bound
#: the pool reached 160,000 chunks and a question took twice as long).
POOL_MOST = 4_000
#: Blocks per open term in a round once unseen chunks are shut out: 8 / 16 / 32 / 1,000
#: 28.4 / 25.4 / 24.3 / 25.1 ms.
SHRINK_ROUND = 32
#: Most query terms.
MAX_TERMS = 63


def base_weights(
    tf: np.ndarray, length: np.ndarray, avgdl: float, k1: float, b: float
) -> np.ndarray:
    """BM25 term weights without the idf factor, ``tf (k1 + 1) / (tf + k1 (1 - b + b len /
    avgdl))`` (float64); a weight is ``idf`` times this."""
    tf = tf.astype(np.float64)
    return tf * (k1 + 1) / (tf + k1 * (1 - b + b * length.astype(np.float64) / avgdl))


@dataclass(frozen=True)
class Block:
    """One decoded block: its chunk numbers and their weights without idf at a mean length."""

    nos: np.ndarray  # chunk_no, intp
    base: np.ndarray  # base_weights at the query's mean length

    @property
    def nbytes(self) -> int:
        return int(self.nos.nbytes + self.base.nbytes)


def decode(data: bytes, avgdl: float, k1: float, b: float) -> Block:
    """A block's packed :data:`RECORD` postings, weighed at mean length ``avgdl``, in chunk
    order (adding them to the sums in that order measured 40 % faster than in weight order)."""
    postings = np.frombuffer(data, dtype=RECORD)
    nos = postings["no"].astype(np.intp)
    order = np.argsort(nos)
    return Block(nos[order], base_weights(postings["tf"], postings["len"], avgdl, k1, b)[order])


@dataclass
class Term:
    """One query term's blocks: their bounds and how many (a prefix) have been read."""

    idf: float
    bounds: np.ndarray  # per block, an upper bound on its weights
    rest: np.ndarray = field(init=False)  # rest[j]: largest bound of blocks j.. (0 past the end)
    read: int = 0

    def __post_init__(self) -> None:
        suffix = np.maximum.accumulate(self.bounds[::-1])[::-1]
        self.rest = np.append(suffix, 0.0)

    @property
    def remaining(self) -> float:
        return float(self.rest[self.read])


class BlockTopK:
    """The state of one query over ``size`` compacted chunks: partial sums (``acc``), which
    terms each chunk has shown (one mark row per term) and the k best sums so far."""

    def __init__(
        self,
        terms: list[Term],
        size: int,
        dead: np.ndarray,
        *,
        k: int,
        avgdl: float,
        k1: float,
        b: float,
    ) -> None:
        if len(terms) > MAX_TERMS:
            raise ValueError(f"at most {MAX_TERMS} terms, got {len(terms)}")
        self.terms, self.k, self.avgdl, self.k1, self.b = terms, k, avgdl, k1, b
        self._arrays = _take(size, len(terms))
        self.acc, self.marks, self._in_top = self._arrays
        self.acc[dead] = -np.inf  # the dead never reach θ nor count towards it
        self._top = np.zeros(0, dtype=np.intp)  # the chunks of the k best sums
        self._fresh: list[np.ndarray] = []  # chunks whose sums rose since the top was taken
        self._pool: np.ndarray | None = None  # the candidates, once unseen chunks are shut out

    def plan(self, budget: int) -> list[tuple[int, int]]:
        """Up to ``budget`` next (term, block) to read: each time the next block of the term with
        the largest remaining bound, until those bounds shut unseen chunks out (or, once they
        do, ``budget`` blocks, to cut the candidates down). Each term's bounds only fall, so that
        order is every term's next blocks sorted by bound (ties: lower term first)."""
        theta = self.threshold()
        rest = np.array([t.remaining for t in self.terms])
        bounded = rest.sum() < theta - EPS  # then a few blocks at a time shrink the candidates
        if bounded:
            budget = min(budget, SHRINK_ROUND * int(np.count_nonzero(rest)))
        bound, term, block, drop = [], [], [], []
        for i, t in enumerate(self.terms):
            ahead = t.rest[t.read : t.read + budget]  # the term's bound before each next block
            ahead = ahead[ahead > 0]
            bound.append(ahead)
            term.append(np.full(len(ahead), i))
            block.append(np.arange(t.read, t.read + len(ahead)))
            drop.append(ahead - t.rest[t.read + 1 : t.read + 1 + len(ahead)])
        bounds, terms, blocks = np.concatenate(bound), np.concatenate(term), np.concatenate(block)
        order = np.lexsort((blocks, terms, -bounds))[:budget]
        if not bounded:  # stop once the bounds left sum below θ (after the first block)
            left = rest.sum() - np.cumsum(np.concatenate(drop)[order])
            shut = np.flatnonzero(left[:-1] < theta - EPS)
            if len(shut):
                order = order[: shut[0] + 1]
        return list(zip(terms[order].tolist(), blocks[order].tolist(), strict=True))

    def add(self, term: int, first: int, blocks: list[Block]) -> None:
        """Read blocks ``first``, ``first + 1``, … of term ``term`` (the next ones of its
        prefix)."""
        t = self.terms[term]
        if first != t.read:
            raise ValueError(f"term {term}: block {first} read out of order (next is {t.read})")
        if not blocks:
            return
        # One pass over the term's new postings (each chunk at most once in a term).
        nos = np.concatenate([block.nos for block in blocks])
        # ufunc.at (numpy 2's fast path) over acc[nos] += w: 27.9 -> 23.6 ms p50 at 1M chunks.
        np.add.at(self.acc, nos, t.idf * np.concatenate([block.base for block in blocks]))
        self.marks[term][nos] = 1
        self._fresh.append(nos)
        t.read += len(blocks)

    def threshold(self) -> float:
        """θ: the k-th best partial sum (0 while fewer than k live chunks are seen). Sums only
        rise, so the k best are among the last k best and the chunks raised since."""
        for nos in self._fresh:  # each array holds a chunk once
            if len(self._top) >= self.k:  # only sums above the k-th can enter
                nos = nos[self.acc[nos] > self.acc[self._top].min()]
            fresh = nos[~self._in_top[nos]]
            both = np.concatenate([self._top, fresh])
            if len(both) > self.k:
                both = both[np.argpartition(self.acc[both], len(both) - self.k)[-self.k :]]
            self._in_top[self._top] = False
            self._in_top[both] = True
            self._top = both
        self._fresh = []
        if len(self._top) < self.k:
            return 0.0
        return max(0.0, float(self.acc[self._top].min()))

    def candidates(self) -> np.ndarray | None:
        """The chunks that can still reach θ, once no unseen chunk can and completing them takes
        at most :data:`LOOKUPS` lookups (or nothing is left to read); None while more blocks
        must be read. Once unseen chunks are shut out, the set only shrinks: later calls filter
        it, not every chunk."""
        theta = self.threshold()
        rest = np.array([t.remaining for t in self.terms])
        if self._pool is None:
            if rest.sum() >= theta - EPS and rest.any():
                return None
            floor = max(theta - rest.sum() - EPS, np.nextafter(0.0, 1.0))  # seen: sum > 0
            above = self.acc >= floor
            if rest.any() and np.count_nonzero(above) > self.k + POOL_MOST:
                return None  # a few more blocks shrink it more cheaply than filtering it
            self._pool = np.flatnonzero(above)
        self._pool = ids = self._reachable(self._pool, rest, theta)
        lookups = sum(int(np.count_nonzero(self.marks[i][ids] == 0)) for i in np.flatnonzero(rest))
        return None if lookups > LOOKUPS else ids

    def _reachable(self, ids: np.ndarray, rest: np.ndarray, theta: float) -> np.ndarray:
        """Those of ``ids`` whose sum plus the remaining bounds of the terms they lack can reach
        θ. Terms are taken largest bound first, each time dropping the chunks that cannot reach
        θ even if they hold every term not yet looked at, so later terms look at fewer."""
        live = np.flatnonzero(rest)
        live = live[np.argsort(-rest[live], kind="stable")]
        after = rest[live].sum() - np.cumsum(rest[live])  # the bounds of the later terms
        upper = self.acc[ids]
        for i, later in zip(live, after, strict=True):
            upper = upper + rest[i] * (self.marks[i][ids] == 0)
            keep = upper + later >= theta - EPS
            ids, upper = ids[keep], upper[keep]
        return ids if len(live) else ids[upper >= theta - EPS]

    def missing(self, ids: np.ndarray) -> list[tuple[int, int]]:
        """(chunk_no, term) pairs whose posting may lie in a block not read: to look up."""
        pairs: list[tuple[int, int]] = []
        for i, t in enumerate(self.terms):
            if t.remaining > 0:
                lack = ids[self.marks[i][ids] == 0]
                pairs.extend((int(no), i) for no in lack)
        return pairs

    def complete(self, term: int, nos: np.ndarray, tfs: np.ndarray, lens: np.ndarray) -> None:
        """Add the looked-up postings of ``term`` (chunks not yet credited with it)."""
        nos = np.asarray(nos, dtype=np.intp)
        np.add.at(
            self.acc,
            nos,
            self.terms[term].idf * base_weights(tfs, lens, self.avgdl, self.k1, self.b),
        )
        self.marks[term][nos] = 1
        self._fresh.append(nos)

    def release(self) -> None:
        """Hand the per-chunk arrays back, zeroed, for the next query (the state is done)."""
        self.acc.fill(0)
        self.marks[: len(self.terms)].fill(0)
        self._in_top[self._top] = False
        free = _FREE.setdefault(len(self.acc), [])
        if len(free) < _KEEP:
            free.append(self._arrays)


# Per-chunk arrays are kept between queries: on 1M chunks, fresh ones cost 12-40 ms of page
# faults a query, zeroing used ones ~3 ms.
_Arrays = tuple[np.ndarray, np.ndarray, np.ndarray]
_FREE: dict[int, list[_Arrays]] = {}
_KEEP = 4


def _take(size: int, terms: int) -> _Arrays:
    """Sums, a mark row per term (at least ``terms`` rows) and a top-k flag per chunk."""
    free = _FREE.get(size, [])
    for i, arrays in enumerate(free):
        if len(arrays[1]) >= terms:
            return free.pop(i)
    rows = 8 if terms <= 8 else 24 if terms <= 24 else MAX_TERMS
    return (
        np.zeros(size, dtype=np.float64),
        np.zeros((rows, size), dtype=np.uint8),
        np.zeros(size, dtype=bool),
    )


def block_bounds(idf: float, bounds: bytes, avgdl: float, segment_avgdl: float) -> np.ndarray:
    """Per block, the bound on its weights at mean length ``avgdl``: ``bounds`` holds each
    block's largest weight without idf at the segment's mean ``segment_avgdl`` (big-endian
    float8); a weight grows at most in proportion to the mean, and a little slack covers the
    rounding of sums taken in another order."""
    scale = max(1.0, avgdl / segment_avgdl) * (1 + 1e-9)
    return idf * np.frombuffer(bounds, dtype=">f8").astype(np.float64) * scale
