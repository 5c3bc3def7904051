"""Gemini through the real ``ChatGoogleGenerativeAI`` client against a fake API on 127.0.0.1."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from langchain_core.messages import HumanMessage, SystemMessage

from agent.settings import Settings
from providers.chat import build_chat_model, build_classifier_model
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


async def test_server_error_without_fallback_raises_after_one_retry(
    server: FakeProviderServer, gemini: GeminiScript
) -> None:
    server.fail(500, times=2, path_regex=GENERATE_PATH)
    model = build_chat_model(_settings(server))
    assert model is not None
    with pytest.raises(Exception, match="500") as caught:
        await model.ainvoke(PROMPT)
    assert KEY not in str(caught.value)
    assert len(requests_to(server, r":generateContent$")) == 2  # GEMINI_ATTEMPTS


async def test_server_error_falls_back_to_the_second_model(
    server: FakeProviderServer, gemini: GeminiScript, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GOOGLE_API_KEY", KEY)  # what init_chat_model's google_genai reads
    server.fail(500, times=2, path_regex=GENERATE_PATH)
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
    assert len(requests_to(server, r"/gemini-2\.5-flash:generateContent$")) == 2
    assert len(requests_to(server, r"/gemini-2\.0-flash-lite:generateContent$")) == 1
