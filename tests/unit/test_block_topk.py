"""The block top k in numpy against BM25 computed over every posting, on random postings."""

from __future__ import annotations

import numpy as np
import pytest

from archive.store import block_topk
from archive.store.block_topk import (
    EPS,
    RECORD,
    SHRINK_ROUND,
    BlockTopK,
    Term,
    block_bounds,
    decode,
)

K1, B = 1.2, 0.75


def weights(
    idf: float, tf: np.ndarray, length: np.ndarray, avgdl: float, k1: float, b: float
) -> np.ndarray:
    """BM25 term weights, in the operation order of ``lexical.BM25_SUM``."""
    tf = tf.astype(np.float64)
    return idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * length.astype(np.float64) / avgdl))


def _corpus(seed: int, docs: int = 3000, terms: int = 6) -> list[dict[str, np.ndarray]]:
    """Per term its postings (no, tf, len): a few rare terms, a few common ones."""
    rng = np.random.default_rng(seed)
    lengths = rng.integers(20, 400, docs)
    out = []
    for t in range(terms):
        df = int(docs * (0.6 if t % 3 == 0 else 0.05 if t % 3 == 1 else 0.003)) + 1
        nos = np.sort(rng.choice(docs, df, replace=False))
        out.append({"no": nos, "tf": rng.integers(1, 8, df), "len": lengths[nos]})
    return out


def _blocks(p: dict[str, np.ndarray], size: int, mean: float) -> tuple[list[bytes], bytes]:
    """The term's blocks ordered by weight at the segment's ``mean``, and their bounds."""
    w = weights(1.0, p["tf"], p["len"], mean, K1, B)
    order = np.lexsort((p["no"], -w))
    records = np.zeros(len(order), dtype=RECORD)
    records["no"], records["tf"], records["len"] = p["no"][order], p["tf"][order], p["len"][order]
    starts = range(0, len(records), size)
    bounds = np.array([w[order][i] for i in starts], dtype=">f8").tobytes()
    return [records[i : i + size].tobytes() for i in starts], bounds


