"""The web app's tables (``schema.sql``), created once per process and database."""

from __future__ import annotations

import asyncio
from importlib.resources import files

from psycopg import AsyncConnection
from psycopg.rows import DictRow
from psycopg_pool import AsyncConnectionPool

_LOCK = "bosun:server-schema"
_ready: set[str] = set()  # connection strings whose tables this process has checked


async def ensure_schema(pool: AsyncConnectionPool[AsyncConnection[DictRow]]) -> None:
    """Apply ``schema.sql`` (idempotent) under an advisory lock, so workers starting together
    do not race on ``CREATE TABLE IF NOT EXISTS``."""
    key = str(pool.conninfo)
    if key in _ready:
        return
    ddl = await asyncio.to_thread(files("agent.server").joinpath("schema.sql").read_text, "utf-8")
    async with pool.connection() as conn, conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", (_LOCK,))
        await conn.execute(ddl)  # type: ignore[arg-type]  # trusted DDL shipped with the package
    _ready.add(key)
