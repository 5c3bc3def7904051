"""Keep the best passage per document for broad questions; all of them for one report."""

from __future__ import annotations

from langgraph.runtime import Runtime

from graph.context import Context, context_of
from graph.state import State
from tools.dedup import best_per_document


async def dedup(state: State, runtime: Runtime[Context]) -> State:
    """Per-document dedup (off in single-report mode), then the answer's passage budget."""
    ctx = context_of(runtime.context)
    ranked = state.get("ranked", [])
    single_report = bool(state.get("filters", {}).get("report_no"))
    kept = best_per_document(ranked) if ctx.dedup and not single_report else list(ranked)
    return {"passages": kept[: ctx.max_passages]}
