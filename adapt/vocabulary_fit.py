"""Fit the click vocabulary (:mod:`tools.click_vocabulary`) on feedback questions, and check it
by nested cross-validation over all of them, as the click memory and residual are checked.

**Pairs**: each feedback question with each document its users opened, the document's passages
in the question's reranked pool read as one. IBM Model 1 (:func:`adapt.translation.
fit_translation`) learns from them which question stems go with which document stems; the
background model counts the stems of every passage of the feedback questions' pools.

**Weight**: the translation score, standardised over a pool, is added to the reranker's score
over its typical spread with a weight chosen among :data:`WEIGHTS` by cross-validated nDCG@10 of
the feedback questions' opened documents, each question ordered by a vocabulary fitted on the
other folds' pairs; ``None`` (no vocabulary) is among the choices and wins ties.

**Questions weighted by inverse propensity** in that choice. A question has feedback only when
its document was shown in the first five, and mostly it was first: there a blend can only keep or
lose it, while the questions it is meant for, whose document sits lower, are the ones users
rarely reached. Each feedback question therefore counts ``1 / propensity(k)`` (:func:`adapt.
residual_fit.ips_weight`, ``k`` the best place its opened documents were shown at), the
correction the click residual's pairs already make (Joachims, Swaminathan & Schnabel 2017): a
question opened at place 4 stands for the four that had their document there and were not read
so far.

**Check**: the same choice made inside each fold's complement, each question scored by a
vocabulary fitted, weight and all, without it, against its order without one; installed only
when the questions whose opened documents were not already first gain and those already first
keep their places within a margin (:meth:`adapt.memory_fit.Fitted.passes`, the memory's and the
residual's policy). Weighted by inverse propensity over all questions instead, the check's
estimate on the simulation's 1,000 events rested on the few dozen questions opened at places
2–5 under the weight of the rest and straddled zero (docs/adapt.md).

Why: on the feedback simulation's dev queries of NTSB pc2narr, where every question has its own
narrative and no click memory can help, a vocabulary refitted on the clicks of the other folds'
users lifted the held-out fold's questions (0.4578 stock → 0.465–0.484 nDCG@10 with 100–400
users), and the same blend with an empty table (no labels) lost
(benchmarks/feedback_vocabulary_dev.py, dev queries only).
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from adapt.memory_fit import Fitted, Ranked, ndcg, outer_folds, pool_in_order
from adapt.residual_fit import ips_weight
from adapt.translation import background_counts, fit_translation
from providers.rerankers.translation import TranslationModel
from tools.click_vocabulary import ClickVocabulary

#: Weights of the standardised translation score, in units of the reranker's spread within a
#: pool; None: no vocabulary (wins ties). On the dev queries 0.5–3 all gained, 0.2 less
#: (benchmarks/feedback_vocabulary_dev.py).
WEIGHTS: tuple[float | None, ...] = (None, 0.5, 1.0, 2.0)


@dataclass(frozen=True)
class FittedVocabulary:
    """The vocabulary fitted on every question (None: the chosen weight is none), its nested
    check, and what it chose."""

    vocabulary: ClickVocabulary | None
    check: Fitted
    weight: float | None
    pairs: int  # (question, opened document) pairs of the final fit

    @property
    def installable(self) -> bool:
        """A vocabulary to install whose check passes (:meth:`adapt.memory_fit.Fitted.passes`)."""
        return self.vocabulary is not None and self.check.passes()

    def report(self) -> dict[str, Any]:
        found = {k: v for k, v in self.check.report().items() if k not in ("threshold", "lift")}
        return {**found, "weight": self.weight, "pairs": self.pairs}


class VocabularyQuestions:
    """The feedback questions' pools, their (question, opened document) pairs, and their
    nDCG@10 under a vocabulary fitted on some of them."""

    def __init__(self, ranked: Sequence[Ranked]) -> None:
        self.ranked = list(ranked)
        texts: dict[str, str] = {}
        spreads = []
        for r in self.ranked:
            pool = r.pooled
            if pool is None or not pool.texts:
                continue
            texts.update(zip(pool.chunk_ids, pool.texts, strict=True))
            if len(pool.base) > 1:
                spreads.append(float(np.std(pool.base)))
        typical = statistics.median(spreads) if spreads else 0.0
        self.scale = typical if typical > 1e-9 else 1.0
        self.background: Counter[str] = background_counts(texts.values())
        self.base = [ndcg(r.sources, r.relevant) for r in self.ranked]
        self.pairs = [self._pairs(r) for r in self.ranked]
        self.counts = [
            ips_weight(min(place for _, place in r.pooled.clicked))
            if r.pooled is not None and r.pooled.clicked
            else 1.0
            for r in self.ranked
        ]

    @staticmethod
    def _pairs(r: Ranked) -> list[tuple[str, str]]:
        pool = r.pooled
        if pool is None or not pool.texts:
            return []
        sources = r.sources[: len(pool.chunk_ids)]
        return [
            (r.query, "\n".join(t for s, t in zip(sources, pool.texts, strict=True) if s == doc))
            for doc in sorted(r.relevant)
            if doc in sources
        ]

    def model(self, members: Sequence[int]) -> TranslationModel | None:
        pairs = [p for q in members for p in self.pairs[q]]
        if not pairs:
            return None
        return fit_translation(pairs, (), background=self.background)

    def vocabulary(self, model: TranslationModel, weight: float) -> ClickVocabulary:
        return ClickVocabulary(model, weight, self.scale)

    def scores(self, q: int, model: TranslationModel | None) -> list[float]:
        """nDCG@10 of question ``q`` for each of :data:`WEIGHTS` under ``model``."""
        r = self.ranked[q]
        pool = r.pooled
        if model is None or pool is None or not pool.texts:
            return [self.base[q]] * len(WEIGHTS)
        n = len(pool.chunk_ids)
        probe = ClickVocabulary(model, 1.0, self.scale)
        translation = probe.translation(r.query, pool.texts, r.sources[:n])
        found = []
        for weight in WEIGHTS:
            if weight is None:
                found.append(self.base[q])
                continue
            order = ClickVocabulary(model, weight, self.scale).order(pool.base, translation)
            found.append(ndcg(pool_in_order(r, order), r.relevant))
        return found

    def choose(self, within: Sequence[int], folds: Sequence[int]) -> float | None:
        """The weight with the best weighted mean nDCG@10 over ``within``, each question ordered
        by a vocabulary fitted on the others of ``within`` outside its fold (ties: none, then the
        smaller weight)."""
        totals = np.zeros(len(WEIGHTS))
        for fold in sorted({folds[q] for q in within}):
            model = self.model([q for q in within if folds[q] != fold])
            for q in (q for q in within if folds[q] == fold):
                totals += self.counts[q] * np.asarray(self.scores(q, model))
        best = 0
        for i in range(1, len(WEIGHTS)):
            if totals[i] > totals[best] + 1e-9:
                best = i
        return WEIGHTS[best]

    def held_out(
        self, folds: Sequence[int], splits: Sequence[tuple[list[int], list[int]]]
    ) -> list[float]:
        """Each question's nDCG@10 under a vocabulary fitted, weight and all, on the other
        folds (its own when they choose none)."""
        after = list(self.base)
        for held, rest in splits:
            weight = self.choose(rest, folds)
            model = self.model(rest) if weight is not None else None
            if model is not None and weight is not None:
                for q in held:
                    after[q] = self.scores(q, model)[WEIGHTS.index(weight)]
        return after


def fit_vocabulary(ranked: Sequence[Ranked]) -> FittedVocabulary:
    """The vocabulary of every question of ``ranked`` (those with pool texts), its weight chosen
    by cross-validation, and the nested check (module docstring)."""
    questions = VocabularyQuestions(ranked)
    folds, splits = outer_folds(ranked)
    check = Fitted(None, list(questions.base), questions.held_out(folds, splits))
    everyone = list(range(len(ranked)))
    weight = questions.choose(everyone, folds)
    model = questions.model(everyone) if weight is not None else None
    if model is None or weight is None:
        return FittedVocabulary(None, check, None, 0)
    pairs = sum(len(questions.pairs[q]) for q in everyone)
    return FittedVocabulary(questions.vocabulary(model, weight), check, weight, pairs)


def blended(r: Ranked, vocabulary: ClickVocabulary) -> tuple[str, ...]:
    """``r``'s documents with its pool in ``vocabulary``'s order."""
    pool = r.pooled
    if pool is None or not pool.texts:
        return r.sources
    translation = vocabulary.translation(r.query, pool.texts, r.sources[: len(pool.chunk_ids)])
    return pool_in_order(r, vocabulary.order(pool.base, translation))


__all__ = ["WEIGHTS", "FittedVocabulary", "VocabularyQuestions", "blended", "fit_vocabulary"]
