"""Conversation checkpoints in the same PostgreSQL database as the archive.

``open_checkpointer(uri)`` serves the CLI, the server, the Python example and ``langgraph.json``
(through ``agent/langgraph_app.py:checkpointer``, which reads the environment).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver
from psycopg import AsyncConnection
from psycopg.rows import DictRow, dict_row
from psycopg_pool import AsyncConnectionPool

from archive.store.database import RECONNECT_S

_TRY_LOCK = "SELECT pg_try_advisory_lock(hashtext('bosun:checkpoints')) AS locked"
_ready: set[str] = set()  # databases whose checkpoint tables this process has set up


@contextlib.asynccontextmanager
async def open_checkpointer(
    uri: str, *, max_size: int = 4, statement_timeout_s: float | None = None
) -> AsyncIterator[AsyncPostgresSaver]:
    """An :class:`AsyncPostgresSaver` on a pool to ``uri``, its tables created once per process.
    Connections are checked before use (a restarted server costs a reconnect);
    ``statement_timeout_s`` bounds each statement and the wait for a connection (None: no bound
    on statements, 30 s for a connection)."""
    kwargs: dict[str, Any] = {"autocommit": True, "prepare_threshold": 0, "row_factory": dict_row}
    if statement_timeout_s:
        kwargs["options"] = f"-c statement_timeout={round(statement_timeout_s * 1000)}"
    pool: AsyncConnectionPool[AsyncConnection[DictRow]] = AsyncConnectionPool(
        uri,
        connection_class=AsyncConnection[DictRow],
        min_size=1,
        max_size=max_size,
        open=False,
        check=AsyncConnectionPool.check_connection,
        timeout=statement_timeout_s or 30.0,
        reconnect_timeout=RECONNECT_S,  # a restarted server: reconnect soon, not minutes later
        kwargs=kwargs,
    )
    await pool.open(wait=True)
    try:
        saver = AsyncPostgresSaver(pool)  # type: ignore[arg-type]
        if uri not in _ready:
            await _setup_once(pool, saver)
            _ready.add(uri)
        yield saver
    finally:
        await pool.close()


async def _setup_once(
    pool: AsyncConnectionPool[AsyncConnection[DictRow]], saver: AsyncPostgresSaver
) -> None:
    """Create or migrate the checkpoint tables, one process at a time (two processes starting
    on a fresh database would otherwise both insert the same migration rows)."""
    async with pool.connection() as conn:
        # Poll rather than block: the setup builds an index CONCURRENTLY, which waits for every
        # open statement, including a pg_advisory_lock() waiting for that very setup.
        while not (await (await conn.execute(_TRY_LOCK)).fetchone() or {}).get("locked"):  # noqa: ASYNC110 (the lock lives in another process)
            await asyncio.sleep(0.1)
        try:
            await saver.setup()
        finally:
            await conn.execute("SELECT pg_advisory_unlock(hashtext('bosun:checkpoints'))")
