"""Ranking metrics as in trec_eval / BEIR: nDCG@k (linear graded gain), Recall@k, MRR@k.

``ranked`` is a list of distinct document ids, best first; ``qrels`` maps document ids to graded
relevance, where only a score above 0 counts as relevant.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence


def dcg(gains: Sequence[float]) -> float:
    """Discounted cumulative gain: sum of gain_i / log2(i + 1), ranks from 1."""
    return sum(g / math.log2(rank + 1) for rank, g in enumerate(gains, start=1))


def ndcg_at_k(ranked: Sequence[str], qrels: Mapping[str, int], k: int = 10) -> float:
    """DCG of the top ``k`` divided by the DCG of the ideal ordering of the judged documents."""
    ideal = sorted((r for r in qrels.values() if r > 0), reverse=True)[:k]
    if not ideal:
        return 0.0
    gains = [max(qrels.get(doc, 0), 0) for doc in ranked[:k]]
    return dcg(gains) / dcg(ideal)


def recall_at_k(ranked: Sequence[str], qrels: Mapping[str, int], k: int = 100) -> float:
    """Share of the relevant documents found in the top ``k``."""
    relevant = {doc for doc, r in qrels.items() if r > 0}
    if not relevant:
        return 0.0
    return len(relevant.intersection(ranked[:k])) / len(relevant)


def mrr_at_k(ranked: Sequence[str], qrels: Mapping[str, int], k: int = 10) -> float:
    """Reciprocal rank of the first relevant document in the top ``k`` (0 when none is)."""
    for rank, doc in enumerate(ranked[:k], start=1):
        if qrels.get(doc, 0) > 0:
            return 1.0 / rank
    return 0.0


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0-100) with linear interpolation between closest ranks."""
    if not values:
        return 0.0
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q / 100.0
    low = math.floor(pos)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (pos - low)


#: The metric set the harness reports, by name.
METRICS = {
    "ndcg@10": lambda ranked, qrels: ndcg_at_k(ranked, qrels, 10),
    "recall@10": lambda ranked, qrels: recall_at_k(ranked, qrels, 10),
    "recall@100": lambda ranked, qrels: recall_at_k(ranked, qrels, 100),
    "mrr@10": lambda ranked, qrels: mrr_at_k(ranked, qrels, 10),
}


def score_query(ranked: Sequence[str], qrels: Mapping[str, int]) -> dict[str, float]:
    """Every metric of :data:`METRICS` for one query."""
    return {name: metric(ranked, qrels) for name, metric in METRICS.items()}


def aggregate_documents(chunk_docs: Sequence[tuple[str, float]]) -> list[str]:
    """Document ranking from ranked (document id, chunk score) pairs: each document at its best
    chunk's score; ties keep the order in which documents first appear."""
    best: dict[str, float] = {}
    for doc, score in chunk_docs:
        if doc not in best or score > best[doc]:
            best[doc] = score
    order = {doc: i for i, doc in enumerate(best)}
    return sorted(best, key=lambda doc: (-best[doc], order[doc]))
