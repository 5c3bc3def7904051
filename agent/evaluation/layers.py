"""The product's query-time layers as an eval search hook, and the ablation's configurations.

:class:`LayeredSearch` runs the agent's own pipeline (:func:`tools.pipeline.run_pipeline`):
expansion → topic filter → hybrid retrieval → the configured reranker over the first
:attr:`LayeredSearch.pool` passages (the agent's pool; the rest follow in fused order so Recall@100
stays measurable) → the relevance cutoff's decision, counted rather than applied so the ranking
metrics still describe the ranking. The rerank floor only trims what the answer sees, not the
order, and is not applied to the ranking.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field, replace
from typing import Any

from agent.wiring import Services, build_pipeline
from archive.ingest.topics import build_topics
from archive.store.search_filters import SearchFilters
from graph.context import Context
from tools.hybrid import Retrieval
from tools.pipeline import Pipeline, pool_size, run_pipeline
from tools.retrieval_config import RetrievalConfig

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Layers:
    """One configuration of the query-time layers."""

    lexical: bool = RetrievalConfig.lexical  # BM25 arm
    dense: bool = RetrievalConfig.dense  # vector arm
    rerank: bool = RetrievalConfig.rerank
    expand: bool = RetrievalConfig.expand
    topics: bool = RetrievalConfig.topics
    score_cutoff: float | None = None  # None: the reranker's calibrated cutoff
    #: The reranker `bosun adapt` fitted for the collection (its vocabulary in it), when it has
    #: one; False: the shipped reranker on the same collection (an ablation row).
    fitted: bool = True

    def __post_init__(self) -> None:  # refused as the retrieval configuration refuses it
        self.applied_to(RetrievalConfig())

    def applied_to(self, config: RetrievalConfig) -> RetrievalConfig:
        """``config`` with these layers' switches."""
        return replace(
            config,
            lexical=self.lexical,
            dense=self.dense,
            rerank=self.rerank,
            expand=self.expand,
            topics=self.topics,
            score_cutoff=self.score_cutoff,
        )

    @property
    def arms(self) -> str:
        return "hybrid" if self.lexical and self.dense else "bm25" if self.lexical else "dense"

    @property
    def label(self) -> str:
        """``hybrid+rerank+expand``: the arms, then each layer that is on."""
        on = [name for name in ("rerank", "expand", "topics") if getattr(self, name)]
        if self.rerank and not self.fitted:
            on[0] = "rerank(shipped)"
        cutoff = [] if self.score_cutoff is None else [f"cutoff={self.score_cutoff:g}"]
        return "+".join([self.arms, *on, *cutoff])

    @property
    def is_default(self) -> bool:
        return self == Layers()

    def switches(self) -> dict[str, Any]:
        """The run log's ``switches`` (what the chart tells configurations apart by)."""
        switches: dict[str, Any] = {
            "no_hybrid": not self.lexical,
            "lexical_only": not self.dense,
            "rerank": self.rerank,
            "expand": self.expand,
            "topics": self.topics,
        }
        if self.score_cutoff is not None:
            switches["score_cutoff"] = self.score_cutoff
        if not self.fitted:
            switches["shipped_reranker"] = True
        return switches


#: The combinations worth comparing: each arm alone, fusion, then each layer added to the
#: default (hybrid + rerank) one at a time. A collection with a fitted reranker adds
#: :data:`SHIPPED` (:func:`ablation_of`).
ABLATION: tuple[Layers, ...] = (
    Layers(dense=False, rerank=False),
    Layers(lexical=False, rerank=False),
    Layers(rerank=False),
    Layers(),
    Layers(expand=True),
    Layers(topics=True),
)
SHIPPED = Layers(fitted=False)  # the shipped reranker where `bosun adapt` fitted one


def ablation_of(services: Services) -> list[Layers]:
    """:data:`ABLATION`, with the shipped reranker's row after the default one when the
    collection has its own (so the fitted reranker's share shows)."""
    if services.calibration.reranker is None:
        return list(ABLATION)
    default = ABLATION.index(Layers())
    return [*ABLATION[: default + 1], SHIPPED, *ABLATION[default + 1 :]]


@dataclass
class LayeredSearch:
    """``async (query) -> Retrieval`` through the product's pipeline with the configured layers
    (an eval search hook)."""

    pipeline: Pipeline
    layers: Layers
    k: int  # candidates retrieved (the reranker orders the first :attr:`pool`)
    context: Context = field(default_factory=Context)
    queries: int = 0  # queries run
    stopped: int = 0  # queries the relevance cutoff would have stopped (reranking on)
    topic_decisions: dict[str, int] = field(default_factory=dict)  # final decision -> count

    @property
    def pool(self) -> int:
        """Candidates the reranker orders: the context's, else the reranker's own."""
        return pool_size(self.config, self.pipeline.reranker)

    @property
    def config(self) -> RetrievalConfig:
        """The context's retrieval configuration with these layers' switches."""
        return replace(self.layers.applied_to(self.context), k=self.k)

    async def __call__(self, query: str) -> Retrieval:
        self.queries += 1
        ranking = await run_pipeline(self.pipeline, query, SearchFilters(), self.config)
        if ranking.topics:
            final = ranking.topics[-1]["decision"]
            self.topic_decisions[final] = self.topic_decisions.get(final, 0) + 1
        ranked = ranking.ranked
        if self.layers.rerank:
            self.stopped += ranking.relevance["stopped"]
            # The harness ranks documents by score: the reranked order, as descending scores.
            ranked = [{**p, "score": float(len(ranked) - i)} for i, p in enumerate(ranked)]
        return Retrieval(ranked, ranking.timings)


async def layered_search(services: Services, layers: Layers, k: int) -> LayeredSearch:
    """The hook for ``layers`` on the services' collection (the configured reranker and
    expander; the shipped reranker for ``fitted=False``); the collection's topic ontology is
    built first when the topic filter is on and it has none."""
    if layers.topics and not await topic_count(services):
        logger.warning("building the topic ontology of %s (once)", services.store.schema)
        stats = await build_topics(services.store, services.embeddings)
        logger.warning("topics of %s: %s", services.store.schema, stats)
    if not layers.fitted:
        services = replace(services, calibration=replace(services.calibration, reranker=None))
    return LayeredSearch(build_pipeline(services, expand=layers.expand), layers, k)


async def topic_count(services: Services) -> int:
    """Topics in the collection's ontology that some chunk links to."""
    async with services.store.pool.connection() as conn:
        cur = await conn.execute("SELECT count(*) AS n FROM topics WHERE chunk_count > 0")
        row = await cur.fetchone()
        return int(row["n"]) if row else 0
