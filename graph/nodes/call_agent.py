"""The agent step: decide to search, or answer from the passages found (the node "agent")."""

from __future__ import annotations

import time
import uuid

from langchain_core.embeddings import Embeddings
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, SystemMessage
from langchain_core.runnables import RunnableWithFallbacks
from langchain_core.tools import BaseTool
from langgraph.runtime import Runtime

from checkpoints.prune import drop_orphans
from graph import prompts
from graph.context import Context, context_of
from graph.followup import standalone_query
from graph.offline_answer import offline_answer
from graph.state import State
from tools.filters import describe
from tools.timing import elapsed_ms

ChatModel = BaseChatModel | RunnableWithFallbacks


def dynamic_context(state: State) -> str:
    """What changes every call (filters, instructions, passages): placed after the history."""
    searched = bool(state.get("searches"))
    instructions = prompts.ANSWER_INSTRUCTIONS if searched else prompts.SEARCH_INSTRUCTIONS
    if searched and state.get("filters", {}).get("report_no"):
        instructions += prompts.SINGLE_REPORT_INSTRUCTIONS
    return prompts.CONTEXT_PROMPT.format(
        instructions=instructions,
        filters=describe(state.get("filters", {})),
        passages=state.get("context") or prompts.NO_PASSAGES,
        question=state.get("question", ""),
    )


def scope_of(state: State) -> list[str]:
    """Names the filters restrict to (vessels, IMO numbers, the report)."""
    filters = state.get("filters", {})
    names = [v["name"] for v in filters.get("vessels", [])]
    names += [imo for v in filters.get("vessels", []) if (imo := v.get("imo"))]
    if filters.get("report_no"):
        names.append(filters["report_no"])
    return [n for n in names if n]


def prompt_messages(state: State) -> list[AnyMessage]:
    """The stable system prompt first, then the history, then the dynamic context."""
    return [
        SystemMessage(content=prompts.SYSTEM_PROMPT),
        *drop_orphans(state.get("messages", [])),
        HumanMessage(content=dynamic_context(state)),
    ]


def search_call(tool: BaseTool, query: str) -> AIMessage:
    """The deterministic first step without a chat model: search for the question itself."""
    return AIMessage(
        content="",
        tool_calls=[
            {
                "name": tool.name,
                "args": {"query": query},
                "id": f"call_{uuid.uuid4().hex[:24]}",
                "type": "tool_call",
            }
        ],
    )


async def call_agent(
    state: State,
    runtime: Runtime[Context],
    *,
    model: ChatModel | None,
    search_tool: BaseTool,
    embeddings: Embeddings | None = None,
) -> State:
    """With a chat model: one call with the search tool bound (until the search budget is spent).
    Offline: search for the question first, then compose the answer from the passages
    (``embeddings`` choose sentences by meaning)."""
    start = time.perf_counter()
    ctx = context_of(runtime.context)
    searches = state.get("searches", 0)
    if model is None:
        query = standalone_query(state.get("question", ""), state.get("messages", []))
        if not searches:
            message = search_call(search_tool, query)
        else:
            message = AIMessage(
                content=offline_answer(state, query, scope=scope_of(state), embeddings=embeddings)
            )
        return {"messages": [message], "timings": _timing(state, start)}
    runnable = model.bind_tools([search_tool]) if searches < ctx.max_searches else model
    message = await runnable.ainvoke(prompt_messages(state))
    return {
        "messages": [message],
        "llm_called": True,
        "timings": _timing(state, start),
    }


def _timing(state: State, start: float) -> dict[str, float]:
    """``agent`` for the steps before a search, ``answer`` for those after (summed)."""
    stage = "answer" if state.get("searches") else "agent"
    return {stage: round(state.get("timings", {}).get(stage, 0.0) + elapsed_ms(start), 2)}
