"""Fitting the FeatureReranker's ranker: listwise (softmax over each query's candidates) linear
weights, then boosted regression trees on the same loss; numpy only, used by
:mod:`adapt.reranker_training` (``bosun adapt``, ``python -m adapt.shipped_reranker``).
Inference lives in :class:`providers.rerankers.trees.RankModel`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from providers.rerankers.trees import Tree

#: Standardisation never divides by less than this (features constant in training stay inert).
MIN_SCALE = 0.05


@dataclass(frozen=True)
class Group:
    """One query's candidates: features, 0/1 labels, the query's weight."""

    x: np.ndarray
    y: np.ndarray
    weight: float


@dataclass
class Fitted:
    mean: np.ndarray
    scale: np.ndarray
    weights: np.ndarray
    trees: list[dict[str, list[Any]]]

    def raw(self, x: np.ndarray) -> np.ndarray:
        score = ((x - self.mean) / self.scale) @ self.weights
        for tree in self.trees:
            score = score + predict_tree(tree, x)
        return np.asarray(score, dtype=np.float64)


def _softmax_loss(
    z: Sequence[np.ndarray], groups: Sequence[Group], beta: np.ndarray, l2: float
) -> float:
    loss = 0.5 * l2 * float(beta @ beta)
    for zi, g in zip(z, groups, strict=True):
        s = zi @ beta
        m = s.max()
        loss -= g.weight * float((g.y / g.y.sum()) @ (s - m - np.log(np.exp(s - m).sum())))
    return loss


def fit_linear(groups: Sequence[Group], l2: float = 3.0, iters: int = 40) -> Fitted:
    """Listwise linear weights by damped Newton steps (groups without a positive are skipped)."""
    full = np.vstack([g.x for g in groups])
    mean, scale = full.mean(axis=0), np.maximum(full.std(axis=0), MIN_SCALE)
    used = [g for g in groups if g.y.sum() > 0]
    z = [(g.x - mean) / scale for g in used]
    d = full.shape[1]
    beta = np.zeros(d)
    for _ in range(iters):
        grad = l2 * beta
        hess = l2 * np.eye(d)
        for zi, g in zip(z, used, strict=True):
            s = zi @ beta
            p = np.exp(s - s.max())
            p /= p.sum()
            grad += g.weight * zi.T @ (p - g.y / g.y.sum())
            zp = zi.T @ p
            hess += g.weight * ((zi * p[:, None]).T @ zi - np.outer(zp, zp))
        step = np.linalg.solve(hess, grad)
        current, t = _softmax_loss(z, used, beta, l2), 1.0
        while _softmax_loss(z, used, beta - t * step, l2) > current and t > 1e-4:
            t *= 0.5  # Newton overshoots where a query's softmax saturates
        beta -= t * step
        if np.abs(t * step).max() < 1e-7:
            break
    return Fitted(mean, scale, beta, [])


def fit_trees(
    model: Fitted,
    groups: Sequence[Group],
    *,
    trees: int = 100,
    depth: int = 3,
    rate: float = 0.1,
    l2: float = 1.0,
    min_hessian: float = 1.0,
    bins: int = 32,
) -> Fitted:
    """Boost regression trees on the listwise loss, starting from ``model``'s scores."""
    used = [g for g in groups if g.y.sum() > 0]
    x = np.vstack([g.x for g in used])
    bounds = np.cumsum([0] + [len(g.x) for g in used])
    weight = np.concatenate([np.full(len(g.x), g.weight) for g in used])
    weight /= weight.mean()
    target = np.concatenate([g.y / g.y.sum() for g in used])

    def gradients(margin: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        p = np.empty_like(margin)
        for a, b in zip(bounds[:-1], bounds[1:], strict=True):
            e = np.exp(margin[a:b] - margin[a:b].max())
            p[a:b] = e / e.sum()
        return weight * (p - target), weight * np.maximum(p * (1.0 - p), 1e-6)

    cuts = [
        np.unique(np.quantile(x[:, j], np.linspace(0, 1, bins + 1)[1:-1]))
        for j in range(x.shape[1])
    ]
    binned = np.stack([np.searchsorted(c, x[:, j]) for j, c in enumerate(cuts)], axis=1)
    margin = model.raw(x)
    grown: list[dict[str, list[Any]]] = []
    for _ in range(trees):
        g, h = gradients(margin)
        tree = _grow(binned, cuts, g, h, depth, rate, l2, min_hessian)
        grown.append(tree)
        margin = margin + predict_tree(tree, x)
    return Fitted(model.mean, model.scale, model.weights, model.trees + grown)


def _grow(
    binned: np.ndarray,
    cuts: list[np.ndarray],
    g: np.ndarray,
    h: np.ndarray,
    depth: int,
    rate: float,
    l2: float,
    min_hessian: float,
) -> dict[str, list[Any]]:
    """One tree by exact greedy search over histogram bins (``x <= cut`` goes left)."""
    tree: dict[str, list[Any]] = {
        "feature": [],
        "threshold": [],
        "left": [],
        "right": [],
        "value": [],
    }

    def node() -> int:
        for column, blank in (
            ("feature", -1),
            ("threshold", 0.0),
            ("left", 0),
            ("right", 0),
            ("value", 0.0),
        ):
            tree[column].append(blank)
        return len(tree["feature"]) - 1

    stack = [(node(), np.arange(len(g)), 0)]
    while stack:
        at, rows, level = stack.pop()
        gs, hs = g[rows].sum(), h[rows].sum()
        best: tuple[float, int, int] | None = None
        if level < depth:
            parent = gs * gs / (hs + l2)
            for j, c in enumerate(cuts):
                gb = np.bincount(binned[rows, j], weights=g[rows], minlength=len(c) + 1)
                hb = np.bincount(binned[rows, j], weights=h[rows], minlength=len(c) + 1)
                gl, hl = np.cumsum(gb)[:-1], np.cumsum(hb)[:-1]
                ok = (hl >= min_hessian) & (hs - hl >= min_hessian)
                if not ok.any():
                    continue
                split = gl**2 / (hl + l2) + (gs - gl) ** 2 / (hs - hl + l2) - parent
                gain = np.where(ok, split, -1.0)
                b = int(np.argmax(gain))
                if gain[b] > 1e-9 and (best is None or gain[b] > best[0]):
                    best = (float(gain[b]), j, b)
        if best is None:
            tree["value"][at] = float(-gs / (hs + l2) * rate)
            continue
        _, j, b = best
        goes_left = binned[rows, j] <= b
        left, right = node(), node()
        tree["feature"][at], tree["threshold"][at] = j, float(cuts[j][b])
        tree["left"][at], tree["right"][at] = left, right
        stack += [(left, rows[goes_left], level + 1), (right, rows[~goes_left], level + 1)]
    return tree


def predict_tree(tree: dict[str, list[Any]], x: np.ndarray) -> np.ndarray:
    return Tree.from_json(tree).predict(x)


def fit_slope(
    anchors: Sequence[float],
    raws: Sequence[np.ndarray],
    labels: Sequence[np.ndarray],
    weights: Sequence[float],
) -> float:
    """The slope ``a`` that makes sigmoid(anchor + a * (raw - max raw)) a calibrated probability
    (weighted log-likelihood, Newton in one dimension)."""
    d = np.concatenate([r - r.max() for r in raws])
    base = np.concatenate([np.full(len(r), a) for a, r in zip(anchors, raws, strict=True)])
    y = np.concatenate(labels)
    w = np.concatenate([np.full(len(r), wt) for r, wt in zip(raws, weights, strict=True)])
    a = 1.0
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-np.clip(base + a * d, -40, 40)))
        grad = float((w * (p - y) * d).sum())
        hess = float((w * p * (1 - p) * d * d).sum()) + 1e-9
        step = grad / hess
        a = max(a - step, 1e-3)
        if abs(step) < 1e-8:
            break
    return a
