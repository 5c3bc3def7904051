"""LangGraph Server's custom auth (``langgraph.json`` "auth"): the web app's API keys; each user
sees only the threads and runs they created, the assistants are shared."""

from __future__ import annotations

import os
from functools import cache
from typing import Any

from langgraph_sdk import Auth

from agent.server.auth import key_of, user_for_key
from agent.server.config import ServerConfig, parse_api_keys

auth = Auth()


@cache
def _config() -> ServerConfig:
    """The key map from the environment, read on the first request (not at import)."""
    return ServerConfig(api_keys=parse_api_keys(os.environ.get("BOSUN_API_KEYS", "")))


@auth.authenticate
async def authenticate(headers: dict[bytes, bytes]) -> Auth.types.MinimalUserDict:
    """``Authorization: Bearer <key>`` or ``X-API-Key``; everyone is "local" without keys."""
    text = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in headers.items()}
    user = user_for_key(_config(), key_of(text))
    if user is None:
        raise Auth.exceptions.HTTPException(status_code=401, detail="missing or unknown API key")
    return {"identity": user}


@auth.on
async def owner_only(ctx: Auth.types.AuthContext, value: dict[str, Any]) -> dict[str, str]:
    """Stamp what a user creates with their id and show them only what carries it."""
    owner = {"owner": ctx.user.identity}
    metadata = value.setdefault("metadata", {}) if isinstance(value, dict) else None
    if isinstance(metadata, dict):
        metadata.update(owner)
    return owner


@auth.on.assistants
async def shared_assistants(ctx: Auth.types.AuthContext, value: dict[str, Any]) -> bool:
    """Assistants (the deployed graphs) are shared by every authenticated user."""
    return True
