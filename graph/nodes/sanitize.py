"""Clean the user's message before any model, embedding or search sees it; start the turn."""

from __future__ import annotations

import logging
import time

from langchain_core.messages import HumanMessage
from langgraph.types import Overwrite

from graph.sanitization import sanitize as clean
from graph.state import State, fresh_diagnostics, turn_defaults
from tools.timing import elapsed_ms

logger = logging.getLogger(__name__)


async def sanitize(state: State) -> State:
    """Strip control characters and injection phrasings, cap the length, record what was removed.

    The stored human message is replaced by its cleaned text, so later model calls that read the
    history never see the removed instructions either.
    """
    start = time.perf_counter()
    messages = state.get("messages", [])
    last = messages[-1] if messages else None
    raw = last.text if isinstance(last, HumanMessage) else ""
    result = clean(raw)
    diagnostics = fresh_diagnostics()
    diagnostics["sanitization"] = result.record()
    update: State = {
        **turn_defaults(),  # type: ignore[typeddict-item]
        "question": result.text,
        "brief": result.short,
    }
    if result.injections:
        logger.warning(
            "removed %d prompt-injection phrase(s) from the question", len(result.injections)
        )
    if isinstance(last, HumanMessage) and result.changed:
        update["messages"] = [last.model_copy(update={"content": result.text})]
    diagnostics["timings"] = {"sanitize": elapsed_ms(start)}
    update["diagnostics"] = Overwrite(diagnostics)  # type: ignore[typeddict-item]
    return update
