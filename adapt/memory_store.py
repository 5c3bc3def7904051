"""Install a click memory for a collection: its file beside the collection's models, recorded
in the collection's meta (file, sha256, what it was fitted on) in one transaction; the previous
memory's file removed once the meta no longer names it."""

from __future__ import annotations

import hashlib
import json
import logging
from typing import Any

from psycopg import AsyncConnection, sql

from adapt.services import Collection
from archive.store.embedder import (
    MEMORY_FILE_KEY,
    MEMORY_KEYS,
    MEMORY_SHA_KEY,
    MEMORY_TRAINING_KEY,
)
from archive.store.schema import check_collection_name
from tools.click_memory import ClickMemory

logger = logging.getLogger(__name__)


async def install_memory(
    target: Collection, memory: ClickMemory, training: dict[str, Any]
) -> dict[str, str]:
    """Write ``memory`` for ``target`` and record it; returns the meta it recorded."""
    data = memory.to_bytes()
    sha = hashlib.sha256(data).hexdigest()
    folder = target.home / "models" / target.name
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"click-memory-{sha[:12]}.npz"
    path.write_bytes(data)
    meta = {
        MEMORY_FILE_KEY: str(path.relative_to(target.home)),
        MEMORY_SHA_KEY: sha,
        MEMORY_TRAINING_KEY: json.dumps(training, default=str),
    }
    table = sql.Identifier(check_collection_name(target.name), "meta")
    async with await AsyncConnection.connect(target.database_uri) as conn, conn.transaction():
        await conn.execute(
            sql.SQL("DELETE FROM {} WHERE key = ANY(%s)").format(table), (list(MEMORY_KEYS),)
        )
        for key, value in meta.items():
            await conn.execute(
                sql.SQL("INSERT INTO {} (key, value) VALUES (%s, %s)").format(table), (key, value)
            )
    for old in folder.glob("click-memory-*.npz"):
        if old != path:
            old.unlink()
            logger.info("removed the previous click memory %s", old)
    return meta


__all__ = ["install_memory"]
