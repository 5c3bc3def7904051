"""Hybrid retrieval: BM25 and HNSW cosine in PostgreSQL, both scores per candidate, fusion."""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, field

import numpy as np
from langchain_core.embeddings import Embeddings

from agent.store.database import Store
from agent.store.filters import SearchFilters
from agent.store.lexical import bm25_search
from agent.store.passages import Passage, fetch_passages
from agent.store.vectors import vector_search
from tools.fusion import FusionConfig, fuse

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class RetrievalOptions:
    """Per-call switches of the retrieval pipeline."""

    lexical: bool = True  # BM25 arm
    dense: bool = True  # vector arm
    k: int = 10  # results returned
    candidates: int = 100  # rows each arm contributes before fusion
    similarity_floor: float = 0.3  # dense-only hits below this cosine are noise
    fusion: FusionConfig = field(default_factory=FusionConfig)

    def __post_init__(self) -> None:
        if not (self.lexical or self.dense):
            raise ValueError("at least one retrieval arm must be on")


@dataclass(frozen=True)
class Candidate:
    """A retrieved passage with the scores that placed it."""

    passage: Passage
    bm25: float  # Okapi BM25 (0 when no query term occurs)
    cosine: float  # cosine similarity of query and passage vectors
    score: float  # fused score (the active arm's score when only one is on)


@dataclass
class Retrieval:
    """What one retrieval returned and how long each stage took."""

    candidates: list[Candidate]
    timings_ms: dict[str, float]


async def retrieve(
    store: Store,
    embeddings: Embeddings,
    query: str,
    filters: SearchFilters,
    options: RetrievalOptions,
) -> Retrieval:
    """Rank chunks for ``query`` under ``filters`` with the arms ``options`` turns on."""
    timings: dict[str, float] = {}
    vector: list[float] | None = None
    if options.dense:
        start = time.perf_counter()
        vector = await asyncio.to_thread(embeddings.embed_query, query)
        timings["embed"] = _ms(start)

    start = time.perf_counter()
    lexical_hits, dense_hits = await asyncio.gather(
        _timed(bm25_search(store, query, filters, limit=options.candidates), timings, "bm25")
        if options.lexical
        else _none(),
        _timed(vector_search(store, vector, filters, limit=options.candidates), timings, "vector")
        if vector is not None
        else _none(),
    )
    lexical = dict(lexical_hits or [])
    dense = {cid: cos for cid, cos in (dense_hits or []) if cos >= options.similarity_floor}
    ids = list(lexical.keys() | dense.keys())
    passages = await fetch_passages(store, ids)
    if options.lexical and options.dense:
        # Score every candidate on both arms so fusion compares like with like.
        missing = [cid for cid in ids if cid not in lexical]
        if missing:
            lexical.update(await bm25_search(store, query, filters, limit=len(missing),
                                             only=missing))  # fmt: skip
    cosines = _cosines(vector, passages) if vector is not None else {}
    if options.lexical and options.dense:
        scores = fuse({c: lexical.get(c, 0.0) for c in ids}, cosines, options.fusion)
    elif options.lexical:
        scores = lexical
    else:
        scores = dense
    ranked = sorted((cid for cid in ids if cid in passages), key=lambda c: (-scores[c], c))
    timings["retrieve"] = _ms(start)
    return Retrieval(
        candidates=[
            Candidate(passages[c], lexical.get(c, 0.0), cosines.get(c, 0.0), scores[c])
            for c in ranked[: options.k]
        ],
        timings_ms=timings,
    )


def _cosines(vector: list[float], passages: dict[str, Passage]) -> dict[str, float]:
    if not passages:
        return {}
    q = np.asarray(vector, dtype=np.float32)
    ids = list(passages)
    matrix = np.stack([passages[c].embedding for c in ids])
    sims = matrix @ q / (np.linalg.norm(matrix, axis=1) * np.linalg.norm(q) + 1e-12)
    return dict(zip(ids, (float(s) for s in sims), strict=True))


async def _timed(coro, timings: dict[str, float], name: str):  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    result = await coro
    timings[name] = _ms(start)
    return result


async def _none() -> None:
    return None


def _ms(start: float) -> float:
    return (time.perf_counter() - start) * 1000.0
