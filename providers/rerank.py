"""Rerankers: score each fused candidate against the query, relevance in [0, 1] per document.

Three implementations behind one protocol, chosen by :func:`build_reranker`:

- :class:`CohereReranker` — Cohere's hosted cross-encoder (``rerank-v3.5``) when ``COHERE_API_KEY``
  is set;
- :class:`CrossEncoderReranker` — a local cross-encoder exported to ONNX, when
  ``BOSUN_CROSS_ENCODER_DIR`` names a folder with ``model.onnx`` and ``tokenizer.json``;
- :class:`FeatureReranker` — the offline default: a learned model over lexical, semantic, proximity,
  document and field signals (``providers/relevance_features.py``): a listwise ranker (linear plus
  boosted trees) for the order, a logistic model for how relevant the best candidate is; trained by
  ``benchmarks/train_feature_reranker.py`` into ``providers/data/feature_reranker.json``.

Every provider failure surfaces as :class:`RerankError` with secrets scrubbed from its message; the
graph decides what to do about it (fall back to fused order).
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import numpy as np
from langchain_core.embeddings import Embeddings

from agent.settings import Settings
from providers.relevance_features import (
    FEATURES,
    DocumentSignals,
    document_groups,
    feature_matrix,
    query_terms,
)
from providers.scrub import scrub_secrets

if TYPE_CHECKING:
    from tools.hybrid import Candidate

logger = logging.getLogger(__name__)

#: Cohere's documented guidance and the seed write-up: off-domain questions peak near 0.07, real
#: aviation questions with partial matches at 0.12-0.18.
COHERE_CUTOFF = 0.1


class RerankError(Exception):
    """The reranker could not score the documents; the message is safe to log."""


@runtime_checkable
class Reranker(Protocol):
    """Scores documents against a query; higher is more relevant."""

    name: str  # provider and model, for logs and traces
    default_cutoff: float  # best score below this: nothing relevant was found
    default_floor: float  # passages below this are noise (the best one always stays)

    async def rerank(
        self,
        query: str,
        documents: Sequence[str],
        *,
        candidates: Sequence[Candidate] | None = None,
    ) -> list[float]:
        """Relevance in [0, 1] of each document, in the order given.

        ``candidates`` (optional, same order and length as ``documents``) carry the retrieval scores
        and fields; rerankers that use them are faster and better with them, the others ignore them.
        Raises :class:`RerankError` on any provider failure.
        """
        ...


def _failure(name: str, err: BaseException, secrets: Sequence[str | None] = ()) -> str:
    """A log-safe one-line description of a provider failure (keys and credentials scrubbed)."""
    return scrub_secrets(f"{name} failed: {type(err).__name__}: {err}", secrets)[:500]


# --- Cohere ---------------------------------------------------------------------------------------


class CohereReranker:
    """Cohere Rerank through langchain-cohere's ``CohereRerank``, bounded timeout and retries."""

    default_cutoff = COHERE_CUTOFF
    default_floor = 0.2  # the seed pipeline's rerank floor

    def __init__(
        self,
        *,
        api_key: str,
        model: str,
        base_url: str | None = None,
        timeout_s: float = 20.0,
        max_retries: int = 1,
    ) -> None:
        import cohere
        from langchain_cohere import CohereRerank
        from pydantic import SecretStr

        request_options = {"timeout_in_seconds": math.ceil(timeout_s), "max_retries": max_retries}

        class _BoundedClient(cohere.ClientV2):  # type: ignore[misc]
            """``CohereRerank.rerank`` passes no request options: apply ours to every call."""

            def rerank(self, **kwargs: Any) -> Any:
                kwargs["request_options"] = {
                    **request_options,
                    **(kwargs.get("request_options") or {}),
                }
                return super().rerank(**kwargs)

        client = _BoundedClient(
            api_key, base_url=base_url, timeout=timeout_s, client_name="bosun"
        )  # base_url None = Cohere's production API
        self._compressor = CohereRerank(
            client=client, model=model, cohere_api_key=SecretStr(api_key), top_n=None
        )
        self._api_key = api_key
        self.name = f"cohere:{model}"

    async def rerank(
        self,
        query: str,
        documents: Sequence[str],
        *,
        candidates: Sequence[Candidate] | None = None,
    ) -> list[float]:
        if not documents:
            return []
        try:
            results = await asyncio.to_thread(
                self._compressor.rerank, list(documents), query, top_n=len(documents)
            )
            scores = [0.0] * len(documents)
            for item in results:
                scores[int(item["index"])] = float(item["relevance_score"])
        except Exception as err:  # the provider boundary: every failure becomes RerankError
            raise RerankError(_failure(self.name, err, [self._api_key])) from err
        return [min(max(s, 0.0), 1.0) for s in scores]


