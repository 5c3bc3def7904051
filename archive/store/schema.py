"""Versioned schema migrations, applied once per collection (a PostgreSQL schema)."""

from __future__ import annotations

import logging
import re
from importlib import resources

from psycopg import AsyncConnection, sql

logger = logging.getLogger(__name__)

_NAME = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")


class StoreError(Exception):
    """The store cannot be used as configured; the message says why and what to do."""


def check_collection_name(name: str) -> str:
    """Collections are PostgreSQL schemas: lowercase letters, digits and underscores."""
    if not _NAME.match(name):
        raise StoreError(
            f"invalid collection name {name!r}: use lowercase letters, digits and underscores"
        )
    return name


def migrations() -> list[tuple[int, str, str]]:
    """(version, name, SQL) of every migration shipped with the package, in order."""
    found = []
    for entry in resources.files("archive.store").joinpath("migrations").iterdir():
        match = re.match(r"^(\d+)_(\w+)\.sql$", entry.name)
        if match:
            found.append((int(match.group(1)), match.group(2), entry.read_text("utf-8")))
    return sorted(found)


async def migrate(conn: AsyncConnection, schema: str, *, dim: int) -> list[int]:
    """Apply the migrations this schema lacks; returns the versions applied."""
    check_collection_name(schema)
    applied: list[int] = []
    await ensure_vector_extension(conn)
    async with conn.transaction():
        # One migrator at a time per schema, across processes.
        await conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (f"bosun:{schema}",))
        await conn.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(schema)))
        await conn.execute(
            sql.SQL("SET LOCAL search_path TO {}, public").format(sql.Identifier(schema))
        )
        await conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations ("
            " version integer PRIMARY KEY, name text NOT NULL,"
            " applied_at timestamptz NOT NULL DEFAULT now())"
        )
        cur = await conn.execute("SELECT version FROM schema_migrations")
        done = {row[0] for row in await cur.fetchall()}
        for version, name, text in migrations():
            if version in done:
                continue
            await conn.execute(text.replace("{dim}", str(int(dim))))  # type: ignore[arg-type]
            await conn.execute(
                "INSERT INTO schema_migrations (version, name) VALUES (%s, %s)", (version, name)
            )
            logger.info("schema %s: applied migration %03d_%s", schema, version, name)
            applied.append(version)
    return applied


async def ensure_vector_extension(conn: AsyncConnection) -> None:
    """Create pgvector once per database. The lock is database-wide, not per schema: two
    processes migrating different collections of a fresh database (``bosun eval`` runs, ingest
    machines) would otherwise both run ``CREATE EXTENSION`` and one fail with a UniqueViolation;
    ``IF NOT EXISTS`` does not guard against a concurrent creator."""
    cur = await conn.execute("SELECT 1 FROM pg_extension WHERE extname = 'vector'")
    if await cur.fetchone() is not None:
        return
    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock(hashtext('bosun:create-extension'))")
        await conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
