"""A turn's checkpoint keeps ids, scores and document fields, not passage texts; one checkpoint
per turn; the answer still renders its citations with snippets and a follow-up still works."""

from __future__ import annotations

from langchain_core.messages import AIMessage
from langgraph.checkpoint.memory import InMemorySaver

from agent.settings import Settings
from agent.turns import TurnRunner
from graph import Clients, build_graph
from tests.fakes.clients import FakeArchive, FakeBackend, FakeReranker, fleet_fixture

SETTINGS = Settings.from_env({"BOSUN_HOME": "/nonexistent"})


def graph_and_saver() -> tuple[TurnRunner, InMemorySaver]:
    passages, registry, docs = fleet_fixture()
    saver = InMemorySaver()
    clients = Clients(
        backend=FakeBackend(passages, registry, docs),
        archive=FakeArchive(),
        reranker=FakeReranker(),
    )
    return TurnRunner(build_graph(clients, checkpointer=saver), SETTINGS), saver


async def test_the_checkpoint_holds_no_passage_text_and_one_checkpoint_per_turn() -> None:
    runner, saver = graph_and_saver()
    first = await runner.run("t", "How was the cylinder liner crack on Nordic Star resolved?")
    assert first.citation_payloads()[0]["snippet"].startswith("A cylinder liner crack")
    checkpoints = list(saver.list({"configurable": {"thread_id": "t"}}))
    assert len(checkpoints) == 1  # written when the turn ended, not after every step
    stored = (await runner.graph.aget_state({"configurable": {"thread_id": "t"}})).values
    assert stored["ranked"] and stored["passages"] and stored["passages_text"] == ""
    assert all(p["text"] == "" and p["summary"] == "" for p in stored["ranked"])
    assert stored["ranked"][0]["chunk_id"] == "a00000000001" and stored["ranked"][0]["rerank"]
    answer = stored["messages"][-1]
    assert isinstance(answer, AIMessage)
    assert answer.additional_kwargs["citations"][0]["snippet"].startswith("A cylinder liner")

    follow = await runner.run("t", "who replaced it?")
    assert follow.state["followup"] and follow.state["citations"]
    assert len(list(saver.list({"configurable": {"thread_id": "t"}}))) == 2
