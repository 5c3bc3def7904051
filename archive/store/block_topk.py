"""The exact BM25 top k over impact-ordered blocks, in numpy (no database: the caller reads).

Each query term's postings come in blocks sorted by weight; every block carries a bound on its
weights (:func:`block_bounds`). Blocks are read, a
prefix per term, in the order of the terms' largest remaining bound; every posting read adds its
exact weight to its chunk and sets the term's bit in the chunk's mask. With θ the k-th best
partial sum, reading stops when the terms' remaining bounds sum below θ (no chunk not yet seen can
enter the top k) and few seen chunks can still reach θ (partial sum plus the remaining bounds of
the terms they have not shown); those are completed exactly by random access, and the top k is
taken among them. The result is the exact BM25 top k (scores compared rounded to 1e-9, as
:mod:`archive.store.lexical` orders them).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

#: One posting of a block's ``data``: chunk_no, tf, chunk length (big-endian, 10 bytes).
RECORD = np.dtype([("no", ">i4"), ("tf", ">i2"), ("len", ">i4")])
#: Slack on every comparison with θ: sums taken in another order differ in the last bits.
EPS = 1e-9
#: Most (chunk, term) postings looked up to complete the candidates; past it, more blocks are
#: read first. On 1M chunks a lookup took ~11 us, a block of 1,024 postings ~75 us read and
#: summed; 1,500 lookups and rounds of 8 blocks per open term measured best (README "Scale").
LOOKUPS = 1500
#: Blocks per open term in a round once unseen chunks are shut out.
SHRINK_ROUND = 8
#: Terms a mask holds; its top bit marks the dead.
MAX_TERMS = 63
_DEAD = np.uint64(1 << 63)


def weights(
    idf: float, tf: np.ndarray, length: np.ndarray, avgdl: float, k1: float, b: float
) -> np.ndarray:
    """BM25 term weights, in the operation order of ``lexical.BM25_SUM`` (float64)."""
    tf = tf.astype(np.float64)
    return idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * length.astype(np.float64) / avgdl))


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
    """The state of one query: partial sums and term masks over ``size`` compacted chunks."""

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
        self.acc, self.seen = _take(size)  # seen: bit i, term i read; dead, never a candidate
        self.seen[dead] = _DEAD
        self.touched: list[np.ndarray] = []
        self._ids = np.zeros(0, dtype=np.intp)
        self._theta: float | None = None
        self._pool: np.ndarray | None = None  # the candidates, once unseen chunks are shut out

    def plan(self, budget: int) -> list[tuple[int, int]]:
        """Up to ``budget`` next (term, block) to read: each time the next block of the term with
        the largest remaining bound, until those bounds shut unseen chunks out (or, once they
        do, ``budget`` blocks, to cut the candidates down)."""
        theta = self.threshold()
        reads = [t.read for t in self.terms]
        rest = np.array([t.rest[r] for t, r in zip(self.terms, reads, strict=True)])
        out: list[tuple[int, int]] = []
        # Once the bounds exclude unseen chunks, a few blocks at a time shrink the candidates.
        bounded = rest.sum() < theta - EPS
        if bounded:
            budget = min(budget, SHRINK_ROUND * int(np.count_nonzero(rest)))
        while len(out) < budget and rest.max(initial=0.0) > 0:
            if out and not bounded and rest.sum() < theta - EPS:
                break
            i = int(np.argmax(rest))
            out.append((i, reads[i]))
            reads[i] += 1
            rest[i] = self.terms[i].rest[reads[i]]
        return out

    def add(self, term: int, first: int, count: int, data: bytes) -> None:
        """Read blocks ``first`` .. ``first + count - 1`` of term ``term`` (the next ones of its
        prefix), their ``data`` concatenated."""
        t = self.terms[term]
        if first != t.read:
            raise ValueError(f"term {term}: block {first} read out of order (next is {t.read})")
        postings = np.frombuffer(data, dtype=RECORD)
        nos = postings["no"].astype(np.intp)
        self.acc[nos] += weights(
            t.idf, postings["tf"], postings["len"], self.avgdl, self.k1, self.b
        )
        seen = self.seen[nos]
        self.touched.append(nos[seen == 0])
        self.seen[nos] = seen | np.uint64(1 << term)
        t.read += count
        self._theta = None

    def ids(self) -> np.ndarray:
        """Every live chunk seen so far."""
        if self.touched:
            self._ids = np.concatenate([self._ids, *self.touched])
            self.touched = []
        return self._ids

    def threshold(self) -> float:
        """θ: the k-th best partial sum (0 while fewer than k chunks are seen)."""
        if self._theta is None:
            ids = self.ids() if self._pool is None else self._pool
            at = len(ids) - self.k
            self._theta = 0.0 if at < 0 else float(np.partition(self.acc[ids], at)[at])
        return self._theta

    def candidates(self) -> np.ndarray | None:
        """The chunks that can still reach θ, once no unseen chunk can and completing them takes
        at most :data:`LOOKUPS` lookups (or nothing is left to read); None while more blocks
        must be read. Once unseen chunks are shut out, the set only shrinks: later calls filter
        it, not every chunk seen."""
        theta = self.threshold()
        rest = np.array([t.remaining for t in self.terms])
        if self._pool is None:
            if rest.sum() >= theta - EPS and rest.any():
                return None
            ids = self.ids()
            self._pool = ids[self.acc[ids] + rest.sum() >= theta - EPS]
        ids = self._pool
        upper, seen = self.acc[ids], self.seen[ids]
        live = np.flatnonzero(rest)
        lacking = [(seen & np.uint64(1 << int(i))) == 0 for i in live]
        for i, lack in zip(live, lacking, strict=True):
            upper = upper + rest[i] * lack
        keep = upper >= theta - EPS
        self._pool = ids = ids[keep]
        if sum(int(np.count_nonzero(lack[keep])) for lack in lacking) > LOOKUPS:
            return None
        return ids

    def release(self) -> None:
        """Hand the per-chunk arrays back, zeroed, for the next query (the state is done)."""
        self.acc.fill(0)
        self.seen.fill(0)
        free = _FREE.setdefault(len(self.acc), [])
        if len(free) < _KEEP:
            free.append((self.acc, self.seen))

    def missing(self, ids: np.ndarray) -> list[tuple[int, int]]:
        """(chunk_no, term) pairs whose posting may lie in a block not read: to look up."""
        pairs: list[tuple[int, int]] = []
        for i, t in enumerate(self.terms):
            if t.remaining > 0:
                lack = ids[(self.seen[ids] & np.uint64(1 << i)) == 0]
                pairs.extend((int(no), i) for no in lack)
        return pairs

    def complete(self, term: int, nos: np.ndarray, tfs: np.ndarray, lens: np.ndarray) -> None:
        """Add the looked-up postings of ``term`` (chunks not yet credited with it)."""
        t = self.terms[term]
        self.acc[nos] += weights(t.idf, tfs, lens, self.avgdl, self.k1, self.b)
        self.seen[nos] |= np.uint64(1 << term)
        self._theta = None


# Per-chunk arrays are kept between queries: on 1M chunks, fresh ones cost 12-40 ms of page
# faults a query, zeroing used ones ~3 ms.
_FREE: dict[int, list[tuple[np.ndarray, np.ndarray]]] = {}
_KEEP = 4


def _take(size: int) -> tuple[np.ndarray, np.ndarray]:
    free = _FREE.get(size)
    if free:
        return free.pop()
    return np.zeros(size, dtype=np.float64), np.zeros(size, dtype=np.uint64)


def block_bounds(idf: float, bounds: bytes, avgdl: float, segment_avgdl: float) -> np.ndarray:
    """Per block, the bound on its weights at mean length ``avgdl``: ``bounds`` holds each
    block's largest weight without idf at the segment's mean ``segment_avgdl`` (big-endian
    float8); a weight grows at most in proportion to the mean, and a little slack covers the
    rounding of sums taken in another order."""
    scale = max(1.0, avgdl / segment_avgdl) * (1 + 1e-9)
    return idf * np.frombuffer(bounds, dtype=">f8").astype(np.float64) * scale