# --- local cross-encoder (ONNX) -------------------------------------------------------------------


class CrossEncoderReranker:
    """A local cross-encoder exported to ONNX: ``model.onnx`` + ``tokenizer.json`` in one folder.

    The model reads (query, document) pairs and returns one logit per pair (or two-class logits);
    the relevance is the sigmoid of the logit (for two classes: of positive minus negative).
    """

    default_cutoff = 0.1  # sigmoid of an MS MARCO cross-encoder: unrelated pairs sit below 0.01
    default_floor = 0.2

    def __init__(self, folder: Path, *, max_length: int = 512, batch_size: int = 16) -> None:
        folder = Path(folder).expanduser()
        if not folder.is_dir():
            raise ValueError(f"cross-encoder folder {folder} does not exist")
        missing = [
            name for name in ("model.onnx", "tokenizer.json") if not (folder / name).is_file()
        ]
        if missing:
            raise ValueError(
                f"cross-encoder folder {folder} lacks {' and '.join(missing)} "
                "(expected an ONNX export: model.onnx and its tokenizer.json)"
            )
        import onnxruntime as ort
        from tokenizers import Tokenizer

        try:
            self._tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        except Exception as err:
            raise ValueError(
                f"{folder / 'tokenizer.json'} is not a tokenizers file: {err}"
            ) from err
        self._tokenizer.enable_truncation(max_length, strategy="longest_first")
        pad_id = self._tokenizer.token_to_id("[PAD]")
        self._tokenizer.enable_padding(pad_id=0 if pad_id is None else pad_id, pad_token="[PAD]")
        options = ort.SessionOptions()
        options.intra_op_num_threads = 2
        try:
            self._session = ort.InferenceSession(
                str(folder / "model.onnx"), options, providers=["CPUExecutionProvider"]
            )
        except Exception as err:
            raise ValueError(
                f"{folder / 'model.onnx'} is not a loadable ONNX model: {err}"
            ) from err
        self._inputs = {i.name for i in self._session.get_inputs()}
        if not {"input_ids", "attention_mask"} <= self._inputs:
            raise ValueError(
                f"{folder / 'model.onnx'} takes {sorted(self._inputs)}; a cross-encoder needs "
                "input_ids and attention_mask"
            )
        self._batch_size = batch_size
        self.name = f"cross-encoder:{folder.name}"

    async def rerank(
        self,
        query: str,
        documents: Sequence[str],
        *,
        candidates: Sequence[Candidate] | None = None,
    ) -> list[float]:
        if not documents:
            return []
        try:
            return await asyncio.to_thread(self.score, query, documents)
        except Exception as err:
            raise RerankError(_failure(self.name, err)) from err

    def score(self, query: str, documents: Sequence[str]) -> list[float]:
        """Relevance of each document (synchronous; for benchmarks)."""
        scores: list[float] = []
        for start in range(0, len(documents), self._batch_size):
            batch = documents[start : start + self._batch_size]
            encodings = self._tokenizer.encode_batch([(query, doc) for doc in batch])
            feed = {
                "input_ids": np.array([e.ids for e in encodings], dtype=np.int64),
                "attention_mask": np.array([e.attention_mask for e in encodings], dtype=np.int64),
                "token_type_ids": np.array([e.type_ids for e in encodings], dtype=np.int64),
            }
            outputs = self._session.run(None, {k: v for k, v in feed.items() if k in self._inputs})
            logits = np.asarray(outputs[0], dtype=np.float64).reshape(len(batch), -1)
            logit = logits[:, 1] - logits[:, 0] if logits.shape[1] == 2 else logits[:, 0]
            scores.extend(float(s) for s in _sigmoid(logit))
        return scores


