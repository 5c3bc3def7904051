"""The shared turn runner without a database: tokens as the answer is produced, the citation
payload every client renders, and turns on one thread run one at a time (none lost)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from langgraph.checkpoint.memory import InMemorySaver

from agent.settings import Settings
from agent.turns import TurnRunner
from graph import Clients, build_graph
from tests.fakes.clients import FakeArchive, FakeBackend, FakeReranker, fleet_fixture


def _runner(tmp_path: Path) -> TurnRunner:
    passages, registry, docs = fleet_fixture()
    clients = Clients(
        backend=FakeBackend(passages, registry, docs),
        archive=FakeArchive(),
        reranker=FakeReranker(),
    )
    return TurnRunner(build_graph(clients, checkpointer=InMemorySaver()), Settings(home=tmp_path))


async def test_tokens_spell_the_answer_and_payloads_carry_snippets(tmp_path: Path) -> None:
    tokens: list[str] = []
    turn = await _runner(tmp_path).run("t1", "what was the leak?", on_token=tokens.append)
    assert len(tokens) > 1 and "".join(tokens).strip()
    assert turn.answer.text.startswith("".join(tokens)[:20])
    payloads = turn.citation_payloads()
    assert payloads and payloads[0]["n"] == 1 and payloads[0]["snippet"]
    assert [p["chunk_id"] for p in payloads] == [c["id"] for c in turn.state["citations"]]
    assert len(turn.trace_id) == 32 and turn.message_id and turn.user_id == "local"


async def test_simultaneous_turns_on_one_thread_are_all_kept(tmp_path: Path) -> None:
    runner = _runner(tmp_path)
    questions = [f"what was the leak, take {n}?" for n in range(5)]
    await asyncio.gather(*(runner.run("busy", q) for q in questions))
    snapshot = await runner.graph.aget_state({"configurable": {"thread_id": "busy"}})
    humans = [m.content for m in snapshot.values["messages"] if m.type == "human"]
    assert sorted(humans) == sorted(questions)
