"""build_embeddings picks the configured provider and refuses incomplete settings."""

from __future__ import annotations

from pathlib import Path

import pytest
from langchain_core.embeddings import DeterministicFakeEmbedding, Embeddings

from agent.settings import Settings
from providers.embeddings import build_embeddings, embedding_identity, resolve_dimension
from providers.minilm import MiniLMEmbeddings


def _settings(**kw: object) -> Settings:
    return Settings(home=Path("/nonexistent/bosun"), **kw)  # type: ignore[arg-type]


def test_local_is_the_shared_minilm_instance() -> None:
    first = build_embeddings(_settings())
    assert isinstance(first, MiniLMEmbeddings)
    assert build_embeddings(_settings(embeddings="local")) is first
    assert embedding_identity(first) == ("local:all-MiniLM-L6-v2-int8", 384)


@pytest.mark.parametrize(
    ("provider", "message"),
    [
        ("gemini", "GOOGLE_API_KEY"),
        ("cohere", "COHERE_API_KEY"),
        ("openai", "must be one of local, gemini, cohere"),
        ("", "unknown embeddings provider"),
    ],
)
def test_unusable_settings_raise_value_error(provider: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        build_embeddings(_settings(embeddings=provider))


def test_one_providers_key_does_not_enable_another() -> None:
    with pytest.raises(ValueError, match="COHERE_API_KEY"):
        build_embeddings(_settings(embeddings="cohere", google_api_key="g-key"))


def test_remote_identities_name_provider_and_model() -> None:
    gemini = build_embeddings(
        _settings(embeddings="gemini", google_api_key="k", gemini_embedding_model="models/x-1")
    )
    cohere = build_embeddings(
        _settings(embeddings="cohere", cohere_api_key="k", cohere_embedding_model="embed-y")
    )
    assert embedding_identity(gemini) == ("gemini:models/x-1", None)
    assert embedding_identity(cohere) == ("cohere:embed-y", None)


def test_identity_of_fakes_and_self_describing_models() -> None:
    class Named(Embeddings):
        model_id = "test:named"
        dimension = 3

        def embed_documents(self, texts: list[str]) -> list[list[float]]:
            return [[1.0, 0.0, 0.0] for _ in texts]

        def embed_query(self, text: str) -> list[float]:
            return [1.0, 0.0, 0.0]

    fake = DeterministicFakeEmbedding(size=16)
    assert embedding_identity(Named()) == ("test:named", 3)
    assert embedding_identity(fake) == ("fake:DeterministicFakeEmbedding:16", 16)
    assert resolve_dimension(fake) == 16


def test_unknown_model_cannot_be_identified() -> None:
    class Anonymous(Embeddings):
        def embed_documents(self, texts: list[str]) -> list[list[float]]:
            return [[0.0] for _ in texts]

        def embed_query(self, text: str) -> list[float]:
            return [0.0]

    with pytest.raises(TypeError, match="model_id"):
        embedding_identity(Anonymous())
