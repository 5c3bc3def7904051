"""The fault-injection matrix, every row without a database: each failure is injected (a fake
HTTP provider on 127.0.0.1 or a failing fake client), one turn runs through the graph, and the
row's designed behaviour is checked with its note, log line and trace event."""

from __future__ import annotations

import socket
import sys
import time
from collections.abc import Iterator
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
from tests.fault_matrix import DATABASE_ROWS, UNIT_ROWS, TraceEvents, assert_told

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


def test_every_row_of_the_matrix_is_run_by_one_tier() -> None:
    assert sorted(UNIT_ROWS + DATABASE_ROWS) == sorted(FAULTS)
    assert len(set(UNIT_ROWS + DATABASE_ROWS)) == len(MATRIX)


def test_the_readme_shows_the_matrix_as_it_is() -> None:
    assert markdown_table() in (ROOT / "README.md").read_text()


@pytest.mark.parametrize("key", ["chat.timeout", "chat.http_5xx", "chat.refused", "chat.malformed"])
async def test_a_failing_chat_model_answers_offline_within_one_timeout(
    server: FakeProviderServer,
    chat: ChatCompletions,
    key: str,
    caplog: pytest.LogCaptureFixture,
) -> None:
    url = server.url + "/v1"
    if key == "chat.timeout":
        server.fail(0, delay_s=3, path_regex=CHAT_PATH)
    elif key == "chat.http_5xx":
        server.fail(503, times=5, path_regex=CHAT_PATH)
    elif key == "chat.refused":
        url = f"http://127.0.0.1:{closed_port()}/v1"
    else:
        chat.replies = [""]
    model = build_chat_model(settings_for(url, BOSUN_PROVIDER_TIMEOUT_S="1"))
    state, trace, seconds = await turn(clients(chat_model=model))
    assert state["answer_source"] == "fallback" and state["citations"][0]["id"] == CRACK
    assert seconds < 2.5  # within the 1 s provider timeout (plus the offline turn)
    assert_told(key, state, caplog, trace)


async def test_an_answer_citing_nothing_after_its_repair_is_backed_by_the_offline_one(
    chat: ChatCompletions, server: FakeProviderServer, caplog: pytest.LogCaptureFixture
) -> None:
    chat.replies = ["The liner was replaced.", "It was replaced, as I said."]
    model = build_chat_model(settings_for(server.url + "/v1"))
    state, trace, _ = await turn(clients(chat_model=model))
    assert state["repaired"] and state["citation_check"]["supplemented"] == "offline"
    assert state["citations"][0]["id"] == CRACK
    assert_told("chat.uncited", state, caplog, trace)


async def test_a_failing_intent_classifier_searches_anyway(
    caplog: pytest.LogCaptureFixture,
) -> None:
    dead = settings_for(f"http://127.0.0.1:{closed_port()}/v1", BOSUN_PROVIDER_TIMEOUT_S="1")
    model = build_classifier_model(dead)
    # No vessel named: the classifier model is asked (a registered vessel skips it).
    state, trace, _ = await turn(
        clients(classifier_model=model), question="How was the cylinder liner crack resolved?"
    )
    assert state["intent"] == "factual_query" and state["intent_source"] == "fallback"
    assert state["citations"][0]["id"] == CRACK
    assert_told("intent.error", state, caplog, trace)


async def test_a_failing_reranker_keeps_the_fused_order(caplog: pytest.LogCaptureFixture) -> None:
    state, trace, _ = await turn(clients(reranker=FakeReranker(fail=True)))
    assert state["rerank"]["status"] == "failed" and state["citations"][0]["id"] == CRACK
    assert "Bearer" not in str(state["degraded"]) or "[redacted]" in str(state["degraded"])
    assert_told("rerank.error", state, caplog, trace)


async def test_a_failing_topic_match_searches_without_the_topic_filter(
    caplog: pytest.LogCaptureFixture,
) -> None:
    state, trace, _ = await turn(clients(backend_class=FailingTopics), Context(topics=True))
    assert state["topic_decisions"] == [] and state["citations"][0]["id"] == CRACK
    assert_told("topics.error", state, caplog, trace)


async def test_a_failing_expansion_searches_the_question_as_asked(
    caplog: pytest.LogCaptureFixture,
) -> None:
    state, trace, _ = await turn(clients(expander=FailingExpander()), Context(expand=True))
    assert state["expansion"]["method"] == "off" and state["expansion"]["text"] == QUESTION
    assert state["citations"][0]["id"] == CRACK
    assert_told("expansion.error", state, caplog, trace)


@pytest.mark.parametrize("storage", ["missing", "failing"])
async def test_missing_originals_remove_their_citations_and_say_so(
    storage: str, caplog: pytest.LogCaptureFixture
) -> None:
    archive = FakeArchive(present=set()) if storage == "missing" else FailingStorage()
    state, trace, _ = await turn(clients(archive=archive))
    assert state["citations"] == [] and state["citation_check"]["flagged"]
    assert state["messages"][-1].text  # still an answer, flagged
    assert_told("archive.missing", state, caplog, trace)


async def test_an_unbuildable_tracer_answers_untraced(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setitem(sys.modules, "langfuse.langchain", None)  # a broken install
    settings = settings_for(LANGFUSE_PUBLIC_KEY="pk-lf-1", LANGFUSE_SECRET_KEY="sk-lf-1")
    graph = build_graph(clients(), checkpointer=InMemorySaver())
    done = await TurnRunner(graph, settings).run("t", QUESTION)
    assert done.state["citations"][0]["id"] == CRACK
    assert_told("langfuse.error", done.state, caplog, None)
    assert "sk-lf-1" not in str(done.state["degraded"])


async def test_an_unreachable_langfuse_leaves_the_answer_whole_and_the_exit_bounded(
    caplog: pytest.LogCaptureFixture,
) -> None:
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
    assert done.state["citations"][0]["id"] == CRACK and done.state["degraded"] == []
    assert_told("langfuse.unreachable", done.state, caplog, None)


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
