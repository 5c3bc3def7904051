"""Cohere rerank through the real ``CohereRerank`` client against a fake API on 127.0.0.1."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from agent.settings import Settings
from providers.rerankers import RerankError, build_reranker
from providers.rerankers.cohere import CohereReranker
from tests.fakes.http_providers import FakeProviderServer, fake_provider_server
from tests.fakes.providers_routes import RERANK_PATH, add_provider_routes, requests_to

KEY = "test-cohere-key-4f7a9c"
DOCS = [
    "Recipe: a margherita pizza with basil.",
    "The engine lost power after fuel starvation; both tanks were empty.",
    "The pilot reported partial engine power loss.",
]


@pytest.fixture
def server() -> Iterator[FakeProviderServer]:
    with fake_provider_server() as fake:
        add_provider_routes(fake)
        yield fake


def _reranker(server: FakeProviderServer, **kwargs: float) -> CohereReranker:
    return CohereReranker(api_key=KEY, model="rerank-v3.5", base_url=server.url, **kwargs)  # type: ignore[arg-type]


def _calls(server: FakeProviderServer) -> int:
    return len(requests_to(server, RERANK_PATH))


async def test_scores_come_back_in_document_order(server: FakeProviderServer) -> None:
    scores = await _reranker(server).rerank("fuel starvation engine", DOCS)
    assert scores == pytest.approx([0.0, 1.0, 0.3333])  # the API answers best first; we re-order
    (request,) = requests_to(server, RERANK_PATH)
    assert request.headers["authorization"] == f"Bearer {KEY}"
    assert request.body["model"] == "rerank-v3.5"
    assert request.body["query"] == "fuel starvation engine"
    assert request.body["documents"] == DOCS
    assert request.body["top_n"] == len(DOCS)


async def test_settings_point_the_client_at_the_base_url(server: FakeProviderServer) -> None:
    settings = Settings.from_env(
        {"BOSUN_HOME": "/nonexistent", "COHERE_API_KEY": KEY, "BOSUN_COHERE_BASE_URL": server.url}
    )
    reranker = build_reranker(settings, None)
    assert await reranker.rerank("fuel", DOCS[1:]) == pytest.approx([1.0, 0.0])
    assert _calls(server) == 1


async def test_no_documents_makes_no_request(server: FakeProviderServer) -> None:
    assert await _reranker(server).rerank("anything", []) == []
    assert server.requests == []


async def test_server_error_is_retried_once_then_a_scrubbed_rerank_error(
    server: FakeProviderServer,
) -> None:
    server.fail(500, times=3, path_regex=RERANK_PATH)
    with pytest.raises(RerankError) as caught:
        await _reranker(server).rerank("engine", DOCS)
    message = str(caught.value)
    assert "cohere:rerank-v3.5 failed" in message
    assert "500" in message
    assert KEY not in message
    assert _calls(server) == 2  # the first try and one bounded retry


async def test_a_transient_error_recovers_on_the_retry(server: FakeProviderServer) -> None:
    server.fail(503, path_regex=RERANK_PATH)
    assert await _reranker(server).rerank("fuel", DOCS[1:]) == pytest.approx([1.0, 0.0])
    assert _calls(server) == 2


async def test_a_stalled_api_times_out_as_a_rerank_error(server: FakeProviderServer) -> None:
    server.fail(0, delay_s=3.0, path_regex=RERANK_PATH)
    start = time.perf_counter()
    with pytest.raises(RerankError, match="Timeout"):
        await _reranker(server, timeout_s=1.0).rerank("engine", DOCS)
    assert time.perf_counter() - start < 2.5
    assert _calls(server) == 1  # a timeout is not retried


def test_construction_needs_no_network() -> None:
    reranker = CohereReranker(api_key=KEY, model="rerank-v3.5", base_url="http://127.0.0.1:9")
    assert reranker.name == "cohere:rerank-v3.5"
