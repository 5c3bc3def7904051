"""Cohere Rerank through langchain-cohere, with a bounded timeout and retries."""

from __future__ import annotations

import asyncio
import math
from collections.abc import Sequence
from typing import Any

from archive.store.passages import Passage
from providers.rerankers.base import POOL, RerankError, failure

#: Cohere's documented guidance and the seed write-up: off-domain questions peak near 0.07, real
#: aviation questions with partial matches at 0.12-0.18.
COHERE_CUTOFF = 0.1


class CohereReranker:
    """Cohere Rerank through langchain-cohere's ``CohereRerank``, bounded timeout and retries."""

    default_cutoff = COHERE_CUTOFF
    default_floor = 0.2  # the seed pipeline's rerank floor
    pool = POOL

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
        candidates: Sequence[Passage] | None = None,
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
            raise RerankError(failure(self.name, err, [self._api_key])) from err
        return [min(max(s, 0.0), 1.0) for s in scores]
