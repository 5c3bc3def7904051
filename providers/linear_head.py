"""A linear head on the stock int8 MiniLM, at query time: what `bosun adapt` fitted, applied.

The head multiplies every token's hidden state by ``W`` (384×384) inside the ONNX graph. Mean
pooling is linear, so the adapted vector of a text is ``normalise(W · stock vector)``, and the
stock model's vector comes back exactly (up to float rounding) through ``W⁻¹``. ``W`` is saved
beside the headed graph as a ``.npy`` file, read here with numpy only. Fitting and exporting a
head is :mod:`adapt.linear_head`.
"""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np


def apply_head(weights: np.ndarray, vectors: np.ndarray) -> np.ndarray:
    """``normalise(W v)`` for every row ``v`` (what the headed graph embeds)."""
    out = np.asarray(vectors, dtype=np.float32) @ weights.T
    return out / np.clip(np.linalg.norm(out, axis=1, keepdims=True), 1e-12, None)


def head_file(model: Path) -> Path:
    """Where ``W`` of the headed graph ``model`` is saved beside it (read at query time without
    ``onnx``, which only the ``[adapt]`` extra installs)."""
    return model.with_suffix(".head.npy")


def load_head(data: bytes) -> np.ndarray:
    """``W`` from the bytes :func:`adapt.linear_head.save_head` wrote; ValueError unless it is a
    finite, invertible square matrix."""
    weights = np.load(io.BytesIO(data), allow_pickle=False)
    if weights.ndim != 2 or weights.shape[0] != weights.shape[1]:
        raise ValueError(f"a head must be a square matrix, not {weights.shape}")
    if not np.isfinite(weights).all() or np.linalg.cond(weights.astype(np.float64)) > 1e6:
        raise ValueError("a head must be finite and invertible")
    return weights.astype(np.float32)


def stock_vectors(weights: np.ndarray | None, stored: np.ndarray) -> np.ndarray:
    """The stock model's vectors back from vectors a head ``weights`` made (exact up to float
    rounding: ``W`` is invertible, and both are unit vectors); ``stored`` when no head."""
    if weights is None:
        return np.asarray(stored, dtype=np.float32)
    return apply_head(inverse_head(weights), stored)


def inverse_head(weights: np.ndarray) -> np.ndarray:
    """``W⁻¹`` (float32, inverted in float64): :func:`apply_head` with it maps a head's vectors
    back to the stock model's."""
    return np.linalg.inv(np.asarray(weights, dtype=np.float64)).astype(np.float32)


__all__ = ["apply_head", "head_file", "inverse_head", "load_head", "stock_vectors"]
