"""Per-client request limits in PostgreSQL, so every worker and machine shares them.

A sliding window: each (client, route group) row keeps the times of the requests it accepted in
the last :data:`WINDOW_S` seconds, and a request is accepted while fewer than the limit are
there — in *any* 60 s, so no window edge lets twice the limit through (the fixed one-minute
windows before let 57 chat requests through in 4 s across an edge, limit 30). The row is locked
for the check, the clock is the database's, so workers on several machines agree.

Whose limit a request counts against (:func:`client_key`): the user of its API key; without keys
everyone is the one local user, so the client's address tells them apart (uvicorn's, which is
the forwarded one behind a reverse proxy on 127.0.0.1).
"""

from __future__ import annotations

import math

from starlette.exceptions import HTTPException
from starlette.requests import HTTPConnection

from agent.server.runtime import config_of
from agent.turns import Pool

WINDOW_S = 60.0

_ENSURE = """INSERT INTO bosun_rate_windows (client, bucket) VALUES (%(client)s, %(bucket)s)
ON CONFLICT (client, bucket) DO NOTHING"""
_LOCK = """SELECT hits, coalesce(%(now)s, extract(epoch FROM clock_timestamp()))::float8 AS now
FROM bosun_rate_windows WHERE client = %(client)s AND bucket = %(bucket)s FOR UPDATE"""
_SAVE = """UPDATE bosun_rate_windows SET hits = %(hits)s::float8[]
WHERE client = %(client)s AND bucket = %(bucket)s"""
# Rows whose newest request left the window (times are kept in ascending order).
_PRUNE = """DELETE FROM bosun_rate_windows
WHERE coalesce(hits[cardinality(hits)], 0) < %(since)s AND NOT (client = %(client)s)"""


def client_key(request: HTTPConnection, user: str) -> str:
    """The user with API keys; without keys, the local user at the client's address."""
    if not config_of(request).local_mode:
        return user
    address = request.client.host if request.client else "unknown"
    return f"{user}@{address}"


async def hit(
    pool: Pool, client: str, bucket: str, limit: int, *, now: float | None = None
) -> None:
    """Count one request of ``client``; 429 with ``Retry-After`` (seconds until the oldest
    counted request leaves the window) when ``limit`` were accepted in the last minute. A
    refused request is not counted. ``now``: epoch seconds (tests), else the database's clock."""
    key = {"client": client, "bucket": bucket, "now": now}
    async with pool.connection() as conn, conn.transaction():
        await conn.execute(_ENSURE, key)
        row = await (await conn.execute(_LOCK, key)).fetchone()
        assert row is not None  # ensured above, in this transaction
        clock = float(row["now"])
        live = sorted(h for h in row["hits"] if h > clock - WINDOW_S)
        accepted = len(live) < limit
        await conn.execute(_SAVE, {**key, "hits": [*live, clock] if accepted else live})
        if not live:  # this client's first request in a minute: drop clients gone quiet
            await conn.execute(_PRUNE, {**key, "since": clock - WINDOW_S})
    if not accepted:
        retry = max(1, math.ceil(live[-limit] + WINDOW_S - clock)) if limit > 0 else 60
        raise HTTPException(
            429,
            f"rate limit: {limit} {bucket} requests per minute; retry in {retry} s",
            headers={"Retry-After": str(retry)},
        )
