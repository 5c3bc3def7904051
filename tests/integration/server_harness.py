"""What the server route tests share: the app in-process over the real database, SSE parsing."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx

from agent.server.app import build_app
from agent.server.config import ServerConfig
from agent.settings import Settings

SECRET = b"test-secret-0123456789"


def frames(body: str) -> list[tuple[str, dict[str, Any]]]:
    """``(event, data)`` of each server-sent event in ``body``."""
    out = []
    for block in body.replace("\r\n", "\n").split("\n\n"):
        event, data = "message", []
        for line in block.split("\n"):
            if line.startswith("event:"):
                event = line[6:].strip()
            elif line.startswith("data:"):
                data.append(line[5:].strip())
        if data:
            out.append((event, json.loads("\n".join(data))))
    return out


@asynccontextmanager
async def serve(
    settings: Settings, *, client: tuple[str, int] = ("127.0.0.1", 123), **config: Any
) -> AsyncIterator[httpx.AsyncClient]:
    """An HTTP client (from address ``client``) on the app built over ``settings`` (closed with
    its services after). Limits are raised unless given: these tests share one user; the limits
    have their own test."""
    config = {"chat_per_minute": 10_000, "citations_per_minute": 10_000, **config}
    app = build_app(settings, ServerConfig(secret=SECRET, **config))
    transport = httpx.ASGITransport(app=app, client=client)
    try:
        async with httpx.AsyncClient(transport=transport, base_url="http://localhost") as client:
            yield client
    finally:
        await app.state.runtime.close()


async def ask(
    client: httpx.AsyncClient, message: str, *, key: str | None = None, **body: Any
) -> list[tuple[str, dict[str, Any]]]:
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    response = await client.post(
        "/api/chat", json={"message": message, **body}, headers=headers, timeout=120
    )
    assert response.status_code == 200, response.text
    return frames(response.text)
