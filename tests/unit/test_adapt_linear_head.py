"""The linear head of `bosun adapt --mode head`: the exported graph embeds normalise(W · stock),
stock vectors come back exactly through W's inverse, and fitting pulls pairs together."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from providers.minilm import MiniLMEmbeddings, sha256_file, stock_model_path

pytest.importorskip("onnx", reason="the head's graph edit needs the optional [adapt] extra")

from adapt.linear_head import export_head, read_head  # noqa: E402
from providers.linear_head import apply_head, stock_vectors  # noqa: E402

TEXTS = [
    "The pilot became disoriented in the clouds and lost control.",
    "Fuel exhaustion due to inadequate preflight planning.",
    "The main engine fuel pump leaked after the overhaul.",
]


def _head(seed: int = 3) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return (np.eye(384) + 0.05 * rng.standard_normal((384, 384))).astype(np.float32)


def test_the_headed_graph_embeds_the_head_applied_to_the_stock_vector(tmp_path: Path) -> None:
    weights = _head()
    target = tmp_path / "headed.onnx"
    sha = export_head(weights, stock_model_path(), target)
    assert sha == sha256_file(target)
    headed = MiniLMEmbeddings(model_path=target, model_sha256=sha, name="headed")
    stock = MiniLMEmbeddings().embed_array(TEXTS)
    got = headed.embed_array(TEXTS)
    assert np.allclose(got, apply_head(weights, stock), atol=1e-4)
    assert np.allclose(read_head(target), weights)
    assert read_head(stock_model_path()) is None


def test_stock_vectors_come_back_through_the_inverse() -> None:
    weights = _head(5)
    stock = MiniLMEmbeddings().embed_array(TEXTS)
    assert np.allclose(stock_vectors(weights, apply_head(weights, stock)), stock, atol=1e-5)
    assert stock_vectors(None, stock) is not None


def test_fitting_moves_anchors_towards_their_own_positives() -> None:
    pytest.importorskip("torch", reason="fitting needs the optional [adapt] extra")
    from adapt.linear_head import HeadConfig, fit_head

    rng = np.random.default_rng(0)
    positives = rng.standard_normal((64, 384)).astype(np.float32)
    secret = np.linalg.qr(rng.standard_normal((384, 384)))[0].astype(np.float32)
    anchors = positives @ secret.T + 0.3 * rng.standard_normal((64, 384)).astype(np.float32)

    def accuracy(weights: np.ndarray) -> float:
        scores = apply_head(weights, anchors) @ apply_head(weights, positives).T
        return float((scores.argmax(axis=1) == np.arange(64)).mean())

    weights, report = fit_head(anchors, positives, None, HeadConfig(steps=150, l2=0.0))
    assert report.last_loss < report.first_loss
    assert accuracy(weights) > accuracy(np.eye(384, dtype=np.float32))
