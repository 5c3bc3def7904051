"""The store: one collection (a PostgreSQL schema) of documents, chunks, vectors, postings."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pgvector.psycopg import register_vector_async
from psycopg import AsyncConnection, sql
from psycopg.rows import DictRow, dict_row
from psycopg_pool import AsyncConnectionPool

from archive.store.block_cache import BlockCache
from archive.store.defaults import CACHE_MB, EF_SEARCH
from archive.store.schema import StoreError, check_collection_name, migrate
from archive.store.server import sqlalchemy_uri

if TYPE_CHECKING:  # annotations only: `bosun status` opens no model and loads no LangChain
    from langchain_core.embeddings import Embeddings
    from langchain_postgres import PGEngine
    from langchain_postgres.v2.async_vectorstore import AsyncPGVectorStore

logger = logging.getLogger(__name__)

ITERATIVE_SCAN = "relaxed_order"

#: Filterable columns of the chunks table, as PGVectorStore metadata columns.
CHUNK_COLUMNS = [
    "doc_id",
    "ordinal",
    "kind",
    "source_id",
    "title",
    "thread_id",
    "date",
    "sender",
    "vessel_name",
    "imo",
    "vessel_type",
    "vessel_class",
    "vessel_family",
    "class_society",
    "registration",
    "report_no",
    "section",
    "page",
]


#: Seconds a caller waits for a pooled connection when no statement timeout is set.
POOL_WAIT_S = 30.0
#: Seconds a pool retries a lost connection (1 s, then 2 s apart) before giving the slot up; the
#: next caller then connects at once. psycopg_pool's default (300 s, backing off to minutes
#: apart) kept a restarted database out of reach of the web app for 20-40 s.
RECONNECT_S = 3.0
#: Pooled connections return rows as dicts.
DictPool = AsyncConnectionPool[AsyncConnection[DictRow]]


@dataclass(frozen=True)
class EmbeddingIdentity:
    """Which model made a collection's vectors."""

    model: str
    dim: int


