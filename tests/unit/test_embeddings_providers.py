"""Gemini and Cohere embeddings through their real client libraries, against a fake server."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from langchain_google_genai import GoogleGenerativeAIEmbeddings

from agent.settings import Settings
from providers.embeddings import build_embeddings, resolve_dimension
from tests.fakes.http_providers import FAKE_DIMENSION, FakeProviderServer, FakeRequest, fake_vector

GEMINI_PATH = "/v1/models/gemini-embedding-001:batchEmbedContents"


@pytest.fixture
def server() -> Iterator[FakeProviderServer]:
    with FakeProviderServer() as running:
        yield running


def _settings(server: FakeProviderServer, provider: str, timeout_s: float = 5.0) -> Settings:
    return Settings(
        home=Path("/nonexistent/bosun"),
        embeddings=provider,
        google_api_key="g-test-key",
        google_base_url=server.url,
        cohere_api_key="c-test-key",
        cohere_base_url=server.url,
        provider_timeout_s=timeout_s,
    )


# -- Gemini -------------------------------------------------------------------------------------


def test_gemini_documents_go_to_batch_embed_contents(server: FakeProviderServer) -> None:
    emb = build_embeddings(_settings(server, "gemini"))
    assert isinstance(emb, GoogleGenerativeAIEmbeddings)

    vectors = emb.embed_documents(["first passage", "second passage"])

    assert vectors == [fake_vector("first passage"), fake_vector("second passage")]
    [request] = server.requests
    assert request.path == GEMINI_PATH
    assert request.headers["x-goog-api-key"] == "g-test-key"
    assert request.headers["x-server-timeout"] == "5"
    assert [r["content"]["parts"][0]["text"] for r in request.body["requests"]] == [
        "first passage",
        "second passage",
    ]
    assert {r["taskType"] for r in request.body["requests"]} == {"RETRIEVAL_DOCUMENT"}
    assert {r["model"] for r in request.body["requests"]} == {"models/gemini-embedding-001"}


def test_gemini_query_uses_the_query_task_type(server: FakeProviderServer) -> None:
    emb = build_embeddings(_settings(server, "gemini"))
    assert emb.embed_query("why did it crash?") == fake_vector("why did it crash?")
    assert server.requests[0].body["requests"][0]["taskType"] == "RETRIEVAL_QUERY"
    assert resolve_dimension(emb) == FAKE_DIMENSION


async def test_gemini_async_documents(server: FakeProviderServer) -> None:
    emb = build_embeddings(_settings(server, "gemini"))
    assert await emb.aembed_documents(["a", "b"]) == [fake_vector("a"), fake_vector("b")]
    assert server.paths() == [GEMINI_PATH]


def test_gemini_retries_a_rate_limit(server: FakeProviderServer) -> None:
    server.fail(429)
    emb = build_embeddings(_settings(server, "gemini"))
    assert emb.embed_query("again") == fake_vector("again")
    assert server.paths() == [GEMINI_PATH, GEMINI_PATH]


def test_gemini_gives_up_after_two_retries(server: FakeProviderServer) -> None:
    server.fail(500, times=10)
    emb = build_embeddings(_settings(server, "gemini"))
    with pytest.raises(Exception, match="500") as err:
        emb.embed_documents(["doomed"])
    assert type(err.value).__name__ == "GoogleGenerativeAIError"
    assert len(server.requests) == 3


def test_gemini_request_times_out(server: FakeProviderServer) -> None:
    server.fail(0, delay_s=1.5, times=3)
    emb = build_embeddings(_settings(server, "gemini", timeout_s=0.3))
    # Without the timeout each attempt would succeed after 1.5 s.
    with pytest.raises(Exception, match="(?i)time"):
        emb.embed_query("slow")
    assert len(server.requests) == 3  # a timeout is retried like a 5xx


# -- Cohere -------------------------------------------------------------------------------------


def test_cohere_documents_and_query(server: FakeProviderServer) -> None:
    emb = build_embeddings(_settings(server, "cohere"))

    assert emb.embed_documents(["p1", "p2"]) == [fake_vector("p1"), fake_vector("p2")]
    assert emb.embed_query("q") == fake_vector("q")

    docs, query = server.requests
    assert docs.path == query.path == "/v1/embed"
    assert docs.headers["authorization"] == "Bearer c-test-key"
    assert docs.body["model"] == "embed-english-v3.0"
    assert docs.body["texts"] == ["p1", "p2"]
    assert docs.body["input_type"] == "search_document"
    assert query.body["input_type"] == "search_query"
    assert docs.body["embedding_types"] == ["float"]


async def test_cohere_async_documents(server: FakeProviderServer) -> None:
    emb = build_embeddings(_settings(server, "cohere"))
    assert await emb.aembed_documents(["a"]) == [fake_vector("a")]
    assert server.paths() == ["/v1/embed"]


def test_cohere_retries_a_rate_limit(server: FakeProviderServer) -> None:
    server.fail(429, headers={"Retry-After": "1"})
    emb = build_embeddings(_settings(server, "cohere"))
    assert emb.embed_query("again") == fake_vector("again")
    assert server.paths() == ["/v1/embed", "/v1/embed"]


def test_cohere_gives_up_after_two_retries(server: FakeProviderServer) -> None:
    server.fail(500, times=10, headers={"Retry-After": "1"})
    emb = build_embeddings(_settings(server, "cohere"))
    with pytest.raises(Exception) as err:
        emb.embed_documents(["doomed"])
    assert getattr(err.value, "status_code", None) == 500
    assert len(server.requests) == 3  # the wrapper adds no second retry layer


def test_cohere_request_times_out(server: FakeProviderServer) -> None:
    server.fail(0, delay_s=1.5)
    emb = build_embeddings(_settings(server, "cohere", timeout_s=0.3))
    # Without the timeout the request would succeed after 1.5 s.
    with pytest.raises(Exception, match="(?i)timed out"):
        emb.embed_query("slow")
    assert len(server.requests) == 1  # cohere.Client retries statuses, not timeouts


# -- the fake itself ----------------------------------------------------------------------------


def test_routes_added_later_override_the_defaults(server: FakeProviderServer) -> None:
    @server.route("POST", r"/v1/embed")
    def constant(request: FakeRequest) -> tuple[int, object]:
        n = len(request.body["texts"])
        return 200, {
            "response_type": "embeddings_by_type",
            "id": "x",
            "texts": request.body["texts"],
            "embeddings": {"float": [[0.5, 0.5]] * n},
            "meta": {"billed_units": {"input_tokens": n}},
        }

    emb = build_embeddings(_settings(server, "cohere"))
    assert emb.embed_documents(["a", "b"]) == [[0.5, 0.5], [0.5, 0.5]]


def test_unknown_paths_get_a_404(server: FakeProviderServer) -> None:
    import urllib.error
    import urllib.request

    req = urllib.request.Request(server.url + "/v9/nothing", data=b"{}", method="POST")
    with pytest.raises(urllib.error.HTTPError) as err:
        urllib.request.urlopen(req, timeout=5)
    assert err.value.code == 404
