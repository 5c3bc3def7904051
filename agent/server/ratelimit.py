"""Per-user request limits counted in PostgreSQL, so every worker and machine shares them."""

from __future__ import annotations

import math
import time

from starlette.exceptions import HTTPException

from agent.turns import Pool

WINDOW_S = 60

_HIT = """
INSERT INTO bosun_rate_limits AS r (user_id, bucket, window_start, hits)
VALUES (%(user)s, %(bucket)s, to_timestamp(%(window)s), 1)
ON CONFLICT (user_id, bucket, window_start) DO UPDATE SET hits = r.hits + 1
RETURNING hits
"""
_PRUNE = "DELETE FROM bosun_rate_limits WHERE window_start < to_timestamp(%s)"


async def hit(pool: Pool, user: str, bucket: str, limit: int, *, now: float | None = None) -> None:
    """Count one request; 429 with ``Retry-After`` (seconds to the next window) past ``limit``."""
    now = time.time() if now is None else now
    window = int(now // WINDOW_S) * WINDOW_S
    async with pool.connection() as conn:
        row = await (
            await conn.execute(_HIT, {"user": user, "bucket": bucket, "window": window})
        ).fetchone()
        if row is not None and row["hits"] == 1:  # first hit of a window: drop old windows
            await conn.execute(_PRUNE, (window - WINDOW_S,))
    if row is not None and row["hits"] > limit:
        retry = max(1, math.ceil(window + WINDOW_S - now))
        raise HTTPException(
            429,
            f"rate limit: {limit} {bucket} requests per minute; retry in {retry} s",
            headers={"Retry-After": str(retry)},
        )
