"""The offline reranker's model file: a logistic model, a listwise linear part and boosted trees.

Trained by ``python -m adapt.shipped_reranker`` into ``providers/data/feature_reranker.json``
(one tree per line), or by `bosun adapt` for one collection, then with the collection's vocabulary
model (:mod:`providers.rerankers.translation`) inside; read with numpy only.
"""

from __future__ import annotations

import json
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from providers.rerankers.base import POOL
from providers.rerankers.features import FEATURES, document_groups
from providers.rerankers.translation import TRANSLATION_FEATURES, TranslationModel
from text.words import STEMMER


def feature_names(translation: bool) -> tuple[str, ...]:
    """The columns of a model: :data:`FEATURES`, then, with a vocabulary (``translation``),
    :data:`TRANSLATION_FEATURES`."""
    return FEATURES + (TRANSLATION_FEATURES if translation else ())


def sigmoid(z: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(z, -60.0, 60.0)))


@dataclass(frozen=True)
class Tree:
    """One regression tree: node ``i`` splits on ``feature[i]`` (``x <= threshold[i]`` goes to
    ``left[i]``, else ``right[i]``) or, when ``feature[i] < 0``, is a leaf worth ``value[i]``."""

    feature: np.ndarray
    threshold: np.ndarray
    left: np.ndarray
    right: np.ndarray
    value: np.ndarray

    @classmethod
    def from_json(cls, data: Mapping[str, Sequence[float]]) -> Tree:
        return cls(
            feature=np.asarray(data["feature"], dtype=np.int64),
            threshold=np.asarray(data["threshold"], dtype=np.float64),
            left=np.asarray(data["left"], dtype=np.int64),
            right=np.asarray(data["right"], dtype=np.int64),
            value=np.asarray(data["value"], dtype=np.float64),
        )

    def predict(self, x: np.ndarray) -> np.ndarray:
        node = np.zeros(len(x), dtype=np.int64)
        rows = np.arange(len(x))
        while True:
            feature = self.feature[node]
            inner = feature >= 0
            if not inner.any():
                return self.value[node]
            go_left = x[rows, np.where(inner, feature, 0)] <= self.threshold[node]
            node = np.where(inner, np.where(go_left, self.left[node], self.right[node]), node)


@dataclass(frozen=True)
class RankModel:
    """Orders one query's candidates: a linear score over standardised features plus boosted
    regression trees over the raw ones, both trained listwise (softmax over each query's
    candidates). ``slope`` turns the score into logit units; ``prior`` adds fixed logits per
    feature (identifier matches, which no training question exercises)."""

    mean: np.ndarray
    scale: np.ndarray
    weights: np.ndarray
    trees: tuple[Tree, ...]
    slope: float
    prior: np.ndarray

    @classmethod
    def from_json(cls, data: Mapping[str, Any], names: Sequence[str] = FEATURES) -> RankModel:
        return cls(
            mean=np.array([float(data["mean"][n]) for n in names]),
            scale=np.array([float(data["scale"][n]) for n in names]),
            weights=np.array([float(data["weights"][n]) for n in names]),
            trees=tuple(Tree.from_json(t) for t in data.get("trees", ())),
            slope=float(data["slope"]),
            prior=np.array([float(data.get("prior", {}).get(n, 0.0)) for n in names]),
        )

    def raw(self, x: np.ndarray) -> np.ndarray:
        """The listwise score (before ``slope`` and ``prior``)."""
        score = ((x - self.mean) / self.scale) @ self.weights
        for tree in self.trees:
            score = score + tree.predict(x)
        return np.asarray(score, dtype=np.float64)

    def logits(self, x: np.ndarray) -> np.ndarray:
        return self.slope * self.raw(x) + x @ self.prior


@dataclass(frozen=True)
class FeatureWeights:
    """A trained model over :data:`providers.rerankers.features.FEATURES` (and, with a
    ``translation`` model, its ``TRANSLATION_FEATURES`` after them).

    ``weights``/``bias`` are a logistic model trained pointwise (off-topic questions included): the
    best candidate's probability under it says whether the archive holds an answer at all. Without
    a ``ranker``, each candidate's probability is its score. With one, the ranker orders the
    documents (each at its best passage's ranker score), anchored so that the best document keeps
    that probability; within a document, passages keep the order they were given in (retrieval's),
    each one ``passage_step`` logits below the one before: the training data judge whole
    documents, so nothing taught the model which passage of a document answers.
    """

    weights: np.ndarray  # one per feature, in ``features`` order
    bias: float
    cutoff: float  # best score below this: the question is not about the archive
    floor: float  # passages below this are noise
    info: Mapping[str, Any]  # how they were trained and what they scored
    ranker: RankModel | None = None
    passage_step: float = 0.5
    translation: TranslationModel | None = None  # the collection's vocabulary, when fitted
    pool: int = POOL  # candidates per search it was fitted to order (and orders)

    @property
    def features(self) -> tuple[str, ...]:
        """The columns the model reads, in order."""
        return feature_names(self.translation is not None)

    def scores(self, x: np.ndarray, sources: Sequence[Hashable] | None = None) -> np.ndarray:
        """Relevance in [0, 1] of each row of a feature matrix (one query's candidates, in
        retrieval order); ``sources`` names each row's document (default: a document each)."""
        logits = x @ self.weights + self.bias
        if self.ranker is None or len(x) == 0:
            return sigmoid(logits)
        ranked = self.ranker.logits(x)
        adjusted = np.empty(len(x), dtype=np.float64)
        for members in document_groups(range(len(x)) if sources is None else sources):
            best = ranked[members].max()
            adjusted[members] = best - self.passage_step * np.arange(len(members))
        return sigmoid(logits.max() + adjusted - adjusted.max())

    @classmethod
    def load(cls, path: Path | None = None) -> FeatureWeights:
        """The weights shipped in ``providers/data/feature_reranker.json`` (or at ``path``)."""
        if path is None:
            text = (
                resources.files("providers")
                .joinpath("data/feature_reranker.json")
                .read_text("utf-8")
            )
        else:
            text = Path(path).read_text("utf-8")
        data = json.loads(text)
        names = tuple(data["features"])
        translation = data.get("translation")
        expected = feature_names(translation is not None)
        if names != expected:
            raise ValueError(
                f"feature reranker weights were trained on {names}, this code computes {expected}"
            )
        stems = data.get("stems", "a light suffix stripper")  # before PyStemmer
        if stems != STEMMER:
            raise ValueError(
                f"feature reranker weights were fitted on features of {stems} stems, this code "
                f"computes {STEMMER} stems: fit them again"
            )
        return cls(
            weights=np.array([float(data["weights"][n]) for n in names], dtype=np.float64),
            bias=float(data["bias"]),
            cutoff=float(data["cutoff"]),
            floor=float(data.get("floor", data["cutoff"])),
            info=data.get("info", {}),
            ranker=RankModel.from_json(data["ranker"], names) if data.get("ranker") else None,
            passage_step=float(data.get("passage_step", 0.5)),
            translation=TranslationModel.from_json(translation) if translation else None,
            pool=int(data.get("pool", POOL)),
        )
