"""Per (query, document) relevance signals for the offline reranker: lexical, semantic and field.

Pure functions over text and the retrieval scores a candidate already carries; no model, no I/O.
The feature order is part of the trained weights file (``providers/data/feature_reranker.json``).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from text.words import is_identifier, tokens, topic_stems

#: Names of the columns :func:`feature_matrix` returns, in order.
FEATURES: tuple[str, ...] = (
    "cosine",  # query-document cosine similarity (absolute)
    "cosine_gap",  # cosine minus the best cosine among the candidates (<= 0)
    "coverage",  # share of the query's content stems found in the document (IDF-weighted if given)
    "coverage_gap",  # coverage minus the best coverage among the candidates (<= 0)
    "bigrams",  # share of the query's adjacent content-stem pairs found in the document
    "title",  # share of the query's content stems found in the title / subject
    "identifier",  # share of the query's identifiers (ERA22LA175, 9234567) found in the document
    "identifier_missing",  # 1 when the query names identifiers and the document holds none of them
    "bm25_log",  # log(1 + BM25)
    "bm25_rel",  # BM25 over the best BM25 among the candidates
    "fused_rel",  # fused retrieval score over the best among the candidates
    "rank_prior",  # 1 / log2(2 + position in the fused order)
    "length",  # log(1 + document tokens) / 8
    "distinctive",  # coverage weighted by how few of the candidates hold each query stem
    "cosine_rank",  # 1 / log2(2 + position by cosine among the candidates)
    "bm25_rank",  # 1 / log2(2 + position by BM25 among the candidates)
    # The document each passage comes from, over its passages among the candidates:
    "doc_passages",  # log(1 + other passages of the same document among the candidates)
    "doc_bm25_rel",  # its best BM25 over the best among the candidates
    "doc_bm25_sum",  # log(1 + the sum of its passages' BM25)
    "doc_cosine_gap",  # its best cosine minus the best cosine among the candidates
    "doc_fused_rel",  # its best fused score over the best among the candidates
    # Okapi BM25 over the candidates themselves (their own document frequencies), over the best:
    "local_bm25",  # k1 1.2, b 0.75
    "local_bm25_flat",  # k1 0.9, b 0.4: long passages are penalised less
    "local_bm25_steep",  # k1 2.0, b 1.0: repeated terms count more, length fully normalised
    # Proximity of the query's content stems in the passage:
    "near_pairs",  # share of the query's stem pairs found within 5 tokens of each other
    "ordered_pairs",  # ... of those in the query's order, over the query's adjacent pairs
    "window",  # most distinct query stems inside any 20-token window, over the query's stems
)
#: (k1, b) of the local_bm25 columns, in order.
LOCAL_BM25 = ((1.2, 0.75), (0.9, 0.4), (2.0, 1.0))
NEAR = 5  # tokens: query stems this close count as a near pair
WINDOW = 20  # tokens: the window of the ``window`` feature
# No query-length feature on purpose: the training questions (claims, probable-cause sentences) are
# longer than the off-topic ones, and a model that learnt "short means off-topic" would cut off
# short real questions ("ERA22LA175?", "engine fire on Nordic Star").


@dataclass(frozen=True)
class QueryTerms:
    """What the features need from the query, computed once per rerank call."""

    stems: tuple[str, ...]  # distinct content stems, in order of first use
    bigrams: frozenset[tuple[str, str]]  # adjacent content stems
    identifiers: frozenset[str]  # tokens with a digit (report numbers, IMO numbers, part numbers)
    weights: tuple[float, ...]  # per stem: IDF when a table is given, else 1


@dataclass(frozen=True)
class DocumentSignals:
    """Retrieval scores of one document (zeros when the caller has none)."""

    cosine: float = 0.0
    bm25: float = 0.0
    fused: float = 0.0


def query_terms(query: str, idf: Mapping[str, float] | None = None) -> QueryTerms:
    """The query's content stems, bigrams and identifiers."""
    words = tokens(query)
    stems = topic_stems(words)
    distinct = tuple(dict.fromkeys(stems))
    weights = tuple(max(float(idf.get(s, 1.0)), 0.0) if idf else 1.0 for s in distinct)
    return QueryTerms(
        stems=distinct,
        bigrams=frozenset(zip(stems, stems[1:], strict=False)),
        identifiers=frozenset(w for w in words if is_identifier(w)),
        weights=weights,
    )