# --- the offline default --------------------------------------------------------------------------


@dataclass(frozen=True)
class Tree:
    """One regression tree: node ``i`` splits on ``feature[i]`` (``x <= threshold[i]`` goes to
    ``left[i]``, else ``right[i]``) or, when ``feature[i] < 0``, is a leaf worth ``value[i]``."""

    feature: np.ndarray
    threshold: np.ndarray
    left: np.ndarray
    right: np.ndarray
    value: np.ndarray

    @classmethod
    def from_json(cls, data: Mapping[str, Sequence[float]]) -> Tree:
        return cls(
            feature=np.asarray(data["feature"], dtype=np.int64),
            threshold=np.asarray(data["threshold"], dtype=np.float64),
            left=np.asarray(data["left"], dtype=np.int64),
            right=np.asarray(data["right"], dtype=np.int64),
            value=np.asarray(data["value"], dtype=np.float64),
        )

    def predict(self, x: np.ndarray) -> np.ndarray:
        node = np.zeros(len(x), dtype=np.int64)
        rows = np.arange(len(x))
        while True:
            feature = self.feature[node]
            inner = feature >= 0
            if not inner.any():
                return self.value[node]
            go_left = x[rows, np.where(inner, feature, 0)] <= self.threshold[node]
            node = np.where(inner, np.where(go_left, self.left[node], self.right[node]), node)


@dataclass(frozen=True)
class RankModel:
    """Orders one query's candidates: a linear score over standardised features plus boosted
    regression trees over the raw ones, both trained listwise (softmax over each query's
    candidates). ``slope`` turns the score into logit units; ``prior`` adds fixed logits per
    feature (identifier matches, which no training question exercises)."""

    mean: np.ndarray
    scale: np.ndarray
    weights: np.ndarray
    trees: tuple[Tree, ...]
    slope: float
    prior: np.ndarray

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RankModel:
        return cls(
            mean=np.array([float(data["mean"][n]) for n in FEATURES]),
            scale=np.array([float(data["scale"][n]) for n in FEATURES]),
            weights=np.array([float(data["weights"][n]) for n in FEATURES]),
            trees=tuple(Tree.from_json(t) for t in data.get("trees", ())),
            slope=float(data["slope"]),
            prior=np.array([float(data.get("prior", {}).get(n, 0.0)) for n in FEATURES]),
        )

    def raw(self, x: np.ndarray) -> np.ndarray:
        """The listwise score (before ``slope`` and ``prior``)."""
        score = ((x - self.mean) / self.scale) @ self.weights
        for tree in self.trees:
            score = score + tree.predict(x)
        return np.asarray(score, dtype=np.float64)

    def logits(self, x: np.ndarray) -> np.ndarray:
        return self.slope * self.raw(x) + x @ self.prior


