"""The embedding provider factory: local MiniLM, Gemini or Cohere, chosen by config.

Every remote client gets an explicit timeout (``config.provider_timeout_s``) and exactly one
retry layer: ``PROVIDER_RETRIES`` retries on 408/429/5xx inside the client library.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any

from langchain_core.embeddings import Embeddings
from pydantic import SecretStr

from providers.config import ProviderConfig
from providers.minilm import MiniLMEmbeddings, default_minilm

logger = logging.getLogger(__name__)

PROVIDERS = ("local", "gemini", "cohere")
PROVIDER_RETRIES = 2  # retries after the first attempt, on 408/429/5xx (Cohere: fixed at 2)
RETRY_STATUS_CODES = [408, 429, 500, 502, 503, 504]
DIMENSION_PROBE = "dimension probe"


def build_embeddings(config: ProviderConfig) -> Embeddings:
    """The embedding model that ``config.embeddings`` names.

    Raises:
        ValueError: unknown provider name, or the chosen provider's API key is missing.
    """
    name = (config.embeddings or "").strip().lower()
    if name == "local":
        return default_minilm(config.cache_dir)
    if name == "gemini":
        if not config.google_api_key:
            raise ValueError(
                "embeddings=gemini needs an API key: set GOOGLE_API_KEY (or GEMINI_API_KEY)"
            )
        return _gemini(config)
    if name == "cohere":
        if not config.cohere_api_key:
            raise ValueError("embeddings=cohere needs an API key: set COHERE_API_KEY")
        return _cohere(config)
    raise ValueError(
        f"unknown embeddings provider {config.embeddings!r}; "
        f"BOSUN_EMBEDDINGS must be one of {', '.join(PROVIDERS)}"
    )


def embeddings_factory(config: ProviderConfig, *, threads: int) -> Callable[[], Embeddings]:
    """A picklable builder of the same embeddings for a worker process: the local model with
    ``threads`` intra-op threads, a remote provider's client as configured."""
    if (config.embeddings or "").strip().lower() == "local":
        return functools.partial(MiniLMEmbeddings, threads=threads)
    return functools.partial(build_embeddings, config)


def _gemini(config: ProviderConfig) -> Embeddings:
    from google import genai
    from google.genai import types
    from langchain_google_genai import GoogleGenerativeAIEmbeddings

    key = config.google_api_key or ""
    emb = GoogleGenerativeAIEmbeddings(
        model=config.gemini_embedding_model,
        api_key=SecretStr(key),
        base_url=config.google_base_url,
        vertexai=False,
    )
    # The wrapper builds its google-genai client without a timeout (each request is sent
    # with timeout=None, so httpx client_args cannot add one) and without retries; swap in
    # a client whose HttpOptions carry both. `client` is a public field of the wrapper.
    emb.client = genai.Client(
        api_key=key,
        vertexai=False,
        http_options=types.HttpOptions(
            base_url=config.google_base_url,
            timeout=int(config.provider_timeout_s * 1000),  # milliseconds
            retry_options=types.HttpRetryOptions(
                attempts=PROVIDER_RETRIES + 1,
                initial_delay=0.5,
                max_delay=8.0,
                jitter=0.25,
                http_status_codes=RETRY_STATUS_CODES,
            ),
        ),
    )
    return emb


def _cohere(config: ProviderConfig) -> Embeddings:
    from langchain_cohere import CohereEmbeddings

    # cohere.Client itself retries 408/409/429/5xx twice (= PROVIDER_RETRIES, honouring
    # Retry-After; not settable at construction); the wrapper's own tenacity loop, which
    # retries any exception after 4-10 s, is cut to a single attempt.
    return CohereEmbeddings(  # type: ignore[call-arg]  # client is built by the wrapper
        model=config.cohere_embedding_model,
        # A plain str: the wrapper's before-validator turns a SecretStr into "**********".
        cohere_api_key=config.cohere_api_key,  # type: ignore[arg-type]
        base_url=config.cohere_base_url,
        request_timeout=config.provider_timeout_s,
        max_retries=1,
        user_agent="bosun",
    )


def embedding_identity(emb: Embeddings) -> tuple[str, int | None]:
    """``(model id, dimension)`` of an embedding model; dimension ``None`` = probe it.

    Examples: ``("local:all-MiniLM-L6-v2-int8", 384)``,
    ``("gemini:models/gemini-embedding-001", None)``, ``("cohere:embed-english-v3.0", None)``.
    Other objects may declare ``model_id`` (and ``dimension``) themselves.
    """
    if isinstance(emb, MiniLMEmbeddings):
        return f"local:{emb.model_id}", emb.dimension
    cls = type(emb).__name__
    if cls == "GoogleGenerativeAIEmbeddings":
        dim = getattr(emb, "output_dimensionality", None)
        return f"gemini:{emb.model}", dim  # type: ignore[attr-defined]
    if cls == "CohereEmbeddings":
        return f"cohere:{emb.model}", None  # type: ignore[attr-defined]
    model_id: Any = getattr(emb, "model_id", None)
    if isinstance(model_id, str) and model_id:
        dim = getattr(emb, "dimension", None)
        return model_id, dim if isinstance(dim, int) else None
    size = getattr(emb, "size", None)  # langchain_core's FakeEmbeddings and friends
    if cls.endswith("FakeEmbedding") or cls.endswith("FakeEmbeddings"):
        return f"fake:{cls}:{size}", size if isinstance(size, int) else None
    raise TypeError(f"cannot tell which model {cls} is: give it a model_id attribute")


def resolve_dimension(emb: Embeddings) -> int:
    """The vector length: the known one, else the length of one probe embedding."""
    _, dim = embedding_identity(emb)
    if dim is not None:
        return dim
    return len(emb.embed_query(DIMENSION_PROBE))
