"""Whole turns against the real store and the Postgres checkpointer, fully offline."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest
from langchain_core.messages import HumanMessage

from agent.settings import Settings
from agent.wiring import Services, build_clients
from answers.citations import MARKER
from archive.ingest.model import Section, SourceDocument, Vessel
from archive.store.passages import fetch_passages
from checkpoints.postgres import open_checkpointer
from graph import Context, build_graph

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
KESTREL = Vessel("Kestrel Dawn", "9700001", "Bulk Carrier", "DNV")
OSPREY = Vessel("Osprey Line", "9700002", "Oil Tanker", "ABS")


def fixture_documents() -> list[SourceDocument]:
    def email(
        source_id: str, subject: str, body: str, day: int, vessel: Vessel, thread: str
    ) -> SourceDocument:
        return SourceDocument(
            kind="email",
            source_id=source_id,
            title=subject,
            subject=subject,
            sections=[Section("body", body)],
            original=body.encode(),
            archive_name=f"{source_id.strip('<>').split('@')[0]}.eml",
            date=date(2024, 2, day),
            sender="chief@kestrel.example",
            message_id=source_id,
            thread_id=thread,
            vessels=[vessel],
        )

    return [
        email(
            "<kd-1@kestrel.example>",
            "Kestrel Dawn - purifier overheating",
            "The fuel oil purifier on Kestrel Dawn overheated during the passage to Santos. "
            "The bowl was dismantled and sludge was found blocking the outlet.",
            3,
            KESTREL,
            "<kd-1@kestrel.example>",
        ),
        email(
            "<kd-2@kestrel.example>",
            "RE: Kestrel Dawn - purifier overheating",
            "The purifier bowl was cleaned and the outlet seal renewed. The purifier has run "
            "normally for 48 hours since the repair.",
            5,
            KESTREL,
            "<kd-1@kestrel.example>",
        ),
        email(
            "<ol-1@osprey.example>",
            "Osprey Line - purifier alarm",
            "Osprey Line reported a purifier alarm caused by a faulty temperature sensor, which "
            "was replaced in Fujairah.",
            7,
            OSPREY,
            "<ol-1@osprey.example>",
        ),
    ]


async def ask(graph, thread: str, text: str, **context: object) -> dict:  # type: ignore[no-untyped-def]
    return await graph.ainvoke(
        {"messages": [HumanMessage(text)]},
        {"configurable": {"thread_id": thread}},
        context=Context(**context),  # type: ignore[arg-type]
    )


async def test_filters_persist_across_two_graph_instances(
    ingested: Services, settings: Settings
) -> None:
    thread = "persist-kestrel"
    async with open_checkpointer(settings.database_uri()) as saver:
        first_graph = build_graph(build_clients(ingested, offline=True), checkpointer=saver)
        first = await ask(first_graph, thread, "Why did the purifier on Kestrel Dawn overheat?")
    assert [v["name"] for v in first["filters"]["vessels"]] == ["Kestrel Dawn"]
    assert first["citations"], first["messages"][-1].content

    # A second process: a new graph and a new checkpointer pool on the same database and thread.
    async with open_checkpointer(settings.database_uri()) as saver:
        second_graph = build_graph(build_clients(ingested, offline=True), checkpointer=saver)
        follow = await ask(second_graph, thread, "How was the purifier repaired?")
        history = await second_graph.aget_state({"configurable": {"thread_id": thread}})
    assert follow["filters"] == first["filters"]
    assert follow["citations"], (follow["messages"][-1].content, follow.get("relevance"))
    titles = {c["title"] for c in follow["citations"]}
    assert all("Kestrel Dawn" in t for t in titles), titles  # never the Osprey Line message
    humans = [m.content for m in history.values["messages"] if m.type == "human"]
    assert humans == [
        "Why did the purifier on Kestrel Dawn overheat?",
        "How was the purifier repaired?",
    ]
    # the first answer's citations are still on its stored message
    stored = [m for m in history.values["messages"] if m.type == "ai" and not m.tool_calls]
    assert stored[0].additional_kwargs["citations"] == first["citations"]


async def test_offline_answer_cites_only_real_archived_passages(
    ingested: Services, settings: Settings
) -> None:
    async with open_checkpointer(settings.database_uri()) as saver:
        graph = build_graph(build_clients(ingested, offline=True), checkpointer=saver)
        out = await ask(graph, "e2e-osprey", "What caused the purifier alarm on Osprey Line?")
    answer = out["messages"][-1].content
    assert out["intent"] == "factual_query" and out["diagnostics"]["llm_called"] is False
    assert out["cutoff"] is False and out["diagnostics"]["citation_check"]["invalid"] == 0
    marked = {m.group(1) for m in MARKER.finditer(answer)}
    assert marked and marked == {c["id"] for c in out["citations"]}
    stored = await fetch_passages(ingested.store, sorted(marked))
    assert set(stored) == marked  # every cited chunk exists...
    for citation in out["citations"]:
        assert ingested.archive.exists(citation["archive_path"])  # ...and its original too
        assert citation["source_id"] == "<ol-1@osprey.example>"
    assert "temperature sensor" in answer


async def test_unknown_vessel_is_not_widened(ingested: Services, settings: Settings) -> None:
    graph = build_graph(build_clients(ingested, offline=True))
    out = await ask(graph, "unknown-vessel", "Any purifier trouble on MV Heron Bay?")
    assert 'No vessel named "Heron Bay"' in out["messages"][-1].content
    assert out["diagnostics"]["retrieved"] == 0 and out["citations"] == []


def test_the_embedding_example_runs(ingested: Services, settings: Settings) -> None:
    env = {
        **os.environ,
        "BOSUN_HOME": str(settings.home),
        "BOSUN_COLLECTION": settings.collection,
        "PYTHONPATH": str(ROOT),
        "BOSUN_SERVER_LINGER_S": "0",
    }
    for key in (
        "GOOGLE_API_KEY",
        "GEMINI_API_KEY",
        "COHERE_API_KEY",
        "BOSUN_CHAT_MODEL",
        "LANGFUSE_PUBLIC_KEY",
        "LANGFUSE_SECRET_KEY",
    ):
        env.pop(key, None)
    if settings.database_url:
        env["DATABASE_URL"] = settings.database_url
    result = subprocess.run(
        [
            sys.executable,
            str(ROOT / "examples" / "embed.py"),
            "What sludge was found in the Kestrel Dawn purifier?",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        cwd=ROOT,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert "[C:" in result.stdout and ".eml" in result.stdout


async def test_ask_command_prints_one_json_object(
    ingested: Services, settings: Settings, capsys: pytest.CaptureFixture[str]
) -> None:
    import argparse
    import json

    from agent.conversation import add_conversation_parsers, run_ask

    parser = argparse.ArgumentParser(prog="bosun")
    add_conversation_parsers(parser.add_subparsers(dest="command"))
    args = parser.parse_args(
        [
            "ask",
            "Why did the purifier overheat?",
            "--vessel",
            "Kestrel Dawn",
            "--thread",
            "cli-json",
            "--json",
        ]
    )
    assert await run_ask(settings, args) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["thread_id"] == "cli-json" and data["intent"] == "factual_query"
    assert data["filters"]["vessels"][0]["name"] == "Kestrel Dawn"
    assert data["llm_called"] is False and data["cutoff"] is False
    assert data["citations"] and data["invalid_citations"] == 0 and data["flagged"] is False
    assert all(c["source_id"].endswith("@kestrel.example>") for c in data["citations"])
    assert data["retrieved"] >= 1 and data["timings"]["total"] > 0
