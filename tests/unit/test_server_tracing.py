"""Runs under LangGraph Server are traced like CLI and web turns: the graph factory attaches
Langfuse with the thread as session, the authenticated user, and the run id as trace id."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
from langchain_core.messages import HumanMessage
from langgraph.checkpoint.memory import InMemorySaver

from agent.langgraph_app import traced
from agent.settings import Settings
from graph import Clients, build_graph
from providers.tracing import flush_tracing, shutdown_tracing
from tests.fakes.clients import FakeArchive, FakeBackend, FakeReranker, fleet_fixture
from tests.fakes.otlp_receiver import OtlpReceiver, otlp_receiver


@pytest.fixture
def receiver() -> Iterator[OtlpReceiver]:
    with otlp_receiver() as fake:
        yield fake
        shutdown_tracing(0.5)


def _graph():  # type: ignore[no-untyped-def]
    passages, registry, docs = fleet_fixture()
    clients = Clients(
        backend=FakeBackend(passages, registry, docs),
        archive=FakeArchive(),
        reranker=FakeReranker(),
    )
    return build_graph(clients, checkpointer=InMemorySaver())


def test_without_keys_the_graph_is_returned_unchanged() -> None:
    graph = _graph()
    config = {"configurable": {"thread_id": "t", "__is_for_execution__": True}}
    assert traced(graph, Settings(home=uuid.uuid4().hex), config) is graph  # type: ignore[arg-type]


async def test_a_server_run_is_traced_with_thread_user_and_run_id(receiver: OtlpReceiver) -> None:
    tag = uuid.uuid4().hex[:8]
    settings = Settings.from_env(
        {
            "BOSUN_HOME": "/nonexistent",
            "LANGFUSE_PUBLIC_KEY": f"pk-lf-{tag}",
            "LANGFUSE_SECRET_KEY": f"sk-lf-{tag}",
            "LANGFUSE_BASE_URL": receiver.url,
        }
    )
    run_id = uuid.uuid4()
    server_config = {
        "configurable": {
            "thread_id": "studio-thread",
            "langgraph_auth_user_id": "alice",
            "run_id": str(run_id),
            "__is_for_execution__": True,
        }
    }
    graph = traced(_graph(), settings, server_config)  # type: ignore[arg-type]
    out = await graph.ainvoke(
        {"messages": [HumanMessage("What was the leak on Baltic Trader?")]},
        {"configurable": {"thread_id": "studio-thread"}},
    )
    assert out["messages"][-1].text
    assert flush_tracing(5.0)
    spans = [s for s in receiver.spans if s.trace_id == run_id.hex]
    assert spans, {s.trace_id for s in receiver.spans}
    sessions = {s.attributes.get("session.id") for s in spans} - {None}
    users = {s.attributes.get("user.id") for s in spans} - {None}
    assert sessions == {"studio-thread"} and users == {"alice"}
