"""Which providers are configured: plain values, read from the environment by the agent."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True, kw_only=True)
class ProviderConfig:
    """Model providers, keys and timeouts; every field is optional (offline defaults)."""

    embeddings: str = "local"  # local | gemini | cohere
    google_api_key: str | None = field(default=None, repr=False)
    google_base_url: str | None = None  # tests point Gemini at a fake server
    gemini_chat_model: str = "gemini-2.5-flash"
    gemini_embedding_model: str = "models/gemini-embedding-001"
    cohere_api_key: str | None = field(default=None, repr=False)
    cohere_base_url: str | None = None
    cohere_rerank_model: str = "rerank-v3.5"
    cohere_embedding_model: str = "embed-english-v3.0"
    chat_model: str | None = None  # init_chat_model string, e.g. "openai:qwen2.5"
    chat_base_url: str | None = None  # OpenAI-compatible local server
    chat_tools: bool = True  # offer the model the search tool (off: llama-cpp-python, see README)
    openai_api_key: str | None = field(default=None, repr=False)  # None + chat_base_url: dummy
    cross_encoder_dir: Path | None = None  # local cross-encoder ONNX folder
    langfuse_public_key: str | None = field(default=None, repr=False)
    langfuse_secret_key: str | None = field(default=None, repr=False)
    langfuse_base_url: str | None = None
    provider_timeout_s: float = 20.0
    cache_dir: Path | None = None  # files derived once from the models (None: nothing kept)

    @property
    def langfuse_enabled(self) -> bool:
        return bool(self.langfuse_public_key and self.langfuse_secret_key)
