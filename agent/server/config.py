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
#: ``Host`` names every deployment answers to (any port): the loopback names.
LOCAL_HOST_NAMES = ("localhost", "127.0.0.1", "[::1]")
WILDCARD_BINDS = {"0.0.0.0", "::", ""}


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
    # Host names (no port; "*.example.org" patterns) a client may call the server by, besides
    # the loopback names: the public name behind a reverse proxy, a LAN address.
    public_hosts: tuple[str, ...] = ()
    # Origins other than the page's own whose browsers may send state-changing requests
    # (e.g. LangGraph Studio's, https://smith.langchain.com, under `langgraph dev`).
    allowed_origins: tuple[str, ...] = ()
    # Test-only: delay the `citations` SSE frame (the page's 3 s fallback is tested with it).
    citations_delay_s: float = 0.0

    @property
    def local_mode(self) -> bool:
        """No keys: a single user ("local"), allowed only on the loopback interface."""
        return not self.api_keys

    @property
    def allowed_hosts(self) -> tuple[str, ...]:
        """``Host`` values (without the port) the server answers; anything else is refused."""
        return (*LOCAL_HOST_NAMES, *self.public_hosts)

    @classmethod
    def from_env(cls, settings: Settings, env: dict[str, str] | None = None) -> ServerConfig:
        """``BOSUN_API_KEYS="key1:alice,key2:bob"``, ``BOSUN_SERVER_SECRET`` (else a secret
        generated once under BOSUN_HOME), ``BOSUN_RATE_CHAT`` / ``BOSUN_RATE_CITATIONS`` per
        minute, ``BOSUN_LINK_TTL_S`` (download links, 300 s by default), ``BOSUN_PUBLIC_HOST``
        (comma-separated host names), ``BOSUN_ALLOWED_ORIGINS`` (comma-separated origins),
        ``BOSUN_TEST_CITATIONS_DELAY_S`` (tests only)."""
        read = read_environment(_ServerEnvironment, os.environ if env is None else env)
        named = {"api_keys", "secret", "public_hosts", "allowed_origins"}
        limits = read.model_dump(exclude_unset=True, exclude=named)
        return cls(
            api_keys=parse_api_keys(read.api_keys or ""),
            secret=read.secret.encode() if read.secret else stored_secret(settings.home),
            public_hosts=parse_hosts(read.public_hosts or ""),
            allowed_origins=parse_origins(read.allowed_origins or ""),
            **limits,
        )

    def check_bind(self, host: str) -> None:
        """Refuse to serve a non-loopback interface without API keys, or on every interface
        without a public host name (requests naming another host are refused)."""
        if host in LOCAL_HOSTS:
            return
        if self.local_mode:
            raise ServerConfigError(
                f"refusing to serve {host} without API keys: set BOSUN_API_KEYS="
                '"<key>:<user>,..." or bind 127.0.0.1 for single-user local mode'
            )
        if host in WILDCARD_BINDS and not self.public_hosts:
            raise ServerConfigError(
                f"refusing to serve {host or 'every interface'} without BOSUN_PUBLIC_HOST: set "
                "it to the names or addresses clients use (requests naming another host are "
                "refused), or bind one address"
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
    public_hosts: str | None = Field(default=None, validation_alias="BOSUN_PUBLIC_HOST")
    allowed_origins: str | None = Field(default=None, validation_alias="BOSUN_ALLOWED_ORIGINS")


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


def parse_hosts(text: str) -> tuple[str, ...]:
    """``"bosun.example.org, 10.0.0.5:8000, *.corp.example"`` → host names without ports, as
    Starlette's TrustedHostMiddleware compares them (IPv6 in brackets)."""
    hosts = []
    for item in text.split(","):
        host = item.strip().lower()
        if not host:
            continue
        if host.startswith("["):
            host = host.partition("]")[0] + "]"
        elif host.count(":") == 1:
            host = host.partition(":")[0]
        elif ":" in host:  # a bare IPv6 address
            host = f"[{host}]"
        if "*" in host[1:] or (host.startswith("*") and not host.startswith("*.")) or host == "*":
            raise ServerConfigError(
                f"BOSUN_PUBLIC_HOST entries are host names or '*.domain' patterns, got {item!r}"
            )
        hosts.append(host)
    return tuple(hosts)


def parse_origins(text: str) -> tuple[str, ...]:
    """``"https://smith.langchain.com"`` → origins as browsers send them (scheme://host[:port])."""
    origins = []
    for item in text.split(","):
        origin = item.strip().rstrip("/").lower()
        if not origin:
            continue
        scheme, sep, rest = origin.partition("://")
        if scheme not in ("http", "https") or not sep or not rest or "/" in rest:
            raise ServerConfigError(
                f"BOSUN_ALLOWED_ORIGINS entries look like https://host[:port], got {item!r}"
            )
        origins.append(origin)
    return tuple(origins)


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
