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
#: Most chunks completed by random access; past it, more blocks are read first.
CAP = 500
#: Terms a mask holds.
MAX_TERMS = 64


def weights(idf: float, tf: np.ndarray, length: np.ndarray, avgdl: float, k1: float, b: float):  # type: ignore[no-untyped-def]
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
        self.acc = np.zeros(size, dtype=np.float64)
        self.seen = np.zeros(size, dtype=np.uint64)
        self.known = np.zeros(size, dtype=bool)  # touched, or dead (never a candidate)
        self.known[dead] = True
        self.touched: list[np.ndarray] = []
        self._ids = np.zeros(0, dtype=np.int64)

    def plan(self, budget: int) -> list[tuple[int, int]]:
        """Up to ``budget`` next (term, block) to read: each time the next block of the term with
        the largest remaining bound, until those bounds shut unseen chunks out (or, once they
        do, ``budget`` blocks, to cut the candidates down)."""
        theta = self.threshold()
        reads = [t.read for t in self.terms]
        rest = np.array([t.rest[r] for t, r in zip(self.terms, reads, strict=True)])
        out: list[tuple[int, int]] = []
        # Once the bounds exclude unseen chunks, blocks are read to shrink the candidates.
        bounded = rest.sum() < theta - EPS
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
        nos = postings["no"].astype(np.int64)
        self.acc[nos] += weights(
            t.idf, postings["tf"], postings["len"], self.avgdl, self.k1, self.b
        )
        self.seen[nos] |= np.uint64(1 << term)
        fresh = nos[~self.known[nos]]
        self.known[fresh] = True
        self.touched.append(fresh)
        t.read += count

    def ids(self) -> np.ndarray:
        """Every live chunk seen so far."""
        if self.touched:
            self._ids = np.concatenate([self._ids, *self.touched])
            self.touched = []
        return self._ids

    def threshold(self) -> float:
        """θ: the k-th best partial sum (0 while fewer than k chunks are seen)."""
        ids = self.ids()
        if len(ids) < self.k:
            return 0.0
        return float(np.partition(self.acc[ids], len(ids) - self.k)[len(ids) - self.k])

    def candidates(self) -> np.ndarray | None:
        """The chunks that can still reach θ, once no unseen chunk can and they are at most
        :data:`CAP` (or nothing is left to read); None while more blocks must be read."""
        theta = self.threshold()
        rest = np.array([t.remaining for t in self.terms])
        if rest.sum() >= theta - EPS and rest.any():
            return None
        ids = self.ids()
        ids = ids[self.acc[ids] + rest.sum() >= theta - EPS]
        upper = self.acc[ids].copy()
        for i in np.flatnonzero(rest):
            upper += rest[i] * ((self.seen[ids] & np.uint64(1 << int(i))) == 0)
        ids = ids[upper >= theta - EPS]
        if len(ids) > CAP and rest.any():
            return None
        return ids

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


def block_bounds(idf: float, bounds: bytes, avgdl: float, segment_avgdl: float) -> np.ndarray:
    """Per block, the bound on its weights at mean length ``avgdl``: ``bounds`` holds each
    block's largest weight without idf at the segment's mean ``segment_avgdl`` (big-endian
    float8); a weight grows at most in proportion to the mean, and a little slack covers the
    rounding of sums taken in another order."""
    scale = max(1.0, avgdl / segment_avgdl) * (1 + 1e-9)
    return idf * np.frombuffer(bounds, dtype=">f8").astype(np.float64) * scale
