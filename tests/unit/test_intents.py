"""Intent classification: regex fast path, embedding centroids, a chat model; failures search."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
from langchain_core.embeddings import Embeddings

from graph import intents
from graph.intents import (
    EXAMPLES,
    INTENTS,
    classify_by_embeddings,
    classify_by_model,
    fast_intent,
    parse_label,
)
from providers.minilm import MiniLMEmbeddings
from tests.fakes.chat import ScriptedChatModel


@pytest.mark.parametrize(
    ("text", "intent"),
    [
        ("hi", "greeting"),
        ("Hello there!", "greeting"),
        ("good morning bosun :)", "greeting"),
        ("thanks!", "acknowledgement"),
        ("Thank you so much", "acknowledgement"),
        ("ok, thanks", "acknowledgement"),
        ("great, thanks a lot!", "acknowledgement"),
        ("hi, what caused the fire?", None),
        ("thanks. what about 2019?", None),
        ("who are you?", None),
    ],
)
def test_fast_path(text: str, intent: str | None) -> None:
    assert fast_intent(text) == intent


def test_every_intent_has_a_few_dozen_examples() -> None:
    assert set(EXAMPLES) == set(INTENTS)
    assert all(len(examples) >= 24 for examples in EXAMPLES.values())


class TopicEmbeddings(Embeddings):
    """Axes: the assistant, thanks, ship and flight words, and a bias."""

    model = "topic-test"

    def _v(self, text: str) -> list[float]:
        words = set(re.findall(r"[a-z]+", text.lower()))
        return [
            1.0 if words & {"you", "bosun", "assistant", "help", "use", "yourself"} else 0.0,
            1.0 if words & {"thanks", "thank", "cheers", "great", "ok"} else 0.0,
            1.0 if words & {"engine", "failure", "fire", "crack", "pilot", "cargo"} else 0.0,
            0.3,
        ]

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self._v(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self._v(text)


async def test_nearest_centroid() -> None:
    embeddings = TopicEmbeddings()
    assert (await classify_by_embeddings("what can you do for me?", embeddings))[0] == "general"
    assert (await classify_by_embeddings("engine failure causes", embeddings))[0] == (
        "factual_query"
    )


def test_labels_are_parsed_leniently() -> None:
    assert parse_label("Label: greeting") == "greeting"
    assert parse_label("GENERAL.") == "general"
    assert parse_label("I think it's a question about ships") == "factual_query"


async def test_model_classification_reads_one_label() -> None:
    model = ScriptedChatModel.replying("acknowledgement")
    assert await classify_by_model("much obliged", model) == "acknowledgement"
    assert "much obliged" in str(model.calls[0][0].content)


class FingerprintedEmbeddings(TopicEmbeddings):
    """TopicEmbeddings that name their model files' hash and count document embeddings."""

    def __init__(self, fingerprint: str) -> None:
        self.fingerprint = fingerprint
        self.documents_embedded = 0

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.documents_embedded += len(texts)
        return super().embed_documents(texts)


async def test_stored_centroids_are_used_without_embedding_the_examples(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "centroids.json"
    await intents.write_centroids(FingerprintedEmbeddings("topic:sha=aaa"), path)
    monkeypatch.setattr(intents, "CENTROIDS_PATH", path)
    monkeypatch.setattr(intents, "_centroids", {})
    embeddings = FingerprintedEmbeddings("topic:sha=aaa")
    assert (await classify_by_embeddings("what can you do for me?", embeddings))[0] == "general"
    assert embeddings.documents_embedded == 0


async def test_stored_centroids_of_another_model_hash_are_recomputed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "centroids.json"
    await intents.write_centroids(FingerprintedEmbeddings("topic:sha=aaa"), path)
    other = FingerprintedEmbeddings("topic:sha=bbb")
    assert intents.stored_centroids(other, path) is None
    monkeypatch.setattr(intents, "CENTROIDS_PATH", path)
    monkeypatch.setattr(intents, "_centroids", {})
    assert (await classify_by_embeddings("engine failure causes", other))[0] == "factual_query"
    assert other.documents_embedded == sum(len(e) for e in EXAMPLES.values())
    await classify_by_embeddings("what can you do for me?", other)  # once per process
    assert other.documents_embedded == sum(len(e) for e in EXAMPLES.values())


async def test_stored_centroids_of_other_examples_are_recomputed(tmp_path: Path) -> None:
    path = tmp_path / "centroids.json"
    embeddings = FingerprintedEmbeddings("topic:sha=aaa")
    await intents.write_centroids(embeddings, path)
    record = json.loads(path.read_text())
    assert intents.stored_centroids(embeddings, path) is not None
    path.write_text(json.dumps({**record, "examples_sha256": "0" * 64}))
    assert intents.stored_centroids(embeddings, path) is None


async def test_shipped_centroids_are_those_of_the_pinned_model() -> None:
    minilm = MiniLMEmbeddings()
    stored = intents.stored_centroids(minilm)
    assert stored is not None, "refresh graph/data/intent_centroids.json: see write_centroids"
    np.testing.assert_allclose(stored, await intents.compute_centroids(minilm), atol=1e-5)
