"""Which embedding model file a collection was built with (`bosun adapt` records an adapted one).

The collection's ``meta`` table holds ``embedding_model`` (checked by :class:`Store.open`) and, for
an adapted model, ``embedder_file`` (relative to BOSUN_HOME) and ``embedder_sha256``: whoever opens
the collection embeds queries with exactly that file, verified against that hash.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from psycopg import AsyncConnection, sql

from archive.store.schema import check_collection_name

logger = logging.getLogger(__name__)

FILE_KEY = "embedder_file"
SHA_KEY = "embedder_sha256"
MODEL_KEY = "embedding_model"
TRAINING_KEY = "embedder_training"  # JSON: the pairs and queries the adapted model saw


@dataclass(frozen=True)
class EmbedderRecord:
    """An adapted model: its file (relative to BOSUN_HOME), sha256 and model id."""

    file: str
    sha256: str
    model: str


async def read_embedder(uri: str, collection: str) -> EmbedderRecord | None:
    """The adapted model recorded for ``collection``; ``None`` for the stock one (or a
    collection that does not exist yet)."""
    schema = check_collection_name(collection)
    async with await AsyncConnection.connect(uri, autocommit=True) as conn:
        cur = await conn.execute(
            "SELECT 1 FROM information_schema.tables WHERE table_schema = %s"
            " AND table_name = 'meta'",
            (schema,),
        )
        if await cur.fetchone() is None:
            return None
        cur = await conn.execute(
            sql.SQL("SELECT key, value FROM {}.meta WHERE key = ANY(%s)").format(
                sql.Identifier(schema)
            ),
            ([FILE_KEY, SHA_KEY, MODEL_KEY],),
        )
        meta: dict[str, str] = dict(await cur.fetchall())
    if FILE_KEY not in meta or SHA_KEY not in meta:
        return None
    return EmbedderRecord(meta[FILE_KEY], meta[SHA_KEY], meta.get(MODEL_KEY, ""))


def adapted_model_id(sha256: str) -> str:
    """The ``embedding_model`` of a collection re-embedded by an adapted model."""
    return f"local:all-MiniLM-L6-v2-int8-adapted-{sha256[:12]}"
