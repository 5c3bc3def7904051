"""API keys → user ids; ``local`` for everyone in single-user local mode."""

from __future__ import annotations

import hmac

from starlette.exceptions import HTTPException
from starlette.requests import HTTPConnection

from agent.server.config import ServerConfig
from agent.server.runtime import config_of
from agent.turns import LOCAL_USER


def key_of(headers: dict[str, str] | HTTPConnection) -> str | None:
    """The key from ``Authorization: Bearer <key>`` or ``X-API-Key: <key>``."""
    get = headers.headers.get if isinstance(headers, HTTPConnection) else headers.get
    auth = get("authorization") or ""
    scheme, _, token = auth.partition(" ")
    if scheme.lower() == "bearer" and token.strip():
        return token.strip()
    return (get("x-api-key") or "").strip() or None


def user_for_key(config: ServerConfig, key: str | None) -> str | None:
    """The user id of ``key`` (compared in constant time), ``local`` in local mode, else None."""
    if config.local_mode:
        return LOCAL_USER
    if not key:
        return None
    found = None
    for known, user in config.api_keys.items():
        if hmac.compare_digest(known.encode(), key.encode()):
            found = user
    return found


def require_user(request: HTTPConnection) -> str:
    """The caller's user id, or 401."""
    user = user_for_key(config_of(request), key_of(request))
    if user is None:
        raise HTTPException(401, "missing or unknown API key")
    return user
