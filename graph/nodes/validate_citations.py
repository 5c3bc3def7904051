"""Check the answer's citations and store the verified ones with the message: cite or say so."""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Sequence

from langchain_core.messages import AIMessage

from answers.citations import MISSING, render_answer, uncited_statements, validate
from graph import prompts
from graph.offline import offline_answer
from graph.state import Diagnostics, State
from providers.resilience import degrade
from text.injection import repeated_instructions
from tools.timing import elapsed_ms

logger = logging.getLogger(__name__)

#: Checks that archive entries exist, concurrently (``Originals.all_exist``).
AllExist = Callable[[list[str]], Awaitable[Sequence[bool]]]


def checked_storage(all_exist: AllExist, degraded: list[str]) -> AllExist:
    """``all_exist`` whose storage failure (an OSError: a lost mount, a remote store down)
    counts every original as missing, noted in ``degraded`` (``archive.missing``)."""

    async def checked(relatives: list[str]) -> Sequence[bool]:
        try:
            return await all_exist(relatives)
        except OSError as err:
            if not degraded_storage(degraded):
                degraded.append(degrade("archive.missing", err, "citations removed"))
            return [False] * len(relatives)

    return checked


def degraded_storage(notes: list[str]) -> bool:
    """The storage itself failed this turn (noted once by :func:`checked_storage`)."""
    return any(note.startswith("archive storage failed") for note in notes)


def _echoed_instructions(state: State, answer: str) -> list[str]:
    """What the answer repeats or obeys of the planted instructions in this turn's marked
    passages (see :func:`text.injection.repeated_instructions`); [] when none was marked."""
    ranked = state.get("ranked", [])
    marked = [
        "\n".join(filter(None, (r["title"], r.get("subject"), r.get("summary"), r["text"])))
        for r in ranked
        if r.get("instructions")
    ]
    if not marked:
        return []
    unmarked = [r["text"] for r in ranked if not r.get("instructions")]
    question = next((m.text for m in reversed(state["messages"]) if m.type == "human"), "")
    return repeated_instructions(answer, marked, unmarked, question)


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
    degraded: list[str] = []
    all_exist = checked_storage(all_exist, degraded)
    check = await validate(answer.text, retrieved, all_exist)
    summary = check.summary()
    text = check.text
    if check.uncited and state.get("answer_source") == "model" and state.get("passages"):
        degraded.append(degrade("chat.uncited", "no passage cited", "offline answer appended"))
        backup = offline_answer(state)
        text = f"{text}\n\n{prompts.UNCITED_NOTE} {prompts.OFFLINE_SUMMARY}\n{backup}"
        backed = await validate(text, retrieved, all_exist)  # the offline answer's citations
        check.text, check.citations = backed.text, backed.citations
        summary["supplemented"] = "offline"
        text = check.text
    elif state.get("answer_source") == "model" and (uncited := uncited_statements(check.text)):
        logger.warning("answer flagged: %d statement(s) cite no passage", len(uncited))
        summary["flagged"] = True
        summary["uncited_statements"] = len(uncited)
        text = f"{text}\n\n{prompts.PARTLY_CITED_NOTE.format(count=len(uncited))}"
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
    if echoed := _echoed_instructions(state, text):
        logger.warning("answer flagged: it repeats a planted instruction (%s)", ", ".join(echoed))
        summary["flagged"] = True
        summary["planted_instructions"] = echoed
        text = f"{text}\n\n{prompts.PLANTED_NOTE}"
        message = message.model_copy(update={"content": text})
    missing = [cid for cid, why in check.reasons.items() if why == MISSING]
    if missing and not degraded_storage(degraded):
        degraded.append(
            degrade("archive.missing", f"{len(missing)} cited original(s)", "citations removed")
        )
    return {
        "messages": [message],
        "rendered": render_answer(text, check.citations),
        "citations": check.citations,
        "diagnostics": Diagnostics(
            citation_check=summary, degraded=degraded, timings={"validate": elapsed_ms(start)}
        ),
    }
