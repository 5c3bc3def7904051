"""The web app's view of its database: known down after a request failed to reach it, then one
probe at a time until it answers again.

While the database is known down a request is answered at once (503 with ``Retry-After``)
instead of each waiting ``BOSUN_DB_TIMEOUT_S`` for a pooled connection. When a probe connects,
every pool is checked (broken connections replaced at once) before the request goes on, so the
first request after a restart works. The pools themselves give a lost connection up after a few
seconds of retries (``archive.store.database.RECONNECT_S``) instead of backing off for minutes.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Sequence
from typing import Any

import psycopg
from psycopg_pool import AsyncConnectionPool
from starlette.exceptions import HTTPException

logger = logging.getLogger(__name__)

RETRY_AFTER_S = 2
PROBE_TIMEOUT_S = 3.0
UNAVAILABLE = "the database is unavailable; retry in a few seconds"
SLOW = "the database did not answer in time; please retry"


def unavailable() -> HTTPException:
    return HTTPException(503, UNAVAILABLE, headers={"Retry-After": str(RETRY_AFTER_S)})


class DatabaseHealth:
    """Known up (the default) or down since a failure; :meth:`admit` decides per request."""

    def __init__(self) -> None:
        self.down_since: float | None = None
        self._lock = asyncio.Lock()
        self._probed_at = 0.0  # when the last probe ended

    def failed(self, err: BaseException) -> None:
        """A request could not reach the database: from now on, probe before using it."""
        if self.down_since is None:
            logger.warning("database unreachable (%s): probing before each request", err)
            self.down_since = time.monotonic()

    async def admit(self, conninfo: str, pools: Sequence[AsyncConnectionPool[Any]]) -> None:
        """Return when the database is known up (checking ``pools`` when it just came back),
        else raise 503 at once."""
        if self.down_since is None:
            return
        arrived = time.monotonic()
        async with self._lock:  # one probe at a time; those waiting meanwhile share its verdict
            if self.down_since is None:
                return
            if arrived < self._probed_at:
                raise unavailable()
            up = await probe(conninfo)
            now = self._probed_at = time.monotonic()
            if not up:  # a refused connection fails in milliseconds: told at once
                raise unavailable()
            for pool in pools:  # drop the connections the restart broke, refill at once
                await pool.check()
            logger.warning("database back after %.1f s", now - self.down_since)
            self.down_since = None


def database_failed(health: DatabaseHealth, err: psycopg.OperationalError) -> bool:
    """Record ``err`` (a statement timeout says nothing of reachability); True when it was one."""
    if isinstance(err, psycopg.errors.QueryCanceled):
        return True
    health.failed(err)
    return False


async def probe(conninfo: str) -> bool:
    """Whether a fresh connection to ``conninfo`` answers ``SELECT 1`` within a few seconds."""
    try:
        async with asyncio.timeout(PROBE_TIMEOUT_S):
            conn = await psycopg.AsyncConnection.connect(
                conninfo, autocommit=True, connect_timeout=round(PROBE_TIMEOUT_S)
            )
            async with conn:
                await conn.execute("SELECT 1")
    except (psycopg.Error, OSError, TimeoutError) as err:
        logger.info("database probe failed: %s", err)
        return False
    return True
