"""Whole turns through an OpenAI-compatible chat model (a local llama-cpp-python / Ollama server):
answered and cited, repaired, given offline when the server fails, and the citation check; the
requests themselves are in ``test_chat_openai_compatible.py``."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from typing import Any

import pytest
from langchain_core.messages import HumanMessage
from langgraph.checkpoint.memory import InMemorySaver

from graph import Clients, Context, build_graph
from providers.chat import build_chat_model, build_classifier_model
from tests.fakes.clients import FakeArchive, FakeBackend, FakeReranker, fleet_fixture
from tests.fakes.http_providers import FakeProviderServer, fake_provider_server
from tests.fakes.openai_server import (
    CHAT_PATH,
    ChatCompletions,
    add_chat_completions,
    cite_first_passage,
)
from tests.fakes.providers_routes import requests_to
from tests.unit.test_chat_openai_compatible import CRACK, QUESTION, TOOL_HISTORY, settings_for


@pytest.fixture
def server() -> Iterator[FakeProviderServer]:
    with fake_provider_server(routes=[]) as fake:
        yield fake


@pytest.fixture
def chat(server: FakeProviderServer) -> ChatCompletions:
    return add_chat_completions(server)


@pytest.fixture(autouse=True)
def no_openai_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)


def graph_over(model: Any, classifier: Any = None, *, chat_tools: bool = True) -> Any:
    passages, registry, docs = fleet_fixture()
    clients = Clients(
        backend=FakeBackend(passages, registry, docs),
        archive=FakeArchive(),
        reranker=FakeReranker(),
        chat_model=model,
        classifier_model=classifier,
        chat_tools=chat_tools,
    )
    return build_graph(clients, checkpointer=InMemorySaver())


async def turn(graph: Any, text: str = QUESTION) -> dict[str, Any]:
    return await graph.ainvoke(
        {"messages": [HumanMessage(text)]}, {"configurable": {"thread_id": "t"}}, context=Context()
    )


async def test_a_factual_turn_is_answered_and_cited_by_the_server(
    server: FakeProviderServer, chat: ChatCompletions
) -> None:
    chat.replies = [cite_first_passage]
    out = await turn(graph_over(build_chat_model(settings_for(server.url + "/v1"))))
    assert out["answer_source"] == "model" and out["diagnostics"]["degraded"] == []
    assert out["citations"][0]["id"] == CRACK
    (request,) = requests_to(server, CHAT_PATH)  # search first: the model is asked once
    roles = [m["role"] for m in request.body["messages"]]
    assert roles == ["system", "user", "assistant", "tool", "user"]
    assert request.body["messages"][2]["content"] == ""
    assert request.body["tool_choice"] == "auto"
    assert request.body["tools"][0]["function"]["name"] == "search_archive"


async def test_an_uncited_server_answer_is_repaired_with_valid_messages(
    server: FakeProviderServer, chat: ChatCompletions
) -> None:
    chat.replies = ["The liner was replaced.", cite_first_passage]
    out = await turn(graph_over(build_chat_model(settings_for(server.url + "/v1"))))
    first, repair = requests_to(server, CHAT_PATH)
    assert repair.body["messages"][-2] == {
        "role": "assistant",
        "content": "The liner was replaced.",
    }
    assert CRACK in repair.body["messages"][-1]["content"] and "tools" not in repair.body
    assert out["diagnostics"]["citation_check"]["flagged"] is False and out["repaired"] is True


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.mark.parametrize("failure", ["timeout", "500", "refused", "not-json", "empty"])
async def test_a_failing_server_gives_the_offline_answer_within_one_timeout(
    server: FakeProviderServer, chat: ChatCompletions, failure: str
) -> None:
    url = server.url + "/v1"
    if failure == "timeout":
        server.fail(0, delay_s=2.5, path_regex=CHAT_PATH)
    elif failure == "500":
        server.fail(500, times=5, path_regex=CHAT_PATH)
    elif failure == "refused":
        url = f"http://127.0.0.1:{_closed_port()}/v1"
    elif failure == "not-json":
        server.add_route("POST", CHAT_PATH, lambda request: (200, b"<html>proxy error</html>"))
    else:
        chat.replies = [""]
    settings = settings_for(url, BOSUN_PROVIDER_TIMEOUT_S="1")
    graph = graph_over(build_chat_model(settings))
    start = time.perf_counter()
    out = await turn(graph)
    elapsed = time.perf_counter() - start
    assert out["answer_source"] == "fallback" and out["citations"][0]["id"] == CRACK
    assert any("chat model failed" in note for note in out["diagnostics"]["degraded"])
    assert len(requests_to(server, CHAT_PATH)) <= 1  # one attempt: no retry, no repair call
    assert elapsed < 2.0  # one 1 s timeout plus the offline turn, not two timeouts


async def test_a_classifier_timeout_costs_one_timeout_for_the_whole_turn(
    server: FakeProviderServer, chat: ChatCompletions
) -> None:
    server.fail(0, times=5, delay_s=2.5, path_regex=CHAT_PATH)
    settings = settings_for(server.url + "/v1", BOSUN_PROVIDER_TIMEOUT_S="1")
    graph = graph_over(build_chat_model(settings), build_classifier_model(settings))
    out = await turn(graph, "tell me about the ballast pump leak")  # the model labels it
    assert out["diagnostics"]["intent_source"] == "fallback" and out["answer_source"] == "fallback"
    assert len(requests_to(server, CHAT_PATH)) == 1
    assert out["citations"]


async def test_a_first_chunk_within_the_provider_timeout_is_waited_for(
    server: FakeProviderServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """langchain-openai gives up on a stream whose next chunk takes longer than its own
    ``stream_chunk_timeout`` (120 s by default; 0.5 s here), whatever the request timeout: a
    CPU model evaluating a 2,400-token prompt sent its first chunk after more than 120 s, and
    every answer was given offline although BOSUN_PROVIDER_TIMEOUT_S was 400."""
    monkeypatch.setenv("LANGCHAIN_OPENAI_STREAM_CHUNK_TIMEOUT_S", "0.5")
    chat = add_chat_completions(server, first_chunk_delay_s=1.5)
    chat.replies = ["The liner was replaced."]
    model = build_chat_model(settings_for(server.url + "/v1", BOSUN_PROVIDER_TIMEOUT_S="10"))
    assert model is not None
    pieces = [str(chunk.content) async for chunk in model.astream(TOOL_HISTORY)]
    assert "".join(pieces) == "The liner was replaced."


async def test_llama_cpp_function_calling_answers_nothing_when_tools_are_offered(
    server: FakeProviderServer,
) -> None:
    """llama-cpp-python's chatml-function-calling format: with the search tool offered the
    answer comes back empty and the turn is given offline; with BOSUN_CHAT_TOOLS=off the model
    answers from the passages the first search found, cited."""
    chat = add_chat_completions(server, llama_cpp_function_calling=True)
    chat.replies = [cite_first_passage]
    model = build_chat_model(settings_for(server.url + "/v1"))
    offered = await turn(graph_over(model))
    assert offered["answer_source"] == "fallback" and offered["diagnostics"]["degraded"]

    chat.replies = [cite_first_passage]
    settings = settings_for(server.url + "/v1", BOSUN_CHAT_TOOLS="off")
    assert settings.chat_tools is False
    state = await turn(graph_over(build_chat_model(settings), chat_tools=settings.chat_tools))
    assert state["answer_source"] == "model" and not state["diagnostics"].get("degraded")
    assert state["citations"] and not state["diagnostics"]["citation_check"]["flagged"]
    assert "tools" not in requests_to(server, CHAT_PATH)[-1].body


def cite_first_sentence_only(request: Any) -> str:
    """What Qwen2.5-1.5B did on the real server: one citation, then uncited statements."""
    cited = cite_first_passage(request)
    return f"{cited} The preheater was out of service. The cold-start procedure is now a checklist."


async def test_statements_without_a_citation_flag_the_answer(
    server: FakeProviderServer, chat: ChatCompletions
) -> None:
    chat.replies = [cite_first_sentence_only]
    settings = settings_for(server.url + "/v1", BOSUN_CHAT_TOOLS="off")
    state = await turn(graph_over(build_chat_model(settings), chat_tools=False))
    assert state["answer_source"] == "model" and state["citations"]
    assert state["diagnostics"]["citation_check"]["flagged"] is True
    assert state["diagnostics"]["citation_check"]["uncited_statements"] == 2
    assert "2 statement(s) in this answer cite no document" in state["messages"][-1].text
