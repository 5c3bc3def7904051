"""The archive's vocabulary as a translation model: how likely a question's word is, given the
words of a passage that answers it (IBM Model 1, Berger & Lafferty 1999).

Fitted by `bosun adapt` on the (question, answering passage) pairs it mines or is given: a
probable cause and its narrative, a thread's first message and its resolving reply. It learns
that "disorientation" is asked of passages that say "clouds" and "instrument", which neither
BM25 nor the stock embedder know. The reranker reads it as two features
(:data:`TRANSLATION_FEATURES`); it is stored inside the fitted reranker's weights file.

Scoring a passage ``d`` for the query stems ``q``: the mean over ``q`` of
``log((1 - λ) (α P(q|d) + (1 - α) Σ_w t(q|w) P(w|d)) + λ P(q|C))``, with ``P(·|d)`` the
passage's stem frequencies and ``P(q|C)`` the collection's: passages holding ``q`` over the sum
of that count over every stem.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from providers.rerankers.features import document_groups
from text.words import content_stems, tokens

#: The reranker's columns computed from a translation model, after :data:`FEATURES`.
TRANSLATION_FEATURES: tuple[str, ...] = (
    "translation_gap",  # the passage's score minus the best among the candidates (<= 0)
    # its document's candidate passages read as one, minus the best passage score: a narrative
    # split over passages answers as a whole (+0.003 nDCG@10 over its best passage, pc2narr)
    "doc_translation_gap",
)
#: EM passes. Checked like λ and α below (offline, stock pc2narr candidates, both folds): 1, 2,
#: 3, 5, 10, 20 passes gave 0.4772, 0.4817, 0.4888, 0.4896, 0.4853, 0.4825 nDCG@10.
ITERATIONS = 5
MIN_PROB = 1e-3  # translation probabilities below this are dropped from the table
#: Smoothing: λ of the collection model and α of the passage's own words. Coarse grid on the
#: stock pc2narr candidates (both folds): flat within 0.003 nDCG@10 for λ 0.01-0.2, α 0.3-0.5;
#: λ 0.8 (classic) loses 0.02.
LAMBDA = 0.1
ALPHA = 0.5
BACKGROUND_TERMS = 200_000  # most frequent stems kept for P(q|C); the others count once


def stems(text: str) -> list[str]:
    """The content stems the model reads (the reranker's own tokenisation)."""
    return content_stems(tokens(text))


@dataclass(frozen=True)
class TranslationModel:
    """``table[q][w]``: P(query stem q | passage stem w); ``background[q]``: passages holding
    q, of ``mass`` (that count summed over every stem)."""

    table: Mapping[str, Mapping[str, float]]
    background: Mapping[str, int]
    mass: int
    pairs: int  # fitted on

    def score(self, query: Sequence[str], passages: Sequence[Sequence[str]]) -> np.ndarray:
        """Mean log-probability of ``query`` (stems, repeats counted) under each passage."""
        if not query:
            return np.zeros(len(passages))
        distinct = list(dict.fromkeys(query))
        column = {q: i for i, q in enumerate(distinct)}
        repeats = np.zeros(len(distinct))
        for q in query:
            repeats[column[q]] += 1
        by_word: dict[str, np.ndarray] = {}  # passage stem -> t(q|w) for each distinct q
        for i, q in enumerate(distinct):
            for w, p in self.table.get(q, {}).items():
                by_word.setdefault(w, np.zeros(len(distinct)))[i] = p
        total = self.mass + 1
        bg = np.array([(self.background.get(q, 0) + 1) / total for q in distinct])
        out = np.empty(len(passages))
        for j, words in enumerate(passages):
            counts = Counter(words)
            n = max(len(words), 1)
            own = np.array([counts.get(q, 0) for q in distinct], dtype=np.float64)
            translated = np.zeros(len(distinct))
            for w, c in counts.items():
                row = by_word.get(w)
                if row is not None:
                    translated += c * row
            mixed = (ALPHA * own + (1 - ALPHA) * translated) / n
            out[j] = float(repeats @ np.log((1 - LAMBDA) * mixed + LAMBDA * bg)) / len(query)
        return out

    def columns(
        self,
        query: str,
        documents: Sequence[str],
        sources: Sequence[Hashable] | None = None,
    ) -> np.ndarray:
        """The :data:`TRANSLATION_FEATURES` of each document (one query's candidates)."""
        if not documents:
            return np.zeros((0, len(TRANSLATION_FEATURES)))
        query_stems = stems(query)
        passages = [stems(d) for d in documents]
        groups = document_groups(range(len(documents)) if sources is None else sources)
        shared = [members for members in groups if len(members) > 1]
        joined = [[s for i in members for s in passages[i]] for members in shared]
        # One call scores the passages and the documents of several: the query's rows are built
        # once.
        both = self.score(query_stems, passages + joined)
        scores = both[: len(passages)]
        doc = scores.copy()
        for members, value in zip(shared, both[len(passages) :], strict=True):
            doc[members] = value
        best = scores.max()
        return np.column_stack([scores - best, doc - best])

    def to_json(self) -> dict[str, Any]:
        return {
            "mass": self.mass,
            "pairs": self.pairs,
            "lambda": LAMBDA,
            "alpha": ALPHA,
            "table": {
                q: {w: float(f"{p:.4g}") for w, p in sorted(row.items())}
                for q, row in sorted(self.table.items())
            },
            "background": dict(sorted(self.background.items())),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TranslationModel:
        if (data.get("lambda"), data.get("alpha")) != (LAMBDA, ALPHA):
            raise ValueError(
                f"translation model smoothed with λ {data.get('lambda')}, α {data.get('alpha')}; "
                f"this code scores with λ {LAMBDA}, α {ALPHA}"
            )
        return cls(
            table={q: {w: float(p) for w, p in row.items()} for q, row in data["table"].items()},
            background={q: int(n) for q, n in data["background"].items()},
            mass=int(data["mass"]),
            pairs=int(data["pairs"]),
        )


def fit_translation(
    pairs: Sequence[tuple[str, str]], collection: Iterable[str], *, iterations: int = ITERATIONS
) -> TranslationModel:
    """IBM Model 1 by EM over (question, answering passage) pairs; ``collection`` is every
    passage's text (for the background model)."""
    background: Counter[str] = Counter()
    for text in collection:
        background.update(set(stems(text)))
    kept = {q: n for q, n in background.most_common(BACKGROUND_TERMS) if n > 1}
    table = _em([(stems(q), stems(d)) for q, d in pairs], iterations)
    return TranslationModel(table, kept, sum(background.values()), len(pairs))


def _em(
    pairs: Sequence[tuple[list[str], list[str]]], iterations: int
) -> dict[str, dict[str, float]]:
    """t(q|w) over every (query stem, passage stem) that meet in a pair, vectorised: one cell
    per (pair, query stem occurrence, distinct passage stem)."""
    keys: dict[tuple[str, str], int] = {}
    cell_key: list[np.ndarray] = []
    cell_row: list[np.ndarray] = []
    cell_count: list[np.ndarray] = []
    rows = 0
    for query, passage in pairs:
        counts = Counter(passage)
        if not query or not counts:
            continue
        words = list(counts)
        weight = np.array([counts[w] for w in words], dtype=np.float64)
        for q in query:
            cell_key.append(np.array([keys.setdefault((q, w), len(keys)) for w in words]))
            cell_row.append(np.full(len(words), rows))
            cell_count.append(weight)
            rows += 1
    if not keys:
        return {}
    key = np.concatenate(cell_key)
    row = np.concatenate(cell_row)
    count = np.concatenate(cell_count)
    word_of_key = np.empty(len(keys), dtype=np.int64)
    word_ids: dict[str, int] = {}
    for (_, w), k in keys.items():
        word_of_key[k] = word_ids.setdefault(w, len(word_ids))
    t = np.ones(len(keys))
    for _ in range(iterations):
        mass = t[key] * count
        share = mass / np.bincount(row, weights=mass, minlength=rows)[row]
        expected = np.bincount(key, weights=share, minlength=len(keys))
        t = expected / np.bincount(word_of_key, weights=expected)[word_of_key]
    table: dict[str, dict[str, float]] = {}
    for (q, w), k in keys.items():
        if t[k] >= MIN_PROB:
            table.setdefault(q, {})[w] = float(t[k])
    return table


__all__ = ["TRANSLATION_FEATURES", "TranslationModel", "fit_translation", "stems"]
