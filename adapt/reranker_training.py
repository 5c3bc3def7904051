"""Training the offline FeatureReranker from (query, candidates, labels): the pointwise logistic
model whose best-candidate probability decides the relevance cutoff, the listwise ranker that
orders the candidates, the cutoff and the passage floor, and the weights file they are stored in.

Used by ``bosun adapt`` (a reranker per adapted collection, fitted on its own cosines) and by
``python -m adapt.shipped_reranker`` (the shipped ``providers/data/feature_reranker.json``).
"""

from __future__ import annotations

import json
import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from adapt.reranker_fitting import Group, fit_linear, fit_slope, fit_trees
from providers.rerankers.features import FEATURES
from providers.rerankers.translation import TranslationModel
from providers.rerankers.trees import FeatureWeights, RankModel, Tree, feature_names, sigmoid
from text.words import STEMMER

#: Weights set, not learnt: neither training split asks about identifiers (claims and
#: probable-cause sentences name no report or IMO number), yet an exact ERA22LA175 match is the
#: strongest evidence there is (the seed pipeline's first lesson). The values are a prior.
FIXED = {"identifier": 4.0, "identifier_missing": -1.5}


@dataclass(frozen=True)
class TrainingQuery:
    """One query's retrieved candidates as the reranker sees them."""

    x: np.ndarray  # feature matrix, one row per candidate in retrieval order
    y: np.ndarray  # 1.0 where the candidate's document is relevant (all 0 for off-topic)
    sources: Sequence[Hashable]  # the document of each candidate
    weight: float  # of each of its candidates in the fit
    off_topic: bool = False  # a question the archive cannot answer (teaches the cutoff)


@dataclass(frozen=True)
class TrainOptions:
    """How the models are fitted (the defaults are the shipped model's)."""

    l2: float = 3.0  # L2 penalty on the linear weights
    trees: int = 100  # boosted trees of the ranker (0: linear; -1: no ranker)
    depth: int = 3
    rate: float = 0.1
    max_stop: float = 0.01  # in-domain share (training queries) the cutoff may stop
    max_drop: float = 0.01  # share of relevant training passages the floor may drop
    fixed: Mapping[str, float] = field(default_factory=lambda: dict(FIXED))


@dataclass
class Trained:
    """A fitted model and the best scores the cutoff and floor are chosen from."""

    weights: FeatureWeights
    train_best: list[float]  # best pointwise score of each in-domain training query
    off_best: list[float]  # best pointwise score of each off-topic training question
    relevant: list[float]  # score of each relevant training candidate

    def cutoff(self, max_stop: float) -> float:
        """See :func:`choose_cutoff`."""
        return choose_cutoff(self.train_best, self.off_best, max_stop)

    def floor(self, cutoff: float, max_drop: float) -> float:
        """The passage floor: at most ``max_drop`` of the relevant training candidates score
        below it, and never above the cutoff."""
        return min(cutoff, _percentile(self.relevant, 100 * max_drop))


def fit_logistic(
    xs: Sequence[np.ndarray],
    ys: Sequence[np.ndarray],
    ws: Sequence[np.ndarray],
    l2: float,
    fixed: Mapping[str, float] | None = None,
    iters: int = 50,
    names: Sequence[str] = FEATURES,
) -> tuple[np.ndarray, float]:
    """Weighted L2-regularised logistic regression by Newton's method (IRLS) over the columns
    ``names``; the ``fixed`` weights enter as a constant offset and are returned as given."""
    fixed = fixed or {}
    free = [i for i, name in enumerate(names) if name not in fixed]
    full = np.vstack(list(xs))
    pinned = np.array([fixed.get(name, 0.0) for name in names])
    offset = full @ pinned
    x = full[:, free]
    y = np.concatenate(list(ys))
    w = np.concatenate(list(ws))
    x1 = np.hstack([x, np.ones((len(x), 1))])
    beta = np.zeros(x1.shape[1])
    reg = np.full(x1.shape[1], l2)
    reg[-1] = 0.0  # the bias is not shrunk
    for _ in range(iters):
        p = 1.0 / (1.0 + np.exp(-np.clip(x1 @ beta + offset, -40, 40)))
        grad = x1.T @ (w * (p - y)) + reg * beta
        hess = (x1 * (w * p * (1 - p))[:, None]).T @ x1 + np.diag(reg + 1e-9)
        step = np.linalg.solve(hess, grad)
        beta -= step
        if np.abs(step).max() < 1e-8:
            break
    weights = pinned.copy()
    weights[free] = beta[:-1]
    return weights, float(beta[-1])


