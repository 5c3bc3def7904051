"""The relevance cutoff on a collection `bosun adapt` fitted a head for: decided as the stock
model would decide it.

The head and the reranker fitted with it order passages better, but whether the archive holds an
answer at all is the stock model's call: the shipped reranker's cutoff, floor and the stock
cosine thresholds were calibrated on thousands of questions, the fitted ones on a few hundred,
and a head pulls off-topic questions closer to the archive. Measured with
`bosun eval-answers` on eval_ntsb_pc2narr (fold 1 of 2 adapted; off-topic stopped, in-domain
wrongly stopped): fitted decision 82/84 and 14/1000, this one 84/84 and 0/1000, as stock.

The stock view of the same candidates is exact and cheap: mean pooling is linear, so a head's
vectors map back to the stock model's through ``W⁻¹`` (:func:`providers.linear_head.stock_vectors`),
the query's from its embedding that retrieval just made (cached), the candidates' from the store.
The passages the answer reads and their order stay the fitted reranker's.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
from langchain_core.embeddings import Embeddings

from archive.store.passages import Passage
from providers.linear_head import apply_head, inverse_head
from providers.rerankers import rerank_text
from providers.rerankers.learned import FeatureReranker
from tools.relevance import Relevance, rerank_decision

if TYPE_CHECKING:
    from threadpoolctl import ThreadpoolController

#: The stored vectors of chunk ids (:func:`archive.store.passages.fetch_vectors` on the store).
VectorSource = Callable[[Sequence[str]], Awaitable[Mapping[str, np.ndarray]]]


@dataclass(frozen=True)
class StockJudge:
    """Decides the cutoff for a headed collection on the stock model's cosines and reranker."""

    inverse: np.ndarray  # W⁻¹ of the collection's head
    embeddings: Embeddings  # the collection's (headed) model
    vectors: VectorSource
    reranker: FeatureReranker = field(default_factory=FeatureReranker)  # the shipped one

    @classmethod
    def of_head(cls, head: np.ndarray, embeddings: Embeddings, vectors: VectorSource) -> StockJudge:
        return cls(inverse_head(head), embeddings, vectors)

    async def relevance(
        self,
        question: str,
        text: str,
        pool: Sequence[Passage],
        *,
        cutoff: float | None,
        floor: float | None,
    ) -> Relevance:
        """The decision for ``pool`` (retrieved for ``text`` in fused order, reranked against
        ``question``): the shipped reranker's scores on the stock cosines of the candidates it
        would order (the first ``reranker.pool``, however many the fitted one orders), its floor
        and cutoff (or the run's overrides) and the stock thresholds. A candidate deleted since
        retrieval is left out."""
        seen = pool[: self.reranker.pool]
        adapted = await asyncio.to_thread(self.embeddings.embed_query, text)
        stored = await self.vectors([p["chunk_id"] for p in seen])
        judged = [p for p in seen if p["chunk_id"] in stored]
        rows = [stored[p["chunk_id"]] for p in judged]
        with _blas().limit(limits=1, user_api="blas"):
            query = apply_head(self.inverse, np.asarray([adapted], dtype=np.float32))[0]
            cosines = apply_head(self.inverse, np.stack(rows)) @ query if rows else np.zeros(0)
        viewed = [
            Passage(**{**p, "cosine": float(c)}) for p, c in zip(judged, cosines, strict=True)
        ]
        scores = self.reranker.score(question, [rerank_text(p) for p in viewed], candidates=viewed)
        _, _, decided = rerank_decision(viewed, scores, self.reranker, floor=floor, cutoff=cutoff)
        decided["judge"] = "stock"
        return decided


@functools.cache
def _blas() -> ThreadpoolController:
    """The BLAS thread pools, to run the judge's products on one thread. OpenBLAS's threads spin
    for a while after a product and competed with the next query's embedding on the same cores:
    through the judge's 40 × 384 products, a MiniLM query embedding took 5.1-5.8 ms p50 instead
    of 2.7 (`bosun eval` on a headed pc2narr: the embed stage 13-17 ms p50 against 7.6 on the
    stock collection). On one thread the products take 0.10 ms instead of 0.16, and leave
    nothing spinning."""
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController()


__all__ = ["StockJudge", "VectorSource"]
