"""The shared turn runner without a database: tokens as the answer is produced, the citation
payload every client renders, and turns on one thread run one at a time (none lost)."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage
from langchain_core.messages.tool import tool_call_chunk
from langchain_core.outputs import ChatGenerationChunk
from langgraph.checkpoint.memory import InMemorySaver

from agent.settings import Settings
from agent.turns import TurnRunner
from graph import Clients, build_graph
from tests.fakes.chat import ScriptedChatModel
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


class StreamingScriptedModel(ScriptedChatModel):
    """The scripted model streaming its text word by word (tool calls in one chunk)."""

    def _stream(  # type: ignore[override]
        self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kwargs: Any
    ) -> Iterator[ChatGenerationChunk]:
        reply = self._generate(messages, stop, None, **kwargs).generations[0].message
        assert isinstance(reply, AIMessage)
        if reply.tool_calls:
            calls = [
                tool_call_chunk(name=c["name"], args=json.dumps(c["args"]), id=c["id"], index=i)
                for i, c in enumerate(reply.tool_calls)
            ]
            yield ChatGenerationChunk(message=AIMessageChunk(content="", tool_call_chunks=calls))
            return
        for word in re.findall(r"\S+\s*", reply.text):
            chunk = ChatGenerationChunk(message=AIMessageChunk(content=word))
            if run_manager is not None:
                run_manager.on_llm_new_token(word, chunk=chunk)
            yield chunk


async def test_a_chat_models_tokens_stream_one_by_one(tmp_path: Path) -> None:
    model = StreamingScriptedModel.replying(
        AIMessage(
            "", tool_calls=[{"name": "search_archive", "args": {"query": "ballast"}, "id": "c1"}]
        ),
        "The ballast pump seal leaked and was renewed [C:a00000000002].",
    )
    passages, registry, docs = fleet_fixture()
    clients = Clients(
        backend=FakeBackend(passages, registry, docs),
        archive=FakeArchive(),
        reranker=FakeReranker(),
        chat_model=model,
    )
    runner = TurnRunner(build_graph(clients, checkpointer=InMemorySaver()), Settings(home=tmp_path))
    tokens: list[str] = []
    turn = await runner.run("t-llm", "Ballast pump leak on Baltic Trader?", on_token=tokens.append)
    assert tokens[:3] == ["The ", "ballast ", "pump "]
    assert "".join(tokens) == "The ballast pump seal leaked and was renewed [C:a00000000002]."
    assert turn.citation_payloads()[0]["chunk_id"] == "a00000000002"
