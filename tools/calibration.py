"""The relevance cutoff's cosine thresholds for an adapted embedder, mapped from the stock ones.

:data:`tools.relevance.COSINE_RESCUE` and :data:`~tools.relevance.COSINE_FLOOR` were chosen on the
stock MiniLM's cosines. An adapted model spreads cosines differently (the head of ``bosun adapt``
pulls the archive's texts together, so off-topic questions score closer to it than before), so
``bosun adapt`` maps each threshold to the adapted cosine at the same quantile: it embeds a set
of probe questions, in-domain (mined anchors, training queries) and off-topic (the bundled train
split), takes each probe's best cosine over the collection under both models, and matches the
two distributions (each half of the probes weighing half). No test query is used.
"""

from __future__ import annotations

import numpy as np

from tools.relevance import STOCK_COSINES, CosineThresholds

#: Passages a probe is compared with at most (a fixed sample beyond it: the best cosine over a
#: sample is lower than over the whole collection, equally for both models).
MAX_PASSAGES = 200_000


def best_cosines(
    probes: np.ndarray,
    passages: np.ndarray,
    *,
    exclude: np.ndarray | None = None,
    block: int = 8192,
) -> np.ndarray:
    """Each probe's highest cosine with any passage (rows L2-normalised here); ``exclude``
    names, per probe, a passage row left out (its own passage; -1: none)."""
    q = _normalised(probes)
    skip = np.full(len(q), -1) if exclude is None else np.asarray(exclude)
    best = np.full(len(q), -1.0)
    for start in range(0, len(passages), block):
        sims = _normalised(passages[start : start + block]) @ q.T
        inside = (skip >= start) & (skip < start + len(sims))
        sims[skip[inside] - start, np.flatnonzero(inside)] = -1.0
        best = np.maximum(best, sims.max(axis=0))
    return best


def sample_rows(matrix: np.ndarray, limit: int = MAX_PASSAGES, *, seed: int = 13) -> np.ndarray:
    """The row numbers to compare with: all of them, or a fixed random sample of ``limit``."""
    if len(matrix) <= limit:
        return np.arange(len(matrix))
    return np.sort(np.random.default_rng(seed).choice(len(matrix), size=limit, replace=False))


def map_threshold(stock: np.ndarray, adapted: np.ndarray, weights: np.ndarray, t: float) -> float:
    """The adapted cosine at the (weighted) quantile the stock cosine ``t`` holds among the
    probes' stock best cosines (linear between probes; shifted by the nearest end outside)."""
    q = _quantile_of(stock, weights, t)
    return _value_at(adapted, weights, q) + _overshoot(stock, t)


def map_thresholds(
    stock: np.ndarray,
    adapted: np.ndarray,
    in_domain: np.ndarray,
    base: CosineThresholds = STOCK_COSINES,
) -> CosineThresholds:
    """``base`` mapped from the stock to the adapted cosines of the same probes; ``in_domain``
    marks the in-domain probes. The floor keeps its quantile among all probes (the two groups
    weighing the same in total), the rescue its margin above the closest off-topic probe."""
    if len(stock) != len(adapted) or len(stock) != len(in_domain):
        raise ValueError("stock, adapted and in_domain must describe the same probes")
    inside = int(in_domain.sum())
    outside = len(in_domain) - inside
    if not inside or not outside:
        raise ValueError("calibration needs in-domain and off-topic probes")
    weights = np.where(in_domain, 0.5 / inside, 0.5 / outside)
    floor = map_threshold(stock, adapted, weights, base.floor)
    # The rescue was chosen as a margin above the closest off-topic question: that margin is
    # kept above the closest one under the adapted model (a head can raise off-topic cosines
    # while it lowers in-domain ones, which a pooled quantile would not see).
    off = ~in_domain
    rescue = float(adapted[off].max() + (base.rescue - stock[off].max()))
    return CosineThresholds(rescue=round(rescue, 4), floor=round(min(floor, rescue), 4))


def _quantile_of(values: np.ndarray, weights: np.ndarray, t: float) -> float:
    order = np.argsort(values, kind="stable")
    xs, cum = values[order], _midpoints(weights[order])
    return float(np.interp(t, xs, cum))


def _value_at(values: np.ndarray, weights: np.ndarray, q: float) -> float:
    order = np.argsort(values, kind="stable")
    return float(np.interp(q, _midpoints(weights[order]), values[order]))


def _overshoot(values: np.ndarray, t: float) -> float:
    """How far ``t`` lies outside the probes' range (kept as a shift: no probe says more)."""
    return float(t - values.max()) if t > values.max() else float(min(t - values.min(), 0.0))


def _midpoints(weights: np.ndarray) -> np.ndarray:
    """The cumulative weight at each sorted probe (mid-step, so both ends are symmetric)."""
    total = weights.sum()
    return (np.cumsum(weights) - weights / 2) / total


def _normalised(x: np.ndarray) -> np.ndarray:
    x = np.asarray(x, dtype=np.float32)
    return x / np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1e-12)


__all__ = ["MAX_PASSAGES", "best_cosines", "map_threshold", "map_thresholds", "sample_rows"]
