"""What a counted turn (a count or a pattern answered from the whole matching set) returns, and
the chat model's phrasing of it, kept only when it keeps the numbers and the citations."""

from __future__ import annotations

import re
from typing import Any

from langchain_core.messages import AIMessage, HumanMessage, SystemMessage

from answers.citations import marker_ids
from archive.store.counts import RecordCount
from archive.store.passages import Passage
from graph import prompts
from graph.state import Diagnostics, State
from providers.chat import ChatModel
from providers.resilience import chat_fault, degrade
from tools.timing import elapsed_ms


def counted_state(
    answer: str,
    source: str,
    notes: list[str],
    cite: list[Passage],
    record: dict[str, Any],
    *,
    llm_called: bool,
    start: float,
) -> State:
    """The turn's update: the answer, the passages it cites, and what it records."""
    return {
        "counted": True,
        "ranked": cite,
        "passages": cite,
        "answer_source": source,
        "messages": [AIMessage(content=answer)],
        "diagnostics": Diagnostics(
            count=record,
            llm_called=llm_called,
            degraded=notes,
            timings={"count": elapsed_ms(start)},
        ),
    }


async def pattern_state(
    model: ChatModel | None,
    question: str,
    fact: str,
    size: int,
    top: tuple[int, ...],
    cite: list[Passage],
    record: dict[str, Any],
    start: float,
) -> State:
    """A pattern's turn: ``fact`` (the set of ``size`` and its groups, the largest holding
    ``top``), phrased by the model when one is given and the phrasing keeps those numbers."""
    answer, source, notes = fact, "count", list[str]()
    if model is not None:
        answer, source, notes = await phrased(
            model,
            question,
            fact,
            RecordCount(matched=size, scope=size),
            prompt=prompts.PATTERN_PHRASING,
            numbers=top,
        )
    return counted_state(
        answer, source, notes, cite, record, llm_called=model is not None, start=start
    )


async def phrased(
    model: ChatModel,
    question: str,
    fact: str,
    count: RecordCount,
    *,
    prompt: str = prompts.COUNT_PHRASING,
    numbers: tuple[int, ...] = (),
) -> tuple[str, str, list[str]]:
    """The model's phrasing of the counted answer, kept only when it states the count (and each
    of ``numbers``) and cites what the fact cites; otherwise (or when the model fails) the
    counted answer itself, with a ``degraded`` note. Returns (answer, answer source, notes)."""
    try:
        reply = await model.ainvoke(
            [
                SystemMessage(content=prompts.SYSTEM_PROMPT),
                HumanMessage(content=prompt.format(question=question, fact=fact)),
            ]
        )
    except Exception as err:  # noqa: BLE001 — any chat failure: the counted answer stands
        fault = chat_fault(err)
        return fact, "count", [degrade(fault, err, "the counted answer is given unphrased")]
    text = reply.text if isinstance(reply, AIMessage) else ""
    said = {int(n.replace(",", "")) for n in re.findall(r"\d[\d,]*", text) if n[0].isdigit()}
    stated = {count.matched, *numbers} <= said
    if stated and set(marker_ids(text)) & set(marker_ids(fact)):
        return text, "model", []
    note = degrade("chat.uncited", "the phrasing lost the count or its citations", "counted answer")
    return fact, "count", [note]
