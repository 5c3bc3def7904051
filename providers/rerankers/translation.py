"""The archive's vocabulary as a translation model: how likely a question's word is, given the
words of a passage that answers it (IBM Model 1, Berger & Lafferty 1999).

Fitted by `bosun adapt` on the (question, answering passage) pairs it mines or is given: a
probable cause and its narrative, a thread's first message and its resolving reply. It learns
that "disorientation" is asked of passages that say "clouds" and "instrument", which neither
BM25 nor the stock embedder know. The reranker reads it as two features
(:data:`TRANSLATION_FEATURES`); it is stored inside the fitted reranker's weights file. Fitting
it is :mod:`adapt.translation`.

Scoring a passage ``d`` for the query stems ``q``: the mean over ``q`` of
``log((1 - λ) (α P(q|d) + (1 - α) Σ_w t(q|w) P(w|d)) + λ P(q|C))``, with ``P(·|d)`` the
passage's stem frequencies and ``P(q|C)`` the collection's: passages holding ``q`` over the sum
of that count over every stem.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from providers.rerankers.features import document_groups
from text.words import tokens, topic_stems

#: The reranker's columns computed from a translation model, after :data:`FEATURES`.
TRANSLATION_FEATURES: tuple[str, ...] = (
    "translation_gap",  # the passage's score minus the best among the candidates (<= 0)
    # its document's candidate passages read as one, minus the best passage score: a narrative
    # split over passages answers as a whole (+0.003 nDCG@10 over its best passage, pc2narr)
    "doc_translation_gap",
)
#: Smoothing: λ of the collection model and α of the passage's own words. Coarse grid on the
#: stock pc2narr candidates (both folds): flat within 0.003 nDCG@10 for λ 0.01-0.2, α 0.3-0.5;
#: λ 0.8 (classic) loses 0.02.
LAMBDA = 0.1
ALPHA = 0.5


def stems(text: str) -> list[str]:
    """The content stems the model reads (the reranker's own tokenisation)."""
    return topic_stems(tokens(text))


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


__all__ = ["TRANSLATION_FEATURES", "TranslationModel", "stems"]
