"""Deployment settings, read once from the environment at start-up."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import urlsplit

import platformdirs
from pydantic import AfterValidator, AliasChoices, BeforeValidator, Field

from agent.environment import (
    EnvironmentModel,
    one_of,
    quoted,
    read_environment,
    seconds,
    switch,
    whole,
)
from agent.errors import SettingsError
from archive.originals import TIMEOUT_S, OriginalsConfigError, S3Location
from archive.store.defaults import BM25_MODES, CACHE_MB, EF_SEARCH
from archive.store.server import database_uri
from providers.config import ProviderConfig

EMBEDDINGS = ("local", "gemini", "cohere")
#: How long the embedded server stays up after the last command that used it: a repeat `bosun
#: ask` then skips starting it (~0.4 s) and the last one's exit skips stopping it.
SERVER_LINGER_S = 300.0


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
    warm_ask: bool = True  # BOSUN_WARM_ASK: models stay loaded that long for the next `bosun ask`
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
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        """Build settings from environment variables (``os.environ`` by default); a bad value
        raises :class:`SettingsError` naming the variable."""
        read = read_environment(_Environment, os.environ if env is None else env)
        home = Path(read.home or platformdirs.user_data_dir("bosun")).expanduser()
        values = {"server_linger_s": SERVER_LINGER_S, **read.model_dump(exclude_unset=True)}
        values.pop("home", None)
        return cls(home=home, cache_dir=home / "cache", **values).validated()

    def validated(self) -> Settings:
        """These settings, or a :class:`SettingsError` naming the variable that is wrong."""
        for name, value, choices in (
            ("BOSUN_EMBEDDINGS", self.embeddings, EMBEDDINGS),
            ("BOSUN_BM25", self.bm25, BM25_MODES),
        ):
            if value not in choices:
                allowed = ", ".join(choices)
                raise SettingsError(f"{name} must be one of {allowed}, got {quoted(value)}")
        if self.database_url:
            try:
                _check_database_url(self.database_url)
            except ValueError as err:
                raise SettingsError(f"DATABASE_URL {err}") from None
        if self.archive_url:
            try:
                S3Location.parse(self.archive_url)
            except OriginalsConfigError as err:
                raise SettingsError(f"BOSUN_ARCHIVE_URL: {err}") from None
        return self


def _check_database_url(url: str) -> str:
    """A postgresql:// URL with a numeric port; the value itself is never echoed (secrets)."""
    if not url.lower().startswith(("postgresql://", "postgres://", "postgresql+psycopg://")):
        raise ValueError("must be a postgresql://user:password@host:port/database URL")
    try:
        urlsplit(url).port  # noqa: B018 - raises on a port that is not a number
    except ValueError:
        raise ValueError("has a port that is not a number (0-65535)") from None
    return url


def _env(name: str, *more: str) -> Any:
    """A field read from the variable ``name`` (else the first of ``more`` that is set)."""
    return Field(default=None, validation_alias=AliasChoices(name, *more) if more else name)


class _Environment(EnvironmentModel):
    """The variables :class:`Settings` is read from (documented in the README); those not set
    take :class:`Settings`' defaults."""

    home: str | None = _env("BOSUN_HOME")
    database_url: Annotated[str | None, AfterValidator(_check_database_url)] = _env("DATABASE_URL")
    collection: str | None = _env("BOSUN_COLLECTION")
    bm25: Annotated[str | None, BeforeValidator(one_of(BM25_MODES))] = _env("BOSUN_BM25")
    hnsw_ef_search: Annotated[int | None, BeforeValidator(whole(1, 1000))] = _env(
        "BOSUN_HNSW_EF_SEARCH"
    )
    bm25_cache_mb: Annotated[int | None, BeforeValidator(whole(0, 65536))] = _env(
        "BOSUN_BM25_CACHE_MB"
    )
    server_linger_s: Annotated[float | None, BeforeValidator(seconds(zero=True))] = _env(
        "BOSUN_SERVER_LINGER_S"
    )
    warm_ask: Annotated[bool | None, BeforeValidator(switch)] = _env("BOSUN_WARM_ASK")
    embeddings: Annotated[str | None, BeforeValidator(one_of(EMBEDDINGS))] = _env(
        "BOSUN_EMBEDDINGS"
    )
    google_api_key: str | None = _env("GOOGLE_API_KEY", "GEMINI_API_KEY")
    google_base_url: str | None = _env("BOSUN_GOOGLE_BASE_URL")
    gemini_chat_model: str | None = _env("BOSUN_GEMINI_MODEL")
    gemini_embedding_model: str | None = _env("BOSUN_GEMINI_EMBEDDING_MODEL")
    cohere_api_key: str | None = _env("COHERE_API_KEY")
    cohere_base_url: str | None = _env("BOSUN_COHERE_BASE_URL")
    cohere_rerank_model: str | None = _env("BOSUN_COHERE_RERANK_MODEL")
    cohere_embedding_model: str | None = _env("BOSUN_COHERE_EMBEDDING_MODEL")
    chat_model: str | None = _env("BOSUN_CHAT_MODEL")
    chat_base_url: str | None = _env("BOSUN_CHAT_BASE_URL")
    chat_tools: Annotated[bool | None, BeforeValidator(switch)] = _env("BOSUN_CHAT_TOOLS")
    openai_api_key: str | None = _env("OPENAI_API_KEY")
    cross_encoder_dir: Path | None = _env("BOSUN_CROSS_ENCODER_DIR")
    langfuse_public_key: str | None = _env("LANGFUSE_PUBLIC_KEY")
    langfuse_secret_key: str | None = _env("LANGFUSE_SECRET_KEY")
    langfuse_base_url: str | None = _env("LANGFUSE_BASE_URL")
    provider_timeout_s: Annotated[float | None, BeforeValidator(seconds())] = _env(
        "BOSUN_PROVIDER_TIMEOUT_S"
    )
    db_timeout_s: Annotated[float | None, BeforeValidator(seconds())] = _env("BOSUN_DB_TIMEOUT_S")
    archive_url: str | None = _env("BOSUN_ARCHIVE_URL")
    s3_endpoint_url: str | None = _env("AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL")
    s3_region: str | None = _env("AWS_REGION")
    archive_timeout_s: Annotated[float | None, BeforeValidator(seconds())] = _env(
        "BOSUN_ARCHIVE_TIMEOUT_S"
    )
