"""Decide whether the turn needs the archive at all."""

from __future__ import annotations

import logging
import time
from typing import Literal

from langchain_core.embeddings import Embeddings
from langchain_core.language_models import LanguageModelInput
from langchain_core.messages import BaseMessage
from langchain_core.runnables import Runnable
from langgraph.errors import NodeError
from langgraph.types import Command

from graph.intents import classify_by_embeddings, classify_by_model, fast_intent
from graph.state import State
from providers.scrub import scrub_secrets
from tools.filters import IMO_NUMBER, REPORT_NO, VESSEL_CUE
from tools.timing import elapsed_ms

logger = logging.getLogger(__name__)


async def classify_intent(
    state: State,
    *,
    embeddings: Embeddings | None,
    model: Runnable[LanguageModelInput, BaseMessage] | None,
) -> State:
    """greeting / acknowledgement / general / factual_query: regex first, then the chat model
    (temperature 0) when one is configured, else the embedding centroids."""
    start = time.perf_counter()
    text = state.get("brief", "")
    update: State
    if not text:
        update = {"intent": "general", "intent_source": "empty"}
    elif (fast := fast_intent(text)) is not None:
        update = {"intent": fast, "intent_source": "regex"}
    elif names_archive_record(text):
        update = {"intent": "factual_query", "intent_source": "regex"}
    elif model is not None:
        update = {
            "intent": await classify_by_model(text, model),
            "intent_source": "model",
            "llm_called": True,
        }
    elif embeddings is not None:
        intent, _similarity = await classify_by_embeddings(text, embeddings)
        update = {"intent": intent, "intent_source": "embeddings"}
    else:
        update = {"intent": "factual_query", "intent_source": "default"}
    update["timings"] = {"classify": elapsed_ms(start)}
    return update


def names_archive_record(text: str) -> bool:
    """A report number, IMO number or "MV <name>" makes a message a question for the archive."""
    return any(p.search(text) for p in (REPORT_NO, IMO_NUMBER, VESSEL_CUE))


def classify_failed(state: State, error: NodeError) -> Command[Literal["resolve_filters"]]:
    """Any classifier failure: treat the message as a question, so search is never blocked."""
    reason = f"{type(error.error).__name__}: {scrub_secrets(str(error.error))[:200]}"
    logger.warning("intent classification failed, searching anyway: %s", reason)
    return Command(
        update={
            "intent": "factual_query",
            "intent_source": "fallback",
            "degraded": [f"intent classifier failed ({reason}); defaulted to factual_query"],
        },
        goto="resolve_filters",
    )