@dataclass(frozen=True)
class FeatureWeights:
    """A trained model over :data:`providers.relevance_features.FEATURES`.

    ``weights``/``bias`` are a logistic model trained pointwise (off-topic questions included): the
    best candidate's probability under it says whether the archive holds an answer at all. Without
    a ``ranker``, each candidate's probability is its score. With one, the ranker orders the
    documents (each at its best passage's ranker score), anchored so that the best document keeps
    that probability; within a document, passages keep the order they were given in (retrieval's),
    each one ``passage_step`` logits below the one before: the training data judge whole
    documents, so nothing taught the model which passage of a document answers.
    """

    weights: np.ndarray  # one per feature, in FEATURES order
    bias: float
    cutoff: float  # best score below this: the question is not about the archive
    floor: float  # passages below this are noise
    info: Mapping[str, Any]  # how they were trained and what they scored
    ranker: RankModel | None = None
    passage_step: float = 0.5

    def scores(self, x: np.ndarray, sources: Sequence[Hashable] | None = None) -> np.ndarray:
        """Relevance in [0, 1] of each row of a feature matrix (one query's candidates, in
        retrieval order); ``sources`` names each row's document (default: a document each)."""
        logits = x @ self.weights + self.bias
        if self.ranker is None or len(x) == 0:
            return _sigmoid(logits)
        ranked = self.ranker.logits(x)
        adjusted = np.empty(len(x), dtype=np.float64)
        for members in document_groups(range(len(x)) if sources is None else sources):
            best = ranked[members].max()
            adjusted[members] = best - self.passage_step * np.arange(len(members))
        return _sigmoid(logits.max() + adjusted - adjusted.max())

    @classmethod
    def load(cls, path: Path | None = None) -> FeatureWeights:
        """The weights shipped in ``providers/data/feature_reranker.json`` (or at ``path``)."""
        if path is None:
            text = (
                resources.files("providers")
                .joinpath("data/feature_reranker.json")
                .read_text("utf-8")
            )
        else:
            text = Path(path).read_text("utf-8")
        data = json.loads(text)
        names = tuple(data["features"])
        if names != FEATURES:
            raise ValueError(
                f"feature reranker weights were trained on {names}, this code computes {FEATURES}"
            )
        return cls(
            weights=np.array([float(data["weights"][n]) for n in names], dtype=np.float64),
            bias=float(data["bias"]),
            cutoff=float(data["cutoff"]),
            floor=float(data.get("floor", data["cutoff"])),
            info=data.get("info", {}),
            ranker=RankModel.from_json(data["ranker"]) if data.get("ranker") else None,
            passage_step=float(data.get("passage_step", 0.5)),
        )


