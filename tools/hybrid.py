"""Hybrid retrieval: BM25 and HNSW cosine in PostgreSQL, both scores per candidate, fusion."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field, replace

from langchain_core.embeddings import Embeddings

from archive.store.candidates import dense_candidates, is_selective, lexical_candidates
from archive.store.database import Store
from archive.store.passages import Passage
from archive.store.search_filters import SearchFilters
from providers.minilm import ModelIntegrityError
from providers.resilience import degrade
from tools.fusion import fuse
from tools.retrieval_config import RetrievalConfig
from tools.timing import elapsed_ms


@dataclass
class Retrieval:
    """What one retrieval returned and how long each stage took."""

    candidates: list[Passage]  # best first, ``score`` set
    timings_ms: dict[str, float]
    degraded: list[str] = field(default_factory=list)  # fallbacks taken (embeddings.error)


async def retrieve(
    store: Store,
    embeddings: Embeddings,
    query: str,
    filters: SearchFilters,
    options: RetrievalConfig,
) -> Retrieval:
    """Rank chunks for ``query`` under ``filters`` with the arms ``options`` turns on.

    Each arm is one statement that also scores its rows on the other arm, so fusion compares
    every candidate on both scores; with both arms on, the two run side by side. BM25 alone
    ranks documents (``doc_bm25``: :mod:`archive.store.document_bm25`); the hybrid fuses the
    chunk top k by each passage's own BM25, the pool its weight and the reranker were fitted on
    (the document-ranked pool lowered the default by 0.002 nDCG@10 on both dev splits without a
    refit: docs/retrieval.md). A failing query embedding searches BM25 alone
    (``embeddings.error`` in :mod:`providers.resilience`)."""
    timings: dict[str, float] = {}
    degraded: list[str] = []
    limit = options.results()
    vector: list[float] | None = None
    if options.dense or options.cosines:
        start = time.perf_counter()
        try:
            vector = await asyncio.to_thread(embeddings.embed_query, query)
        except ModelIntegrityError:  # embeddings.corrupt: a message, never worked around
            raise
        except Exception as err:  # embeddings.error: the BM25 arm alone
            degraded.append(degrade("embeddings.error", err, "searched with BM25 only"))
            options = replace(options, lexical=True, dense=False, cosines=False)
        timings["embed"] = elapsed_ms(start)

    start = time.perf_counter()
    selective = await is_selective(store, filters)  # once, for both arms
    lexical_rows, dense_rows = await asyncio.gather(
        _timed(
            lexical_candidates(
                store,
                query,
                filters,
                limit=options.arm_rows,
                vector=vector,
                selective=selective,
                by_document=not options.dense,
            ),
            timings,
            "bm25",
        )
        if options.lexical
        else _none(),
        _timed(
            dense_candidates(
                store,
                query,
                vector,
                filters,
                limit=options.arm_rows,
                floor=options.similarity_floor,
                selective=selective,
            ),
            timings,
            "vector",
        )
        if options.dense and vector is not None
        else _none(),
    )
    found = {row["chunk_id"]: row for row in (*(lexical_rows or ()), *(dense_rows or ()))}
    lexical = {cid: row["bm25"] for cid, row in found.items()}
    cosines = {cid: row["cosine"] for cid, row in found.items()}
    if options.lexical and options.dense:
        scores = fuse(lexical, cosines, options.fusion)
    elif options.lexical:  # the arm's own order: its documents' BM25, then the passages'
        scores = {row["chunk_id"]: row["doc_bm25"] for row in lexical_rows or ()}
    else:
        scores = cosines
    if options.lexical and not options.dense:
        ranked = [row["chunk_id"] for row in lexical_rows or ()]
    else:
        ranked = sorted(found, key=lambda c: (-scores[c], c))
    timings["retrieve"] = elapsed_ms(start)
    return Retrieval(
        candidates=[_with_score(found[c], scores[c]) for c in ranked[:limit]],
        timings_ms=timings,
        degraded=degraded,
    )


def _with_score(passage: Passage, score: float) -> Passage:
    scored = passage.copy()
    scored["score"] = score
    return scored


async def _timed(coro, timings: dict[str, float], name: str):  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    result = await coro
    timings[name] = elapsed_ms(start)
    return result


async def _none() -> None:
    return None
