"""Check the answer's citations and store the verified ones with the message: cite or say so."""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Sequence

from langchain_core.messages import AIMessage

from graph import prompts
from graph.offline import offline_answer
from graph.state import State
from tools.citations import render_answer, uncited_statements, validate
from tools.timing import elapsed_ms

logger = logging.getLogger(__name__)

#: Checks that archive entries exist, concurrently (``Archive.all_exist``).
AllExist = Callable[[list[str]], Awaitable[Sequence[bool]]]


async def validate_citations(state: State, *, all_exist: AllExist) -> State:
    """Keep markers that are 12 hex, retrieved this turn and archived; strip the rest. Flag the
    answer when it cites nothing valid or more than half its markers were invalid. A model answer
    that cites nothing is followed by the offline answer from the passages, visibly marked; one
    with statements that cite nothing is flagged with a note that says how many. The
    payload rides on the AI message so a reopened conversation renders the same citations."""
    start = time.perf_counter()
    answer = state["messages"][-1]
    assert isinstance(answer, AIMessage)
    retrieved = {r["chunk_id"]: r for r in state.get("ranked", [])}
    check = await validate(answer.text, retrieved, all_exist)
    summary = check.summary()
    text = check.text
    if check.uncited and state.get("answer_source") == "model" and state.get("passages"):
        logger.warning("answer cites no passage: the offline answer is appended")
        backup = offline_answer(state)
        text = f"{text}\n\n{prompts.UNCITED_NOTE} {prompts.OFFLINE_SUMMARY}\n{backup}"
        backed = await validate(text, retrieved, all_exist)  # the offline answer's citations
        check.text, check.citations = backed.text, backed.citations
        summary["supplemented"] = "offline"
        text = check.text
    elif state.get("answer_source") == "model" and (missing := uncited_statements(check.text)):
        logger.warning("answer flagged: %d statement(s) cite no passage", len(missing))
        summary["flagged"] = True
        summary["uncited_statements"] = len(missing)
        text = f"{text}\n\n{prompts.PARTLY_CITED_NOTE.format(count=len(missing))}"
    elif check.flagged:
        logger.warning(
            "answer flagged: %d of %d citations invalid", len(check.invalid), check.total
        )
        note = prompts.UNCITED_NOTE if check.uncited else prompts.FLAGGED_NOTE
        text = f"{text}\n\n{note}"
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
        "rendered": render_answer(text, check.citations),
        "citations": check.citations,
        "citation_check": summary,
        "timings": {"validate": elapsed_ms(start)},
    }
