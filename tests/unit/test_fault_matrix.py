"""The fault-injection matrix, every row without a database, as one parametrised test: each
row's failure is injected (a fake HTTP provider on 127.0.0.1 or a failing fake client), one turn
runs through the graph, the row's designed behaviour is checked by its scenario, and its note,
log line and trace event by :func:`tests.fault_matrix.assert_told`."""

from __future__ import annotations

import importlib
import socket
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import HumanMessage
from langgraph.checkpoint.memory import InMemorySaver

from agent.settings import Settings
from agent.turns import TurnRunner
from graph import Clients, Context, build_graph
from providers.chat import build_chat_model, build_classifier_model
from providers.resilience import FAULTS, MATRIX, chat_fault, markdown_table
from providers.tracing import flush_tracing, shutdown_tracing
from tests.fakes.clients import FakeArchive, FakeBackend, FakeReranker, fleet_fixture
from tests.fakes.http_providers import FakeProviderServer, fake_provider_server
from tests.fakes.openai_server import CHAT_PATH, ChatCompletions, add_chat_completions
from tests.fault_matrix import (
    DATABASE_ROWS,
    INGEST_ROWS,
    SERVER_ROWS,
    UNIT_ROWS,
    TraceEvents,
    assert_told,
)

QUESTION = "How was the cylinder liner crack on Nordic Star resolved?"
CRACK = "a00000000001"
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def server() -> Iterator[FakeProviderServer]:
    with fake_provider_server(routes=[]) as fake:
        yield fake


@pytest.fixture
def chat(server: FakeProviderServer) -> ChatCompletions:
    return add_chat_completions(server)


@pytest.fixture(autouse=True)
def _no_openai_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def settings_for(base_url: str | None = None, **env: str) -> Settings:
    chat = {"BOSUN_CHAT_MODEL": "openai:qwen", "BOSUN_CHAT_BASE_URL": base_url} if base_url else {}
    return Settings.from_env({"BOSUN_HOME": "/nonexistent", **chat, **env})


