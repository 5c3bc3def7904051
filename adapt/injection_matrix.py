"""The planted-instruction classifier's training texts as one sparse matrix (the hashed n-grams
and concept features of :func:`text.injection_model.vector`), read once and cut into folds by
row, and the probabilities a fitted model gives its rows."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np

from text.injection_model import vector


class Texted(Protocol):
    text: str  # normalised


Csr = tuple[np.ndarray, np.ndarray, np.ndarray]


def matrix(examples: Sequence[Texted]) -> Csr:
    """CSR parts (row pointers, indices, values) of :func:`text.injection_model.vector`."""
    rows = [vector(e.text) for e in examples]
    indptr = np.zeros(len(rows) + 1, dtype=np.int64)
    indptr[1:] = np.cumsum([len(r[0]) for r in rows])
    return indptr, np.concatenate([r[0] for r in rows]), np.concatenate([r[1] for r in rows])


def rows_of(csr: Csr, keep: np.ndarray) -> Csr:
    """The rows of ``csr`` where ``keep`` is true (each example read once, not once a fold)."""
    indptr, indices, values = csr
    counts = np.diff(indptr)
    inside = np.repeat(keep, counts)
    kept = np.zeros(int(keep.sum()) + 1, dtype=np.int64)
    kept[1:] = np.cumsum(counts[keep])
    return kept, indices[inside], values[inside]


def probabilities(
    examples: Sequence[Texted], w: np.ndarray, b: float, csr: Csr | None = None
) -> np.ndarray:
    indptr, indices, values = matrix(examples) if csr is None else csr
    rows = np.repeat(np.arange(len(examples)), np.diff(indptr))
    z = np.bincount(rows, weights=w[indices] * values, minlength=len(examples)) + b
    return 1 / (1 + np.exp(-z))
