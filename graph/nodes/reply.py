"""Answer turns that need no search: greetings, thanks, questions about the assistant, and
filters that matched nothing."""

from __future__ import annotations

from langchain_core.messages import AIMessage

from archive.store.vessels import ArchiveExamples
from graph import prompts
from graph.state import State
from tools.filters import Refreshed, describe


def greeting(examples: ArchiveExamples) -> str:
    """The greeting, suggesting only what the archive holds (nothing when it is empty)."""
    if not examples.documents:
        return prompts.GREETING_EMPTY
    topics = []
    if examples.vessel:
        topics.append(prompts.GREETING_VESSEL.format(vessel=examples.vessel))
    topics.append("an incident")
    if examples.report_no:
        topics.append(prompts.GREETING_REPORT.format(report_no=examples.report_no))
    return prompts.GREETING_REPLY.format(topics=", ".join(topics) + " or a period")


def canned_reply(state: State) -> str | None:
    """The reply of a turn that needs no archive lookup; None for a greeting."""
    if state.get("filter_problem"):
        return prompts.FILTER_PROBLEM_REPLY.format(problem=state["filter_problem"])
    if state.get("filters_only"):
        return prompts.FILTERS_CHANGED_REPLY.format(filters=describe(state.get("filters", {})))
    intent = state.get("intent")
    if intent == "greeting":
        return None
    if intent == "acknowledgement":
        return prompts.ACKNOWLEDGEMENT_REPLY
    return prompts.GENERAL_REPLY.format(filters=describe(state.get("filters", {})))


async def reply(state: State, *, examples: Refreshed[ArchiveExamples]) -> State:
    """A templated reply; no embedding, search, rerank or model call (a greeting reads the
    archive's examples, cached per graph)."""
    text = canned_reply(state)
    if text is None:
        text = greeting(await examples.get())
    return {
        "messages": [AIMessage(content=text, additional_kwargs={"citations": []})],
        "rendered": text,
    }
