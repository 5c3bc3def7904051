"""Stop before answering when nothing retrieved is relevant enough."""

from __future__ import annotations

from langchain_core.messages import AIMessage
from langgraph.runtime import Runtime

from agent import prompts
from graph.context import DEFAULT_CUTOFF, Context, context_of
from graph.state import State
from tools.rerank import Reranker


def threshold(ctx: Context, reranker: Reranker) -> float:
    """The run's cutoff, else the reranker's own calibrated one, else 0.1."""
    if ctx.score_cutoff is not None:
        return ctx.score_cutoff
    return float(getattr(reranker, "default_cutoff", DEFAULT_CUTOFF))


async def cutoff(state: State, runtime: Runtime[Context], *, reranker: Reranker) -> State:
    """No passages, or a best reranker score below the cutoff: reply "no relevant documents"
    without calling a model. Without reranker scores (reranking off or failed) only an empty
    result stops the turn: fused scores have no absolute scale."""
    ctx = context_of(runtime.context)
    ranked = state.get("ranked", [])
    limit = threshold(ctx, reranker)
    scored = state.get("rerank", {}).get("status") == "ok"
    best = ranked[0]["rerank"] if ranked and scored else None
    stop = not ranked or (best is not None and best < limit)
    relevance = {"best": best, "threshold": limit, "applied": scored, "stopped": stop}
    if not stop:
        return {"cutoff": False, "relevance": relevance}
    return {
        "cutoff": True,
        "relevance": relevance,
        "messages": [
            AIMessage(content=prompts.NO_RESULTS_REPLY, additional_kwargs={"citations": []})
        ],  # fmt: skip
    }
