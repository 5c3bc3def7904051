"""Through the real graph on real PostgreSQL: a follow-up's aspect answered from the subject
record's stored fields, a model name written otherwise found, a relative date filtered against
the run's today, and no metadata line nobody asked for."""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import HumanMessage
from langgraph.checkpoint.memory import InMemorySaver

from agent.settings import Settings
from agent.wiring import build_clients, open_services
from archive.ingest.pipeline import ingest_paths
from graph.builder import BosunGraph, build_graph
from graph.context import Context

pytestmark = pytest.mark.integration

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "archive"
RECORDS = ("CEN12FA091", "WPR12CA431", "CEN10LA556", "WPR11MA454", "ANC10CA015")


@pytest.fixture(scope="module")
async def graph(
    settings: Settings, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[BosunGraph]:
    folder = tmp_path_factory.mktemp("aspects")
    lines = (EXAMPLES / "ntsb" / "reports_sample.jsonl").read_text(encoding="utf-8").splitlines()
    kept = [line for line in lines if json.loads(line)["ntsb_no"] in RECORDS]
    (folder / "records.jsonl").write_text("\n".join(kept) + "\n", encoding="utf-8")
    async with open_services(settings, collection=f"{settings.collection}_aspects") as svc:
        report = await ingest_paths(
            [folder, EXAMPLES / "fleet-mail"],
            svc.store,
            svc.embeddings,
            svc.archive,
            progress=False,
        )
        assert report.errors == []
        yield build_graph(build_clients(svc, offline=True), checkpointer=InMemorySaver())


async def turns(
    graph: BosunGraph, *questions: str, today: str | None = None
) -> list[dict[str, Any]]:
    config: Any = {"configurable": {"thread_id": uuid.uuid4().hex}}
    context = Context(today=today)
    return [
        await graph.ainvoke({"messages": [HumanMessage(q)]}, config, context=context)
        for q in questions
    ]


def answer_of(state: dict[str, Any]) -> str:
    return str(state["messages"][-1].content)


def sources(state: dict[str, Any]) -> set[str]:
    return {c["source_id"] for c in state["citations"]}


async def test_an_injuries_followup_is_answered_from_the_subject_records_fields(
    graph: BosunGraph,
) -> None:
    first, second = await turns(
        graph, "What happened to the R44 in Hackensack, Minnesota?", "were there any injuries?"
    )
    assert "CEN12FA091" in sources(first)
    answer = answer_of(second)
    assert "CEN12FA091: 1 fatal, 0 serious, 1 minor injuries." in answer, answer
    assert sources(second) == {"CEN12FA091"}  # not the other R44 records
    assert second["diagnostics"]["citation_check"]["invalid"] == 0


async def test_a_p51_question_finds_the_p51d_record_and_says_how_many_died(
    graph: BosunGraph,
) -> None:
    (state,) = await turns(graph, "How many people died in the Reno P-51 crash and why?")
    answer = answer_of(state)
    assert "Not in the archive" not in answer, answer
    assert "WPR11MA454: 11 fatal" in answer and "flutter" in answer
    assert sources(state) == {"WPR11MA454"}


async def test_a_relative_date_filters_against_the_runs_today(graph: BosunGraph) -> None:
    (state,) = await turns(
        graph, "Which helicopter accidents happened last autumn?", today="2010-12-15"
    )
    assert state["filters"]["date_from"] == "2010-09-01"
    assert state["filters"]["date_to"] == "2010-11-30"
    assert sources(state) <= {"CEN10LA556"}


async def test_no_vessel_metadata_line_unless_asked(graph: BosunGraph) -> None:
    (state,) = await turns(graph, "What damage was found on the steel coils in hold 2?")
    answer = answer_of(state)
    assert "steel coils" in answer, answer
    assert not re.search(r"(?m)^\s*Vessel:|\bVessel: Baltic Trader", answer), answer
