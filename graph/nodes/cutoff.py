"""Stop before answering when nothing retrieved is relevant enough."""

from __future__ import annotations

import time
from typing import Any

from langchain_core.messages import AIMessage
from langgraph.runtime import Runtime

from agent import prompts
from graph.context import DEFAULT_CUTOFF, Context, context_of
from graph.state import State
from graph.timing import elapsed_ms
from tools.rerank import Reranker

# A passage this close in meaning to the question is relevant whatever the reranker says: the
# offline reranker is calibrated on large archives and underrates short mail threads. Off-topic
# questions stay below it (best cosine <= 0.39 for all 84 of benchmarks/questions/off_topic.jsonl
# on the example archive).
COSINE_RESCUE = 0.45


def threshold(ctx: Context, reranker: Reranker) -> float:
    """The run's cutoff, else the reranker's own calibrated one, else 0.1."""
    if ctx.score_cutoff is not None:
        return ctx.score_cutoff
    return float(getattr(reranker, "default_cutoff", DEFAULT_CUTOFF))


def relevance_of(
    best: float | None, closest: float, limit: float, *, empty: bool
) -> dict[str, Any]:
    """The cutoff's decision: stop when nothing was retrieved, or when the best reranker score
    (``None``: not reranked) is below ``limit`` and no passage is within :data:`COSINE_RESCUE`."""
    rescued = best is not None and best < limit and closest >= COSINE_RESCUE
    stop = empty or (best is not None and best < limit and not rescued)
    return {"best": best, "threshold": limit, "applied": best is not None, "stopped": stop,
            "best_cosine": round(closest, 4), "rescued_by_cosine": rescued}  # fmt: skip


async def cutoff(state: State, runtime: Runtime[Context], *, reranker: Reranker) -> State:
    """No passages, or a best reranker score below the cutoff: reply "no relevant documents"
    without calling a model. Without reranker scores (reranking off or failed) only an empty
    result stops the turn: fused scores have no absolute scale."""
    start = time.perf_counter()
    ctx = context_of(runtime.context)
    ranked = state.get("ranked", [])
    scored = state.get("rerank", {}).get("status") == "ok"
    best = ranked[0]["rerank"] if ranked and scored else None
    closest = max((r.get("cosine") or 0.0 for r in ranked), default=0.0)
    relevance = relevance_of(best, closest, threshold(ctx, reranker), empty=not ranked)
    timings = {"cutoff": elapsed_ms(start)}
    if not relevance["stopped"]:
        return {"cutoff": False, "relevance": relevance, "timings": timings}
    return {
        "cutoff": True,
        "relevance": relevance,
        "messages": [
            AIMessage(content=prompts.NO_RESULTS_REPLY, additional_kwargs={"citations": []})
        ],  # fmt: skip
        "timings": timings,
    }
