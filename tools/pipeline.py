"""The retrieval pipeline, assembled once: what the graph's search tool, `bosun search`,
`bosun eval` and the server all run.

expand (optional) → topic filter (optional; strict → loosened → dropped, structural filters kept) →
hybrid retrieval (BM25 + HNSW, fused) → rerank the pool against the question as asked → rerank floor
→ relevance cutoff decision (on a collection `bosun adapt` gave a head, as the stock model would
decide it: :mod:`tools.stock_relevance`) → the click memory's lift of documents opened for similar
questions (:mod:`tools.click_memory`, when `bosun adapt` fitted one). The expanded text feeds both
retrieval arms; the reranker and the answer see the original question. Optional stages degrade by
the one policy (:mod:`providers.resilience`): a failing expansion searches the question as asked, a
failing topic match searches without the topic filter, a failing query embedding searches BM25 only
(in :func:`tools.hybrid.retrieve`), a failing reranker keeps the fused order; each is logged, traced
and noted in ``degraded``. Database errors propagate (the graph retries them), as does every other
failure.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import cast

import psycopg
from typing_extensions import TypedDict

from archive.store.passages import Passage
from archive.store.search_filters import SearchFilters
from providers.rerankers import Reranker, RerankError, rerank_text
from providers.resilience import degrade, reason_of
from text.models import searched_model_names, with_model_forms
from tools.backend import SearchBackend
from tools.click_memory import RecalledClicks
from tools.expansion import Expansion, QueryExpander
from tools.hybrid import Retrieval
from tools.relative_dates import without_days
from tools.relevance import (
    Relevance,
    cutoff_threshold,
    relevance_of,
    rerank_decision,
    rerank_floor,
    rescued_by_names,
)
from tools.retrieval_config import RetrievalConfig
from tools.stock_relevance import StockJudge
from tools.timing import elapsed_ms
from tools.topics import TopicDecision

logger = logging.getLogger(__name__)

#: Rewrites a question into the archive's terminology: a :class:`tools.expansion.QueryExpander`
#: (its :class:`~tools.expansion.Expansion` is recorded) or any ``async (query) -> str``.
Expander = QueryExpander | Callable[[str], Awaitable[str]]

TOP_SCORES = 10  # rerank scores recorded for the trace


class ExpansionRecord(TypedDict):
    """What query expansion did to one search, as the state and the trace hold it."""

    method: str  # prf | topics | llm | custom | none (expander found nothing) | off
    original: str  # the query as asked (what the answer and the reranker see)
    text: str  # what both retrieval arms searched with
    terms: list[str]  # what was added


class RerankRecord(TypedDict, total=False):
    """What the reranker did: status ok | off | empty | failed."""

    status: str
    reranker: str
    scores: list[float]  # the top scores, best first
    floor: float
    dropped: int  # passages below the floor
    error: str  # why it failed (scrubbed)


@dataclass(frozen=True)
class Pipeline:
    """The clients the pipeline runs on; tests pass fakes."""

    backend: SearchBackend
    reranker: Reranker
    expander: Expander | None = None
    judge: StockJudge | None = None  # decides the cutoff on a headed collection (bosun adapt)
    memory: RecalledClicks | None = None  # the collection's click memory (bosun adapt)


@dataclass
class Ranking:
    """One run of the pipeline: the passages in order and each layer's decision and cost."""

    ranked: list[Passage]  # every candidate: the reranked pool best first, then the rest
    kept: list[Passage]  # what the rerank floor keeps of the pool (at least one when any)
    rerank: RerankRecord
    relevance: Relevance
    expansion: ExpansionRecord
    topics: list[TopicDecision] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)  # ms per stage
    degraded: list[str] = field(default_factory=list)  # fallbacks taken


def expansion_off(query: str) -> ExpansionRecord:
    return ExpansionRecord(method="off", original=query, text=query, terms=[])


async def expand_query(expander: Expander, query: str) -> ExpansionRecord:
    """Run ``expander`` on ``query`` and describe what it did."""
    expand = getattr(expander, "expand", None)
    if expand is not None:
        result: Expansion = await expand(query)
        return ExpansionRecord(
            method=result.method, original=query, text=result.text, terms=list(result.terms)
        )
    text = await cast(Callable[[str], Awaitable[str]], expander)(query)
    method = "custom" if text != query else "none"
    return ExpansionRecord(method=method, original=query, text=text, terms=[])


def pool_size(config: RetrievalConfig, reranker: Reranker) -> int:
    """Candidates reranked: the run's ``pool``, else as many as the reranker orders."""
    return config.pool if config.pool is not None else reranker.pool


