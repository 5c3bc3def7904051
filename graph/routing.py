"""Where a turn goes next: pure functions of the state."""

from __future__ import annotations

from typing import Literal

from langchain_core.messages import AIMessage

from answers.citations import marker_ids
from graph.state import State


def route_intent(state: State) -> Literal["resolve_filters", "reply"]:
    """Only factual questions go to the archive."""
    return "resolve_filters" if state.get("intent") == "factual_query" else "reply"


def route_filters(state: State) -> Literal["count_records", "reply"]:
    """A filter that matched nothing is reported instead of searching without it; a message that
    only cleared filters is confirmed; a question goes on (a count question is counted)."""
    return "reply" if state.get("filter_problem") or state.get("filters_only") else "count_records"


def route_count(state: State) -> Literal["validate_citations", "agent"]:
    """A counted question has its answer (citations checked next); the others search."""
    return "validate_citations" if state.get("counted") else "agent"


def route_agent(state: State) -> Literal["search", "repair_citations", "validate_citations"]:
    """A tool call searches; a model answer citing none of the passages is repaired once; an
    answer has its citations checked."""
    messages = state.get("messages", [])
    last = messages[-1] if messages else None
    if isinstance(last, AIMessage) and last.tool_calls:
        return "search"
    if isinstance(last, AIMessage) and needs_repair(state, last.text):
        return "repair_citations"
    return "validate_citations"


def needs_repair(state: State, answer: str) -> bool:
    """A model answer (not yet repaired) that cites none of the passages it was given."""
    passages = {p["chunk_id"] for p in state.get("passages", [])}
    return (
        state.get("answer_source") == "model"
        and not state.get("repaired")
        and bool(passages)
        and not passages.intersection(marker_ids(answer))
    )


def route_relevance(state: State) -> Literal["dedup", "cutoff"]:
    """The pipeline's relevance cutoff stops the turn before any answer is generated."""
    return "cutoff" if state.get("relevance", {}).get("stopped") else "dedup"
