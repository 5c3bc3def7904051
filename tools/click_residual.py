"""The click residual `bosun adapt` fits from operators' feedback: a small linear correction of
the reranker's order, on the features the shipped feature reranker computes per (question,
passage), that carries what users opened over to questions and documents nobody gave feedback on.

A passage of the reranked pool scores ``rerank / scale + θ · (x − mean) / spread``: ``x`` its
row of :data:`providers.rerankers.features.FEATURES` over the pool (BM25, cosines, coverage,
title overlap, proximity, the document's other passages, ...), ``scale`` the typical spread of
the reranker's scores within a pool (so the correction is in units of the reranker's own
differences), ``θ`` fitted by :mod:`adapt.residual_fit` with an L2 pull to zero: ``θ = 0`` is
the reranker's order exactly. Like the click memory it runs after the relevance cutoff decided,
and it only reorders the pool: it admits nothing the cutoff stopped.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

import numpy as np

from archive.store.passages import Passage
from providers.rerankers import rerank_text
from providers.rerankers.base import document_of
from providers.rerankers.features import FEATURES, query_terms
from providers.rerankers.learned import candidate_features


def pool_features(question: str, pool: Sequence[Passage]) -> np.ndarray:
    """One row of :data:`FEATURES` per passage of ``pool`` (the reranked pool), as the shipped
    feature reranker computes them from the candidates' retrieval scores and fields."""
    documents = [rerank_text(p) for p in pool]
    sources: list[Hashable] = [document_of(p, i) for i, p in enumerate(pool)]
    return candidate_features(query_terms(question), documents, pool, sources=sources)


@dataclass(frozen=True)
class ClickResidual:
    """``θ`` over standardised features, and the standardisation and score scale it was fitted
    with."""

    weights: np.ndarray  # θ, one per feature of FEATURES
    mean: np.ndarray  # per feature, over the training pools
    spread: np.ndarray  # per feature (1 where a feature was constant)
    scale: float  # the reranker's score spread within a pool

    def __post_init__(self) -> None:
        n = len(FEATURES)
        if not (len(self.weights) == len(self.mean) == len(self.spread) == n):
            raise ValueError(f"a click residual needs {n} weights, means and spreads")
        if not self.scale > 0.0 or not np.all(self.spread > 0.0):
            raise ValueError("a click residual's scale and spreads must be positive")

    def scores(self, base: np.ndarray, features: np.ndarray) -> np.ndarray:
        """The corrected score of each passage: reranker score over ``scale`` plus θ·z."""
        z = (features - self.mean) / self.spread
        return np.asarray(base, np.float64) / self.scale + z @ self.weights

    def order(self, base: np.ndarray, features: np.ndarray) -> list[int]:
        """Positions of the pool in the corrected order (ties: the reranker's order)."""
        scores = self.scores(base, features)
        return sorted(range(len(scores)), key=lambda i: (-scores[i], i))

    def reorder(self, question: str, scored: list[Passage]) -> list[Passage]:
        """``scored`` (the reranked pool, best first) in the corrected order."""
        if not scored:
            return scored
        base = np.asarray([p["rerank"] or 0.0 for p in scored], np.float64)
        return [scored[i] for i in self.order(base, pool_features(question, scored))]

    def arrays(self) -> dict[str, np.ndarray]:
        """What the click memory's file stores of it."""
        return {
            "residual_weights": self.weights.astype(np.float64),
            "residual_mean": self.mean.astype(np.float64),
            "residual_spread": self.spread.astype(np.float64),
            "residual_scale": np.asarray(self.scale, np.float64),
        }

    @classmethod
    def from_arrays(cls, arrays: dict[str, np.ndarray]) -> ClickResidual:
        return cls(
            np.asarray(arrays["residual_weights"], np.float64),
            np.asarray(arrays["residual_mean"], np.float64),
            np.asarray(arrays["residual_spread"], np.float64),
            float(arrays["residual_scale"]),
        )


__all__ = ["ClickResidual", "pool_features"]