def feature_matrix(
    query: QueryTerms,
    documents: Sequence[str],
    titles: Sequence[str],
    signals: Sequence[DocumentSignals],
    sources: Sequence[Hashable] | None = None,
) -> np.ndarray:
    """One row of :data:`FEATURES` per document; ``signals`` in the caller's (fused) order.

    ``sources`` names the document each passage belongs to (passages of one document are pooled
    for the ``doc_*`` features); without it every passage is its own document."""
    n = len(documents)
    rows = np.zeros((n, len(FEATURES)), dtype=np.float64)
    if n == 0:
        return rows
    total_weight = sum(query.weights) or 1.0
    n_bigrams = len(query.bigrams)
    n_ids = len(query.identifiers)
    held: list[set[str]] = []  # query stems each document holds
    all_stems: list[list[str]] = []
    for i, (text, title) in enumerate(zip(documents, titles, strict=True)):
        words = tokens(text)
        stems = topic_stems(words)
        all_stems.append(stems)
        present = set(stems)
        held.append(present.intersection(query.stems))
        title_stems = set(topic_stems(tokens(title))) if title else set()
        covered = sum(w for s, w in zip(query.stems, query.weights, strict=True) if s in present)
        in_title = sum(
            w for s, w in zip(query.stems, query.weights, strict=True) if s in title_stems
        )
        row = rows[i]
        row[2] = covered / total_weight if query.stems else 0.0
        if n_bigrams:
            doc_bigrams = set(zip(stems, stems[1:], strict=False))
            row[4] = len(query.bigrams & doc_bigrams) / n_bigrams
        row[5] = in_title / total_weight if query.stems else 0.0
        if n_ids:
            found = len(query.identifiers & set(words))
            row[6] = found / n_ids
            row[7] = 1.0 if found == 0 else 0.0
        row[12] = math.log1p(len(words)) / 8.0
    cos = np.array([s.cosine for s in signals], dtype=np.float64)
    bm25 = np.array([max(s.bm25, 0.0) for s in signals], dtype=np.float64)
    fused = np.array([s.fused for s in signals], dtype=np.float64)
    rows[:, 0] = cos
    rows[:, 1] = cos - cos.max()
    rows[:, 3] = rows[:, 2] - rows[:, 2].max()
    rows[:, 8] = np.log1p(bm25)
    rows[:, 9] = bm25 / bm25.max() if bm25.max() > 0 else 0.0
    rows[:, 10] = _relative(fused)
    # Position in the fused order (the order given when there are no fused scores).
    order = np.argsort(-fused, kind="stable") if fused.max() > 0 else np.arange(n)
    position = np.empty(n, dtype=np.float64)
    position[order] = np.arange(n)
    rows[:, 11] = 1.0 / np.log2(2.0 + position)
    # Within this candidate set, a query stem every candidate holds tells them apart not at all.
    if query.stems:
        df = {s: sum(1 for h in held if s in h) for s in query.stems}
        local = {s: math.log((n + 1.0) / (df[s] + 0.5)) for s in query.stems}
        total = sum(local.values()) or 1.0
        rows[:, 13] = [sum(local[s] for s in h) / total for h in held]
    rows[:, 14] = _rank_prior(cos)
    rows[:, 15] = _rank_prior(bm25)
    _document_features(
        rows, list(sources) if sources is not None else list(range(n)), cos, bm25, fused
    )
    rows[:, 21:24] = _local_bm25(query.stems, all_stems)
    rows[:, 24:27] = [_proximity(query.stems, stems) for stems in all_stems]
    return rows


