"""The web app's settings, read once when the app is built (never at import time)."""

from __future__ import annotations

import contextlib
import os
import secrets
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

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
        env = dict(os.environ if env is None else env)
        secret = env.get("BOSUN_SERVER_SECRET", "").strip()
        return cls(
            api_keys=parse_api_keys(env.get("BOSUN_API_KEYS", "")),
            secret=secret.encode() if secret else stored_secret(settings.home),
            link_ttl_s=link_ttl(env.get("BOSUN_LINK_TTL_S", "")),
            chat_per_minute=int(env.get("BOSUN_RATE_CHAT") or 30),
            citations_per_minute=int(env.get("BOSUN_RATE_CITATIONS") or 100),
            citations_delay_s=float(env.get("BOSUN_TEST_CITATIONS_DELAY_S") or 0.0),
        )

    def check_bind(self, host: str) -> None:
        """Refuse to serve a non-loopback interface without API keys."""
        if self.local_mode and host not in LOCAL_HOSTS:
            raise ServerConfigError(
                f"refusing to serve {host} without API keys: set BOSUN_API_KEYS="
                '"<key>:<user>,..." or bind 127.0.0.1 for single-user local mode'
            )


def link_ttl(raw: str) -> int:
    """``BOSUN_LINK_TTL_S``: whole seconds from 1 to 7 days (default 300)."""
    raw = raw.strip()
    if not raw:
        return LINK_TTL_S
    if not raw.isdigit() or not 1 <= int(raw) <= MOST_LINK_TTL_S:
        raise ServerConfigError(
            f"BOSUN_LINK_TTL_S must be whole seconds from 1 to {MOST_LINK_TTL_S}, got {raw[:40]!r}"
        )
    return int(raw)


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
