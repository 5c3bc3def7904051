"""The topic filter: restrict retrieval to chunks about the topics nearest the query.

The query embedding is matched against the topic ontology (:mod:`archive.ingest.topics`); the
top-K nearest topics above a similarity threshold are pooled (the ontology is fragmented: one
concept spans several surface forms) and retrieval is restricted to the chunks linked to them
(``scope="chunk"``) or to the documents holding those chunks (``scope="document"``).
When that returns fewer than ``min_results`` passages the threshold is loosened (and K raised);
when that is still too few the topic filter is dropped. Structural filters (vessel, report,
dates) are kept in every attempt. Each attempt is returned as a :class:`TopicDecision` record
for the graph state and the trace.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

import numpy as np
from langchain_core.embeddings import Embeddings
from psycopg import sql
from typing_extensions import TypedDict  # pydantic (Studio schemas) needs it on 3.11

from archive.store.database import Store
from archive.store.search_filters import SearchFilters
from tools.hybrid import Retrieval, retrieve
from tools.retrieval_config import RetrievalConfig

logger = logging.getLogger(__name__)

Decision = Literal["strict", "loosened", "dropped", "no_topics"]
Scope = Literal["chunk", "document"]


@dataclass(frozen=True)
class Topic:
    """An ontology topic near the query."""

    topic_id: int
    name: str
    similarity: float  # cosine between the query and the topic name
    chunk_count: int  # chunks linked to the topic


class TopicDecision(TypedDict):
    """One attempt of the topic filter, as the trace shows it."""

    stage: Literal["topics"]
    decision: Decision  # strict / loosened: filter applied; dropped: searched without it
    threshold: float | None  # similarity threshold of this attempt (None when dropped)
    topics: list[str]  # names of the pooled topics
    chunks: int  # chunks the pooled topics link to
    scope: Scope  # chunk: only those chunks; document: every chunk of their documents
    hits: int  # passages retrieved in this attempt


@dataclass(frozen=True)
class TopicFilterConfig:
    """Thresholds of the topic filter.

    Measured (docs/retrieval.md, benchmarks/thread_digest_eval.py --topics) the filter
    lowers retrieval quality with these and every other setting tried, so the search pipeline
    should run it only when asked (a per-call switch), not by default.
    """

    top_k: int = 10  # topics pooled in the strict attempt
    threshold: float = 0.5  # cosine a topic needs in the strict attempt
    loose_top_k: int = 30  # topics pooled once loosened
    loose_threshold: float = 0.35  # cosine a topic needs once loosened
    min_results: int = 5  # fewer passages than this: loosen, then drop
    scope: Scope = "chunk"  # restrict to the linked chunks, or to their whole documents


@dataclass
class TopicRetrieval:
    """Retrieval under the topic filter and the decisions that led to it."""

    retrieval: Retrieval
    decisions: list[TopicDecision]
    topics: list[Topic]  # the topics of the attempt that was kept (empty when dropped)

    @property
    def decision(self) -> Decision:
        return self.decisions[-1]["decision"]


@dataclass(frozen=True)
class ChunkRestrictedFilters(SearchFilters):
    """Structural filters plus a set of admissible chunk ids (the topic restriction).

    Once :class:`~archive.store.search_filters.SearchFilters` has a ``chunk_ids`` field this
    subclass can go:
    use ``dataclasses.replace(filters, chunk_ids=...)`` instead.
    """

    chunk_ids: tuple[str, ...] = ()

    def where(self, alias: str = "c") -> tuple[sql.Composable, dict[str, Any]]:
        base, params = super().where(alias)
        clause = sql.SQL("{} = ANY({})").format(
            sql.Identifier(alias, "chunk_id"), sql.Placeholder("f_chunk_ids")
        )
        return sql.SQL("({}) AND {}").format(base, clause), {
            **params,
            "f_chunk_ids": list(self.chunk_ids),
        }

    def pgvector_filter(self) -> dict[str, Any] | None:
        restriction = {"chunk_id": {"$in": list(self.chunk_ids) or [""]}}
        base = super().pgvector_filter()
        if base is None:
            return restriction
        clauses = base.get("$and", [base])
        return {"$and": [*clauses, restriction]}


def restrict_to_chunks(filters: SearchFilters, chunk_ids: Sequence[str]) -> SearchFilters:
    """``filters`` further limited to ``chunk_ids`` (all structural constraints kept)."""
    fields = {name: getattr(filters, name) for name in SearchFilters.__dataclass_fields__}
    return ChunkRestrictedFilters(**fields, chunk_ids=tuple(chunk_ids))


async def restrict_to_documents(
    store: Store, filters: SearchFilters, chunk_ids: Sequence[str]
) -> SearchFilters:
    """``filters`` limited to the documents holding ``chunk_ids`` (intersected with a document
    restriction ``filters`` already has, e.g. from a vessel filter)."""
    async with store.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT DISTINCT doc_id FROM chunks WHERE chunk_id = ANY(%s) ORDER BY 1",
            (list(chunk_ids),),
        )
        doc_ids = [r["doc_id"] for r in await cur.fetchall()]
    if filters.doc_ids is not None:
        allowed = set(filters.doc_ids)
        doc_ids = [d for d in doc_ids if d in allowed]
    return replace(filters, doc_ids=tuple(doc_ids))


async def match_topics(
    store: Store, query_vector: Sequence[float], *, top_k: int, threshold: float
) -> list[Topic]:
    """The ``top_k`` topics nearest ``query_vector`` with cosine >= ``threshold``, nearest first
    (topics no chunk links to any more are skipped)."""
    vector = np.asarray(query_vector, dtype=np.float32)
    async with store.pool.connection() as conn, conn.transaction():
        await conn.execute("SET LOCAL hnsw.ef_search = 100")
        await conn.execute("SET LOCAL hnsw.iterative_scan = relaxed_order")
        cur = await conn.execute(
            """SELECT topic_id, name, chunk_count, 1 - (embedding <=> %(v)s) AS similarity
               FROM topics WHERE chunk_count > 0
               ORDER BY embedding <=> %(v)s LIMIT %(k)s""",
            {"v": vector, "k": top_k},
        )
        rows = await cur.fetchall()
    return [
        Topic(r["topic_id"], r["name"], float(r["similarity"]), r["chunk_count"])
        for r in rows
        if float(r["similarity"]) >= threshold
    ]


async def topic_chunks(store: Store, topic_ids: Sequence[int]) -> list[str]:
    """Ids of the chunks linked to any of ``topic_ids``."""
    if not topic_ids:
        return []
    async with store.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT DISTINCT chunk_id FROM chunk_topics WHERE topic_id = ANY(%s) ORDER BY 1",
            (list(topic_ids),),
        )
        return [r["chunk_id"] for r in await cur.fetchall()]


async def retrieve_with_topics(
    store: Store,
    embeddings: Embeddings,
    query: str,
    filters: SearchFilters,
    options: RetrievalConfig,
    config: TopicFilterConfig | None = None,
    *,
    query_vector: Sequence[float] | None = None,
) -> TopicRetrieval:
    """:func:`tools.hybrid.retrieve` under the topic filter: strict, else loosened, else dropped.

    ``query_vector`` saves an embedding call when the caller already has the query's vector.
    """
    config = config or TopicFilterConfig()
    if query_vector is None:
        query_vector = await asyncio.to_thread(embeddings.embed_query, query)
    decisions: list[TopicDecision] = []
    attempts: list[tuple[Decision, int, float]] = [
        ("strict", config.top_k, config.threshold),
        ("loosened", config.loose_top_k, config.loose_threshold),
    ]
    for decision, top_k, threshold in attempts:
        topics = await match_topics(store, query_vector, top_k=top_k, threshold=threshold)
        if not topics:
            decisions.append(_record("no_topics", threshold, [], 0, config.scope, 0))
            continue
        chunk_ids = await topic_chunks(store, [t.topic_id for t in topics])
        if config.scope == "document":
            restricted = await restrict_to_documents(store, filters, chunk_ids)
        else:
            restricted = restrict_to_chunks(filters, chunk_ids)
        retrieval = await retrieve(store, embeddings, query, restricted, options)
        hits = len(retrieval.candidates)
        decisions.append(_record(decision, threshold, topics, len(chunk_ids), config.scope, hits))
        if hits >= min(config.min_results, options.results()):
            return TopicRetrieval(retrieval, decisions, topics)
    retrieval = await retrieve(store, embeddings, query, filters, options)
    decisions.append(_record("dropped", None, [], 0, config.scope, len(retrieval.candidates)))
    logger.info("topic filter dropped for %r: %s", query, decisions[:-1])
    return TopicRetrieval(retrieval, decisions, [])


def _record(
    decision: Decision,
    threshold: float | None,
    topics: list[Topic],
    chunks: int,
    scope: Scope,
    hits: int,
) -> TopicDecision:
    return TopicDecision(
        stage="topics",
        decision=decision,
        threshold=threshold,
        topics=[t.name for t in topics],
        chunks=chunks,
        scope=scope,
        hits=hits,
    )
