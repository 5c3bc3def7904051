"""An OpenAI-compatible chat model (a local llama-cpp-python / Ollama server) through the real
langchain-openai client, against a fake that validates requests as strictly as those servers."""

from __future__ import annotations

import json
import socket
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import openai
import pytest
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage
from langchain_core.tools import tool
from langchain_openai import ChatOpenAI
from langgraph.checkpoint.memory import InMemorySaver

from agent.settings import Settings
from graph import Clients, Context, build_graph
from providers.chat import build_chat_model, build_classifier_model
from providers.openai_compatible import LOCAL_SERVER_KEY
from tests.fakes.clients import FakeArchive, FakeBackend, FakeReranker, fleet_fixture
from tests.fakes.http_providers import FakeProviderServer, fake_provider_server
from tests.fakes.openai_server import (
    CHAT_PATH,
    ChatCompletions,
    ToolCallReply,
    add_chat_completions,
    cite_first_passage,
)
from tests.fakes.providers_routes import requests_to

QUESTION = "How was the cylinder liner crack on Nordic Star resolved?"
CRACK = "a00000000001"
TOOL_HISTORY = [
    SystemMessage("Answer from the passages."),
    HumanMessage(QUESTION),
    AIMessage(
        "",
        tool_calls=[{"name": "search_archive", "args": {"query": "liner"}, "id": "call_1"}],
    ),
    ToolMessage("Retrieved 1 passage(s).", tool_call_id="call_1", name="search_archive"),
    HumanMessage("Passages: ... Answer the question."),
]


@tool
def search_archive(query: str) -> str:
    """Search the archive."""
    return query


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


def settings_for(base_url: str, **env: str) -> Settings:
    return Settings.from_env(
        {
            "BOSUN_HOME": "/nonexistent",
            "BOSUN_CHAT_MODEL": "openai:qwen2.5-1.5b-instruct",
            "BOSUN_CHAT_BASE_URL": base_url,
            **env,
        }
    )


def post(server: FakeProviderServer, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    request = urllib.request.Request(
        server.url + CHAT_PATH,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=5) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


# -- the fake is as strict as the real servers ---------------------------------------------------


def test_the_fake_refuses_null_content_as_llama_cpp_does(
    server: FakeProviderServer, chat: ChatCompletions
) -> None:
    call = {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}
    messages = [
        {"role": "user", "content": "q"},
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "c1", "content": "r"},
    ]
    status, body = post(server, {"model": "m", "messages": messages})
    assert status == 500 and "Input should be a valid string" in body["error"]["message"]
    messages[1]["content"] = ""
    assert post(server, {"model": "m", "messages": messages})[0] == 200


@pytest.mark.parametrize(
    ("messages", "extra", "error"),
    [
        (  # a tool call nobody answered
            [
                {"role": "user", "content": "q"},
                {
                    "role": "assistant",
                    "content": "",
                    "tool_calls": [
                        {
                            "id": "c1",
                            "type": "function",
                            "function": {"name": "f", "arguments": "{}"},
                        }
                    ],
                },
                {"role": "user", "content": "next"},
            ],
            {},
            "did not have response messages: c1",
        ),
        (  # a tool result for a call never made
            [
                {"role": "user", "content": "q"},
                {"role": "tool", "tool_call_id": "x", "content": "r"},
            ],
            {},
            "must be a response to a preceeding message with 'tool_calls'",
        ),
        (  # arguments must be a JSON string, not an object
            [
                {
                    "role": "assistant",
                    "content": "",
                    "tool_calls": [
                        {"id": "c1", "type": "function", "function": {"name": "f", "arguments": {}}}
                    ],
                },
                {"role": "tool", "tool_call_id": "c1", "content": "r"},
            ],
            {},
            "Input should be a valid string",
        ),
        ([{"role": "user", "content": "q"}], {"tool_choice": "auto"}, "only allowed when 'tools'"),
        (
            [{"role": "user", "content": "q"}],
            {
                "tools": [{"type": "function", "function": {"name": "search_archive"}}],
                "tool_choice": {"type": "function", "function": {"name": "other"}},
            },
            "Invalid value for 'tool_choice'",
        ),
    ],
    ids=["unanswered-call", "orphan-result", "object-arguments", "choice-no-tools", "bad-choice"],
)
def test_the_fake_validates_tool_call_shapes(
    server: FakeProviderServer,
    chat: ChatCompletions,
    messages: list[dict[str, Any]],
    extra: dict[str, Any],
    error: str,
) -> None:
    status, body = post(server, {"model": "m", "messages": messages, **extra})
    assert status in (400, 500) and error in body["error"]["message"]


