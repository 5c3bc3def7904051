"""Run the search tool calls of the last AI message with the conversation's filters."""

from __future__ import annotations

import time

from langchain_core.messages import AIMessage, AnyMessage, ToolMessage
from langchain_core.tools import BaseTool
from langgraph.runtime import Runtime

from graph.context import Context, context_of
from graph.state import CandidateRecord, State
from graph.timing import elapsed_ms

#: What stays in the history for a search (the passages themselves go to the answer's context).
SEARCH_NOTE = "Retrieved {n} passage(s) for {query!r}; the most relevant are given as context."


async def search(state: State, runtime: Runtime[Context], *, search_tool: BaseTool) -> State:
    """Call the search tool for each tool call; the filters come from state, never the model."""
    start = time.perf_counter()
    ctx = context_of(runtime.context)
    last = state["messages"][-1]
    assert isinstance(last, AIMessage)
    replies: list[AnyMessage] = []
    found: dict[str, CandidateRecord] = {}
    query = state.get("query", "")
    for call in last.tool_calls:
        if call["name"] != search_tool.name:
            replies.append(ToolMessage(content=f"Unknown tool {call['name']!r}.",
                                       tool_call_id=call["id"], status="error"))  # fmt: skip
            continue
        query = str(call["args"].get("query") or state.get("question", ""))
        result = await search_tool.ainvoke(
            {
                "type": "tool_call",
                "id": call["id"],
                "name": call["name"],
                "args": {
                    "query": query,
                    "filters": dict(state.get("filters", {})),
                    "options": {
                        "hybrid": ctx.hybrid,
                        "expand": ctx.expand,
                        "k": ctx.candidates,
                        "similarity_floor": ctx.similarity_floor,
                    },
                },
            }
        )
        records: list[CandidateRecord] = list(result.artifact or [])
        for record in records:
            found.setdefault(record["chunk_id"], record)
        replies.append(ToolMessage(content=SEARCH_NOTE.format(n=len(records), query=query),
                                   tool_call_id=call["id"], name=search_tool.name))  # fmt: skip
    earlier_ms = state.get("timings", {}).get("search", 0.0)
    # This search's passages first, then those an earlier search of the turn found.
    earlier = [r for r in state.get("candidates", []) if r["chunk_id"] not in found]
    return {
        "messages": replies,
        "candidates": [*found.values(), *earlier],
        "retrieved": len(found) + len(earlier),
        "searches": state.get("searches", 0) + 1,
        "query": query,
        "timings": {"search": round(earlier_ms + elapsed_ms(start), 2)},
    }