class FeatureReranker:
    """Learned combination of lexical, semantic, proximity and field signals; no model download.

    Give it the retrieval ``candidates`` (their cosine, BM25 and fused scores, title and subject)
    and it runs in a few milliseconds; when they carry no cosines (lexical-only retrieval), one
    query embedding against their stored vectors supplies them. Without candidates, cosines come
    from ``embeddings`` (one query embedding and one batch of documents: ~25 ms per document with
    the local MiniLM), the BM25/fused features are approximated by term coverage, and the title
    is the document's first line.
    """

    def __init__(
        self,
        embeddings: Embeddings | None = None,
        *,
        weights: FeatureWeights | None = None,
        idf: Mapping[str, float] | None = None,
    ) -> None:
        self._embeddings = embeddings
        self._weights = weights or FeatureWeights.load()
        self._idf = idf
        self.default_cutoff = self._weights.cutoff
        self.default_floor = self._weights.floor
        self.name = "features"

    async def rerank(
        self,
        query: str,
        documents: Sequence[str],
        *,
        candidates: Sequence[Candidate] | None = None,
    ) -> list[float]:
        if not documents:
            return []
        cosines: list[float] | None = None
        try:
            if candidates is None and self._embeddings is not None:
                cosines = await asyncio.to_thread(self._cosines, query, documents)
            elif candidates is not None and not any(c.cosine for c in candidates):
                # Lexical-only retrieval scored no cosines: one query embedding against the
                # stored passage vectors restores them (the model leans on them).
                cosines = await asyncio.to_thread(self._stored_cosines, query, candidates)
        except Exception as err:
            raise RerankError(_failure(f"{self.name} embeddings", err)) from err
        return self.score(query, documents, candidates=candidates, cosines=cosines)

    def score(
        self,
        query: str,
        documents: Sequence[str],
        *,
        candidates: Sequence[Candidate] | None = None,
        cosines: Sequence[float] | None = None,
    ) -> list[float]:
        """Relevance of each document (synchronous; the training script calls this too)."""
        x = self.features(query, documents, candidates=candidates, cosines=cosines)
        sources = (
            None
            if candidates is None
            else [_document_of(c.passage, i) for i, c in enumerate(candidates)]
        )
        return [float(s) for s in self._weights.scores(x, sources)]

    def features(
        self,
        query: str,
        documents: Sequence[str],
        *,
        candidates: Sequence[Candidate] | None = None,
        cosines: Sequence[float] | None = None,
    ) -> np.ndarray:
        """The feature matrix (one row per document)."""
        terms = query_terms(query, self._idf)
        if candidates is not None:
            if len(candidates) != len(documents):
                raise ValueError(f"{len(candidates)} candidates for {len(documents)} documents")
            titles = [
                " ".join(filter(None, (c.passage.title, c.passage.subject))) for c in candidates
            ]
            cos = [c.cosine for c in candidates] if cosines is None else list(cosines)
            signals = [
                DocumentSignals(cosine, c.bm25, c.score)
                for cosine, c in zip(cos, candidates, strict=True)
            ]
            sources = [_document_of(c.passage, i) for i, c in enumerate(candidates)]
            return feature_matrix(terms, documents, titles, signals, sources)
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

    def _stored_cosines(self, query: str, candidates: Sequence[Candidate]) -> list[float] | None:
        vectors = [getattr(c.passage, "embedding", None) for c in candidates]
        if self._embeddings is None or any(v is None or len(v) == 0 for v in vectors):
            return None
        q = np.asarray(self._embeddings.embed_query(query), dtype=np.float64)
        d = np.stack([np.asarray(v, dtype=np.float64) for v in vectors])
        if d.shape[1] != q.shape[0]:
            return None
        sims = d @ q / (np.linalg.norm(d, axis=1) * np.linalg.norm(q) + 1e-12)
        return [float(s) for s in sims]

    def _cosines(self, query: str, documents: Sequence[str]) -> list[float]:
        assert self._embeddings is not None
        q = np.asarray(self._embeddings.embed_query(query), dtype=np.float64)
        d = np.asarray(self._embeddings.embed_documents(list(documents)), dtype=np.float64)
        sims = d @ q / (np.linalg.norm(d, axis=1) * np.linalg.norm(q) + 1e-12)
        return [float(s) for s in sims]


def _document_of(passage: Any, position: int) -> Hashable:
    """What groups passages into documents: the stored document id, else the source id, else
    the passage's own position (a document of its own)."""
    return getattr(passage, "doc_id", None) or getattr(passage, "source_id", None) or position


def rerank_text(passage: Any) -> str:
    """What a reranker reads for a passage: its title and subject on the first line, then the text.

    (The seed pipeline's prefix: it lets the reranker tell apart incidents with similar wording;
    the feature weights were trained on exactly this form.)
    """
    head = " | ".join(part for part in (passage.title, passage.subject) if part)
    return f"{head}\n{passage.text}" if head else str(passage.text)


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(z, -60.0, 60.0)))


def build_reranker(settings: Settings, embeddings: Embeddings | None) -> Reranker:
    """Cohere when its key is set, else the configured local cross-encoder, else the features."""
    if settings.cohere_api_key:
        return CohereReranker(
            api_key=settings.cohere_api_key,
            model=settings.cohere_rerank_model,
            base_url=settings.cohere_base_url,
            timeout_s=settings.provider_timeout_s,
        )
    if settings.cross_encoder_dir is not None:
        return CrossEncoderReranker(settings.cross_encoder_dir)
    return FeatureReranker(embeddings)
