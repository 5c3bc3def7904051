"""Run the search tool calls of the last AI message with the conversation's filters."""

from __future__ import annotations

import logging
import time

from langchain_core.messages import AIMessage, AnyMessage, ToolMessage
from langchain_core.tools import BaseTool
from langgraph.runtime import Runtime

from graph.context import Context, context_of
from graph.state import CandidateRecord, ExpansionRecord, State, TopicDecision
from tools.search import SearchArtifact, expansion_off
from tools.timing import elapsed_ms

logger = logging.getLogger(__name__)

#: What stays in the history for a search (the passages themselves go to the answer's context).
SEARCH_NOTE = "Retrieved {n} passage(s) for {query!r}; the most relevant are given as context."


async def search(state: State, runtime: Runtime[Context], *, search_tool: BaseTool) -> State:
    """Call the search tool for each tool call; the filters come from state, never the model.
    The layers the context switches on (expansion, topic filter) run inside the tool; their
    decisions and costs are recorded in the state (and so in the trace)."""
    start = time.perf_counter()
    ctx = context_of(runtime.context)
    last = state["messages"][-1]
    assert isinstance(last, AIMessage)
    replies: list[AnyMessage] = []
    found: dict[str, CandidateRecord] = {}
    query = state.get("query", "")
    expansion: ExpansionRecord = state.get("expansion") or expansion_off(query)
    decisions: list[TopicDecision] = list(state.get("topic_decisions", []))
    stages: dict[str, float] = {}
    for call in last.tool_calls:
        if call["name"] != search_tool.name:
            replies.append(
                ToolMessage(
                    content=f"Unknown tool {call['name']!r}.",
                    tool_call_id=call["id"],
                    status="error",
                )
            )
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
                        "topics": ctx.topics,
                        "k": ctx.candidates,
                        "similarity_floor": ctx.similarity_floor,
                    },
                },
            }
        )
        artifact: SearchArtifact = result.artifact
        records: list[CandidateRecord] = list(artifact["candidates"])
        expansion = artifact["expansion"]
        decisions.extend(artifact["topics"])
        for stage in ("expand", "topics"):
            if stage in artifact["timings"]:
                stages[stage] = stages.get(stage, 0.0) + artifact["timings"][stage]
        if expansion["method"] != "off" or artifact["topics"]:
            logger.info(
                "search layers for %r: expansion %s %s, topic filter %s",
                query,
                expansion["method"],
                expansion["terms"],
                [d["decision"] for d in artifact["topics"]] or "off",
            )
        for record in records:
            found.setdefault(record["chunk_id"], record)
        replies.append(
            ToolMessage(
                content=SEARCH_NOTE.format(n=len(records), query=query),
                tool_call_id=call["id"],
                name=search_tool.name,
            )
        )
    earlier = state.get("timings", {})
    timings = {stage: round(earlier.get(stage, 0.0) + ms, 2) for stage, ms in stages.items()}
    timings["search"] = round(earlier.get("search", 0.0) + elapsed_ms(start), 2)
    # This search's passages first, then those an earlier search of the turn found.
    before = [r for r in state.get("candidates", []) if r["chunk_id"] not in found]
    update: State = {
        "messages": replies,
        "candidates": [*found.values(), *before],
        "retrieved": len(found) + len(before),
        "searches": state.get("searches", 0) + 1,
        "query": query,
        "expansion": expansion,
        "topic_decisions": decisions,
        "timings": timings,
    }
    if expansion["method"] == "llm":
        update["llm_called"] = True  # the chat model rewrote the query
    return update
