"""An OpenAI-compatible chat model (a local llama-cpp-python / Ollama server) through the real
langchain-openai client, against a fake that validates requests as strictly as those servers;
whole turns through it are in ``test_chat_openai_compatible_turns.py``."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import openai
import pytest
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage
from langchain_core.tools import tool
from langchain_openai import ChatOpenAI

from agent.settings import Settings
from providers.chat import build_chat_model
from providers.openai_compatible import LOCAL_SERVER_KEY
from tests.fakes.http_providers import FakeProviderServer, fake_provider_server
from tests.fakes.openai_server import (
    CHAT_PATH,
    ChatCompletions,
    ToolCallReply,
    add_chat_completions,
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
