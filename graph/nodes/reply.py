"""Answer turns that need no search: greetings, thanks, questions about the assistant, and
filters that matched nothing."""

from __future__ import annotations

from langchain_core.messages import AIMessage

from graph import prompts
from graph.state import State
from tools.filters import describe


def canned_reply(state: State) -> str:
    if state.get("filter_problem"):
        return prompts.FILTER_PROBLEM_REPLY.format(problem=state["filter_problem"])
    if state.get("filters_only"):
        return prompts.FILTERS_CHANGED_REPLY.format(filters=describe(state.get("filters", {})))
    intent = state.get("intent")
    if intent == "greeting":
        return prompts.GREETING_REPLY
    if intent == "acknowledgement":
        return prompts.ACKNOWLEDGEMENT_REPLY
    return prompts.GENERAL_REPLY.format(filters=describe(state.get("filters", {})))


async def reply(state: State) -> State:
    """A templated reply; no embedding, search, rerank or model call."""
    text = canned_reply(state)
    return {
        "messages": [AIMessage(content=text, additional_kwargs={"citations": []})],
        "rendered": text,
    }
