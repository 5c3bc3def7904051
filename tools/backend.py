"""What the search tool and the filter resolver need from the archive, behind one small protocol."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, cast

from langchain_core.embeddings import Embeddings
from psycopg import sql

from archive.store.database import Store
from archive.store.document_bm25 import held_words
from archive.store.search_filters import SearchFilters
from archive.store.vessels import (
    ArchiveExamples,
    RegisteredVessel,
    archive_examples,
    registered_vessels,
    vessel_documents,
)
from tools.hybrid import Retrieval, retrieve
from tools.retrieval_config import RetrievalConfig
from tools.topics import TopicFilterConfig, TopicRetrieval, retrieve_with_topics


class SearchBackend(Protocol):
    """Retrieval, the vessel registry and filter counts (the store, or a fake in tests)."""

    async def retrieve(
        self, query: str, filters: SearchFilters, options: RetrievalConfig
    ) -> Retrieval: ...

    async def retrieve_topics(
        self, query: str, filters: SearchFilters, options: RetrievalConfig
    ) -> TopicRetrieval:
        """:meth:`retrieve` under the topic filter (strict, else loosened, else dropped)."""
        ...

    async def held(self, words: Sequence[str]) -> set[str]:
        """The ``words`` the collection holds as written (each of their search terms is in
        some document)."""
        ...

    async def vessels(self) -> list[RegisteredVessel]: ...

    async def vessel_documents(self, keys: Sequence[str]) -> list[str]: ...

    async def count(self, filters: SearchFilters) -> int:
        """How many passages ``filters`` admit."""
        ...

    async def examples(self) -> ArchiveExamples:
        """A report number and a vessel the archive holds, for the greeting."""
        ...


class StoreBackend:
    """:class:`SearchBackend` over the PostgreSQL store and an embedding model."""

    def __init__(
        self, store: Store, embeddings: Embeddings, topics: TopicFilterConfig | None = None
    ) -> None:
        self.store = store
        self.embeddings = embeddings
        self.topics = topics or TopicFilterConfig()

    async def retrieve(
        self, query: str, filters: SearchFilters, options: RetrievalConfig
    ) -> Retrieval:
        return await retrieve(self.store, self.embeddings, query, filters, options)

    async def retrieve_topics(
        self, query: str, filters: SearchFilters, options: RetrievalConfig
    ) -> TopicRetrieval:
        return await retrieve_with_topics(
            self.store, self.embeddings, query, filters, options, self.topics
        )

    async def held(self, words: Sequence[str]) -> set[str]:
        return await held_words(self.store, words)

    async def vessels(self) -> list[RegisteredVessel]:
        return await registered_vessels(self.store)

    async def vessel_documents(self, keys: Sequence[str]) -> list[str]:
        return await vessel_documents(self.store, keys)

    async def examples(self) -> ArchiveExamples:
        return await archive_examples(self.store)

    async def count(self, filters: SearchFilters) -> int:
        where, params = filters.where("c")
        query = sql.SQL("SELECT count(*) AS n FROM chunks c WHERE {}").format(where)
        async with self.store.pool.connection() as conn:
            cur = await conn.execute(query, params)
            row = cast(dict[str, Any] | None, await cur.fetchone())
        return int(row["n"]) if row else 0
