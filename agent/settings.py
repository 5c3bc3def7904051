"""Deployment settings, read once from the environment at start-up."""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, fields
from pathlib import Path
from urllib.parse import urlsplit

import platformdirs

from agent.errors import SettingsError
from archive.originals import TIMEOUT_S, OriginalsConfigError, S3Location
from archive.store.block_cache import CACHE_MB
from archive.store.database import EF_SEARCH
from archive.store.lexical import BM25_MODES
from archive.store.server import database_uri
from providers.config import ProviderConfig

_DEFAULTS = ProviderConfig()
EMBEDDINGS = ("local", "gemini", "cohere")
#: How long the embedded server stays up after the last command that used it: a repeat `bosun
#: ask` then skips starting it (~0.4 s) and the last one's exit skips stopping it.
SERVER_LINGER_S = 300.0


def _opt(env: dict[str, str], name: str) -> str | None:
    value = env.get(name, "").strip()
    return value or None


@dataclass(frozen=True, kw_only=True)
class Settings(ProviderConfig):
    """Where state lives, plus the providers' configuration (fields of :class:`ProviderConfig`)."""

    home: Path  # BOSUN_HOME: database, archive, caches
    database_url: str | None = None  # any PostgreSQL >= 15 with pgvector; None = embedded
    collection: str = "bosun"  # schema holding the main archive
    db_timeout_s: float = 10.0  # BOSUN_DB_TIMEOUT_S: longest database wait of a turn
    bm25: str = "auto"  # BOSUN_BM25: auto, blocks (compacted segment) or exact (SQL, every posting)
    hnsw_ef_search: int = EF_SEARCH  # BOSUN_HNSW_EF_SEARCH: HNSW candidate list, 1-1000
    bm25_cache_mb: int = CACHE_MB  # BOSUN_BM25_CACHE_MB: decoded BM25 blocks kept, 0-65536
    server_linger_s: float = 0.0  # the embedded server stays up this long after the last command
    archive_url: str | None = None  # BOSUN_ARCHIVE_URL: s3://bucket/prefix; None: archive_dir
    s3_endpoint_url: str | None = None  # AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL (MinIO, R2, ...)
    s3_region: str | None = None  # AWS_REGION (else boto3's AWS_DEFAULT_REGION or the profile's)
    archive_timeout_s: float = TIMEOUT_S  # BOSUN_ARCHIVE_TIMEOUT_S: one storage check, at most

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
        return database_uri(self.database_url, self.pgdata_dir, linger_s=self.server_linger_s)

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
            bm25=(_opt(env, "BOSUN_BM25") or "auto").lower(),
            hnsw_ef_search=_whole(env, "BOSUN_HNSW_EF_SEARCH", EF_SEARCH, most=1000),
            bm25_cache_mb=_whole(env, "BOSUN_BM25_CACHE_MB", CACHE_MB, least=0, most=65536),
            server_linger_s=_seconds(env, "BOSUN_SERVER_LINGER_S", SERVER_LINGER_S, zero=True),
            archive_url=_opt(env, "BOSUN_ARCHIVE_URL"),
            s3_endpoint_url=_opt(env, "AWS_ENDPOINT_URL_S3") or _opt(env, "AWS_ENDPOINT_URL"),
            s3_region=_opt(env, "AWS_REGION"),
            archive_timeout_s=_seconds(env, "BOSUN_ARCHIVE_TIMEOUT_S", TIMEOUT_S),
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
            chat_tools=_switch(env, "BOSUN_CHAT_TOOLS", default=True),
            openai_api_key=_opt(env, "OPENAI_API_KEY"),
            cross_encoder_dir=Path(cross) if cross else None,
            langfuse_public_key=_opt(env, "LANGFUSE_PUBLIC_KEY"),
            langfuse_secret_key=_opt(env, "LANGFUSE_SECRET_KEY"),
            langfuse_base_url=_opt(env, "LANGFUSE_BASE_URL"),
            provider_timeout_s=_seconds(env, "BOSUN_PROVIDER_TIMEOUT_S", 20.0),
            db_timeout_s=_seconds(env, "BOSUN_DB_TIMEOUT_S", 10.0),
            cache_dir=home.expanduser() / "cache",
        ).validated()

    def validated(self) -> Settings:
        """These settings, or a :class:`SettingsError` naming the variable that is wrong."""
        if self.embeddings not in EMBEDDINGS:
            raise SettingsError(
                f"BOSUN_EMBEDDINGS must be one of {', '.join(EMBEDDINGS)}, got {self.embeddings!r}"
            )
        if self.bm25 not in BM25_MODES:
            raise SettingsError(
                f"BOSUN_BM25 must be one of {', '.join(BM25_MODES)}, got {self.bm25[:40]!r}"
            )
        if self.database_url:
            _check_database_url(self.database_url)
        if self.archive_url:
            try:
                S3Location.parse(self.archive_url)
            except OriginalsConfigError as err:
                raise SettingsError(f"BOSUN_ARCHIVE_URL: {err}") from None
        return self


def _switch(env: dict[str, str], name: str, *, default: bool) -> bool:
    """``on``/``off`` (also true/false, 1/0, yes/no)."""
    raw = (_opt(env, name) or "").lower()
    if not raw:
        return default
    if raw in ("on", "true", "1", "yes"):
        return True
    if raw in ("off", "false", "0", "no"):
        return False
    raise SettingsError(f"{name} must be on or off, got {raw[:40]!r}")


def _seconds(env: dict[str, str], name: str, default: float, *, zero: bool = False) -> float:
    """A positive number of seconds (``zero``: or 0, which turns the feature off)."""
    raw = _opt(env, name)
    if raw is None:
        return default
    try:
        value = float(raw)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value < 0 or (value == 0 and not zero):
        least = ">= 0" if zero else "> 0"
        raise SettingsError(f"{name} must be a number of seconds {least}, got {raw[:40]!r}")
    return value


def _whole(env: dict[str, str], name: str, default: int, *, least: int = 1, most: int) -> int:
    """A whole number from ``least`` to ``most``."""
    raw = _opt(env, name)
    if raw is None:
        return default
    if not raw.strip().isdigit() or not least <= int(raw) <= most:
        raise SettingsError(
            f"{name} must be a whole number from {least} to {most}, got {raw[:40]!r}"
        )
    return int(raw)


def _check_database_url(url: str) -> None:
    """A postgresql:// URL with a numeric port; the value itself is never echoed (secrets)."""
    if not url.lower().startswith(("postgresql://", "postgres://", "postgresql+psycopg://")):
        raise SettingsError(
            "DATABASE_URL must be a postgresql://user:password@host:port/database URL"
        )
    try:
        urlsplit(url).port  # noqa: B018 - raises on a port that is not a number
    except ValueError:
        raise SettingsError("DATABASE_URL has a port that is not a number (0-65535)") from None
