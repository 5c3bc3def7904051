"""Rerankers: score each fused candidate against the query, relevance in [0, 1] per document.

Three implementations behind one protocol (:class:`~providers.rerankers.base.Reranker`), chosen by
:func:`build_reranker`:

- Cohere's hosted cross-encoder (``rerank-v3.5``) when ``COHERE_API_KEY`` is set;
- a local cross-encoder exported to ONNX, when ``BOSUN_CROSS_ENCODER_DIR`` names a folder with
  ``model.onnx`` and ``tokenizer.json``;
- the offline default, :class:`~providers.rerankers.learned.FeatureReranker`.

Every provider failure surfaces as :class:`~providers.rerankers.base.RerankError` with secrets
scrubbed from its message; the retrieval pipeline falls back to fused order.
"""

from __future__ import annotations

from langchain_core.embeddings import Embeddings

from providers.config import ProviderConfig
from providers.rerankers.base import Reranker, RerankError, rerank_text
from providers.rerankers.cohere import CohereReranker
from providers.rerankers.cross_encoder import CrossEncoderReranker
from providers.rerankers.learned import FeatureReranker
from providers.rerankers.trees import FeatureWeights

__all__ = ["RerankError", "Reranker", "build_reranker", "rerank_text"]


def build_reranker(
    config: ProviderConfig, embeddings: Embeddings | None, weights: FeatureWeights | None = None
) -> Reranker:
    """Cohere when its key is set, else the configured local cross-encoder, else the features
    (with ``weights``: those fitted for the collection by `bosun adapt`; else the shipped)."""
    if config.cohere_api_key:
        return CohereReranker(
            api_key=config.cohere_api_key,
            model=config.cohere_rerank_model,
            base_url=config.cohere_base_url,
            timeout_s=config.provider_timeout_s,
        )
    if config.cross_encoder_dir is not None:
        return CrossEncoderReranker(config.cross_encoder_dir)
    return FeatureReranker(embeddings, weights=weights)
