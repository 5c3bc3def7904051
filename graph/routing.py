"""Where a turn goes next: pure functions of the state."""

from __future__ import annotations

from typing import Literal

from langchain_core.messages import AIMessage

from graph.state import State


def route_intent(state: State) -> Literal["resolve_filters", "reply"]:
    """Only factual questions go to the archive."""
    return "resolve_filters" if state.get("intent") == "factual_query" else "reply"


def route_filters(state: State) -> Literal["agent", "reply"]:
    """A filter that matched nothing is reported instead of searching without it; a message that
    only cleared filters is confirmed."""
    return "reply" if state.get("filter_problem") or state.get("filters_only") else "agent"


def route_agent(state: State) -> Literal["search", "validate_citations"]:
    """A tool call searches; an answer has its citations checked."""
    messages = state.get("messages", [])
    last = messages[-1] if messages else None
    if isinstance(last, AIMessage) and last.tool_calls:
        return "search"
    return "validate_citations"


def route_relevance(state: State) -> Literal["dedup", "cutoff"]:
    """The pipeline's relevance cutoff stops the turn before any answer is generated."""
    return "cutoff" if state.get("relevance", {}).get("stopped") else "dedup"