async def run_pipeline(
    pipeline: Pipeline,
    question: str,
    filters: SearchFilters,
    config: RetrievalConfig,
    *,
    query: str | None = None,
) -> Ranking:
    """Retrieve for ``query`` (default: the question), rerank against ``question``, apply the
    floor and decide the cutoff."""
    timings: dict[str, float] = {}
    degraded: list[str] = []
    query = query or question
    expansion = expansion_off(query)
    if pipeline.expander is not None and config.expand:
        started = time.perf_counter()
        try:
            expansion = await expand_query(pipeline.expander, query)
        except psycopg.OperationalError:
            raise
        except Exception as err:  # expansion.error: search the question as asked
            degraded.append(degrade("expansion.error", err, "searched the question as asked"))
        timings["expand"] = elapsed_ms(started)
        logger.info("query expansion (%s): %r -> %r", expansion["method"], query, expansion["text"])
    pool = pool_size(config, pipeline.reranker)
    # A model name the collection does not hold as written is also searched as otherwise
    # written ("PA28" finds "PA-28"); one it holds is searched as written only.
    names = searched_model_names(expansion["text"])
    held = await pipeline.backend.held(names) if names else set()
    retrieval, topics = await _retrieve(
        pipeline.backend, with_model_forms(expansion["text"], held), filters, config, pool, degraded
    )
    timings = {**retrieval.timings_ms, **timings}
    ranking = await _rank(
        pipeline, question, expansion["text"], retrieval.candidates, config, pool, timings
    )
    ranking.expansion, ranking.topics = expansion, topics
    ranking.degraded = [*degraded, *retrieval.degraded, *ranking.degraded]
    return ranking


async def _retrieve(
    backend: SearchBackend,
    text: str,
    filters: SearchFilters,
    config: RetrievalConfig,
    pool: int,
    degraded: list[str],
) -> tuple[Retrieval, list[TopicDecision]]:
    # The reranker reads cosines, so they are scored even with the dense arm off.
    options = replace(config, k=config.results(pool), cosines=config.cosines or config.rerank)
    if not config.topics:
        return await backend.retrieve(text, filters, options), []
    started = time.perf_counter()
    try:
        filtered = await backend.retrieve_topics(text, filters, options)
    except psycopg.OperationalError:
        raise
    except Exception as err:  # topics.error: the structural filters alone
        degraded.append(degrade("topics.error", err, "searched without the topic filter"))
        return await backend.retrieve(text, filters, options), []
    retrieval, decisions = filtered.retrieval, filtered.decisions
    # The topic filter's own cost: its final retrieval is timed as embed and retrieve.
    own = sum(retrieval.timings_ms.get(s, 0.0) for s in ("embed", "retrieve"))
    retrieval.timings_ms["topics"] = max(elapsed_ms(started) - own, 0.0)
    logger.info("topic filter %s for %r", decisions[-1]["decision"] if decisions else "-", text)
    return retrieval, decisions


async def _rank(
    pipeline: Pipeline,
    question: str,
    text: str,
    candidates: list[Passage],
    config: RetrievalConfig,
    size: int,
    timings: dict[str, float],
) -> Ranking:
    reranker = pipeline.reranker
    pool, rest = candidates[:size], candidates[size:]

    def unranked() -> Relevance:  # no rerank scores (off, nothing retrieved, or failed)
        limit = cutoff_threshold(config.score_cutoff, reranker)
        return relevance_of(pool, limit, reranked=False, calibrated=config.score_cutoff is None)

    if not config.rerank or not pool:
        status = "off" if not config.rerank else "empty"
        relevance = unranked()
        record = RerankRecord(status=status, reranker=reranker.name)
        return Ranking(candidates, pool, record, relevance, expansion_off(question), [], timings)
    started = time.perf_counter()
    try:
        scores = await reranker.rerank(question, [rerank_text(p) for p in pool], candidates=pool)
    except RerankError as err:
        record = RerankRecord(status="failed", reranker=reranker.name, error=reason_of(str(err)))
        degraded = [degrade("rerank.error", str(err), "fused order kept")]
        ranking = Ranking(candidates, pool, record, unranked(), expansion_off(question))
        ranking.timings, ranking.degraded = timings, degraded
        return ranking
    timings["rerank"] = elapsed_ms(started)
    started = time.perf_counter()
    scored, kept, relevance = rerank_decision(
        pool, scores, reranker, floor=config.rerank_floor, cutoff=config.score_cutoff
    )
    # The judge decides on a headed collection, given cosines to judge by (none when the query
    # embedding failed: BM25 only).
    if pipeline.judge is not None and any(p["cosine"] for p in pool):
        relevance = await pipeline.judge.relevance(
            question, text, pool, cutoff=config.score_cutoff, floor=config.rerank_floor
        )
    relevance = rescued_by_names(relevance, without_days(question), kept)
    timings["cutoff"] = elapsed_ms(started)
    if pipeline.memory is not None:  # after the cutoff's decision: it orders, never admits
        started = time.perf_counter()
        scored = await pipeline.memory.reorder(text, scored)
        floor_kept = {p["chunk_id"] for p in kept}
        kept = [p for p in scored if p["chunk_id"] in floor_kept]
        timings["memory"] = elapsed_ms(started)
    record = RerankRecord(
        status="ok",
        reranker=reranker.name,
        scores=[round(p["rerank"] or 0.0, 4) for p in scored[:TOP_SCORES]],
        floor=rerank_floor(config.rerank_floor, reranker),
        dropped=len(scored) - len(kept),
    )
    return Ranking(scored + rest, kept, record, relevance, expansion_off(question), [], timings)
