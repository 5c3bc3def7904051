"""Gemini through the real ``ChatGoogleGenerativeAI`` client against a fake API on 127.0.0.1."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from langchain_core.messages import HumanMessage, SystemMessage
from langgraph.checkpoint.memory import InMemorySaver

from agent.settings import Settings
from graph import Clients, Context, build_graph
from providers.chat import build_chat_model, build_classifier_model
from tests.fakes.clients import FakeArchive, FakeBackend, FakeReranker, fleet_fixture
from tests.fakes.http_providers import FakeProviderServer, fake_provider_server
from tests.fakes.providers_routes import (
    DEFAULT_GEMINI_REPLY,
    GENERATE_PATH,
    GeminiScript,
    add_provider_routes,
    requests_to,
)

KEY = "test-google-key-8c21"
PROMPT = [
    SystemMessage("Answer from the passages only and cite them as [C:<id>]."),
    HumanMessage("Why did the engine lose power?"),
]


@pytest.fixture
def server() -> Iterator[FakeProviderServer]:
    with fake_provider_server() as fake:
        yield fake


@pytest.fixture
def gemini(server: FakeProviderServer) -> GeminiScript:
    return add_provider_routes(server)


def _settings(server: FakeProviderServer, **env: str) -> Settings:
    return Settings.from_env(
        {
            "BOSUN_HOME": "/nonexistent",
            "GOOGLE_API_KEY": KEY,
            "BOSUN_GOOGLE_BASE_URL": server.url,
            **env,
        }
    )


async def test_answer_with_citation_from_the_fake_api(
    server: FakeProviderServer, gemini: GeminiScript
) -> None:
    model = build_chat_model(_settings(server))
    assert model is not None
    reply = await model.ainvoke(PROMPT)
    assert reply.content == DEFAULT_GEMINI_REPLY
    assert "[C:0123456789ab]" in reply.content
    (request,) = requests_to(server, r"/models/gemini-2\.5-flash:generateContent$")
    assert request.headers["x-goog-api-key"] == KEY
    assert request.body["generationConfig"]["temperature"] == pytest.approx(0.2)
    assert request.body["contents"][-1]["parts"][0]["text"] == "Why did the engine lose power?"
    assert "cite them" in json.dumps(request.body["systemInstruction"])


async def test_classifier_runs_at_temperature_zero(
    server: FakeProviderServer, gemini: GeminiScript
) -> None:
    gemini.replies = ["factual_query"]
    model = build_classifier_model(_settings(server))
    assert model is not None
    assert (await model.ainvoke("is this a question?")).content == "factual_query"
    (request,) = requests_to(server, r":generateContent$")
    assert request.body["generationConfig"]["temperature"] == 0


async def test_streamed_answer(server: FakeProviderServer, gemini: GeminiScript) -> None:
    model = build_chat_model(_settings(server))
    assert model is not None
    text = "".join([str(chunk.content) async for chunk in model.astream(PROMPT)])
    assert text == DEFAULT_GEMINI_REPLY
    assert len(requests_to(server, r":streamGenerateContent$")) == 1


async def test_server_error_without_fallback_raises_after_one_attempt(
    server: FakeProviderServer, gemini: GeminiScript
) -> None:
    server.fail(500, times=2, path_regex=GENERATE_PATH)
    model = build_chat_model(_settings(server))
    assert model is not None
    with pytest.raises(Exception, match="500") as caught:
        await model.ainvoke(PROMPT)
    assert KEY not in str(caught.value)
    assert len(requests_to(server, r":generateContent$")) == 1  # GEMINI_ATTEMPTS: no retry


async def test_server_error_falls_back_to_the_second_model(
    server: FakeProviderServer, gemini: GeminiScript, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GOOGLE_API_KEY", KEY)  # what init_chat_model's google_genai reads
    server.fail(500, times=2, path_regex=r".*/gemini-2\.5-flash:generateContent")
    gemini.replies = ["From the fallback [C:00000000beef]."]
    settings = _settings(
        server,
        BOSUN_CHAT_MODEL="google_genai:gemini-2.0-flash-lite",
        BOSUN_CHAT_BASE_URL=server.url,
    )
    model = build_chat_model(settings)
    assert model is not None
    reply = await model.ainvoke(PROMPT)
    assert reply.content == "From the fallback [C:00000000beef]."
    assert len(requests_to(server, r"/gemini-2\.5-flash:generateContent$")) == 1
    assert len(requests_to(server, r"/gemini-2\.0-flash-lite:generateContent$")) == 1


# -- the fake validates as the Generative Language API does; whole turns through it -------------


def _post(server: FakeProviderServer, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    request = urllib.request.Request(
        server.url + "/v1beta/models/gemini-2.5-flash:generateContent",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "x-goog-api-key": KEY},
    )
    try:
        with urllib.request.urlopen(request, timeout=5) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


CALL = {"functionCall": {"name": "search_archive", "args": {"query": "liner"}}}
RESPONSE = {"functionResponse": {"name": "search_archive", "response": {"output": "1 passage"}}}
USER = {"role": "user", "parts": [{"text": "q"}]}


@pytest.mark.parametrize(
    ("contents", "error"),
    [
        ([USER, {"role": "model", "parts": [CALL]}, USER], "response turn comes immediately"),
        (
            [USER, {"role": "model", "parts": [CALL]}, {"role": "user", "parts": [RESPONSE] * 2}],
            "number of function response parts",
        ),
        (
            [USER, {"role": "model", "parts": [CALL]}, {"role": "function", "parts": [RESPONSE]}],
            "valid role",
        ),
        (
            [USER, {"role": "model", "parts": [{"text": "x"}]}, {"role": "model", "parts": [CALL]}],
            "call turn comes immediately after a user turn",
        ),
        ([USER, {"role": "user", "parts": []}], "must not be empty"),
    ],
    ids=["no-response", "count", "role", "call-after-model", "empty-parts"],
)
def test_the_gemini_fake_refuses_what_the_api_refuses(
    server: FakeProviderServer, gemini: GeminiScript, contents: list[Any], error: str
) -> None:
    status, body = _post(server, {"contents": contents})
    assert status == 400 and error in body["error"]["message"]
    assert body["error"]["status"] == "INVALID_ARGUMENT"
    paired = [USER, {"role": "model", "parts": [CALL]}, {"role": "user", "parts": [RESPONSE]}]
    assert _post(server, {"contents": paired})[0] == 200


def _graph(model: Any) -> Any:
    passages, registry, docs = fleet_fixture()
    clients = Clients(
        backend=FakeBackend(passages, registry, docs),
        archive=FakeArchive(),
        reranker=FakeReranker(),
        chat_model=model,
    )
    return build_graph(clients, checkpointer=InMemorySaver())


async def test_a_factual_turn_through_gemini_pairs_the_search_call_and_its_result(
    server: FakeProviderServer, gemini: GeminiScript
) -> None:
    gemini.replies = [
        {"functionCall": {"name": "search_archive", "args": {"query": "liner replaced"}}},
        "The liner was replaced [C:a00000000001].",
    ]
    graph = _graph(build_chat_model(_settings(server)))
    out = await graph.ainvoke(
        {"messages": [HumanMessage("How was the cylinder liner crack on Nordic Star resolved?")]},
        {"configurable": {"thread_id": "g"}},
        context=Context(),
    )
    assert out["diagnostics"]["degraded"] == [] and out["answer_source"] == "model"
    assert out["citations"][0]["id"] == "a00000000001" and out["searches"] == 2
    first, second = requests_to(server, r":generateContent$")
    roles = [c["role"] for c in second.body["contents"]]
    assert roles == ["user", "model", "user", "model", "user", "user"]  # calls paired
    assert first.body["toolConfig"]["functionCallingConfig"]["mode"] == "AUTO"
    assert "tools" not in second.body  # the search budget (2) is spent
