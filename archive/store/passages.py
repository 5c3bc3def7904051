"""The one passage type: a stored chunk joined to its document, with the scores that placed it.

A :class:`Passage` is plain data (JSON-safe, no vector): retrieval builds it, rerankers read and
score it, the graph state and the search tool's artifact hold it, citations and context headers
are made from it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NotRequired

import numpy as np
from typing_extensions import TypedDict

from archive.store.database import Store

#: The chunk and document columns a :class:`Passage` is built from (``c`` chunks, ``d`` documents).
PASSAGE_COLUMNS = """c.chunk_id, c.doc_id, c.kind, c.source_id, c.title, c.content, c.section,
       c.page, c.date, c.sender, d.subject, c.thread_id, c.vessel_name, c.imo, c.report_no,
       d.archive_path, d.embedding_mode, d.summary, d.parent_id,
       d.metadata->>'ocr_pages' AS ocr_pages, c.instructions,
       jsonb_strip_nulls(jsonb_build_object(
           'injuries', d.metadata->>'injuries', 'make', d.metadata->>'make',
           'model', d.metadata->>'model', 'registration', d.metadata->>'registration',
           'city', d.metadata->>'city', 'state', d.metadata->>'state',
           'location', d.metadata->>'location', 'ship_type', d.metadata->>'ship_type',
           'flag', d.metadata->>'flag', 'gross_tonnage', d.metadata->>'gross_tonnage',
           'initial_event', d.metadata->>'initial_event',
           'consequences', d.metadata->>'consequences')) AS facts"""


class Passage(TypedDict):
    """One retrieved chunk with its document's fields and its scores."""

    chunk_id: str  # 12 hex, the only id shown to a model
    doc_id: str
    kind: str
    source_id: str
    title: str
    text: str
    section: str | None
    page: int | None
    date: str | None  # ISO date
    sender: str | None
    subject: str | None
    thread_id: str | None
    vessel_name: str | None
    imo: str | None
    report_no: str | None
    archive_path: str
    embedding_mode: str  # full | summary | metadata_only
    summary: str
    bm25: float  # Okapi BM25 of the passage (0 when no query term occurs)
    cosine: float  # cosine of query and passage vectors (0 when not scored)
    score: float  # fused retrieval score (the active arm's score when only one is on)
    rerank: float | None  # reranker relevance in [0, 1]; None when not reranked
    parent_id: NotRequired[str | None]  # an attachment's message (its source id)
    # The BM25 of the passage's whole document (its chunks' terms summed, statistics over
    # documents: archive.store.document_bm25), set by the lexical arm, which ranks by it.
    doc_bm25: NotRequired[float]
    ocr: NotRequired[bool]  # the passage's page was read by OCR
    # Planted instructions ingest found in the passage (text.injection pattern names): shown to
    # a model only as marked, quoted data, never copied into an answer. Absent in passages
    # stored by a graph state or a fake from before the mark existed: read it with .get().
    instructions: NotRequired[list[str]]
    # A mail's place in its conversation (set by archive.store.threads): who wrote it (the From
    # name, a mailing list's "X via List" read as X), the message it answers (In-Reply-To), the
    # messages it references, and the conversation (the thread it was gathered for).
    author: NotRequired[str]
    in_reply_to: NotRequired[str | None]
    references: NotRequired[list[str]]
    conversation: NotRequired[str]
    # How often the author answers others on the list: the share of the list's repliers who
    # answered fewer threads opened by someone else (0: never answered another's thread).
    standing: NotRequired[float]
    # The record's own fields an aspect is answered from (NTSB: injuries "fatal 1, serious 0,
    # minor 1", make, model, registration, city, state; IMO: location, ship type, flag).
    facts: NotRequired[dict[str, str]]


def passage_of(
    row: Mapping[str, Any], *, bm25: float = 0.0, cosine: float = 0.0, score: float = 0.0
) -> Passage:
    """A :class:`Passage` from a row of :data:`PASSAGE_COLUMNS`."""
    day = row["date"]
    return Passage(
        chunk_id=row["chunk_id"],
        doc_id=row["doc_id"],
        kind=row["kind"],
        source_id=row["source_id"],
        title=row["title"],
        text=row["content"],
        section=row["section"],
        page=row["page"],
        date=day.isoformat() if day else None,
        sender=row["sender"],
        subject=row["subject"],
        thread_id=row["thread_id"],
        vessel_name=row["vessel_name"],
        imo=row["imo"],
        report_no=row["report_no"],
        archive_path=row["archive_path"],
        embedding_mode=row["embedding_mode"],
        summary=row["summary"],
        bm25=bm25,
        cosine=cosine,
        score=score,
        rerank=None,
        parent_id=row["parent_id"],
        ocr=row["page"] is not None and str(row["page"]) in (row["ocr_pages"] or "").split(","),
        instructions=list(row.get("instructions") or ()),
        facts=dict(row.get("facts") or {}),
    )


async def fetch_passages(store: Store, chunk_ids: Sequence[str]) -> dict[str, Passage]:
    """The passages for ``chunk_ids`` (unknown ids are absent)."""
    if not chunk_ids:
        return {}
    async with store.pool.connection() as conn:
        cur = await conn.execute(
            f"""SELECT {PASSAGE_COLUMNS}
               FROM chunks c JOIN documents d USING (doc_id)
               WHERE c.chunk_id = ANY(%s)""",
            (list(chunk_ids),),
        )
        rows = await cur.fetchall()
    return {r["chunk_id"]: passage_of(r) for r in rows}


async def fetch_vectors(store: Store, chunk_ids: Sequence[str]) -> dict[str, np.ndarray]:
    """The stored vectors of ``chunk_ids``."""
    async with store.pool.connection() as conn, conn.cursor(binary=True) as cur:
        await cur.execute(
            "SELECT chunk_id, embedding FROM chunks WHERE chunk_id = ANY(%s)", (list(chunk_ids),)
        )
        rows = await cur.fetchall()
    return {r["chunk_id"]: np.asarray(r["embedding"], dtype=np.float32) for r in rows}