class Store:
    """Connections to one collection: a psycopg pool for SQL and, on request, a PGVectorStore.

    :meth:`vector_store` is the chunks table as a LangChain vector store (filter columns usable
    in its filter syntax), for LangChain code that wants the archive as a retriever; it is built
    on first use (langchain-postgres and SQLAlchemy cost ~0.5 s to import, which no Bosun command
    needs). Bosun's own retrieval reads the same table in SQL (:mod:`archive.store.candidates`):
    PGVectorStore returns every row's vector and metadata, which measured 15.5 ms p50 for the
    dense arm against 8.0 ms.
    """

    def __init__(
        self,
        pool: DictPool,
        schema: str,
        uri: str,
        embeddings: Embeddings,
        identity: EmbeddingIdentity,
        *,
        bm25: str = "auto",
        ef_search: int = EF_SEARCH,
        bm25_cache_mb: int = CACHE_MB,
    ) -> None:
        self.pool = pool
        self.bm25 = bm25  # archive.store.defaults.BM25_MODES
        self.ef_search = ef_search
        self.block_cache = BlockCache(bm25_cache_mb * 2**20)  # decoded BM25 blocks
        self.schema = schema
        self.identity = identity
        # Where the collection's originals are (None: the local folder), once checked against
        # its meta (archive.originals.binding); writers check it again under the ingest lock.
        self.originals_url: str | None = None
        self._uri = uri
        self._embeddings = embeddings
        self._vectors: AsyncPGVectorStore | None = None
        self._engine: PGEngine | None = None
        self._vectors_lock = asyncio.Lock()

    @classmethod
    async def open(
        cls,
        uri: str,
        embeddings: Embeddings,
        identity: EmbeddingIdentity,
        *,
        collection: str,
        statement_timeout_s: float | None = None,
        bm25: str = "auto",
        ef_search: int = EF_SEARCH,
        bm25_cache_mb: int = CACHE_MB,
    ) -> Store:
        """Connect to ``uri``, migrate ``collection`` (a schema), and check it was built with
        these embeddings. Pooled connections are checked before use (a restarted server or a
        terminated backend costs a reconnect, not a failed query); ``statement_timeout_s``
        bounds every query of the pool and the wait for a connection (None: no bound on
        queries, as ingest needs; 30 s for a connection); ``bm25`` is how BM25 finds its top k
        (``BM25_MODES``); ``ef_search`` is every session's ``hnsw.ef_search`` (recall against
        speed on large collections, README "HNSW at a million chunks"); ``bm25_cache_mb``
        bounds the BM25 blocks kept decoded between queries (0: none)."""
        schema = check_collection_name(collection)
        async with await AsyncConnection.connect(uri, autocommit=True) as conn:
            await _check_identity(conn, schema, identity)
            await migrate(conn, schema, dim=identity.dim)
            await conn.execute(
                sql.SQL(
                    "INSERT INTO {}.meta (key, value) VALUES ('embedding_model', %s),"
                    " ('embedding_dim', %s) ON CONFLICT (key) DO NOTHING"
                ).format(sql.Identifier(schema)),
                (identity.model, str(identity.dim)),
            )

        async def configure(conn: AsyncConnection[DictRow]) -> None:
            await register_vector_async(conn)

        timeout = (
            f" -c statement_timeout={round(statement_timeout_s * 1000)}"
            if statement_timeout_s
            else ""
        )

        pool: DictPool = AsyncConnectionPool(
            uri,
            connection_class=AsyncConnection[DictRow],
            min_size=1,
            max_size=4,
            open=False,
            configure=configure,
            check=AsyncConnectionPool.check_connection,
            timeout=statement_timeout_s or POOL_WAIT_S,
            reconnect_timeout=RECONNECT_S,
            kwargs={
                "autocommit": True,
                "row_factory": dict_row,
                # The HNSW settings PGVectorStore sets per query hold for every pooled session,
                # so the SQL of the retrieval arms gets the same iterative scan.
                "options": f"-c search_path={schema},public -c hnsw.ef_search={int(ef_search)}"
                f" -c hnsw.iterative_scan={ITERATIVE_SCAN}{timeout}",
            },
        )
        await pool.open(wait=True)
        return cls(
            pool,
            schema,
            uri,
            embeddings,
            identity,
            bm25=bm25,
            ef_search=ef_search,
            bm25_cache_mb=bm25_cache_mb,
        )

    async def vector_store(self) -> AsyncPGVectorStore:
        """The chunks table as a LangChain ``AsyncPGVectorStore`` (built once, on first use)."""
        async with self._vectors_lock:
            if self._vectors is None:
                self._vectors = await self._build_vector_store()
            return self._vectors

    async def _build_vector_store(self) -> AsyncPGVectorStore:
        from langchain_postgres import PGEngine
        from langchain_postgres.v2.async_vectorstore import AsyncPGVectorStore
        from langchain_postgres.v2.indexes import DistanceStrategy, HNSWQueryOptions
        from sqlalchemy.ext.asyncio import create_async_engine

        @dataclass
        class IterativeHNSWQueryOptions(HNSWQueryOptions):
            """ef_search plus the iterative scan, so a filtered search still returns k rows."""

            ef_search: int = EF_SEARCH

            def to_parameter(self) -> list[str]:
                return [*super().to_parameter(), f"hnsw.iterative_scan = {ITERATIVE_SCAN}"]

        self._engine = PGEngine.from_engine(
            create_async_engine(sqlalchemy_uri(self._uri), pool_size=4, pool_pre_ping=True)
        )
        return await AsyncPGVectorStore.create(
            self._engine,
            embedding_service=self._embeddings,
            table_name="chunks",
            schema_name=self.schema,
            content_column="content",
            embedding_column="embedding",
            id_column="chunk_id",
            metadata_columns=CHUNK_COLUMNS,
            metadata_json_column="langchain_metadata",
            distance_strategy=DistanceStrategy.COSINE_DISTANCE,
            index_query_options=IterativeHNSWQueryOptions(ef_search=self.ef_search),
        )

    async def close(self) -> None:
        await self.pool.close()
        if self._engine is not None:
            await self._engine.close()


async def _check_identity(conn: AsyncConnection, schema: str, identity: EmbeddingIdentity) -> None:
    cur = await conn.execute(
        "SELECT 1 FROM information_schema.tables WHERE table_schema = %s AND table_name = 'meta'",
        (schema,),
    )
    if await cur.fetchone() is None:
        return
    cur = await conn.execute(
        sql.SQL("SELECT key, value FROM {}.meta").format(sql.Identifier(schema))
    )
    meta: dict[str, str] = dict(await cur.fetchall())
    model, dim = meta.get("embedding_model"), meta.get("embedding_dim")
    if model and (model != identity.model or int(dim or 0) != identity.dim):
        raise StoreError(
            f"collection {schema!r} holds vectors from {model} ({dim} dims), but the configured "
            f"embeddings are {identity.model} ({identity.dim} dims); vectors from different "
            "models cannot be mixed. Set BOSUN_EMBEDDINGS back, or use another BOSUN_COLLECTION."
        )


__all__ = ["CHUNK_COLUMNS", "EmbeddingIdentity", "Store", "StoreError"]
