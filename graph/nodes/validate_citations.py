"""Check the answer's citations and store the verified ones with the message."""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Sequence

from langchain_core.messages import AIMessage

from graph import prompts
from graph.state import State
from tools.citations import validate
from tools.timing import elapsed_ms

logger = logging.getLogger(__name__)

#: Checks that archive entries exist, concurrently (``Archive.all_exist``).
AllExist = Callable[[list[str]], Awaitable[Sequence[bool]]]


async def validate_citations(state: State, *, all_exist: AllExist) -> State:
    """Keep markers that are 12 hex, retrieved this turn and archived; strip the rest; flag the
    answer when more than half were invalid. The payload rides on the AI message so a reopened
    conversation renders the same citations."""
    start = time.perf_counter()
    answer = state["messages"][-1]
    assert isinstance(answer, AIMessage)
    retrieved = {r["chunk_id"]: r for r in state.get("ranked", [])}
    check = await validate(answer.text, retrieved, all_exist)
    summary = check.summary()
    text = check.text
    if check.flagged:
        logger.warning(
            "answer flagged: %d of %d citations invalid", len(check.invalid), check.total
        )
        text = f"{text}\n\n{prompts.FLAGGED_NOTE}"
    message = answer.model_copy(
        update={
            "content": text,
            "additional_kwargs": {
                **answer.additional_kwargs,
                "citations": check.citations,
                "citation_check": summary,
            },
        }
    )
    return {
        "messages": [message],
        "citations": check.citations,
        "citation_check": summary,
        "timings": {"validate": elapsed_ms(start)},
    }