async def test_plain_langchain_openai_is_refused_after_a_tool_call(
    server: FakeProviderServer, chat: ChatCompletions
) -> None:
    """The defect the fake reproduces: what langchain-openai sends by default is refused."""
    plain = ChatOpenAI(model="m", base_url=server.url + "/v1", api_key="x", max_retries=0)  # type: ignore[arg-type]
    with pytest.raises(openai.InternalServerError, match="valid string"):
        await plain.ainvoke(TOOL_HISTORY)


# -- Bosun's client against it -------------------------------------------------------------------


async def test_tool_call_history_goes_out_with_string_content(
    server: FakeProviderServer, chat: ChatCompletions
) -> None:
    chat.replies = ["The liner was replaced."]
    model = build_chat_model(settings_for(server.url + "/v1"))
    assert model is not None
    reply = await model.ainvoke(TOOL_HISTORY)
    assert reply.content == "The liner was replaced."
    (request,) = requests_to(server, CHAT_PATH)
    assistant = request.body["messages"][2]
    assert assistant["role"] == "assistant" and assistant["content"] == ""
    assert assistant["tool_calls"][0]["id"] == request.body["messages"][3]["tool_call_id"]


async def test_a_local_server_needs_no_key(
    server: FakeProviderServer, chat: ChatCompletions
) -> None:
    model = build_chat_model(settings_for(server.url + "/v1"))  # OPENAI_API_KEY unset
    assert model is not None
    await model.ainvoke("hello")
    (request,) = requests_to(server, CHAT_PATH)
    assert request.headers["authorization"] == f"Bearer {LOCAL_SERVER_KEY}"


async def test_a_set_key_is_sent(server: FakeProviderServer) -> None:
    chat = add_chat_completions(server, api_key="sk-real-key-42")
    chat.replies = ["ok"]
    model = build_chat_model(settings_for(server.url + "/v1", OPENAI_API_KEY="sk-real-key-42"))
    assert model is not None
    assert (await model.ainvoke("hello")).content == "ok"


async def test_streamed_text_and_tool_call_deltas(
    server: FakeProviderServer, chat: ChatCompletions
) -> None:
    chat.replies = [
        "The liner was replaced [C:a00000000001].",
        ToolCallReply("search_archive", {"query": "cylinder liner crack repair"}),
    ]
    model = build_chat_model(settings_for(server.url + "/v1"))
    assert model is not None
    pieces = [str(chunk.content) async for chunk in model.astream(TOOL_HISTORY)]
    assert len(pieces) > 3 and "".join(pieces) == "The liner was replaced [C:a00000000001]."

    bound = model.bind_tools([search_archive], tool_choice="auto")
    merged: Any = None
    async for chunk in bound.astream(TOOL_HISTORY):
        merged = chunk if merged is None else merged + chunk
    assert merged.tool_calls == [
        {
            "name": "search_archive",
            "args": {"query": "cylinder liner crack repair"},
            "id": "call_fake_0001",
            "type": "tool_call",
        }
    ]
    streamed = requests_to(server, CHAT_PATH)
    assert all(r.body["stream"] is True for r in streamed)
    assert streamed[1].body["tool_choice"] == "auto"


# -- whole turns ---------------------------------------------------------------------------------


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
