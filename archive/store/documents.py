"""Writing documents and chunks: one transaction per document, so a killed run resumes."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from psycopg import AsyncConnection
from psycopg.rows import DictRow

from archive.ingest.model import Chunk, SourceDocument, Vessel
from archive.store.database import Store
from archive.store.locks import write_lock_sql
from archive.vessel_types import class_society, vessel_family


def vessel_key(vessel: Vessel) -> str:
    """Registry key: the IMO number when known, else the upper-cased name."""
    return vessel.imo or f"name:{vessel.name.strip().upper()}"


async def stored_hashes(store: Store, doc_ids: Sequence[str]) -> dict[str, str]:
    """Content hash of each already-stored document among ``doc_ids``."""
    async with store.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT doc_id, content_hash FROM documents WHERE doc_id = ANY(%s)", (list(doc_ids),)
        )
        return {row["doc_id"]: row["content_hash"] for row in await cur.fetchall()}


#: The content hash a document is stored under while its chunks are still being written in
#: slices (:func:`write_document` with ``complete=False``, then :func:`append_chunks`).
PARTIAL = "partial:"


async def write_document(
    store: Store,
    doc: SourceDocument,
    chunks: Sequence[Chunk],
    vectors: Sequence[Sequence[float]],
    archive_path: str,
    *,
    complete: bool = True,
    chunk_count: int | None = None,
) -> None:
    """Replace ``doc`` and its chunks atomically (BM25 postings follow through triggers).

    ``complete=False``: ``chunks`` are the first slice of ``chunk_count``; the document is
    stored under the ``PARTIAL`` hash until :func:`append_chunks` writes its last slice, so a
    rerun knows to continue it (see :func:`stored_chunk_ids`)."""
    primary = doc.vessels[0] if doc.vessels else None
    family = vessel_family(primary.vessel_type if primary else None)
    society = class_society(primary.vessel_class if primary else None)
    registration = doc.metadata.get("registration")  # an aircraft's, of any kind that has one
    async with store.pool.connection() as conn, conn.transaction():
        await conn.execute(*write_lock_sql(store))
        await conn.execute("DELETE FROM documents WHERE doc_id = %s", (doc.doc_id,))
        await _upsert_vessels(conn, doc.vessels)
        await conn.execute(
            """INSERT INTO documents (doc_id, kind, source_id, title, content_hash, archive_path,
                   parent_id, thread_id, message_id, date, sender, subject, report_no, vessel_name,
                   imo, vessel_type, vessel_class, embedding_mode, summary, metadata, chunk_count,
                   vessel_family, class_society, registration)
               VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s,
                   %s, %s, %s, %s, %s)""",
            (
                doc.doc_id,
                doc.kind,
                doc.source_id,
                doc.title,
                doc.content_hash if complete else PARTIAL + doc.content_hash,
                archive_path,
                doc.parent_id,
                doc.thread_id,
                doc.message_id,
                doc.date,
                doc.sender,
                doc.subject,
                doc.report_no,
                primary and primary.name,
                primary and primary.imo,
                primary and primary.vessel_type,
                primary and primary.vessel_class,
                doc.embedding_mode,
                doc.summary,
                json.dumps(doc.metadata),
                len(chunks) if chunk_count is None else chunk_count,
                family,
                society,
                registration,
            ),
        )
        async with conn.cursor() as cur:
            await cur.executemany(
                "INSERT INTO document_vessels (doc_id, vessel_key) VALUES (%s, %s)"
                " ON CONFLICT DO NOTHING",
                [(doc.doc_id, vessel_key(v)) for v in doc.vessels],
            )
        await _insert_chunks(conn, doc, chunks, vectors)


async def append_chunks(
    store: Store,
    doc: SourceDocument,
    chunks: Sequence[Chunk],
    vectors: Sequence[Sequence[float]],
    *,
    last: bool,
) -> None:
    """Add a further slice of a document stored with ``complete=False``, in one transaction;
    the ``last`` slice stores its real content hash (the document is then complete)."""
    async with store.pool.connection() as conn, conn.transaction():
        await conn.execute(*write_lock_sql(store))
        await _insert_chunks(conn, doc, chunks, vectors)
        if last:
            await conn.execute(
                "UPDATE documents SET content_hash = %s WHERE doc_id = %s",
                (doc.content_hash, doc.doc_id),
            )


async def stored_chunk_ids(store: Store, doc_id: str) -> set[str]:
    """The chunks of ``doc_id`` already stored (what a partly written document has)."""
    async with store.pool.connection() as conn:
        cur = await conn.execute("SELECT chunk_id FROM chunks WHERE doc_id = %s", (doc_id,))
        return {row["chunk_id"] for row in await cur.fetchall()}


async def _insert_chunks(
    conn: AsyncConnection[DictRow],
    doc: SourceDocument,
    chunks: Sequence[Chunk],
    vectors: Sequence[Sequence[float]],
) -> None:
    primary = doc.vessels[0] if doc.vessels else None
    family = vessel_family(primary.vessel_type if primary else None)
    society = class_society(primary.vessel_class if primary else None)
    registration = doc.metadata.get("registration") if doc.kind == "ntsb_report" else None
    async with conn.cursor() as cur:
        await cur.executemany(
            """INSERT INTO chunks (chunk_id, content, embedding, doc_id, ordinal, kind,
                   source_id, title, thread_id, date, sender, vessel_name, imo, vessel_type,
                   vessel_class, report_no, section, page, langchain_metadata, vessel_family,
                   class_society, registration, instructions)
               VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s,
                   %s, %s, %s, %s, %s, %s)""",
            [
                (
                    c.chunk_id,
                    c.text,
                    np.asarray(v, dtype=np.float32),
                    doc.doc_id,
                    c.ordinal,
                    doc.kind,
                    doc.source_id,
                    doc.title,
                    doc.thread_id,
                    doc.date,
                    doc.sender,
                    primary and primary.name,
                    primary and primary.imo,
                    primary and primary.vessel_type,
                    primary and primary.vessel_class,
                    doc.report_no,
                    c.section,
                    c.page,
                    json.dumps({"subject": doc.subject}),
                    family,
                    society,
                    registration,
                    list(c.instructions),
                )
                for c, v in zip(chunks, vectors, strict=True)
            ],
        )


async def _upsert_vessels(conn: AsyncConnection[DictRow], vessels: Sequence[Vessel]) -> None:
    async with conn.cursor() as cur:
        await cur.executemany(
            """INSERT INTO vessels (vessel_key, name, imo, vessel_type, vessel_class,
                   vessel_family, class_society)
               VALUES (%s, %s, %s, %s, %s, %s, %s)
               ON CONFLICT (vessel_key) DO UPDATE SET
                   vessel_type = coalesce(EXCLUDED.vessel_type, vessels.vessel_type),
                   vessel_class = coalesce(EXCLUDED.vessel_class, vessels.vessel_class),
                   vessel_family = coalesce(EXCLUDED.vessel_family, vessels.vessel_family),
                   class_society = coalesce(EXCLUDED.class_society, vessels.class_society)""",
            [
                (
                    vessel_key(v),
                    v.name.strip(),
                    v.imo,
                    v.vessel_type,
                    v.vessel_class,
                    vessel_family(v.vessel_type),
                    class_society(v.vessel_class),
                )
                for v in vessels
            ],
        )


async def delete_document(store: Store, doc_id: str) -> bool:
    """Remove a document, its chunks and their postings; True if it existed."""
    async with store.pool.connection() as conn, conn.transaction():
        await conn.execute(*write_lock_sql(store))
        cur = await conn.execute("DELETE FROM documents WHERE doc_id = %s", (doc_id,))
        return cur.rowcount > 0


@dataclass(frozen=True)
class Deleted:
    """What :func:`delete_sources` removed."""

    documents: int  # the documents named and their attachments
    chunks: int  # their passages, with postings and vectors
    topics: int  # topic names no chunk is linked to any more
    vessels: int  # registry entries no document names any more
    originals: tuple[str, ...] = ()  # archive paths no document of the collection cites any more


class UnknownSource(LookupError):
    """A source id that names no stored document."""


async def delete_sources(store: Store, source_ids: Sequence[str]) -> Deleted:
    """Delete the documents with these natural ids (NTSB number, casualty reference, Message-ID,
    file name), their attachments, chunks, postings, vectors and vessel links, in one
    transaction; nothing is deleted when any id is unknown (:class:`UnknownSource`).

    Derived data follows without a rebuild: the BM25 statistics and term counts through the
    chunk triggers, topic links by cascade (topic names left with no chunk are dropped), the
    thread of a deleted email is marked for its digest to be redone (see
    :func:`archive.ingest.digests.build_thread_digests`); vessels no document names any more
    leave the registry. The originals no remaining document cites are listed in
    :attr:`Deleted.originals` for the caller to remove from the store once this commits.
    """
    ids = sorted(set(source_ids))
    async with store.pool.connection() as conn, conn.transaction():
        await conn.execute(*write_lock_sql(store))
        cur = await conn.execute(
            "SELECT doc_id, source_id, archive_path FROM documents WHERE source_id = ANY(%s)"
            " UNION SELECT doc_id, parent_id, archive_path FROM documents"
            " WHERE kind = 'attachment' AND parent_id = ANY(%s)",
            (ids, ids),
        )
        rows = await cur.fetchall()
        unknown = sorted(set(ids) - {r["source_id"] for r in rows})
        if unknown:
            raise UnknownSource(f"no document with source id {', '.join(map(repr, unknown))}")
        doc_ids = sorted({r["doc_id"] for r in rows})
        cur = await conn.execute(
            "SELECT DISTINCT topic_id FROM chunk_topics ct JOIN chunks c USING (chunk_id)"
            " WHERE c.doc_id = ANY(%s)",
            (doc_ids,),
        )
        topic_ids = [r["topic_id"] for r in await cur.fetchall()]
        cur = await conn.execute(
            "SELECT DISTINCT vessel_key FROM document_vessels WHERE doc_id = ANY(%s)", (doc_ids,)
        )
        vessel_keys = [r["vessel_key"] for r in await cur.fetchall()]
        cur = await conn.execute("DELETE FROM chunks WHERE doc_id = ANY(%s)", (doc_ids,))
        chunks = cur.rowcount
        await conn.execute("DELETE FROM documents WHERE doc_id = ANY(%s)", (doc_ids,))
        cur = await conn.execute(
            "DELETE FROM topics WHERE topic_id = ANY(%s) AND chunk_count <= 0", (topic_ids,)
        )
        topics = cur.rowcount
        cur = await conn.execute(
            "DELETE FROM vessels v WHERE vessel_key = ANY(%s)"
            " AND NOT EXISTS (SELECT 1 FROM document_vessels dv"
            " WHERE dv.vessel_key = v.vessel_key)",
            (vessel_keys,),
        )
        vessels = cur.rowcount
        paths = sorted({r["archive_path"] for r in rows})
        cur = await conn.execute(
            "SELECT DISTINCT archive_path FROM documents WHERE archive_path = ANY(%s)", (paths,)
        )
        still_cited = {r["archive_path"] for r in await cur.fetchall()}
        orphans = tuple(p for p in paths if p not in still_cited)
        return Deleted(len(doc_ids), chunks, topics, vessels, orphans)
