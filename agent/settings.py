"""Deployment settings, read once from the environment at start-up."""

from __future__ import annotations

import os
from dataclasses import dataclass, fields
from pathlib import Path

import platformdirs

from archive.store.server import database_uri
from providers.config import ProviderConfig

_DEFAULTS = ProviderConfig()


def _opt(env: dict[str, str], name: str) -> str | None:
    value = env.get(name, "").strip()
    return value or None


@dataclass(frozen=True, kw_only=True)
class Settings(ProviderConfig):
    """Where state lives, plus the providers' configuration (fields of :class:`ProviderConfig`)."""

    home: Path  # BOSUN_HOME: database, archive, caches
    database_url: str | None = None  # any PostgreSQL >= 15 with pgvector; None = embedded
    collection: str = "bosun"  # schema holding the main archive

    @property
    def archive_dir(self) -> Path:
        """Copies of ingested originals; citations resolve here."""
        return self.home / "archive"

    @property
    def pgdata_dir(self) -> Path:
        """Data folder of the embedded PostgreSQL server."""
        return self.home / "pgdata"

    @property
    def providers(self) -> ProviderConfig:
        """The provider fields alone, as lower layers take them."""
        return ProviderConfig(**{f.name: getattr(self, f.name) for f in fields(ProviderConfig)})

    def database_uri(self) -> str:
        """The database to use, starting the embedded server when none is configured."""
        return database_uri(self.database_url, self.pgdata_dir)

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> Settings:
        """Build settings from environment variables (``os.environ`` by default)."""
        env = dict(os.environ if env is None else env)
        home = Path(_opt(env, "BOSUN_HOME") or platformdirs.user_data_dir("bosun"))
        cross = _opt(env, "BOSUN_CROSS_ENCODER_DIR")
        return cls(
            home=home.expanduser(),
            database_url=_opt(env, "DATABASE_URL"),
            collection=_opt(env, "BOSUN_COLLECTION") or "bosun",
            embeddings=(_opt(env, "BOSUN_EMBEDDINGS") or "local").lower(),
            google_api_key=_opt(env, "GOOGLE_API_KEY") or _opt(env, "GEMINI_API_KEY"),
            google_base_url=_opt(env, "BOSUN_GOOGLE_BASE_URL"),
            gemini_chat_model=_opt(env, "BOSUN_GEMINI_MODEL") or _DEFAULTS.gemini_chat_model,
            gemini_embedding_model=_opt(env, "BOSUN_GEMINI_EMBEDDING_MODEL")
            or _DEFAULTS.gemini_embedding_model,
            cohere_api_key=_opt(env, "COHERE_API_KEY"),
            cohere_base_url=_opt(env, "BOSUN_COHERE_BASE_URL"),
            cohere_rerank_model=_opt(env, "BOSUN_COHERE_RERANK_MODEL")
            or _DEFAULTS.cohere_rerank_model,
            cohere_embedding_model=_opt(env, "BOSUN_COHERE_EMBEDDING_MODEL")
            or _DEFAULTS.cohere_embedding_model,
            chat_model=_opt(env, "BOSUN_CHAT_MODEL"),
            chat_base_url=_opt(env, "BOSUN_CHAT_BASE_URL"),
            openai_api_key=_opt(env, "OPENAI_API_KEY"),
            cross_encoder_dir=Path(cross) if cross else None,
            langfuse_public_key=_opt(env, "LANGFUSE_PUBLIC_KEY"),
            langfuse_secret_key=_opt(env, "LANGFUSE_SECRET_KEY"),
            langfuse_base_url=_opt(env, "LANGFUSE_BASE_URL"),
            provider_timeout_s=float(_opt(env, "BOSUN_PROVIDER_TIMEOUT_S") or 20.0),
        )
