"""The offline default reranker: a learned model over lexical, semantic, proximity, document and
field signals (:mod:`providers.rerankers.features`): a listwise ranker for the order, a logistic
model for how relevant the best candidate is."""

from __future__ import annotations

import asyncio
from collections.abc import Hashable, Mapping, Sequence

import numpy as np
from langchain_core.embeddings import Embeddings

from archive.store.passages import Passage
from providers.rerankers.base import RerankError, document_of, failure
from providers.rerankers.features import (
    FEATURES,
    DocumentSignals,
    QueryTerms,
    feature_matrix,
    query_terms,
)
from providers.rerankers.translation import TranslationModel
from providers.rerankers.trees import FeatureWeights


class FeatureReranker:
    """Learned combination of lexical, semantic, proximity and field signals; no model download.

    Give it the retrieval ``candidates`` (their cosine, BM25 and fused scores, title and subject)
    and it runs in a few milliseconds. Without candidates, or when they carry no cosines, cosines
    come from ``embeddings`` (one query embedding and one batch of documents: ~25 ms per document
    with the local MiniLM), the BM25/fused features are approximated by term coverage, and the title
    is the document's first line.
    """

    def __init__(
        self,
        embeddings: Embeddings | None = None,
        *,
        weights: FeatureWeights | None = None,
        idf: Mapping[str, float] | None = None,
        translation: TranslationModel | None = None,
    ) -> None:
        """``translation``: the vocabulary model whose columns :meth:`features` appends (default:
        the weights'; `bosun adapt` gives one to a probe that only computes features)."""
        self._embeddings = embeddings
        self._weights = weights or FeatureWeights.load()
        self._idf = idf
        self._translation = translation or self._weights.translation
        self.default_cutoff = self._weights.cutoff
        self.default_floor = self._weights.floor
        self.pool = self._weights.pool
        self.name = "features"

    async def rerank(
        self,
        query: str,
        documents: Sequence[str],
        *,
        candidates: Sequence[Passage] | None = None,
    ) -> list[float]:
        if not documents:
            return []
        cosines: list[float] | None = None
        try:
            unscored = candidates is None or not any(c["cosine"] for c in candidates)
            if unscored and self._embeddings is not None:
                # No retrieval cosines (the model leans on them): embed query and documents.
                cosines = await asyncio.to_thread(self._cosines, query, documents)
        except Exception as err:
            raise RerankError(failure(f"{self.name} embeddings", err)) from err
        return self.score(query, documents, candidates=candidates, cosines=cosines)

    def score(
        self,
        query: str,
        documents: Sequence[str],
        *,
        candidates: Sequence[Passage] | None = None,
        cosines: Sequence[float] | None = None,
    ) -> list[float]:
        """Relevance of each document (synchronous; the training script calls this too)."""
        sources = _sources(candidates)
        x = self._features(query, documents, candidates, cosines, sources)
        return [float(s) for s in self._weights.scores(x, sources)]

    def features(
        self,
        query: str,
        documents: Sequence[str],
        *,
        candidates: Sequence[Passage] | None = None,
        cosines: Sequence[float] | None = None,
    ) -> np.ndarray:
        """The feature matrix (one row per document): :data:`FEATURES`, then the translation
        model's columns when there is one."""
        return self._features(query, documents, candidates, cosines, _sources(candidates))

    def _features(
        self,
        query: str,
        documents: Sequence[str],
        candidates: Sequence[Passage] | None,
        cosines: Sequence[float] | None,
        sources: list[Hashable] | None,
    ) -> np.ndarray:
        terms = query_terms(query, self._idf)
        if candidates is None:
            x = _bare_features(terms, documents, cosines)
        else:
            x = candidate_features(terms, documents, candidates, cosines, sources)
        if self._translation is None:
            return x
        return np.hstack([x, self._translation.columns(query, documents, sources)])

    def _cosines(self, query: str, documents: Sequence[str]) -> list[float]:
        assert self._embeddings is not None
        q = np.asarray(self._embeddings.embed_query(query), dtype=np.float64)
        d = np.asarray(self._embeddings.embed_documents(list(documents)), dtype=np.float64)
        sims = d @ q / (np.linalg.norm(d, axis=1) * np.linalg.norm(q) + 1e-12)
        return [float(s) for s in sims]


def _sources(candidates: Sequence[Passage] | None) -> list[Hashable] | None:
    """The document each candidate belongs to (None without candidates)."""
    return None if candidates is None else [document_of(c, i) for i, c in enumerate(candidates)]


def candidate_features(
    terms: QueryTerms,
    documents: Sequence[str],
    candidates: Sequence[Passage],
    cosines: Sequence[float] | None = None,
    sources: list[Hashable] | None = None,
) -> np.ndarray:
    """:data:`FEATURES` of retrieved ``candidates`` (their ``documents`` as the reranker reads
    them): titles and subjects from their fields, cosine (or ``cosines``), BM25 and fused scores
    from retrieval."""
    if len(candidates) != len(documents):
        raise ValueError(f"{len(candidates)} candidates for {len(documents)} documents")
    titles = [" ".join(filter(None, (c["title"], c["subject"]))) for c in candidates]
    cos = [c["cosine"] for c in candidates] if cosines is None else list(cosines)
    signals = [
        DocumentSignals(cosine, c["bm25"], c["score"])
        for cosine, c in zip(cos, candidates, strict=True)
    ]
    return feature_matrix(terms, documents, titles, signals, sources)


def _bare_features(
    terms: QueryTerms, documents: Sequence[str], cosines: Sequence[float] | None
) -> np.ndarray:
    """Features without retrieval candidates: the title is the document's first line."""
    titles = [doc.split("\n", 1)[0] for doc in documents]
    cos = list(cosines) if cosines is not None else [0.0] * len(documents)
    x = feature_matrix(terms, documents, titles, [DocumentSignals(c) for c in cos])
    # No retrieval scores: stand in term coverage for BM25 and the mean of both for fusion,
    # then compute again so the features derived from them agree.
    coverage = x[:, FEATURES.index("coverage")]
    top = coverage.max()
    bm25 = coverage * 10.0 * len(terms.stems)
    bm25_rel = coverage / top if top > 0 else np.zeros_like(coverage)
    cos_arr = np.asarray(cos, dtype=np.float64)
    cos_rel = (cos_arr - cos_arr.min()) / (np.ptp(cos_arr) or 1.0)
    fused = 0.5 * (cos_rel + bm25_rel)
    signals = [
        DocumentSignals(c, float(b), float(f)) for c, b, f in zip(cos, bm25, fused, strict=True)
    ]
    return feature_matrix(terms, documents, titles, signals)
