"""Offline answers through the real graph on the example fleet mailbox: the fix first, and a
follow-up answered for what it asks without repeating the answer before it."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import HumanMessage
from langgraph.checkpoint.memory import InMemorySaver

from agent.evaluation.answer_kinds import overlap, repeats
from agent.settings import Settings
from agent.wiring import build_clients, open_services
from archive.ingest.pipeline import ingest_paths
from graph.builder import BosunGraph, build_graph

pytestmark = pytest.mark.integration

FLEET_MAIL = Path(__file__).resolve().parents[2] / "examples" / "archive" / "fleet-mail"
FIX = "The cracked No. 3 liner was replaced with the spare liner"


@pytest.fixture(scope="module")
async def graph(settings: Settings) -> AsyncIterator[BosunGraph]:
    async with open_services(settings, collection=f"{settings.collection}_answers") as svc:
        report = await ingest_paths(
            [FLEET_MAIL], svc.store, svc.embeddings, svc.archive, progress=False
        )
        assert report.errors == []
        yield build_graph(build_clients(svc, offline=True), checkpointer=InMemorySaver())


async def turns(graph: BosunGraph, *questions: str) -> list[dict[str, Any]]:
    config: Any = {"configurable": {"thread_id": uuid.uuid4().hex}}
    states = []
    for question in questions:
        states.append(await graph.ainvoke({"messages": [HumanMessage(question)]}, config))
    return states


def answer_of(state: dict[str, Any]) -> str:
    return str(state["messages"][-1].content)


async def test_the_fix_comes_first_then_the_followup_gives_the_cause(graph: BosunGraph) -> None:
    first, second = await turns(
        graph, "How was the cylinder liner crack on Nordic Star resolved?", "what caused it?"
    )
    fixed, caused = answer_of(first), answer_of(second)
    assert fixed.split("\n\n", 1)[1].startswith(FIX), fixed
    assert "thermal fatigue" in caused and not second["cutoff"], caused
    assert not overlap(fixed, caused)  # the follow-up moves on
    for state in (first, second):
        assert state["citations"] and state["diagnostics"]["citation_check"]["invalid"] == 0
        assert repeats(answer_of(state)) == 0


async def test_a_fix_followup_after_a_cause_question(graph: BosunGraph) -> None:
    first, second = await turns(
        graph, "What caused the cylinder liner crack on Nordic Star?", "and how was it fixed?"
    )
    assert "thermal fatigue" in answer_of(first).split("\n\n", 1)[1].split("[C:")[0]
    assert FIX in answer_of(second), answer_of(second)
    assert not overlap(answer_of(first), answer_of(second)), answer_of(first).replace("\n", " ")
