"""The local ONNX cross-encoder, with a tiny model written byte by byte (no ``onnx`` package)."""

from __future__ import annotations

import math
import shutil
from pathlib import Path

import pytest
from tokenizers import Tokenizer

from providers.rerankers import RerankError
from providers.rerankers.cross_encoder import CrossEncoderReranker
from tests.fakes.onnx_models import TOKENIZER, tiny_cross_encoder


@pytest.fixture
def model_dir(tmp_path: Path) -> Path:
    (tmp_path / "model.onnx").write_bytes(tiny_cross_encoder())
    shutil.copy(TOKENIZER, tmp_path / "tokenizer.json")
    return tmp_path


def _expected(query: str, doc: str) -> float:
    tokenizer = Tokenizer.from_file(str(TOKENIZER))
    tokenizer.no_padding()
    tokenizer.no_truncation()
    n = len(tokenizer.encode(query, doc).ids)
    return 1.0 / (1.0 + math.exp(-(0.1 * n - 2.0)))


async def test_scores_are_the_sigmoid_of_the_logit_in_order(model_dir: Path) -> None:
    reranker = CrossEncoderReranker(model_dir, batch_size=2)
    docs = ["short", "a much longer document about the engine failure on approach", "mid size doc"]
    scores = await reranker.rerank("engine failure", docs)
    assert scores == pytest.approx([_expected("engine failure", d) for d in docs], abs=1e-5)
    assert scores[1] > scores[2] > scores[0]
    assert all(0.0 < s < 1.0 for s in scores)
    assert reranker.name == f"cross-encoder:{model_dir.name}"
    assert await reranker.rerank("q", []) == []


def test_missing_folder_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="does not exist"):
        CrossEncoderReranker(tmp_path / "nope")


def test_missing_files_are_named(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"lacks model\.onnx and tokenizer\.json"):
        CrossEncoderReranker(tmp_path)
    (tmp_path / "model.onnx").write_bytes(tiny_cross_encoder())
    with pytest.raises(ValueError, match=r"lacks tokenizer\.json"):
        CrossEncoderReranker(tmp_path)


def test_a_broken_model_file_is_refused(model_dir: Path) -> None:
    (model_dir / "model.onnx").write_bytes(b"not a model")
    with pytest.raises(ValueError, match="not a loadable ONNX model"):
        CrossEncoderReranker(model_dir)


async def test_inference_failure_is_a_rerank_error(model_dir: Path) -> None:
    reranker = CrossEncoderReranker(model_dir)

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("onnx runtime exploded")

    reranker._session.run = broken  # type: ignore[method-assign]
    with pytest.raises(RerankError, match="onnx runtime exploded"):
        await reranker.rerank("q", ["d"])
