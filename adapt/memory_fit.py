"""Fit the click memory (:mod:`tools.click_memory`) on feedback questions, and check it by
cross-validation over all of them.

Every labelled question is ranked once by the collection as it is served without a memory (its
candidates' documents in order, and how many of them the reranker ordered: the memory moves
only those). The memory's two settings, how close a new question must be (``threshold``) and how
many places an opened document moves (``lift``), are chosen among :data:`THRESHOLDS` ×
:data:`LIFTS` by the mean nDCG@10 the labelled questions reach when each is ordered by a memory
of the *other* folds' questions (:data:`FOLDS` folds fixed by a hash of the question). ``lift``
0, no memory, is among the choices and wins ties: with few or conflicting labels nothing moves.

The check is the same choice made again inside each fold's complement (nested cross-validation):
each question is scored by a memory fitted, settings and all, without it, against its order
without a memory, pair by pair; every labelled question counts, not a fifth held back (a single
20 % slice of a few dozen questions let a model that lost 0.03 on unseen queries through).

**What can move, and a guard on what cannot** (:meth:`Fitted.passes`, the policy of the click
vocabulary's and residual's checks too). A question has feedback only when its opened document
was shown in the first five, and mostly it was already first: such a question (nDCG@10 of 1
before any correction) can only keep its place or lose it, and a mean over all questions buries
the few dozen a correction is for under them (the feedback simulation's NTSB checks straddled
zero at 1,000 events). So the gain is judged on the *movable* questions alone, those whose opened
documents were not already first: at least :data:`MIN_MOVABLE` of them and a mean gain; and the
questions already first must not lose more than :data:`FIRST_MARGIN` nDCG@10 on average.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from tools.click_memory import ClickMemory

#: Folds of the labelled questions (by a hash of the question text).
FOLDS = 5
#: Candidate settings: cosine of the nearest labelled question below which it lifts nothing,
#: and places a document moves for a question identical to a labelled one (0: no memory). A
#: lifted document is another question's, so a question whose own document no user opened can
#: only lose by it: lifts of up to 10 or 30 places gained more on SciFact's simulation queries
#: but cost those questions up to 0.0055 nDCG@10, up to 3 nothing
#: (benchmarks/feedback_memory_dev.py, dev queries only).
THRESHOLDS = (0.5, 0.6, 0.7, 0.8, 0.9)
LIFTS = (0.0, 1.0, 3.0)
#: Ranked documents nDCG is taken over.
K = 10
#: Fewest movable questions (opened documents not already first) a check's gain may rest on.
MIN_MOVABLE = 10
#: The mean nDCG@10 the questions already first may lose to a correction that lifts the movable
#: ones, and whether more movable questions must also rise than fall. Chosen on the dev side of
#: the feedback simulation (benchmarks/feedback_vocabulary_dev.py, simulation queries only, never
#: its evaluation queries): a blend that lifts the movable questions on average moves many of
#: them one place down while lifting others several, so counting them refused what gained, and
#: 0.05 is the smallest margin that installed every fold's vocabulary that gained held out.
FIRST_MARGIN = 0.05
MAJORITY = False


@dataclass(frozen=True)
class Pool:
    """The reranked pool of a labelled question, as the click residual learns from it."""

    chunk_ids: tuple[str, ...]  # the pool's passages, in the reranker's order
    base: np.ndarray  # their rerank scores
    features: np.ndarray  # their rows of the shipped reranker's features (tools.click_residual)
    clicked: tuple[tuple[str, int], ...]  # positive passages and the place each was shown at
    texts: tuple[str, ...] = ()  # their texts as the reranker reads them (the click vocabulary)


@dataclass(frozen=True)
class Ranked:
    """One labelled question as the collection serves it without a memory."""

    query: str
    relevant: frozenset[str]  # the documents its users opened
    sources: tuple[str, ...]  # its candidates' documents, best first (passages: repeats)
    pool: int  # how many of them the reranker ordered (the memory moves only those)
    pooled: Pool | None = None  # the pool's passages and features (None: no residual fitted)


@dataclass(frozen=True)
class Fitted:
    """The memory fitted on every question, and its nested cross-validated check."""

    memory: ClickMemory | None  # None: the chosen lift is 0 (nothing to remember)
    before: list[float]  # nDCG@10 per question without a memory
    after: list[float]  # with a memory fitted without the question (its fold)

    @property
    def deltas(self) -> list[float]:
        return [a - b for b, a in zip(self.before, self.after, strict=True)]

    @property
    def better(self) -> int:
        return sum(d > 1e-9 for d in self.deltas)

    @property
    def worse(self) -> int:
        return sum(d < -1e-9 for d in self.deltas)

    @property
    def gain(self) -> float:
        return sum(self.deltas) / len(self.deltas) if self.deltas else 0.0

    @property
    def first(self) -> list[bool]:
        """Whether each question's opened documents were already first (nDCG@10 of 1)."""
        return [b >= 1.0 - 1e-9 for b in self.before]

    def movable(self) -> dict[str, Any]:
        """The check on the questions whose opened documents were not already first."""
        deltas = [d for d, f in zip(self.deltas, self.first, strict=True) if not f]
        before = [b for b, f in zip(self.before, self.first, strict=True) if not f]
        n = len(deltas)
        return {
            "questions": n,
            "before": sum(before) / n if n else None,
            "after": (sum(before) + sum(deltas)) / n if n else None,
            "better": sum(d > 1e-9 for d in deltas),
            "worse": sum(d < -1e-9 for d in deltas),
        }

    def first_change(self) -> float:
        """The mean change of nDCG@10 of the questions already first (0 when there are none)."""
        deltas = [d for d, f in zip(self.deltas, self.first, strict=True) if f]
        return sum(deltas) / len(deltas) if deltas else 0.0

    def passes(self, margin: float = FIRST_MARGIN, *, majority: bool = MAJORITY) -> bool:
        """At least :data:`MIN_MOVABLE` movable questions, their mean a gain (with more rising
        than falling when ``majority``), and the questions already first losing at most
        ``margin`` on average."""
        moved = self.movable()
        return (
            moved["questions"] >= MIN_MOVABLE
            and moved["after"] > moved["before"] + 1e-12
            and (moved["better"] > moved["worse"] or not majority)
            and self.first_change() >= -margin - 1e-12
        )

    def verdict(self) -> str:
        """What the check measured, in words (why a correction was or was not installed)."""
        moved = self.movable()
        found = f"{moved['questions']} questions not already first"
        if moved["questions"]:
            found += (
                f" {moved['before']:.4f} -> {moved['after']:.4f} ({moved['better']} higher, "
                f"{moved['worse']} lower)"
            )
        if moved["questions"] < MIN_MOVABLE:
            found += f", fewer than {MIN_MOVABLE}"
        return (
            f"{found}; the {sum(self.first)} already first {self.first_change():+.4f} "
            f"(at most -{FIRST_MARGIN:g})"
        )

    @property
    def installable(self) -> bool:
        """A memory to install whose check :meth:`passes`."""
        return self.memory is not None and self.passes()

    def report(self) -> dict[str, Any]:
        n = len(self.deltas)
        mean = self.gain
        variance = sum((d - mean) ** 2 for d in self.deltas) / (n - 1) if n > 1 else 0.0
        chosen = self.memory
        first = sum(self.first)
        return {
            "metric": "ndcg@10",
            "folds": FOLDS,
            "before": sum(self.before) / n if n else None,
            "after": sum(self.after) / n if n else None,
            "better": self.better,
            "worse": self.worse,
            "standard_error": math.sqrt(variance / n) if n else None,
            "movable": self.movable(),
            "first": {"questions": first, "change": self.first_change(), "margin": FIRST_MARGIN},
            "threshold": chosen.threshold if chosen else None,
            "lift": chosen.lift if chosen else 0.0,
        }


