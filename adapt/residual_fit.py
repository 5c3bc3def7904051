"""Fit the click residual (:mod:`tools.click_residual`) on feedback questions, and check it by
nested cross-validation over all of them, as the click memory is checked (:mod:`adapt.memory_fit`).

**Pairs, weighted by inverse propensity** (Joachims, Swaminathan & Schnabel 2017, "Unbiased
learning-to-rank with biased feedback"). A user opens only what they looked at, and they look at
the first places of the source list more often than the later ones, so a click at a low place
stands for more relevant passages users never saw there. Each opened passage of a question's pool
is paired with every pool passage of a document no user of the question opened, weighted
``1 / propensity(place it was shown at)`` shared over its pairs, with ``propensity(k) = k^-η``:
:data:`PROPENSITY_POWER` ``η = 1`` and weights capped at :data:`MAX_WEIGHT`, the defaults of that
paper (nothing here randomises what is shown, so the curve cannot be estimated from the stored
feedback; `bosun serve` shows its first five citations alike, so η is a documented assumption,
not a fit). Pairing a click with every other passage, not only with those shown above it, keeps
the reranker's own order in the loss: pairs of a click and the passages skipped above it alone
are all cases the reranker got wrong, and a model trained on them learns to reverse it.

**Loss**: pairwise logistic over ``(rerank_i − rerank_j) / scale + θ·(z_i − z_j)`` (the reranker's
score difference a fixed offset, ``z`` the standardised features), plus ``λ/2 ‖θ‖²`` with
``λ = penalty · (total pair weight)``: θ is pulled to 0, the reranker's order. The penalty is
chosen among :data:`PENALTIES` by cross-validated nDCG@10 of the feedback questions' opened
documents; ``None`` (no residual) is among the choices and wins ties.

**Check**: the same choice made inside each fold's complement, each question scored by a
residual fitted without it against its order without one; installed only when the questions
whose opened documents were not already first gain and those already first keep their places
within a margin (:meth:`adapt.memory_fit.Fitted.passes`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from adapt.memory_fit import Fitted, Ranked, ndcg, outer_folds, pool_in_order
from providers.rerankers.features import FEATURES
from tools.click_residual import ClickResidual

#: ``η`` of the examination propensity ``k^-η`` of the place ``k`` a passage was shown at.
PROPENSITY_POWER = 1.0
#: The largest inverse-propensity weight of one click (clipping keeps the variance bounded).
MAX_WEIGHT = 10.0
#: L2 penalties on θ, relative to the total pair weight; None: no residual (wins ties).
PENALTIES: tuple[float | None, ...] = (None, 1.0, 0.3, 0.1, 0.03)
NEWTON_STEPS = 30


def propensity(position: int, power: float = PROPENSITY_POWER) -> float:
    """How likely a user looked at the 1-based ``position`` of the source list: ``k^-power``."""
    if position < 1:
        raise ValueError(f"places are counted from 1, not {position}")
    return float(position) ** -power


def ips_weight(position: int, power: float = PROPENSITY_POWER, cap: float = MAX_WEIGHT) -> float:
    """The weight of a click at ``position``: one over its propensity, at most ``cap``."""
    return min(1.0 / propensity(position, power), cap)


@dataclass(frozen=True)
class FittedResidual:
    """The residual fitted on every question (None: the chosen penalty is none), its nested
    check (a :class:`Fitted` without a memory: before/after per question), what it chose."""

    residual: ClickResidual | None
    check: Fitted
    penalty: float | None
    pairs: int  # training pairs of the final fit

    @property
    def installable(self) -> bool:
        """A residual to install whose check passes (:meth:`adapt.memory_fit.Fitted.passes`)."""
        return self.residual is not None and self.check.passes()

    def report(self) -> dict[str, Any]:
        found = {k: v for k, v in self.check.report().items() if k not in ("threshold", "lift")}
        return {**found, "penalty": self.penalty, "pairs": self.pairs, "power": PROPENSITY_POWER}


class ClickPairs:
    """The questions' pools, standardised, and their pairs."""

    def __init__(self, ranked: Sequence[Ranked]) -> None:
        self.ranked = list(ranked)
        pools = [r.pooled for r in ranked if r.pooled is not None and len(r.pooled.chunk_ids)]
        rows = np.vstack([p.features for p in pools]) if pools else np.zeros((1, len(FEATURES)))
        self.mean = rows.mean(axis=0)
        spread = rows.std(axis=0)
        self.spread = np.where(spread > 1e-9, spread, 1.0)
        spreads = [float(np.std(p.base)) for p in pools if len(p.base) > 1]
        typical = float(np.median(spreads)) if spreads else 0.0
        self.scale = typical if typical > 1e-9 else 1.0
        self.base = [ndcg(r.sources, r.relevant) for r in ranked]
        self.pairs = [self._pairs(r) for r in ranked]

    def _pairs(self, r: Ranked) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
        """(feature differences, offsets, weights) of one question's pairs (None: none)."""
        pool = r.pooled
        if pool is None or not pool.clicked:
            return None
        z = (pool.features - self.mean) / self.spread
        b = pool.base / self.scale
        sources = r.sources[: len(pool.chunk_ids)]
        places = dict(pool.clicked)
        clicked = [i for i, c in enumerate(pool.chunk_ids) if c in places]
        others = [i for i, s in enumerate(sources) if s not in r.relevant and i not in clicked]
        if not clicked or not others:
            return None
        diffs, offsets, weights = [], [], []
        for i in clicked:
            diffs.append(z[i] - z[others])
            offsets.append(b[i] - b[others])
            weight = ips_weight(places[pool.chunk_ids[i]]) / len(others)
            weights.append(np.full(len(others), weight))
        return np.vstack(diffs), np.concatenate(offsets), np.concatenate(weights)

    def fit(self, members: Sequence[int], penalty: float) -> tuple[np.ndarray, int]:
        """θ on the pairs of ``members`` (Newton's method), and how many pairs there were."""
        found = [p for p in (self.pairs[q] for q in members) if p is not None]
        width = len(self.mean)
        if not found:
            return np.zeros(width), 0
        d = np.vstack([f[0] for f in found])
        o = np.concatenate([f[1] for f in found])
        w = np.concatenate([f[2] for f in found])
        strength = penalty * float(w.sum())
        theta = np.zeros(width)
        for _ in range(NEWTON_STEPS):
            margin = o + d @ theta
            p = 1.0 / (1.0 + np.exp(margin))  # σ(−margin): how wrong each pair still is
            grad = -(d.T @ (w * p)) + strength * theta
            hess = (d.T * (w * p * (1.0 - p))) @ d + strength * np.eye(width)
            step = np.linalg.solve(hess, grad)
            theta -= step
            if float(np.abs(step).max()) < 1e-8:
                break
        return theta, len(o)

    def residual(self, theta: np.ndarray) -> ClickResidual:
        return ClickResidual(theta, self.mean, self.spread, self.scale)

    def score(self, q: int, residual: ClickResidual) -> float:
        return ndcg(reordered(self.ranked[q], residual), self.ranked[q].relevant)

    def choose(self, within: Sequence[int], folds: Sequence[int]) -> float | None:
        """The penalty with the best mean nDCG@10 over ``within``, each question ordered by a
        residual fitted on the others of ``within`` outside its fold (ties: none, then the
        stronger penalty)."""
        best: tuple[float, float | None] = (sum(self.base[q] for q in within), None)
        if all(self.pairs[q] is None for q in within):
            return None
        groups = sorted({folds[q] for q in within})
        for penalty in PENALTIES:
            if penalty is None:
                continue
            total = 0.0
            for fold in groups:
                train = [q for q in within if folds[q] != fold]
                held = [q for q in within if folds[q] == fold]
                theta, _ = self.fit(train, penalty)
                residual = self.residual(theta)
                total += sum(self.score(q, residual) for q in held)
            if total > best[0] + 1e-9:
                best = (total, penalty)
        return best[1]


