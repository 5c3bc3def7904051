"""The agent step: search first, then answer from the passages found (the node "agent").

Search first, always: a factual turn's first step searches for the question itself, without asking
any model (a small model asked to decide often answers from nothing). The chat model then answers
from the passages and may search once more through the tool. When the chat model fails, the turn
answers offline from the passages already retrieved (:func:`chat_model_failed`).
"""

from __future__ import annotations

import logging
import time
import uuid
from typing import Literal

from langchain_core.embeddings import Embeddings
from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, SystemMessage
from langchain_core.tools import BaseTool
from langgraph.errors import NodeError
from langgraph.runtime import Runtime
from langgraph.types import Command

from checkpoints.prune import drop_orphans
from graph import prompts
from graph.context import Context, context_of
from graph.offline import offline_answer, record_facts_of, search_query
from graph.state import Diagnostics, State, diagnostics_of
from providers.chat import ChatModel
from providers.resilience import chat_fault, degrade
from tools.filters import describe
from tools.timing import elapsed_ms

logger = logging.getLogger(__name__)


class MalformedReply(ValueError):
    """The chat model answered with neither text nor a tool call."""


def dynamic_context(state: State, *, may_search: bool = False) -> str:
    """What changes every call (filters, instructions, passages): placed after the history."""
    instructions = prompts.ANSWER_INSTRUCTIONS
    if may_search:
        instructions += prompts.SEARCH_AGAIN_INSTRUCTIONS
    if state.get("filters", {}).get("report_no"):
        instructions += prompts.SINGLE_REPORT_INSTRUCTIONS
    if (facts := record_facts_of(state)) is not None:
        instructions += prompts.RECORD_FACTS_INSTRUCTIONS.format(facts=facts)
    return prompts.CONTEXT_PROMPT.format(
        instructions=instructions,
        filters=describe(state.get("filters", {})),
        passages=state.get("passages_text") or prompts.NO_PASSAGES,
        question=state.get("question", ""),
    )


def prompt_messages(state: State, *, may_search: bool = False) -> list[AnyMessage]:
    """The stable system prompt first, then the history, then the dynamic context."""
    return [
        SystemMessage(content=prompts.SYSTEM_PROMPT),
        *drop_orphans(state.get("messages", [])),
        HumanMessage(content=dynamic_context(state, may_search=may_search)),
    ]


def search_call(tool: BaseTool, query: str) -> AIMessage:
    """The deterministic first step of every factual turn: search for the question itself."""
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


def checked_reply(message: AIMessage, *, tools_offered: bool) -> AIMessage:
    """The model's reply, without tool calls it was not offered; empty replies are malformed."""
    if message.tool_calls and not tools_offered:
        logger.info("dropping %d tool call(s) made without tools", len(message.tool_calls))
        message = message.model_copy(update={"tool_calls": [], "invalid_tool_calls": []})
    if not message.tool_calls and not message.text.strip():
        raise MalformedReply("the chat model answered with neither text nor a tool call")
    return message


async def call_agent(
    state: State,
    runtime: Runtime[Context],
    *,
    model: ChatModel | None,
    search_tool: BaseTool,
    embeddings: Embeddings | None = None,
    offer_tools: bool = True,
) -> State:
    """First step: search for the question. Then the chat model answers from the passages, with
    the search tool offered while the search budget lasts (``tool_choice="auto"`` stated, since
    llama-cpp-python's function-calling format ignores tools without it); without a model, or
    after it failed this turn, the answer is composed offline (``embeddings``
    choose sentences by meaning). ``offer_tools=False`` never offers the tool: llama-cpp-python's
    ``chatml-function-calling`` format answers no text at all when tools are offered (its
    message branch is constrained to a function name or the end token, and a streamed tool call
    raises inside the server), and the search that always runs first has the passages."""
    start = time.perf_counter()
    ctx = context_of(runtime.context)
    searches = state.get("searches", 0)
    if not searches:
        return {"messages": [search_call(search_tool, search_query(state))]}
    if model is None or state.get("chat_failed"):
        source = "offline" if model is None else "fallback"
        return {
            "messages": [AIMessage(content=offline_answer(state, embeddings=embeddings))],
            "answer_source": source,
            "diagnostics": _timing(state, start),
        }
    tools_offered = offer_tools and searches < ctx.max_searches
    runnable = model.bind_tools([search_tool], tool_choice="auto") if tools_offered else model
    reply = await runnable.ainvoke(prompt_messages(state, may_search=tools_offered))
    if not isinstance(reply, AIMessage):
        raise MalformedReply(f"the chat model returned {type(reply).__name__}")
    return {
        "messages": [checked_reply(reply, tools_offered=tools_offered)],
        "answer_source": "model",
        "diagnostics": {**_timing(state, start), "llm_called": True},
    }


def chat_model_failed(state: State, error: NodeError) -> Command[Literal["validate_citations"]]:
    """The one policy for a failing chat model (timeout, refused connection, 5xx, malformed
    reply) in the answer and repair steps: answer offline from the passages this turn already
    retrieved, note it in ``degraded`` and the log, and ask no model again this turn (no second
    long wait). An uncited model answer awaiting repair is kept; validation backs it up."""
    note = degrade(chat_fault(error.error), error.error, "answered offline from the passages")
    update: State = {
        "chat_failed": True,
        "diagnostics": Diagnostics(llm_called=True, degraded=[note]),
    }
    last = state.get("messages", [])[-1:]
    if not (last and isinstance(last[0], AIMessage) and not last[0].tool_calls):
        update["messages"] = [AIMessage(content=offline_answer(state))]
        update["answer_source"] = "fallback"
    return Command(update=update, goto="validate_citations")


def _timing(state: State, start: float) -> Diagnostics:
    """The answer step's time, summed over the turn's answer calls."""
    earlier = diagnostics_of(state).get("timings", {}).get("answer", 0.0)
    return Diagnostics(timings={"answer": round(earlier + elapsed_ms(start), 2)})
