"""The click vocabulary `bosun adapt` fits from operators' feedback: the archive's vocabulary
(IBM Model 1, :mod:`providers.rerankers.translation`) learnt from the (question, opened
document) pairs of the feedback, blended with the reranker's order.

A question's wording and the document answering it often share few words ("spatial
disorientation" in a probable cause, "entered clouds", "no horizon" in its narrative); the pairs
users opened teach which question words go with which document words, and that carries over to
questions and documents nobody gave feedback on. A passage of the reranked pool scores
``rerank / scale + weight · z``: ``z`` its document's translation score (the pool's passages of
the same document read as one), standardised over the pool, ``scale`` the typical spread of the
reranker's scores within a pool. Like the click memory it runs after the relevance cutoff
decided, and only reorders the pool: it admits nothing the cutoff stopped.
"""

from __future__ import annotations

import json
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

import numpy as np

from archive.store.passages import Passage
from providers.rerankers import rerank_text
from providers.rerankers.base import document_of
from providers.rerankers.translation import TranslationModel


def standardised(values: np.ndarray) -> np.ndarray:
    """``values`` centred and scaled to unit spread over the pool (zeros when constant)."""
    spread = float(values.std()) if len(values) else 0.0
    return (values - values.mean()) / spread if spread > 1e-12 else np.zeros(len(values))


@dataclass(frozen=True)
class ClickVocabulary:
    """A translation model learnt from feedback, how much it weighs against the reranker, and
    the reranker's typical score spread within a pool."""

    model: TranslationModel
    weight: float  # of the standardised translation score, in units of ``scale``
    scale: float  # the reranker's score spread within a pool

    def __post_init__(self) -> None:
        if not self.weight > 0.0 or not self.scale > 0.0:
            raise ValueError("a click vocabulary's weight and scale must be positive")

    def translation(
        self, question: str, texts: Sequence[str], sources: Sequence[Hashable]
    ) -> np.ndarray:
        """The standardised translation score of each passage's document over the pool."""
        if not texts:
            return np.zeros(0)
        return standardised(self.model.columns(question, texts, sources)[:, 1])

    def order(self, base: np.ndarray, translation: np.ndarray) -> list[int]:
        """Positions of the pool in the blended order (ties: the reranker's order)."""
        scores = np.asarray(base, np.float64) / self.scale + self.weight * translation
        return sorted(range(len(scores)), key=lambda i: (-scores[i], i))

    def reorder(self, question: str, scored: list[Passage]) -> list[Passage]:
        """``scored`` (the reranked pool, best first) in the blended order."""
        if not scored:
            return scored
        base = np.asarray([p["rerank"] or 0.0 for p in scored], np.float64)
        texts = [rerank_text(p) for p in scored]
        sources: list[Hashable] = [document_of(p, i) for i, p in enumerate(scored)]
        return [scored[i] for i in self.order(base, self.translation(question, texts, sources))]

    def arrays(self) -> dict[str, np.ndarray]:
        """What the click memory's file stores of it."""
        return {
            "vocabulary_model": np.array(json.dumps(self.model.to_json())),
            "vocabulary_weight": np.asarray(self.weight, np.float64),
            "vocabulary_scale": np.asarray(self.scale, np.float64),
        }

    @classmethod
    def from_arrays(cls, arrays: dict[str, np.ndarray]) -> ClickVocabulary:
        model = TranslationModel.from_json(json.loads(str(arrays["vocabulary_model"])))
        return cls(model, float(arrays["vocabulary_weight"]), float(arrays["vocabulary_scale"]))


__all__ = ["ClickVocabulary", "standardised"]
