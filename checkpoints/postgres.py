"""Conversation checkpoints in the same PostgreSQL database as the archive.

``open_checkpointer(settings)`` is for code that builds the graph itself (the CLI, the Python
example); ``checkpointer`` takes no arguments and reads the environment, as ``langgraph.json``'s
``"checkpointer": {"path": "./checkpoints/postgres.py:checkpointer"}`` expects.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver
from psycopg.rows import dict_row
from psycopg_pool import AsyncConnectionPool

from agent.settings import Settings
from agent.store.server import database_uri

_ready: set[str] = set()  # databases whose checkpoint tables this process has set up


@contextlib.asynccontextmanager
async def open_checkpointer(
    settings: Settings, *, max_size: int = 4
) -> AsyncIterator[AsyncPostgresSaver]:
    """An :class:`AsyncPostgresSaver` on a connection pool, its tables created once per process."""
    uri = database_uri(settings)
    pool: AsyncConnectionPool = AsyncConnectionPool(
        uri,
        min_size=1,
        max_size=max_size,
        open=False,
        kwargs={"autocommit": True, "prepare_threshold": 0, "row_factory": dict_row},
    )
    await pool.open(wait=True)
    try:
        saver = AsyncPostgresSaver(pool)  # type: ignore[arg-type]
        if uri not in _ready:
            await saver.setup()
            _ready.add(uri)
        yield saver
    finally:
        await pool.close()


@contextlib.asynccontextmanager
async def checkpointer() -> AsyncIterator[AsyncPostgresSaver]:
    """The checkpointer for ``langgraph dev`` / ``up``, configured from the environment."""
    async with open_checkpointer(Settings.from_env()) as saver:
        yield saver
