"""The click memory `bosun adapt` fits from operators' feedback: documents opened for earlier
questions lifted, a bounded number of places, for a new question close to those.

The stock model and the reranker keep ordering every question; the memory only moves, within the
reranked pool, the documents that some earlier question like this one was answered with. For a
question whose nearest labelled question has stock cosine ``s`` the lift of that question's
documents is ``lift · (s − threshold) / (1 − threshold)`` places (nothing below ``threshold``,
the largest over the labelled questions naming a document). A question unlike every labelled
one is ordered exactly as without the memory, so few labels can only change few rankings; the
relevance cutoff is decided before, on the order without it.

The memory's file may also hold a click vocabulary (:mod:`tools.click_vocabulary`: the
archive's vocabulary learnt from the same feedback, blended with the reranker's order) or a
click residual (:mod:`tools.click_residual`: a linear correction of the reranker's order), one
or the other, applied to the pool first, then the memory's lifts (each was installed only when
its own check gained; a memory whose lift was refused is an empty one carrying the other).

Why not a head or a reranker refitted on the clicks: fitted on 30–150 feedback questions, a
head moved the cosines the shipped reranker reads and lost on questions no user asked (nDCG@10
of the feedback simulation's evaluation queries: NTSB pc2narr 0.4967 → 0.4824 and 0.4768 at 200
and 500 events, SciFact 0.7600 → 0.7400 at 500; docs/adapt.md).
"""

from __future__ import annotations

import asyncio
import io
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from langchain_core.embeddings import Embeddings

from archive.store.passages import Passage
from providers.linear_head import apply_head
from tools.click_residual import ClickResidual
from tools.click_vocabulary import ClickVocabulary


@dataclass(frozen=True)
class ClickMemory:
    """Labelled questions (their stock-model vectors, unit length) and the documents their users
    opened, with how close a new question must be and how far a document may move."""

    vectors: np.ndarray  # n × dim
    sources: tuple[tuple[str, ...], ...]  # per labelled question: the documents opened
    threshold: float  # cosine below which a labelled question lifts nothing
    lift: float  # places a document moves for a question identical to a labelled one
    residual: ClickResidual | None = None  # the reranker's correction (None: none)
    vocabulary: ClickVocabulary | None = None  # the vocabulary blended in (None: none)

    def __post_init__(self) -> None:
        if len(self.vectors) != len(self.sources):
            raise ValueError(f"{len(self.vectors)} vectors for {len(self.sources)} questions")
        if not 0.0 <= self.threshold < 1.0 or self.lift < 0.0:
            raise ValueError(f"threshold {self.threshold} or lift {self.lift} out of range")
        if self.residual is not None and self.vocabulary is not None:
            raise ValueError("a click memory carries a residual or a vocabulary, not both")

    def weights(self, query: np.ndarray) -> dict[str, float]:
        """Document -> strength in (0, 1] for a question with stock vector ``query``."""
        if not len(self.sources) or self.lift == 0.0:
            return {}
        sims = self.vectors @ (query / max(float(np.linalg.norm(query)), 1e-12))
        strength = np.clip((sims - self.threshold) / (1.0 - self.threshold), 0.0, 1.0)
        found: dict[str, float] = {}
        for i in np.flatnonzero(strength > 0.0):
            for source in self.sources[i]:
                found[source] = max(found.get(source, 0.0), float(strength[i]))
        return found

    def order(self, sources: Sequence[str], weights: Mapping[str, float]) -> list[int]:
        """The positions of ``sources`` (a ranking's documents, best first) in the order with
        each lifted ``lift · weight`` places (ahead of the one it lands level with); the rest
        keep their relative order."""
        lifted = [self.lift * weights.get(s, 0.0) for s in sources]
        return sorted(range(len(sources)), key=lambda i: (i - lifted[i], lifted[i] == 0.0, i))

    def to_bytes(self) -> bytes:
        buffer = io.BytesIO()
        info = {"threshold": self.threshold, "lift": self.lift, "sources": self.sources}
        arrays: dict[str, Any] = {
            "vectors": self.vectors.astype(np.float32),
            "info": np.array(json.dumps(info)),
        }
        if self.residual is not None:
            arrays.update(self.residual.arrays())
        if self.vocabulary is not None:
            arrays.update(self.vocabulary.arrays())
        np.savez(buffer, **arrays)
        return buffer.getvalue()

    @classmethod
    def from_bytes(cls, data: bytes) -> ClickMemory:
        """The memory :meth:`to_bytes` wrote (ValueError when it is not one)."""
        try:
            with np.load(io.BytesIO(data), allow_pickle=False) as loaded:
                vectors = np.asarray(loaded["vectors"], dtype=np.float32)
                info = json.loads(str(loaded["info"]))
                arrays = {k: loaded[k] for k in loaded.files if k.startswith("residual_")}
                words = {k: loaded[k] for k in loaded.files if k.startswith("vocabulary_")}
            sources = tuple(tuple(str(s) for s in row) for row in info["sources"])
            residual = ClickResidual.from_arrays(arrays) if arrays else None
            vocabulary = ClickVocabulary.from_arrays(words) if words else None
            threshold, lift = float(info["threshold"]), float(info["lift"])
            return cls(vectors, sources, threshold, lift, residual, vocabulary)
        except (OSError, KeyError, TypeError, ValueError) as err:
            raise ValueError(f"not a click memory: {err}") from err


@dataclass(frozen=True)
class RecalledClicks:
    """The memory as the pipeline applies it: the question embedded by the collection's model
    (mapped back to the stock model's through ``inverse`` on a headed collection)."""

    memory: ClickMemory
    embeddings: Embeddings
    inverse: np.ndarray | None = None

    async def reorder(self, text: str, scored: list[Passage]) -> list[Passage]:
        """``scored`` (the reranked pool, best first) in the residual's or the vocabulary's
        order, then with the memory's documents lifted."""
        if not scored:
            return scored
        if self.memory.residual is not None:
            residual = self.memory.residual
            scored = await asyncio.to_thread(residual.reorder, text, scored)
        if self.memory.vocabulary is not None:
            vocabulary = self.memory.vocabulary
            scored = await asyncio.to_thread(vocabulary.reorder, text, scored)
        if self.memory.lift == 0.0 or not self.memory.sources:
            return scored
        vector = np.asarray(await asyncio.to_thread(self.embeddings.embed_query, text), np.float32)
        if self.inverse is not None:
            vector = apply_head(self.inverse, vector[None, :])[0]
        weights = self.memory.weights(vector)
        if not weights:
            return scored
        return [scored[i] for i in self.memory.order([p["source_id"] for p in scored], weights)]


__all__ = ["ClickMemory", "RecalledClicks"]