def fit_residual(ranked: Sequence[Ranked]) -> FittedResidual:
    """The residual of every question of ``ranked`` (those with a :class:`~adapt.memory_fit.
    Pool`), its penalty chosen by cross-validation, and the nested check (module docstring)."""
    questions = ClickPairs(ranked)
    folds, splits = outer_folds(ranked)
    everyone = list(range(len(ranked)))
    after = list(questions.base)
    for held, rest in splits:
        penalty = questions.choose(rest, folds)
        if penalty is None:
            continue
        residual = questions.residual(questions.fit(rest, penalty)[0])
        for q in held:
            after[q] = questions.score(q, residual)
    penalty = questions.choose(everyone, folds)
    check = Fitted(None, list(questions.base), after)
    if penalty is None:
        return FittedResidual(None, check, None, 0)
    theta, pairs = questions.fit(everyone, penalty)
    return FittedResidual(questions.residual(theta), check, penalty, pairs)


def reordered(r: Ranked, residual: ClickResidual) -> tuple[str, ...]:
    """``r``'s documents with its pool in ``residual``'s order."""
    pool = r.pooled
    if pool is None or not len(pool.chunk_ids):
        return r.sources
    return pool_in_order(r, residual.order(pool.base, pool.features))


def served_with(residual: ClickResidual, ranked: Sequence[Ranked]) -> list[Ranked]:
    """``ranked`` with each question's pool in ``residual``'s order (what the collection serves
    with it installed: the order the click memory is fitted and checked on)."""
    return [replace(r, sources=reordered(r, residual)) for r in ranked]


__all__ = [
    "MAX_WEIGHT",
    "PENALTIES",
    "PROPENSITY_POWER",
    "ClickPairs",
    "FittedResidual",
    "fit_residual",
    "ips_weight",
    "propensity",
    "reordered",
    "served_with",
]