def fit_reranker(
    queries: Sequence[TrainingQuery],
    options: TrainOptions,
    translation: TranslationModel | None = None,
) -> Trained:
    """Fit the pointwise model (off-topic questions included), the listwise ranker (in-domain
    queries with a relevant candidate; linear, then trees) and the slope that anchors one to the
    other. With ``translation``, the queries' features hold its columns too, and the model
    keeps it."""
    names = feature_names(translation is not None)
    used = [q for q in queries if len(q.x)]
    in_domain = [q for q in used if not q.off_topic]
    if not any(q.y.sum() > 0 for q in in_domain):
        raise ValueError("no training query has a relevant candidate: nothing to learn from")
    w, b = fit_logistic(
        [q.x for q in used],
        [q.y for q in used],
        [np.full(len(q.x), q.weight) for q in used],
        options.l2,
        options.fixed,
        names=names,
    )
    ranker: RankModel | None = None
    if options.trees >= 0:
        groups = [Group(q.x, q.y, q.weight) for q in in_domain]
        fitted = fit_linear(groups, l2=options.l2)
        if options.trees:
            fitted = fit_trees(
                fitted, groups, trees=options.trees, depth=options.depth, rate=options.rate
            )
        raws = [fitted.raw(q.x) for q in in_domain]
        anchors = [float((q.x @ w + b).max()) for q in in_domain]
        slope = fit_slope(anchors, raws, [q.y for q in in_domain], [q.weight for q in in_domain])
        ranker = RankModel(
            fitted.mean,
            fitted.scale,
            fitted.weights,
            tuple(Tree.from_json(t) for t in fitted.trees),
            slope,
            np.array([options.fixed.get(n, 0.0) for n in names]),
        )
    pointwise = FeatureWeights(w, b, 0.5, 0.5, {}, translation=translation)
    model = FeatureWeights(w, b, 0.5, 0.5, {}, ranker, translation=translation)
    best = [float(pointwise.scores(q.x, q.sources).max()) for q in used]
    relevant = [float(v) for q in in_domain for v in model.scores(q.x, q.sources)[q.y > 0]]
    return Trained(
        model,
        [s for s, q in zip(best, used, strict=True) if not q.off_topic],
        [s for s, q in zip(best, used, strict=True) if q.off_topic],
        relevant,
    )


def choose_cutoff(
    in_domain_best: Sequence[float], off_topic_best: Sequence[float], max_stop: float
) -> float:
    """Midway (in logit space) between the highest off-topic best score and the in-domain
    ``max_stop`` quantile, so both sides keep a margin; the quantile itself when they overlap
    (or when there are no off-topic questions)."""
    ceiling = _percentile(in_domain_best, 100 * max_stop)
    if not off_topic_best:
        return ceiling
    floor = max(off_topic_best)
    if floor >= ceiling:
        return ceiling

    def logit(p: float) -> float:
        p = min(max(p, 1e-9), 1 - 1e-9)
        return math.log(p / (1 - p))

    return float(sigmoid(np.array((logit(floor) + logit(ceiling)) / 2)))


def weights_payload(
    model: FeatureWeights, cutoff: float, floor: float, info: Mapping[str, Any]
) -> dict[str, Any]:
    """The weights file's content (what :meth:`FeatureWeights.load` reads)."""
    names = model.features
    payload: dict[str, Any] = {
        "features": list(names),
        "stems": STEMMER,  # the features' word stems (FeatureWeights.load refuses others)
        "weights": {n: round(float(v), 6) for n, v in zip(names, model.weights, strict=True)},
        "bias": round(model.bias, 6),
        "cutoff": round(cutoff, 4),
        "floor": round(floor, 6),  # passages below it are noise
        "ranker": ranker_json(model.ranker, names) if model.ranker else None,
        "passage_step": model.passage_step,
        "pool": model.pool,
        "info": dict(info),
    }
    if model.translation:
        payload["translation"] = model.translation.to_json()
    return payload


def ranker_json(ranker: RankModel, names: Sequence[str] = FEATURES) -> dict[str, Any]:
    """A ranker as the weights file stores it (features by name, one dict per tree)."""

    def by_name(values: np.ndarray) -> dict[str, float]:
        return {n: round(float(v), 6) for n, v in zip(names, values, strict=True)}

    return {
        "mean": by_name(ranker.mean),
        "scale": by_name(ranker.scale),
        "weights": by_name(ranker.weights),
        "slope": round(ranker.slope, 6),
        "prior": {n: float(v) for n, v in zip(names, ranker.prior, strict=True) if v},
        "trees": [
            {
                "feature": t.feature.tolist(),
                "threshold": [float(v) for v in t.threshold],
                "left": t.left.tolist(),
                "right": t.right.tolist(),
                "value": [round(float(v), 7) for v in t.value],
            }
            for t in ranker.trees
        ],
    }


def dump_weights(payload: Mapping[str, Any]) -> str:
    """The weights file as indented JSON, each tree on one line (readable diffs) and a
    translation model compact on one line (its table has ~100,000 entries)."""
    compact: dict[str, str] = {}
    shown = dict(payload)
    ranker = payload.get("ranker")
    if ranker:
        shown["ranker"] = {**ranker, "trees": "@trees@"}
        trees = ",\n".join("      " + json.dumps(t, separators=(",", ":")) for t in ranker["trees"])
        compact["@trees@"] = "[\n" + trees + "\n    ]"
    if payload.get("translation"):
        shown["translation"] = "@translation@"
        compact["@translation@"] = json.dumps(payload["translation"], separators=(",", ":"))
    text = json.dumps(shown, indent=2)
    for marker, value in compact.items():
        text = text.replace(json.dumps(marker), value)
    return text + "\n"


def _percentile(values: Sequence[float], q: float) -> float:
    """Linear interpolation between closest ranks (0 for no values)."""
    return float(np.percentile(np.asarray(values, dtype=np.float64), q)) if len(values) else 0.0


__all__ = [
    "FIXED",
    "TrainOptions",
    "Trained",
    "TrainingQuery",
    "choose_cutoff",
    "dump_weights",
    "fit_logistic",
    "fit_reranker",
    "ranker_json",
    "weights_payload",
]
