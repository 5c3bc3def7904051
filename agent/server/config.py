"""The web app's settings, read once when the app is built (never at import time)."""

from __future__ import annotations

import contextlib
import os
import secrets
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated

from pydantic import BeforeValidator, Field

from agent.environment import EnvironmentModel, read_environment, seconds, whole
from agent.errors import UsageError
from agent.settings import Settings

LOCAL_HOSTS = {"127.0.0.1", "localhost", "::1"}
#: Lifetime of a download link: the app's signed one, or object storage's pre-signed GET.
LINK_TTL_S = 300
#: Longest link lifetime (a SigV4 pre-signed URL is valid for at most 7 days).
MOST_LINK_TTL_S = 7 * 24 * 3600


class ServerConfigError(UsageError):
    """A configuration the server refuses to start with."""


@dataclass(frozen=True)
class ServerConfig:
    """Who may call the API, the download-link secret and the per-user limits."""

    api_keys: dict[str, str] = field(default_factory=dict, repr=False)  # key -> user id
    secret: bytes = field(default=b"", repr=False)  # HMAC key of download links
    link_ttl_s: int = LINK_TTL_S  # BOSUN_LINK_TTL_S: lifetime of a download link (both stores)
    chat_per_minute: int = 30  # chat and search requests per user
    citations_per_minute: int = 100  # citation detail and download requests per user
    # Test-only: delay the `citations` SSE frame (the page's 3 s fallback is tested with it).
    citations_delay_s: float = 0.0

    @property
    def local_mode(self) -> bool:
        """No keys: a single user ("local"), allowed only on the loopback interface."""
        return not self.api_keys

    @classmethod
    def from_env(cls, settings: Settings, env: dict[str, str] | None = None) -> ServerConfig:
        """``BOSUN_API_KEYS="key1:alice,key2:bob"``, ``BOSUN_SERVER_SECRET`` (else a secret
        generated once under BOSUN_HOME), ``BOSUN_RATE_CHAT`` / ``BOSUN_RATE_CITATIONS`` per
        minute, ``BOSUN_LINK_TTL_S`` (download links, 300 s by default),
        ``BOSUN_TEST_CITATIONS_DELAY_S`` (tests only)."""
        read = read_environment(_ServerEnvironment, os.environ if env is None else env)
        limits = read.model_dump(exclude_unset=True, exclude={"api_keys", "secret"})
        return cls(
            api_keys=parse_api_keys(read.api_keys or ""),
            secret=read.secret.encode() if read.secret else stored_secret(settings.home),
            **limits,
        )

    def check_bind(self, host: str) -> None:
        """Refuse to serve a non-loopback interface without API keys."""
        if self.local_mode and host not in LOCAL_HOSTS:
            raise ServerConfigError(
                f"refusing to serve {host} without API keys: set BOSUN_API_KEYS="
                '"<key>:<user>,..." or bind 127.0.0.1 for single-user local mode'
            )


MOST_PER_MINUTE = 1_000_000


class _ServerEnvironment(EnvironmentModel):
    """The server's variables; those not set keep :class:`ServerConfig`'s defaults."""

    api_keys: str | None = Field(default=None, validation_alias="BOSUN_API_KEYS")
    secret: str | None = Field(default=None, validation_alias="BOSUN_SERVER_SECRET")
    chat_per_minute: Annotated[int | None, BeforeValidator(whole(1, MOST_PER_MINUTE))] = Field(
        default=None, validation_alias="BOSUN_RATE_CHAT"
    )
    citations_per_minute: Annotated[int | None, BeforeValidator(whole(1, MOST_PER_MINUTE))] = Field(
        default=None, validation_alias="BOSUN_RATE_CITATIONS"
    )
    citations_delay_s: Annotated[float | None, BeforeValidator(seconds(zero=True))] = Field(
        default=None, validation_alias="BOSUN_TEST_CITATIONS_DELAY_S"
    )
    link_ttl_s: Annotated[int | None, BeforeValidator(whole(1, MOST_LINK_TTL_S))] = Field(
        default=None, validation_alias="BOSUN_LINK_TTL_S"
    )


def parse_api_keys(text: str) -> dict[str, str]:
    """``"key1:alice,key2:bob"`` → ``{"key1": "alice", "key2": "bob"}``."""
    keys: dict[str, str] = {}
    for item in text.split(","):
        if not item.strip():
            continue
        key, sep, user = item.strip().rpartition(":")
        if not sep or not key or not user:
            raise ServerConfigError("BOSUN_API_KEYS entries must look like <key>:<user id>")
        keys[key] = user
    return keys


def stored_secret(home: Path) -> bytes:
    """The secret under ``home/server-secret``, created (mode 600) on first use. Written to a
    private temporary file and linked into place, so workers starting together agree on one."""
    path = home / "server-secret"
    if not path.exists():
        home.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=home, prefix=".server-secret-")  # mode 600
        try:
            with os.fdopen(fd, "w") as handle:
                handle.write(secrets.token_hex(32))
            with contextlib.suppress(FileExistsError):  # another worker won the race
                os.link(tmp, path)
        finally:
            os.unlink(tmp)
    return path.read_text().strip().encode()
