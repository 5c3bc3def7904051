"""The product's query-time layers as an eval search hook, and the ablation's configurations.

:class:`LayeredSearch` runs what the agent's search tool and rerank/cutoff nodes run, with the
same code: :func:`tools.search.search_pipeline` (expansion → topic filter → hybrid retrieval),
then the configured reranker over the first ``Context.candidates`` passages (the agent's pool;
the rest follow in fused order so Recall@100 stays measurable), then the relevance cutoff's
decision (:func:`graph.nodes.cutoff.relevance_of`), counted rather than applied so the ranking
metrics still describe the ranking. The rerank floor only trims what the answer sees, not the
order, and is not applied.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field, replace
from typing import Any

from agent.wiring import Services
from archive.ingest.topics import build_topics
from archive.store.search_filters import SearchFilters
from graph.context import Context
from graph.nodes.cutoff import relevance_of, threshold
from graph.nodes.rerank import rerank_floor
from providers.chat import build_chat_model
from providers.rerank import Reranker, build_reranker
from tools.backend import SearchBackend, StoreBackend
from tools.expansion import archive_expander
from tools.hybrid import Candidate, Retrieval, RetrievalOptions
from tools.search import Expander, SearchOptions, rerank_candidates, search_pipeline
from tools.timing import elapsed_ms

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Layers:
    """One configuration of the query-time layers."""

    lexical: bool = True  # BM25 arm
    dense: bool = True  # vector arm
    rerank: bool = Context.rerank
    expand: bool = Context.expand
    topics: bool = Context.topics
    score_cutoff: float | None = None  # None: the reranker's calibrated cutoff

    def __post_init__(self) -> None:
        if not (self.lexical or self.dense):
            raise ValueError("at least one retrieval arm must be on")

    @property
    def arms(self) -> str:
        return "hybrid" if self.lexical and self.dense else "bm25" if self.lexical else "dense"

    @property
    def label(self) -> str:
        """``hybrid+rerank+expand``: the arms, then each layer that is on."""
        on = [name for name in ("rerank", "expand", "topics") if getattr(self, name)]
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
        return switches


#: The combinations worth comparing: each arm alone, fusion, then each layer added to the
#: default (hybrid + rerank) one at a time.
ABLATION: tuple[Layers, ...] = (
    Layers(dense=False, rerank=False),
    Layers(lexical=False, rerank=False),
    Layers(rerank=False),
    Layers(),
    Layers(expand=True),
    Layers(topics=True),
)


@dataclass
class LayeredSearch:
    """``async (query) -> Retrieval`` through the configured layers (an eval search hook)."""

    backend: SearchBackend
    layers: Layers
    options: RetrievalOptions
    reranker: Reranker | None = None
    expander: Expander | None = None
    context: Context = field(default_factory=Context)
    queries: int = 0  # queries run
    stopped: int = 0  # queries the relevance cutoff would have stopped (reranking on)
    topic_decisions: dict[str, int] = field(default_factory=dict)  # final decision -> count

    async def __call__(self, query: str) -> Retrieval:
        self.queries += 1
        layers = self.layers
        outcome = await search_pipeline(
            self.backend,
            query,
            SearchFilters(),
            SearchOptions(expand=layers.expand, topics=layers.topics),
            expander=self.expander,
            retrieval=self.options,
        )
        if outcome.topics:
            final = outcome.topics[-1]["decision"]
            self.topic_decisions[final] = self.topic_decisions.get(final, 0) + 1
        candidates = outcome.retrieval.candidates
        timings = dict(outcome.timings_ms)
        if layers.rerank and self.reranker is not None:
            candidates = await self._rerank(query, candidates, timings)
        return Retrieval(candidates, timings)

    async def _rerank(
        self, query: str, candidates: list[Candidate], timings: dict[str, float]
    ) -> list[Candidate]:
        assert self.reranker is not None
        pool, rest = candidates[: self.context.candidates], candidates[self.context.candidates :]
        started = time.perf_counter()
        scores = await rerank_candidates(self.reranker, query, pool)
        timings["rerank"] = elapsed_ms(started)
        started = time.perf_counter()
        order = sorted(range(len(pool)), key=lambda i: -scores[i])
        # As the agent: the closest passage among those the rerank floor keeps (at least one).
        floor = rerank_floor(self.context, self.reranker)
        kept = [i for i in order if scores[i] >= floor] or order[:1]
        best = scores[order[0]] if order else None
        closest = max((pool[i].cosine for i in kept), default=0.0)
        limit = threshold(
            replace(self.context, score_cutoff=self.layers.score_cutoff), self.reranker
        )
        calibrated = self.layers.score_cutoff is None
        if relevance_of(best, closest, limit, empty=not pool, calibrated=calibrated)["stopped"]:
            self.stopped += 1
        timings["cutoff"] = elapsed_ms(started)
        ranked = [pool[i] for i in order] + rest
        # The harness ranks documents by score: the reranked order, as descending scores.
        return [replace(c, score=float(len(ranked) - i)) for i, c in enumerate(ranked)]


async def layered_search(services: Services, layers: Layers, k: int) -> LayeredSearch:
    """The hook for ``layers`` on the services' collection: the configured reranker and
    expander (the chat model's rewrite when one is set, else pseudo-relevance feedback); the
    collection's topic ontology is built first when the topic filter is on and it has none."""
    if layers.topics and not await topic_count(services):
        logger.warning("building the topic ontology of %s (once)", services.store.schema)
        stats = await build_topics(services.store, services.embeddings)
        logger.warning("topics of %s: %s", services.store.schema, stats)
    settings = services.settings
    expander = None
    if layers.expand:
        expander = archive_expander(services.store, build_chat_model(settings))
    return LayeredSearch(
        StoreBackend(services.store, services.embeddings),
        layers,
        RetrievalOptions(lexical=layers.lexical, dense=layers.dense, k=k),
        reranker=build_reranker(settings, services.embeddings) if layers.rerank else None,
        expander=expander,
    )


async def topic_count(services: Services) -> int:
    """Topics in the collection's ontology that some chunk links to."""
    async with services.store.pool.connection() as conn:
        cur = await conn.execute("SELECT count(*) AS n FROM topics WHERE chunk_count > 0")
        row = await cur.fetchone()
        return int(row["n"]) if row else 0