class FailingTopics(FakeBackend):
    async def retrieve_topics(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("topic match failed: relation topics is corrupt")


class FailingExpander:
    async def expand(self, query: str) -> Any:
        raise TimeoutError("expansion model timed out")


class FailingStorage(FakeArchive):
    async def all_exist(self, relatives: list[str]) -> list[bool]:
        raise OSError(5, "Input/output error", "/mnt/archive")


def clients(**overrides: Any) -> Clients:
    passages, registry, docs = fleet_fixture()
    backend = overrides.pop("backend_class", FakeBackend)(passages, registry, docs)
    values: dict[str, Any] = {
        "backend": backend,
        "archive": FakeArchive(),
        "reranker": FakeReranker(),
        **overrides,
    }
    return Clients(**values)


async def turn(
    graph_clients: Clients, context: Context | None = None, question: str = QUESTION
) -> tuple[dict[str, Any], TraceEvents, float]:
    trace = TraceEvents()
    graph = build_graph(graph_clients, checkpointer=InMemorySaver())
    start = time.perf_counter()
    state = await graph.ainvoke(
        {"messages": [HumanMessage(question)]},
        {"configurable": {"thread_id": "t"}, "callbacks": [trace]},
        context=context or Context(),
    )
    return state, trace, time.perf_counter() - start


@dataclass
class Faults:
    """What a scenario may use to inject its failure."""

    server: FakeProviderServer
    chat: ChatCompletions
    monkeypatch: pytest.MonkeyPatch


#: A row's scenario: inject the failure, run a turn, check the behaviour; returns the turn's
#: state and the trace events (None where the failing part is the tracer itself).
Scenario = Callable[[str, Faults], Awaitable[tuple[dict[str, Any], TraceEvents | None]]]
SCENARIOS: dict[str, Scenario] = {}


def scenario(*keys: str) -> Callable[[Scenario], Scenario]:
    def register(run: Scenario) -> Scenario:
        for key in keys:
            SCENARIOS[key] = run
        return run

    return register


def test_every_row_of_the_matrix_is_run_by_one_tier() -> None:
    tiers = UNIT_ROWS + DATABASE_ROWS + SERVER_ROWS + tuple(INGEST_ROWS)
    assert sorted(tiers) == sorted(FAULTS)
    assert len(set(tiers)) == len(MATRIX)
    assert sorted(SCENARIOS) == sorted(UNIT_ROWS)


@pytest.mark.parametrize("key", sorted(INGEST_ROWS))
def test_each_ingest_row_names_the_test_that_runs_it(key: str) -> None:
    module, name = INGEST_ROWS[key]
    assert callable(getattr(importlib.import_module(module), name)), (key, module, name)


def test_the_operations_page_shows_the_matrix_as_it_is() -> None:
    assert markdown_table() in (ROOT / "docs" / "operations.md").read_text()


@pytest.mark.parametrize("key", UNIT_ROWS)
async def test_fault_matrix_row(
    key: str,
    server: FakeProviderServer,
    chat: ChatCompletions,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    state, trace = await SCENARIOS[key](key, Faults(server, chat, monkeypatch))
    assert_told(key, state, caplog, trace)


@scenario("chat.timeout", "chat.http_5xx", "chat.refused", "chat.malformed")
async def failing_chat_model(key: str, faults: Faults) -> tuple[dict[str, Any], TraceEvents]:
    """The offline answer from the passages, within the 1 s provider timeout."""
    url = faults.server.url + "/v1"
    if key == "chat.timeout":
        faults.server.fail(0, delay_s=3, path_regex=CHAT_PATH)
    elif key == "chat.http_5xx":
        faults.server.fail(503, times=5, path_regex=CHAT_PATH)
    elif key == "chat.refused":
        url = f"http://127.0.0.1:{closed_port()}/v1"
    else:
        faults.chat.replies = [""]
    model = build_chat_model(settings_for(url, BOSUN_PROVIDER_TIMEOUT_S="1"))
    state, trace, seconds = await turn(clients(chat_model=model))
    assert state["answer_source"] == "fallback" and state["citations"][0]["id"] == CRACK
    assert seconds < 2.5  # within the 1 s provider timeout (plus the offline turn)
    return state, trace


@scenario("chat.uncited")
async def uncited_answer(key: str, faults: Faults) -> tuple[dict[str, Any], TraceEvents]:
    """Repaired once, then backed by the offline answer and its citations."""
    faults.chat.replies = ["The liner was replaced.", "It was replaced, as I said."]
    model = build_chat_model(settings_for(faults.server.url + "/v1"))
    state, trace, _ = await turn(clients(chat_model=model))
    assert state["repaired"] and state["diagnostics"]["citation_check"]["supplemented"] == "offline"
    assert state["citations"][0]["id"] == CRACK
    return state, trace


@scenario("intent.error")
async def failing_classifier(key: str, faults: Faults) -> tuple[dict[str, Any], TraceEvents]:
    """Searched as a question (no vessel named, so the classifier model is asked)."""
    dead = settings_for(f"http://127.0.0.1:{closed_port()}/v1", BOSUN_PROVIDER_TIMEOUT_S="1")
    state, trace, _ = await turn(
        clients(classifier_model=build_classifier_model(dead)),
        question="How was the cylinder liner crack resolved?",
    )
    assert (
        state["intent"] == "factual_query" and state["diagnostics"]["intent_source"] == "fallback"
    )
    assert state["citations"][0]["id"] == CRACK
    return state, trace


@scenario("rerank.error")
async def failing_reranker(key: str, faults: Faults) -> tuple[dict[str, Any], TraceEvents]:
    """The fused order, the reranker's error scrubbed."""
    state, trace, _ = await turn(clients(reranker=FakeReranker(fail=True)))
    assert (
        state["diagnostics"]["rerank"]["status"] == "failed"
        and state["citations"][0]["id"] == CRACK
    )
    assert "[redacted]" in str(state["diagnostics"]["degraded"])
    return state, trace


@scenario("topics.error")
async def failing_topics(key: str, faults: Faults) -> tuple[dict[str, Any], TraceEvents]:
    """Searched without the topic filter."""
    state, trace, _ = await turn(clients(backend_class=FailingTopics), Context(topics=True))
    assert state["diagnostics"]["topic_decisions"] == [] and state["citations"][0]["id"] == CRACK
    return state, trace


@scenario("expansion.error")
async def failing_expansion(key: str, faults: Faults) -> tuple[dict[str, Any], TraceEvents]:
    """Searched with the question as asked."""
    state, trace, _ = await turn(clients(expander=FailingExpander()), Context(expand=True))
    assert (
        state["diagnostics"]["expansion"]["method"] == "off"
        and state["diagnostics"]["expansion"]["text"] == QUESTION
    )
    assert state["citations"][0]["id"] == CRACK
    return state, trace


@scenario("archive.missing")
async def missing_originals(key: str, faults: Faults) -> tuple[dict[str, Any], TraceEvents]:
    """Missing originals and failing storage: citations removed, the answer flagged."""
    missing, _, _ = await turn(clients(archive=FakeArchive(present=set())))
    assert missing["citations"] == [] and missing["diagnostics"]["citation_check"]["flagged"]
    assert any(n.startswith("archive storage failed") for n in missing["diagnostics"]["degraded"])
    state, trace, _ = await turn(clients(archive=FailingStorage()))
    assert state["citations"] == [] and state["diagnostics"]["citation_check"]["flagged"]
    assert (
        len([n for n in state["diagnostics"]["degraded"] if n.startswith("archive storage")]) == 1
    )
    assert state["messages"][-1].text  # still an answer, flagged
    return state, trace


@scenario("langfuse.error")
async def unbuildable_tracer(key: str, faults: Faults) -> tuple[dict[str, Any], None]:
    """Answered untraced, the tracer's failure scrubbed."""
    faults.monkeypatch.setitem(sys.modules, "langfuse.langchain", None)  # a broken install
    settings = settings_for(LANGFUSE_PUBLIC_KEY="pk-lf-1", LANGFUSE_SECRET_KEY="sk-lf-1")
    graph = build_graph(clients(), checkpointer=InMemorySaver())
    done = await TurnRunner(graph, settings).run("t", QUESTION)
    assert done.state["citations"][0]["id"] == CRACK
    assert "sk-lf-1" not in str(done.state["diagnostics"]["degraded"])
    return done.state, None


@scenario("langfuse.unreachable")
async def unreachable_langfuse(key: str, faults: Faults) -> tuple[dict[str, Any], None]:
    """The answer whole; the exit waits a bounded time for the exporter."""
    settings = settings_for(
        LANGFUSE_PUBLIC_KEY="pk-lf-2",
        LANGFUSE_SECRET_KEY="sk-lf-2",
        LANGFUSE_BASE_URL=f"http://127.0.0.1:{closed_port()}",
    )
    graph = build_graph(clients(), checkpointer=InMemorySaver())
    try:
        done = await TurnRunner(graph, settings).run("t", QUESTION)
        start = time.perf_counter()
        flush_tracing(timeout_s=1.0)
        assert time.perf_counter() - start < 2.0
    finally:
        shutdown_tracing(timeout_s=1.0)
    assert done.state["citations"][0]["id"] == CRACK and done.state["diagnostics"]["degraded"] == []
    return done.state, None


@pytest.mark.parametrize(
    ("error", "key"),
    [
        (TimeoutError("read timed out"), "chat.timeout"),
        (ConnectionRefusedError(111, "Connection refused"), "chat.refused"),
        (ValueError("Expecting value: line 1 column 1"), "chat.malformed"),
    ],
)
def test_chat_failures_map_to_their_row(error: BaseException, key: str) -> None:
    assert chat_fault(error) == key
