"""`bosun ask` with a local OpenAI-compatible chat model, as a user with llama-cpp-python or
Ollama runs it: no ``OPENAI_API_KEY``, a base URL — and the same questions with the endpoint
refusing connections or too slow, which must still get the offline answer."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest

from tests.e2e.harness import Bosun
from tests.fakes.http_providers import FakeProviderServer, fake_provider_server
from tests.fakes.openai_server import (
    CHAT_PATH,
    ChatCompletions,
    add_chat_completions,
    cite_first_passage,
)
from tests.fakes.providers_routes import requests_to

pytestmark = pytest.mark.e2e

ERA = "What was the probable cause of the ERA25LA084 accident?"


@pytest.fixture
def server() -> Iterator[FakeProviderServer]:
    with fake_provider_server(routes=[]) as fake:
        yield fake


@pytest.fixture
def chat(server: FakeProviderServer) -> ChatCompletions:
    handler = add_chat_completions(server)
    handler.replies = [cite_first_passage] * 10
    return handler


def with_model(bosun: Bosun, base_url: str, **env: str) -> Bosun:
    """The same CLI with a local chat model configured (and no OpenAI key)."""
    configured = {
        **bosun.env,
        "BOSUN_CHAT_MODEL": "openai:qwen2.5-1.5b-instruct",
        "BOSUN_CHAT_BASE_URL": base_url,
        **env,
    }
    return Bosun(bosun.settings, configured, bosun.ingested)


def test_a_local_model_answers_with_citations_and_needs_no_key(
    bosun: Bosun, server: FakeProviderServer, chat: ChatCompletions
) -> None:
    cli = with_model(bosun, server.url + "/v1")
    hello = cli.run("ask", "hello", "--json").json()
    assert hello["intent"] == "greeting" and hello["answer"]
    data = cli.run("ask", ERA, "--json").json()
    assert data["answer_source"] == "model" and data["degraded"] == []
    assert data["citations"] and data["flagged"] is False
    assert data["citations"][0]["source_id"] == "ERA25LA084"
    (request,) = requests_to(server, CHAT_PATH)
    assert request.headers["authorization"].startswith("Bearer ")


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_a_refused_endpoint_still_gets_the_offline_answer(bosun: Bosun) -> None:
    cli = with_model(bosun, f"http://127.0.0.1:{_closed_port()}/v1")
    data = cli.run("ask", ERA, "--json").json()
    assert data["answer_source"] == "fallback" and "fuel" in data["answer"].lower()
    assert data["citations"] and any("chat model failed" in d for d in data["degraded"])


def test_a_slow_endpoint_costs_one_timeout_then_the_offline_answer(
    bosun: Bosun, server: FakeProviderServer, chat: ChatCompletions
) -> None:
    server.fail(0, times=5, delay_s=8.0, path_regex=CHAT_PATH)
    cli = with_model(bosun, server.url + "/v1", BOSUN_PROVIDER_TIMEOUT_S="2")
    run = cli.run("ask", ERA, "--json")
    data = run.json()
    assert data["answer_source"] == "fallback" and data["citations"]
    assert any("Timeout" in d for d in data["degraded"])
    assert len(requests_to(server, CHAT_PATH)) == 1  # one attempt, no retry
