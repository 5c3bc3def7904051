"""Decide whether the turn needs the archive at all."""

from __future__ import annotations

import logging
import re
import time
from typing import Literal

from langchain_core.embeddings import Embeddings
from langchain_core.language_models import LanguageModelInput
from langchain_core.messages import BaseMessage
from langchain_core.runnables import Runnable
from langgraph.errors import NodeError
from langgraph.types import Command

from answers.counting import count_plan
from answers.patterns import names_archive_records, pattern_plan
from graph.intents import Intent, classify_by_embeddings, classify_by_model, fast_intent
from graph.state import Diagnostics, State
from providers.resilience import degrade
from tools.filters import IMO_NUMBER, REPORT_NO, VESSEL_CUE, VesselRegistry, named_vessels
from tools.timing import elapsed_ms

logger = logging.getLogger(__name__)


class ClassifierModelFailed(RuntimeError):
    """The chat model failed to label the message (the cause is chained)."""


async def classify_intent(
    state: State,
    *,
    embeddings: Embeddings | None,
    model: Runnable[LanguageModelInput, BaseMessage] | None,
    registry: VesselRegistry | None = None,
) -> State:
    """greeting / acknowledgement / general / factual_query, cheapest decider first: regex for
    greetings and thanks; a report number, IMO number, registered vessel name, count or pattern
    of records makes a question;
    then the local embedding centroids, whose ``factual_query`` no model overrules (small models
    label archive questions ``general``); only then the chat model (temperature 0)."""
    start = time.perf_counter()
    text = state.get("brief", "")
    intent: Intent
    llm_called = False
    if not text:
        intent, source = "general", "empty"
    elif (fast := fast_intent(text)) is not None:
        intent, source = fast, "regex"
    elif names_archive_record(text):
        intent, source = "factual_query", "regex"
    elif asks_about_records(text):
        intent, source = "factual_query", "records"
    elif registry is not None and named_vessels(text, await registry.vessels())[0]:
        intent, source = "factual_query", "registry"
    else:
        intent, source = "factual_query", "default"
        if embeddings is not None:
            intent, _similarity = await classify_by_embeddings(text, embeddings)
            source = "embeddings"
        if model is not None and (embeddings is None or intent != "factual_query"):
            intent, source, llm_called = await _label(text, model), "model", True
    diagnostics = Diagnostics(intent_source=source, timings={"classify": elapsed_ms(start)})
    if llm_called:
        diagnostics["llm_called"] = True
    return {"intent": intent, "diagnostics": diagnostics}


async def _label(text: str, model: Runnable[LanguageModelInput, BaseMessage]) -> Intent:
    try:
        return await classify_by_model(text, model)
    except Exception as err:  # re-raised with its kind: classify_failed skips later model calls
        raise ClassifierModelFailed(f"{type(err).__name__}: {err}") from err


#: A question or a request, by its first word or its mark.
_QUESTION = re.compile(
    r"^\s*(?:what|which|why|how|when|where|who|whose|is|are|was|were|do|does|did|can|could|"
    r"has|have|any|show|tell|list|give|find|summari[sz]e|explain|describe)\b|\?\s*$",
    re.IGNORECASE,
)
#: A question about the assistant itself: what it can do, holds or searches.
_ABOUT_ASSISTANT = re.compile(
    r"\b(?:can|could|may|should|do|how\s+do)\s+(?:i|we)\s+(?:ask|search|filter|use|phrase)\b|"
    r"\b(?:can|do|did)\s+you\s+(?:have|hold|cover|search|know|remember|use|access|do)\b|"
    r"\bwhat\s+(?:can|do)\s+you\b|\b(?:yourself|bosun|this\s+(?:assistant|tool|bot))\b",
    re.IGNORECASE,
)


def asks_about_records(text: str) -> bool:
    """A question that counts records or asks for their pattern ("how many fatal accidents …",
    "most common causes of …"), or any question naming records of the archive's kinds ("what
    do Cirrus accidents come down to?") that does not ask about the assistant, is for the
    archive, whatever a classifier makes of it: never the greeting."""
    if count_plan(text) is not None or pattern_plan(text) is not None:
        return True
    return bool(
        _QUESTION.search(text) and names_archive_records(text) and not _ABOUT_ASSISTANT.search(text)
    )


def names_archive_record(text: str) -> bool:
    """A report number, IMO number or "MV <name>" makes a message a question for the archive."""
    return any(p.search(text) for p in (REPORT_NO, IMO_NUMBER, VESSEL_CUE))


def classify_failed(state: State, error: NodeError) -> Command[Literal["resolve_filters"]]:
    """Any classifier failure: treat the message as a question, so search is never blocked.
    When the chat model was what failed, this turn answers without it (one provider timeout,
    not two: see :func:`graph.nodes.call_agent.chat_model_failed`)."""
    diagnostics = Diagnostics(
        intent_source="fallback",
        degraded=[degrade("intent.error", error.error, "defaulted to factual_query")],
    )
    update: State = {"intent": "factual_query", "diagnostics": diagnostics}
    if isinstance(error.error, ClassifierModelFailed):
        update["chat_failed"] = True
        diagnostics["llm_called"] = True
    return Command(update=update, goto="resolve_filters")
