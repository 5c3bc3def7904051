"""Per-run knobs (``context_schema``): which retrieval layers run and their thresholds."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Context:
    """Switches and thresholds for one run; every layer can be turned off to A/B test it."""

    user_id: str | None = None  # for traces and per-user limits
    hybrid: bool = True  # BM25 + vector; False = vector only
    rerank: bool = True  # cross-encoder / feature reranker over the fused candidates
    # Off by default: measured harmful (`bosun eval --ablation`; docs/retrieval.md).
    expand: bool = False  # query expansion, when the graph was built with an expander
    topics: bool = False  # topic filter (strict -> loosened -> dropped; structural filters kept)
    dedup: bool = True  # best chunk per document (always off in single-report mode)
    # Passages retrieved and reranked per search; None: the reranker's own (40, or what
    # `bosun adapt` fitted the collection's reranker on).
    candidates: int | None = None
    max_passages: int = 8  # passages given to the answer
    similarity_floor: float = 0.3  # dense-only hits below this cosine are dropped
    rerank_floor: float | None = None  # drop reranked passages below; None = reranker's own
    score_cutoff: float | None = None  # best relevance below this: no answer; None = reranker's
    max_searches: int = 2  # search tool calls the model may make per turn


DEFAULT_CUTOFF = 0.1  # for rerankers that do not state their own ``default_cutoff``


def context_of(context: Context | None) -> Context:
    """The run's context, or the defaults when the caller passed none."""
    return context if context is not None else Context()
