"""Stop before answering when nothing retrieved is relevant enough."""

from __future__ import annotations

import time
from typing import Any

from langchain_core.messages import AIMessage
from langgraph.runtime import Runtime

from graph.context import DEFAULT_CUTOFF, Context, context_of
from graph.state import State
from providers.rerank import Reranker
from tools import prompts as tool_prompts
from tools.timing import elapsed_ms

# A passage this close in meaning to the question is relevant whatever the reranker says: the
# offline reranker is calibrated on large archives and underrates short mail threads. Off-topic
# questions stay below it: the highest best cosine of the train split of
# benchmarks/questions/off_topic.jsonl is 0.369 on the example archive, 0.456 on eval_scifact and
# eval_ntsb_pc2narr ("flat tire on my bicycle" against 6,140 narratives embedded without their
# metadata-line titles); 0.48 adds a margin.
COSINE_RESCUE = 0.48

# With the calibrated cutoff, a question whose closest passage is below this cosine is off-topic
# unless the reranker is sure (best >= max(CONFIDENT, its cutoff)): the offline reranker's scores
# for general-knowledge questions overlap those of hard in-domain ones, the embedding distance
# does not as much. Chosen on the train split of benchmarks/questions/off_topic.jsonl: on
# eval_ntsb_pc2narr the one train question the reranker lets through ("cold brew coffee") has
# its closest kept passage at 0.350; 0.38 adds a margin. Measured, not tuned, with
# `bosun eval-answers` (without the floor -> with it; off-topic stopped, in-domain wrongly
# stopped): ntsb_pc2narr 82 -> 84 of 84 (heldout 39 -> 40 of 40), dev queries 0 of 1000 both;
# scifact 77 -> 81 of 84, train queries 14 -> 24 of 809 (short claims full of gene names
# sit far from everything in MiniLM).
COSINE_FLOOR = 0.38
CONFIDENT = 0.1


def threshold(ctx: Context, reranker: Reranker) -> float:
    """The run's cutoff, else the reranker's own calibrated one, else 0.1."""
    if ctx.score_cutoff is not None:
        return ctx.score_cutoff
    return float(getattr(reranker, "default_cutoff", DEFAULT_CUTOFF))


def relevance_of(
    best: float | None, closest: float, limit: float, *, empty: bool, calibrated: bool = True
) -> dict[str, Any]:
    """The cutoff's decision: stop when nothing was retrieved, or when the best reranker score
    (``None``: not reranked) is below ``limit`` and no passage is within :data:`COSINE_RESCUE`;
    with the ``calibrated`` cutoff (not a run's override) also when the closest passage is below
    :data:`COSINE_FLOOR` and the reranker is not sure."""
    rescued = best is not None and best < limit and closest >= COSINE_RESCUE
    distant = (
        calibrated and best is not None and closest < COSINE_FLOOR and best < max(CONFIDENT, limit)
    )
    stop = empty or (best is not None and best < limit and not rescued) or distant
    return {
        "best": best,
        "threshold": limit,
        "applied": best is not None,
        "stopped": stop,
        "best_cosine": round(closest, 4),
        "rescued_by_cosine": rescued,
        "below_cosine_floor": distant,
    }


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
    relevance = relevance_of(
        best,
        closest,
        threshold(ctx, reranker),
        empty=not ranked,
        calibrated=ctx.score_cutoff is None,
    )
    timings = {"cutoff": elapsed_ms(start)}
    # A follow-up on a subject the conversation already found in the archive is answered.
    followup = state.get("followup")
    if relevance["stopped"] and ranked and followup and followup["grounded"]:
        relevance = {**relevance, "stopped": False, "kept_for_followup": True}
    if not relevance["stopped"]:
        return {"cutoff": False, "relevance": relevance, "timings": timings}
    return {
        "cutoff": True,
        "relevance": relevance,
        "messages": [
            AIMessage(content=tool_prompts.NO_RESULTS_REPLY, additional_kwargs={"citations": []})
        ],
        "timings": timings,
    }
