"""Which reranker the settings choose."""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from agent.settings import Settings
from providers.rerankers import Reranker, build_reranker
from providers.rerankers.cohere import CohereReranker
from providers.rerankers.cross_encoder import CrossEncoderReranker
from providers.rerankers.learned import FeatureReranker
from providers.rerankers.trees import FeatureWeights
from tests.fakes.onnx_models import TOKENIZER, tiny_cross_encoder


def _settings(**env: str) -> Settings:
    return Settings.from_env({"BOSUN_HOME": "/nonexistent/bosun", **env})


def test_offline_default_is_the_feature_reranker() -> None:
    reranker = build_reranker(_settings(), embeddings=None)
    assert isinstance(reranker, FeatureReranker)
    assert isinstance(reranker, Reranker)
    assert 0.0 < reranker.default_cutoff < 1.0
    assert 0.0 < reranker.default_floor < 1.0


def test_a_collections_fitted_weights_replace_the_shipped_ones() -> None:
    fitted = replace(FeatureWeights.load(), cutoff=0.3, floor=0.02)
    reranker = build_reranker(_settings(), embeddings=None, weights=fitted)
    assert isinstance(reranker, FeatureReranker)
    assert (reranker.default_cutoff, reranker.default_floor) == (0.3, 0.02)


def test_cohere_when_its_key_is_set() -> None:
    reranker = build_reranker(
        _settings(COHERE_API_KEY="test-cohere-key", BOSUN_CROSS_ENCODER_DIR="/nonexistent"), None
    )
    assert isinstance(reranker, CohereReranker)
    assert reranker.name == "cohere:rerank-v3.5"
    assert reranker.default_cutoff == pytest.approx(0.1)
    assert isinstance(reranker, Reranker)


def test_cross_encoder_when_its_folder_is_set(tmp_path: Path) -> None:
    (tmp_path / "model.onnx").write_bytes(tiny_cross_encoder())
    shutil.copy(TOKENIZER, tmp_path / "tokenizer.json")
    reranker = build_reranker(_settings(BOSUN_CROSS_ENCODER_DIR=str(tmp_path)), None)
    assert isinstance(reranker, CrossEncoderReranker)
    assert isinstance(reranker, Reranker)


def test_a_configured_but_missing_cross_encoder_fails_at_start_up(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="does not exist"):
        build_reranker(_settings(BOSUN_CROSS_ENCODER_DIR=str(tmp_path / "gone")), None)
