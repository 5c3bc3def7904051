"""Run the search tool calls of the last AI message: the retrieval pipeline, with the
conversation's filters and the run's switches."""

from __future__ import annotations

import logging
import time

from langchain_core.messages import AIMessage, AnyMessage, ToolMessage
from langchain_core.tools import BaseTool
from langgraph.runtime import Runtime

from graph.context import Context, context_of
from graph.state import Diagnostics, Passage, State, diagnostics_of
from tools.relevance import Relevance
from tools.search import SearchArtifact
from tools.timing import elapsed_ms

logger = logging.getLogger(__name__)

#: What stays in the history for a search (the passages themselves go to the answer's context).
#: The pipeline stages whose cost the turn's timings add up.
STAGES = ("expand", "topics", "rerank", "cutoff")

SEARCH_NOTE = "Retrieved {n} passage(s) for {query!r}; the most relevant are given as context."


async def search(state: State, runtime: Runtime[Context], *, search_tool: BaseTool) -> State:
    """Call the search tool for each tool call; the filters come from state, never the model,
    and the passages are ranked against the user's question. Each layer's decision and cost is
    recorded in the state (and so in the trace)."""
    start = time.perf_counter()
    ctx = context_of(runtime.context)
    last = state["messages"][-1]
    assert isinstance(last, AIMessage)
    question = state.get("question", "")
    replies: list[AnyMessage] = []
    artifacts: list[SearchArtifact] = []
    query = state.get("query", "")
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
        query = str(call["args"].get("query") or question)
        result = await search_tool.ainvoke(
            {
                "type": "tool_call",
                "id": call["id"],
                "name": call["name"],
                "args": {
                    "query": query,
                    "filters": dict(state.get("filters", {})),
                    "options": ctx.as_dict(),  # the context's retrieval fields
                    "question": question or query,
                    "subject": subject_documents(state),
                },
            }
        )
        artifact: SearchArtifact = result.artifact
        artifacts.append(artifact)
        replies.append(
            ToolMessage(
                content=SEARCH_NOTE.format(n=len(artifact["passages"]), query=query),
                tool_call_id=call["id"],
                name=search_tool.name,
            )
        )
    if not artifacts:
        return {"messages": replies, "searches": state.get("searches", 0) + 1}
    latest = artifacts[-1]
    before = diagnostics_of(state)
    earlier = before.get("timings", {})
    timings = {
        stage: round(earlier.get(stage, 0.0) + _spent(artifacts, stage), 2)
        for stage in STAGES
        if any(stage in a["timings"] for a in artifacts)
    }
    timings["search"] = round(earlier.get("search", 0.0) + elapsed_ms(start), 2)
    ranked = merged(state.get("ranked", []), artifacts)
    diagnostics = Diagnostics(
        retrieved=before.get("retrieved", 0) + sum(a["retrieved"] for a in artifacts),
        expansion=latest["expansion"],
        topic_decisions=[
            *before.get("topic_decisions", []),
            *(d for a in artifacts for d in a["topics"]),
        ],
        rerank=latest["rerank"],
        timings=timings,
        degraded=[note for a in artifacts for note in a["degraded"]],
    )
    if latest["expansion"]["method"] == "llm":
        diagnostics["llm_called"] = True  # the chat model rewrote the query
    return {
        "messages": replies,
        "ranked": ranked,
        "searches": state.get("searches", 0) + 1,
        "query": query,
        "relevance": kept_for_record_set(
            state,
            kept_for_followup(state, relevant(state.get("relevance"), artifacts), ranked),
            ranked,
        ),
        "diagnostics": diagnostics,
    }


def _spent(artifacts: list[SearchArtifact], stage: str) -> float:
    return sum(a["timings"].get(stage, 0.0) for a in artifacts)


def merged(earlier: list[Passage], artifacts: list[SearchArtifact]) -> list[Passage]:
    """The turn's kept passages: this search's first, then those an earlier search found."""
    found: dict[str, Passage] = {}
    for artifact in artifacts:
        for passage in artifact["passages"]:
            found.setdefault(passage["chunk_id"], passage)
    return [*found.values(), *(p for p in earlier if p["chunk_id"] not in found)]


def kept_for_followup(state: State, relevance: Relevance, ranked: list[Passage]) -> Relevance:
    """A follow-up to an answer that cited the archive is not stopped while passages were found:
    its subject is in the archive, even when its own words ("what caused it?") are not."""
    followup = state.get("followup")
    if relevance["stopped"] and ranked and followup and followup.get("grounded"):
        return {**relevance, "stopped": False, "kept_for_followup": True}
    return relevance


def kept_for_record_set(state: State, relevance: Relevance, ranked: list[Passage]) -> Relevance:
    """A question asking for records by their fields ("Which accidents happened since November
    2014?") is not stopped while its set holds records and passages were found: the set is in
    the archive, whatever the cutoff makes of words that name only a kind of record."""
    if relevance["stopped"] and ranked and state.get("record_set"):
        return {**relevance, "stopped": False, "kept_for_record_set": True}
    return relevance


def relevant(earlier: Relevance | None, artifacts: list[SearchArtifact]) -> Relevance:
    """The turn stops only when every search of it was stopped: one relevant search answers."""
    decisions = [a["relevance"] for a in artifacts]
    if earlier:
        decisions.insert(0, earlier)
    going = [d for d in decisions if not d["stopped"]]
    return going[-1] if going else decisions[-1]


def subject_documents(state: State) -> list[str]:
    """The documents a follow-up's subject was cited from (kept whatever the floor says)."""
    followup = state.get("followup")
    return list(followup.get("documents", [])) if followup else []