def _run(  # type: ignore[no-untyped-def]
    postings: list[dict[str, np.ndarray]], docs: int, k: int, dead: np.ndarray, size: int, drift=0.9
):
    """The top k at mean length 180 from blocks compacted at mean 180 x ``drift``."""
    avgdl, mean = 180.0, 180.0 * drift
    idfs = [float(np.log(1 + (docs - len(p["no"]) + 0.5) / (len(p["no"]) + 0.5))) for p in postings]
    made = [_blocks(p, size, mean) for p in postings]
    blocks = [m[0] for m in made]
    terms = [
        Term(idf, block_bounds(idf, m[1], avgdl, mean)) for idf, m in zip(idfs, made, strict=True)
    ]
    state = BlockTopK(terms, docs, dead, k=k, avgdl=avgdl, k1=K1, b=B)
    budget = len(terms)
    while (ids := state.candidates()) is None:
        plan = state.plan(budget)
        for t in sorted({t for t, _ in plan}):
            mine = sorted(block for u, block in plan if u == t)
            state.add(t, mine[0], [decode(blocks[t][i], avgdl, K1, B) for i in mine])
        budget *= 2
    by_term: dict[int, list[int]] = {}
    for no, t in state.missing(ids):
        by_term.setdefault(t, []).append(no)
    for t, nos in by_term.items():
        p = postings[t]
        hit = np.isin(p["no"], nos)
        state.complete(t, p["no"][hit], p["tf"][hit], p["len"][hit])
    exact = np.zeros(docs)
    for idf, p in zip(idfs, postings, strict=True):
        exact[p["no"]] += weights(idf, p["tf"], p["len"], avgdl, K1, B)
    exact[dead] = 0
    return state, ids, exact


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("k", [1, 10, 100])
@pytest.mark.parametrize("drift", [0.9, 1.0, 1.1])  # the mean grew, stayed, shrank since
def test_top_k_is_exact_and_stops_early(seed: int, k: int, drift: float) -> None:
    docs = 3000
    postings = _corpus(seed, docs)
    dead = np.random.default_rng(seed).choice(docs, 50, replace=False)
    state, ids, exact = _run(postings, docs, k, dead, size=16, drift=drift)
    assert not np.isin(ids, dead).any()
    got = ids[np.argsort(-state.acc[ids], kind="stable")][:k]
    want = np.argsort(-exact, kind="stable")[:k]
    assert np.allclose(np.sort(state.acc[got]), np.sort(exact[want]), rtol=1e-12)
    assert np.allclose(state.acc[ids], exact[ids], rtol=1e-12)  # candidates hold exact sums
    read = sum(t.read for t in state.terms)
    total = sum(-(-len(p["no"]) // 16) for p in postings)
    assert read < total  # the common terms' tails were never read


def test_k_past_every_match_reads_everything() -> None:
    docs = 500
    postings = _corpus(3, docs, terms=2)
    state, ids, exact = _run(postings, docs, 10_000, np.zeros(0, dtype=np.int64), size=8)
    assert set(ids.tolist()) == set(np.flatnonzero(exact).tolist())
    assert np.allclose(state.acc[ids], exact[ids], rtol=1e-12)


def test_blocks_must_be_read_in_order() -> None:
    term = Term(1.0, np.array([2.0, 1.0]))
    state = BlockTopK([term], 10, np.zeros(0, dtype=np.int64), k=1, avgdl=1.0, k1=K1, b=B)
    with pytest.raises(ValueError, match="out of order"):
        state.add(0, 1, [])


def test_released_arrays_come_back_zeroed() -> None:
    docs = 3000
    postings = _corpus(1, docs)
    dead = np.arange(10)
    state, ids, exact = _run(postings, docs, 10, dead, size=16)
    first = state.acc
    state.release()
    again, ids2, _ = _run(postings, docs, 10, dead, size=16)
    assert again.acc is first  # reused, and still exact
    assert np.allclose(again.acc[ids2], exact[ids2], rtol=1e-12)
    again.release()


def test_a_k_larger_than_the_pool_bound_still_stops_early(monkeypatch: pytest.MonkeyPatch) -> None:
    """The pool bound counts past k: a wide filter asks for thousands of rows."""
    monkeypatch.setattr(block_topk, "POOL_MOST", 200)
    docs = 3000
    postings = _corpus(2, docs)
    state, ids, exact = _run(postings, docs, 250, np.zeros(0, dtype=np.int64), size=16)
    got = ids[np.argsort(-state.acc[ids], kind="stable")][:250]
    assert np.allclose(np.sort(state.acc[got]), np.sort(exact)[-250:], rtol=1e-12)
    assert sum(t.read for t in state.terms) < sum(-(-len(p["no"]) // 16) for p in postings)


def _greedy_plan(state: BlockTopK, budget: int, theta: float) -> list[tuple[int, int]]:
    """The plan's definition, one block at a time: the next block of the term whose remaining
    bound is largest (lowest term on ties), until the bounds left sum below θ."""
    reads = [t.read for t in state.terms]
    rest = np.array([t.rest[r] for t, r in zip(state.terms, reads, strict=True)])
    bounded = rest.sum() < theta - EPS
    if bounded:
        budget = min(budget, SHRINK_ROUND * int(np.count_nonzero(rest)))
    out: list[tuple[int, int]] = []
    while len(out) < budget and rest.max(initial=0.0) > 0:
        if out and not bounded and rest.sum() < theta - EPS:
            break
        i = int(np.argmax(rest))
        out.append((i, reads[i]))
        reads[i] += 1
        rest[i] = state.terms[i].rest[reads[i]]
    return out


def test_the_plan_reads_the_largest_remaining_bound_first(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(7)
    for _ in range(500):
        terms = []
        for _ in range(int(rng.integers(1, 8))):
            blocks = int(rng.integers(1, 20))
            tied = rng.random() < 0.3  # equal bounds across and within terms
            drawn = rng.choice([0.5, 1.0, 2.0], blocks) if tied else rng.random(blocks) * 3
            term = Term(1.0, np.sort(drawn)[::-1].copy())
            term.read = int(rng.integers(0, blocks + 1))
            terms.append(term)
        state = BlockTopK(terms, 10, np.zeros(0, dtype=np.int64), k=1, avgdl=1.0, k1=K1, b=B)
        theta, budget = float(rng.random() * 6), int(rng.integers(1, 40))
        monkeypatch.setattr(state, "threshold", lambda theta=theta: theta)
        assert state.plan(budget) == _greedy_plan(state, budget, theta)
        state.release()