def pool_in_order(r: Ranked, order: Sequence[int]) -> tuple[str, ...]:
    """``r``'s documents with its reranked pool in ``order`` (positions in the pool)."""
    n = len(r.pooled.chunk_ids) if r.pooled is not None else 0
    return tuple(r.sources[i] for i in order) + r.sources[n:]


def fold_of(query: str, folds: int = FOLDS) -> int:
    digest = hashlib.sha256(f"memory-fold:{query}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % folds


def ndcg(sources: Sequence[str], relevant: frozenset[str], k: int = K) -> float:
    """Binary nDCG@k of the documents in ``sources`` (first appearance counts)."""
    seen: list[str] = []
    for source in sources:
        if source not in seen:
            seen.append(source)
            if len(seen) == k:
                break
    dcg = sum(1 / math.log2(i + 2) for i, s in enumerate(seen) if s in relevant)
    ideal = sum(1 / math.log2(i + 2) for i in range(min(len(relevant), k)))
    return dcg / ideal if ideal else 0.0


@dataclass(frozen=True)
class Grid:
    """The settings the cross-validation chooses among (``lifts`` must hold 0: no memory)."""

    thresholds: tuple[float, ...] = THRESHOLDS
    lifts: tuple[float, ...] = LIFTS


class _Questions:
    """The labelled questions with their cosines, scored under a memory of some of them."""

    def __init__(self, ranked: Sequence[Ranked], vectors: np.ndarray, grid: Grid) -> None:
        if 0.0 not in grid.lifts:
            raise ValueError(f"the lifts {grid.lifts} must offer 0 (no memory)")
        self.grid = grid
        self.ranked = list(ranked)
        unit = vectors / np.clip(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12, None)
        self.vectors = unit.astype(np.float32)
        self.sims = self.vectors @ self.vectors.T
        self.base = [ndcg(r.sources, r.relevant) for r in self.ranked]

    def memory(self, members: Sequence[int], threshold: float, lift: float) -> ClickMemory:
        return ClickMemory(
            self.vectors[list(members)],
            tuple(tuple(sorted(self.ranked[i].relevant)) for i in members),
            threshold,
            lift,
        )

    def scores(self, q: int, members: np.ndarray, threshold: float) -> list[float]:
        """nDCG@10 of question ``q`` under a memory of ``members`` for each of the grid's lifts."""
        item = self.ranked[q]
        strength = np.clip((self.sims[q, members] - threshold) / (1.0 - threshold), 0.0, 1.0)
        weights: dict[str, float] = {}
        for j in np.flatnonzero(strength > 0.0):
            for source in self.ranked[int(members[j])].relevant:
                weights[source] = max(weights.get(source, 0.0), float(strength[j]))
        if not weights:
            return [self.base[q]] * len(self.grid.lifts)
        pool, rest = item.sources[: item.pool], item.sources[item.pool :]
        found = []
        for lift in self.grid.lifts:
            probe = ClickMemory(self.vectors[:0], (), threshold, lift)
            order = probe.order(pool, weights)
            found.append(ndcg([pool[i] for i in order] + list(rest), item.relevant))
        return found

    def choose(self, within: Sequence[int], folds: Sequence[int]) -> tuple[float, float]:
        """(threshold, lift) with the best mean nDCG@10 over ``within`` when each question is
        ordered by a memory of the others of ``within`` outside its fold (ties: the smaller
        lift, then the higher threshold)."""
        within_arr = np.asarray(within, dtype=int)
        fold_arr = np.asarray([folds[m] for m in within], dtype=int)
        others = {f: within_arr[fold_arr != f] for f in set(fold_arr.tolist())}
        best = (-1.0, 0.0, self.grid.thresholds[-1])
        for threshold in reversed(self.grid.thresholds):
            totals = np.zeros(len(self.grid.lifts))
            for q in within:
                totals += self.scores(q, others[folds[q]], threshold)
            for lift, total in zip(self.grid.lifts, totals, strict=True):
                mean = total / max(len(within), 1)
                if mean > best[0] + 1e-12:
                    best = (mean, lift, threshold)
        return best[2], best[1]


def outer_folds(ranked: Sequence[Ranked]) -> tuple[list[int], list[tuple[list[int], list[int]]]]:
    """Each question's fold, and (held back, the rest) of each fold where both hold some."""
    folds = [fold_of(r.query) for r in ranked]
    splits = []
    for fold in range(FOLDS):
        held = [q for q, f in enumerate(folds) if f == fold]
        rest = [q for q, f in enumerate(folds) if f != fold]
        if held and rest:
            splits.append((held, rest))
    return folds, splits


def fit_memory(ranked: Sequence[Ranked], vectors: np.ndarray, grid: Grid | None = None) -> Fitted:
    """The memory of every question in ``ranked`` (with its stock vectors, same order), its
    settings chosen by cross-validation among ``grid``, and the nested check (module
    docstring)."""
    if len(ranked) != len(vectors):
        raise ValueError(f"{len(ranked)} questions for {len(vectors)} vectors")
    grid = grid or Grid()
    questions = _Questions(ranked, np.asarray(vectors, dtype=np.float32), grid)
    folds, splits = outer_folds(ranked)
    everyone = list(range(len(ranked)))
    after = list(questions.base)
    for held, rest in splits:
        threshold, lift = questions.choose(rest, folds)
        if lift == 0.0:
            continue
        members = np.asarray(rest, dtype=int)
        for q in held:
            after[q] = questions.scores(q, members, threshold)[grid.lifts.index(lift)]
    threshold, lift = questions.choose(everyone, folds)
    memory = questions.memory(everyone, threshold, lift) if lift > 0.0 else None
    return Fitted(memory, list(questions.base), after)


__all__ = [
    "FIRST_MARGIN",
    "FOLDS",
    "LIFTS",
    "MIN_MOVABLE",
    "THRESHOLDS",
    "Fitted",
    "Grid",
    "Pool",
    "Ranked",
    "fit_memory",
    "pool_in_order",
    "fold_of",
    "ndcg",
    "outer_folds",
]