def _rank_prior(values: np.ndarray) -> np.ndarray:
    order = np.argsort(-values, kind="stable")
    position = np.empty(len(values), dtype=np.float64)
    position[order] = np.arange(len(values))
    return 1.0 / np.log2(2.0 + position)


def _document_features(
    rows: np.ndarray, sources: list[Hashable], cos: np.ndarray, bm25: np.ndarray, fused: np.ndarray
) -> None:
    """The ``doc_*`` columns: each passage's document over its passages among the candidates."""
    top_bm25 = bm25.max() or 1.0
    fused_rel = _relative(fused)
    for members in document_groups(sources):
        idx = np.array(members)
        rows[idx, 16] = math.log1p(len(members) - 1)
        rows[idx, 17] = bm25[idx].max() / top_bm25
        rows[idx, 18] = math.log1p(bm25[idx].sum())
        rows[idx, 19] = cos[idx].max() - cos.max()
        rows[idx, 20] = fused_rel[idx].max()


def document_groups(sources: Sequence[Hashable]) -> list[list[int]]:
    """The positions of each document's passages, documents in order of first appearance."""
    groups: dict[Hashable, list[int]] = {}
    for i, source in enumerate(sources):
        groups.setdefault(source, []).append(i)
    return list(groups.values())


def _local_bm25(query: Sequence[str], docs: Sequence[Sequence[str]]) -> np.ndarray:
    """Okapi BM25 of each document with the candidates as the collection, one column per
    :data:`LOCAL_BM25` setting, each over its best (0 when nothing matches)."""
    out = np.zeros((len(docs), len(LOCAL_BM25)), dtype=np.float64)
    if not query or not docs:
        return out
    n = len(docs)
    lengths = np.array([len(d) for d in docs], dtype=np.float64)
    avg = lengths.mean() or 1.0
    tf = np.zeros((n, len(query)), dtype=np.float64)
    index = {s: j for j, s in enumerate(query)}
    for i, doc in enumerate(docs):
        for s in doc:
            j = index.get(s)
            if j is not None:
                tf[i, j] += 1.0
    df = (tf > 0).sum(axis=0)
    idf = np.log1p((n - df + 0.5) / (df + 0.5))
    for col, (k1, b) in enumerate(LOCAL_BM25):
        norm = k1 * (1.0 - b + b * lengths / avg)
        score = (idf * tf * (k1 + 1.0) / (tf + norm[:, None])).sum(axis=1)
        top = score.max()
        out[:, col] = score / top if top > 0 else 0.0
    return out


def _proximity(query: Sequence[str], doc: Sequence[str]) -> tuple[float, float, float]:
    """(near_pairs, ordered_pairs, window) of one document's stems."""
    if len(query) < 2:
        return 0.0, 0.0, 1.0 if query and query[0] in doc else 0.0
    order = {s: j for j, s in enumerate(query)}
    hits = [(p, s) for p, s in enumerate(doc) if s in order]
    near: set[frozenset[str]] = set()
    ordered: set[tuple[str, str]] = set()
    for a, (pa, sa) in enumerate(hits):
        for pb, sb in hits[a + 1 :]:
            if pb - pa > NEAR:
                break
            if sa != sb:
                near.add(frozenset((sa, sb)))
                if order[sa] < order[sb]:
                    ordered.add((sa, sb))
    best, start = 0, 0
    inside: dict[str, int] = {}
    for pb, sb in hits:
        inside[sb] = inside.get(sb, 0) + 1
        while pb - hits[start][0] > WINDOW:
            s = hits[start][1]
            inside[s] -= 1
            if not inside[s]:
                del inside[s]
            start += 1
        best = max(best, len(inside))
    m = len(query)
    return len(near) / (m * (m - 1) / 2), len(ordered) / (m - 1), best / m


def _relative(values: np.ndarray) -> np.ndarray:
    lo, hi = float(values.min()), float(values.max())
    if hi <= 0:
        return np.zeros_like(values)
    return np.clip(values, 0.0, None) / hi if lo >= 0 else (values - lo) / (hi - lo or 1.0)
