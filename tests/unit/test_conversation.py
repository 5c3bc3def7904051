"""`bosun ask` / `bosun chat` pieces: arguments, one traced turn, JSON and human output."""

from __future__ import annotations

import argparse
from pathlib import Path

from langgraph.checkpoint.memory import InMemorySaver

from agent.conversation import (
    add_conversation_parsers,
    ask_graph,
    context_from_args,
    filter_request,
    render,
)
from agent.settings import Settings
from graph import Clients, build_graph
from tests.fakes.clients import FakeArchive, FakeBackend, FakeReranker, fleet_fixture


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="bosun")
    add_conversation_parsers(p.add_subparsers(dest="command", required=True))
    return p


def test_ask_arguments_become_context_and_filter_request() -> None:
    args = parser().parse_args(
        [
            "ask",
            "what broke?",
            "--thread",
            "t9",
            "--vessel",
            "Nordic Star",
            "--report",
            "CEN22LA359",
            "--no-hybrid",
            "--no-rerank",
            "--no-expand",
            "--score-cutoff",
            "0",
            "--json",
        ]
    )
    context = context_from_args(args)
    assert (context.lexical, context.rerank, context.expand, context.score_cutoff) == (
        False,
        False,
        False,
        0.0,
    )
    assert filter_request(args) == {"vessel": "Nordic Star", "report": "CEN22LA359"}
    assert args.thread == "t9" and args.json
    chat = parser().parse_args(["chat", "--thread", "t9"])
    assert chat.command == "chat" and filter_request(chat) == {}


def test_layer_switches_default_to_the_measured_choice_and_can_be_flipped() -> None:
    default = context_from_args(parser().parse_args(["ask", "q"]))
    assert (default.expand, default.topics, default.rerank, default.score_cutoff) == (
        False,
        False,
        True,
        None,
    )
    flipped = context_from_args(
        parser().parse_args(
            ["chat", "--expand", "--topics", "--no-rerank", "--score-cutoff", "0.25"]
        )
    )
    assert (flipped.expand, flipped.topics, flipped.rerank, flipped.score_cutoff) == (
        True,
        True,
        False,
        0.25,
    )


async def test_one_turn_as_json_and_as_text(tmp_path: Path) -> None:
    passages, registry, docs = fleet_fixture()
    graph = build_graph(
        Clients(
            backend=FakeBackend(passages, registry, docs),
            archive=FakeArchive(),
            reranker=FakeReranker(),
        ),
        checkpointer=InMemorySaver(),
    )
    settings = Settings(home=tmp_path)
    turn = await ask_graph(
        graph,
        settings,
        thread_id="t1",
        question="what was the leak?",
        request={"vessel": "Baltic Trader"},
    )
    data = turn.to_json()
    for key in (
        "answer",
        "citations",
        "intent",
        "filters",
        "cutoff",
        "llm_called",
        "retrieved",
        "invalid_citations",
        "flagged",
        "timings",
        "expansion",
        "topic_decisions",
    ):
        assert key in data, key
    assert data["filters"]["vessels"][0]["name"] == "BALTIC TRADER"
    assert data["intent"] == "factual_query" and data["llm_called"] is False
    assert data["cutoff"] is False and data["retrieved"] >= 1
    assert data["citations"][0] == {
        "id": "a00000000002",
        "number": 1,
        "source_id": "SRC-da0000000002",
        "title": "Ballast pump leak",
        "date": "2021-03-09",
        "archive_path": "email/da0000000002/original.txt",
        "page": None,
        "section": None,
        "sender": None,
    }
    assert {"search", "rerank", "answer", "total"} <= set(data["timings"])
    text = render(turn)
    assert "[1]" in text and "[C:" not in text
    assert "Sources:\n  [1] Ballast pump leak — 2021-03-09" in text
    assert "email/da0000000002/original.txt" in text

    # the flag request is consumed: the next turn keeps the filter without re-sending it
    follow = await ask_graph(graph, settings, thread_id="t1", question="and the pump seal?")
    assert follow.to_json()["filters"]["vessels"][0]["name"] == "BALTIC TRADER"
