"""Order this turn's candidates by reranker relevance and drop those below the floor."""

from __future__ import annotations

import logging
import time
from typing import Literal

from langgraph.errors import NodeError
from langgraph.runtime import Runtime
from langgraph.types import Command

from graph.context import Context, context_of
from graph.state import CandidateRecord, State
from providers.rerank import Reranker
from providers.scrub import scrub_secrets
from tools.records import candidate_of
from tools.search import rerank_candidates
from tools.timing import elapsed_ms

logger = logging.getLogger(__name__)

TOP_SCORES = 10  # rerank scores recorded for the trace


async def rerank(state: State, runtime: Runtime[Context], *, reranker: Reranker) -> State:
    """Score each candidate (prefixed with its title and subject) against the question."""
    start = time.perf_counter()
    ctx = context_of(runtime.context)
    records = state.get("candidates", [])
    if not ctx.rerank or not records:
        return {
            "ranked": records,
            "rerank": {"status": "off" if not ctx.rerank else "empty", "reranker": reranker.name},
        }
    candidates = [candidate_of(r) for r in records]
    scores = await rerank_candidates(
        reranker, state.get("question") or state.get("query", ""), candidates
    )
    scored: list[CandidateRecord] = sorted(
        ({**r, "rerank": float(s)} for r, s in zip(records, scores, strict=True)),  # type: ignore[misc]
        key=lambda r: -(r["rerank"] or 0.0),
    )
    floor = rerank_floor(ctx, reranker)
    kept = [r for r in scored if (r["rerank"] or 0.0) >= floor] or scored[:1]
    return {
        "ranked": kept,
        "rerank": {
            "status": "ok",
            "reranker": reranker.name,
            "scores": [round(r["rerank"] or 0.0, 4) for r in scored[:TOP_SCORES]],
            "floor": floor,
            "dropped": len(scored) - len(kept),
        },
        "timings": {"rerank": elapsed_ms(start)},
    }


def rerank_floor(ctx: Context, reranker: Reranker) -> float:
    """The run's rerank floor, else the reranker's own: passages below it are dropped (the
    best one always stays)."""
    return ctx.rerank_floor if ctx.rerank_floor is not None else reranker.default_floor


def rerank_failed(state: State, error: NodeError) -> Command[Literal["cutoff"]]:
    """The reranker failed: keep the fused order, say so in the log and the trace."""
    reason = f"{type(error.error).__name__}: {scrub_secrets(str(error.error))[:200]}"
    logger.warning("rerank skipped, keeping the fused order: %s", reason)
    return Command(
        update={
            "ranked": state.get("candidates", []),
            "rerank": {"status": "failed", "error": reason},
            "degraded": [f"rerank failed ({reason}); fused order kept"],
        },
        goto="cutoff",
    )
