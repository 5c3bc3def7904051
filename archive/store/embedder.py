"""Which embedding model file a collection was built with (`bosun adapt` records an adapted one),
and what `bosun adapt` calibrated for it.

The collection's ``meta`` table holds ``embedding_model`` (checked by :class:`Store.open`) and, for
an adapted model, ``embedder_file`` (relative to BOSUN_HOME) and ``embedder_sha256``: whoever opens
the collection embeds queries with exactly that file, verified against that hash. Likewise
``reranker_file`` / ``reranker_sha256`` name the feature reranker fitted on the adapted cosines,
and ``head_sha256`` the head's ``W`` saved beside a headed model (the relevance cutoff maps
vectors back to the stock model's with it: :mod:`tools.stock_relevance`); ``memory_file`` /
``memory_sha256`` the click memory fitted from operators' feedback (:mod:`tools.click_memory`).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from psycopg import AsyncConnection, sql
from psycopg.errors import UndefinedTable

from archive.store.database import Store
from archive.store.schema import check_collection_name

logger = logging.getLogger(__name__)

FILE_KEY = "embedder_file"
SHA_KEY = "embedder_sha256"
MODEL_KEY = "embedding_model"
TRAINING_KEY = "embedder_training"  # JSON: the pairs and queries the adapted model saw
KIND_KEY = "embedder_kind"  # "head" | "full"
RERANKER_FILE_KEY = "reranker_file"  # the feature reranker fitted for the adapted model
RERANKER_SHA_KEY = "reranker_sha256"
RERANKER_TRAINING_KEY = "reranker_training"  # JSON: the queries it was fitted on
HEAD_SHA_KEY = "head_sha256"  # W of a headed model, saved beside it (providers.linear_head)
MEMORY_FILE_KEY = "memory_file"  # the click memory fitted from feedback (tools.click_memory)
MEMORY_SHA_KEY = "memory_sha256"
MEMORY_TRAINING_KEY = "memory_training"  # JSON: the feedback it was fitted on and its check
#: The click memory's keys (a new memory replaces them; ``--reset`` drops them).
MEMORY_KEYS = (MEMORY_FILE_KEY, MEMORY_SHA_KEY, MEMORY_TRAINING_KEY)
#: What `bosun adapt` fitted besides the model (a new model or ``--reset`` drops them).
CALIBRATION_KEYS = (RERANKER_FILE_KEY, RERANKER_SHA_KEY, RERANKER_TRAINING_KEY)
#: What `bosun adapt` records beside the model id (``--reset`` drops them).
ADAPTED_KEYS = (
    FILE_KEY,
    SHA_KEY,
    TRAINING_KEY,
    KIND_KEY,
    HEAD_SHA_KEY,
    *CALIBRATION_KEYS,
    *MEMORY_KEYS,
)
#: Every key naming the collection's models (a rollback restores them; a long-lived process
#: compares them to reopen).
MODEL_KEYS = (MODEL_KEY, *ADAPTED_KEYS)


@dataclass(frozen=True)
class EmbedderRecord:
    """An adapted model: its file (relative to BOSUN_HOME), sha256 and model id."""

    file: str
    sha256: str
    model: str


@dataclass(frozen=True)
class CalibrationRecord:
    """What `bosun adapt` fitted for the adapted model besides the model itself."""

    reranker_file: str | None  # the feature reranker's weights, relative to BOSUN_HOME
    reranker_sha256: str | None
    embedder_file: str | None  # the adapted model, relative to BOSUN_HOME (None: stock)
    kind: str | None  # "head" | "full"
    head_sha256: str | None  # a headed model's W, saved beside it
    memory_file: str | None = None  # the click memory, relative to BOSUN_HOME (None: none)
    memory_sha256: str | None = None


async def read_embedder(uri: str, collection: str) -> EmbedderRecord | None:
    """The adapted model recorded for ``collection``; ``None`` for the stock one (or a
    collection that does not exist yet)."""
    meta = await read_meta(uri, collection, (FILE_KEY, SHA_KEY, MODEL_KEY))
    if FILE_KEY not in meta or SHA_KEY not in meta:
        return None
    return EmbedderRecord(meta[FILE_KEY], meta[SHA_KEY], meta.get(MODEL_KEY, ""))


async def read_calibration(store: Store) -> CalibrationRecord:
    """The reranker and head recorded for the store's collection (each ``None`` when `bosun
    adapt` recorded none: the shipped reranker applies), read on a pooled connection."""
    keys = [*CALIBRATION_KEYS, FILE_KEY, KIND_KEY, HEAD_SHA_KEY, MEMORY_FILE_KEY, MEMORY_SHA_KEY]
    async with store.pool.connection() as conn:
        cur = await conn.execute("SELECT key, value FROM meta WHERE key = ANY(%s)", (keys,))
        meta = {row["key"]: row["value"] for row in await cur.fetchall()}
    return CalibrationRecord(
        meta.get(RERANKER_FILE_KEY),
        meta.get(RERANKER_SHA_KEY),
        meta.get(FILE_KEY),
        meta.get(KIND_KEY),
        meta.get(HEAD_SHA_KEY),
        meta.get(MEMORY_FILE_KEY),
        meta.get(MEMORY_SHA_KEY),
    )


async def read_models(uri: str, collection: str) -> dict[str, str]:
    """What names the collection's models now (its :data:`MODEL_KEYS`)."""
    return await read_meta(uri, collection, MODEL_KEYS)


async def read_version(uri: str, collection: str) -> dict[str, str]:
    """The collection's models and a version of its contents (documents, the latest write,
    vessels): a long-lived process that sees either change reopens, so no cache of its (the
    vessel registry, the greeting's examples) is older than the archive."""
    models = await read_models(uri, collection)
    schema = sql.Identifier(check_collection_name(collection))
    query = sql.SQL(
        "SELECT (SELECT count(*) FROM {s}.documents)::text || '/' ||"
        " coalesce((SELECT max(ingested_at) FROM {s}.documents)::text, '-') || '/' ||"
        " (SELECT count(*) FROM {s}.vessels)::text"
    ).format(s=schema)
    async with await AsyncConnection.connect(uri, autocommit=True) as conn:
        try:
            row = await (await conn.execute(query)).fetchone()
        except UndefinedTable:  # a collection not created yet: empty
            row = ("empty",)
    return {**models, "contents": str(row[0]) if row else "empty"}


async def read_meta(uri: str, collection: str, keys: tuple[str, ...]) -> dict[str, str]:
    """The ``keys`` the collection's meta table holds (empty for a collection not created)."""
    schema = check_collection_name(collection)
    async with await AsyncConnection.connect(uri, autocommit=True) as conn:
        cur = await conn.execute(
            "SELECT 1 FROM information_schema.tables WHERE table_schema = %s"
            " AND table_name = 'meta'",
            (schema,),
        )
        if await cur.fetchone() is None:
            return {}
        cur = await conn.execute(
            sql.SQL("SELECT key, value FROM {}.meta WHERE key = ANY(%s)").format(
                sql.Identifier(schema)
            ),
            (list(keys),),
        )
        return dict(await cur.fetchall())


def adapted_model_id(sha256: str) -> str:
    """The ``embedding_model`` of a collection re-embedded by an adapted model."""
    return f"local:all-MiniLM-L6-v2-int8-adapted-{sha256[:12]}"
