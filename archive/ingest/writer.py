"""The one embed-and-write path: every document that reaches the store goes through here (`bosun
ingest`, the evaluation collections, the benchmarks).

Documents are taken in batches of about ``batch_chunks`` passages: unchanged ones (same content
hash) are skipped, the rest are chunked, embedded in one call per batch, their originals copied to
the archive, and each written in its own transaction, so a killed run resumes with no duplicates.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Callable, Coroutine, Iterable
from dataclasses import dataclass, field
from typing import Any

from langchain_core.embeddings import Embeddings

from archive.ingest.chunking import chunk_document
from archive.ingest.model import Chunk, LoadError, SourceDocument
from archive.originals import Archive
from archive.store.database import Store
from archive.store.documents import stored_hashes, write_document

logger = logging.getLogger(__name__)

_PROSE_WORD = re.compile(r"\b[a-z]{2,}\b")
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_IDENTIFIER = re.compile(r"(?=.{8,})[A-Z]+\d+[A-Z]+\d+[A-Z0-9]*")  # ANC10CA015, ERA22LA175

#: How a document is cut into passages.
Chunker = Callable[[SourceDocument], list[Chunk]]
#: What the vector of a passage encodes.
TextOf = Callable[[SourceDocument, Chunk], str]


def embedding_text(doc: SourceDocument, chunk: Chunk) -> str:
    """What the vector of ``chunk`` encodes, by the document's embedding mode."""
    if doc.embedding_mode == "summary" and doc.summary:
        return doc.summary
    # "full" passages are embedded under their title: prefixing the context summary measured
    # worse on NTSB (nDCG@10 0.4242 vs 0.4271 hybrid); the summary is shown in the LLM context.
    # A title that is only a metadata line (report number, date, place, make) is left out: it is
    # noise to a sentence embedder (see benchmarks/layers_eval.py --layers titles) and BM25 and
    # the structural filters still see it.
    if not reads_as_text(doc.title):
        return chunk.text
    return f"{doc.title}\n{chunk.text}"


def reads_as_text(title: str) -> bool:
    """Whether ``title`` is a subject or a headline, not a metadata line such as
    "ANC10CA015 2010-01-23 Nightmute, Alaska CESSNA 172H": no lower-case word, and a date or a
    report-number-like identifier."""
    if _PROSE_WORD.search(title):
        return True
    return not any(_DATE.fullmatch(t) or _IDENTIFIER.fullmatch(t) for t in title.split())


@dataclass
class WriteReport:
    """What was written; errors are per file and never stop the run."""

    added: int = 0
    updated: int = 0
    unchanged: int = 0
    chunks_added: int = 0
    errors: list[LoadError] = field(default_factory=list)


async def write_documents(
    documents: Iterable[SourceDocument | LoadError],
    store: Store,
    embeddings: Embeddings,
    archive: Archive,
    *,
    text_of: TextOf = embedding_text,
    chunker: Chunker = chunk_document,
    batch_chunks: int = 64,
    report: WriteReport | None = None,
    on_batch: Callable[[int], None] | None = None,
) -> WriteReport:
    """Write every new or changed document of ``documents`` into ``report`` (a new one by
    default); ``on_batch`` is told how many documents each batch took (for progress bars)."""
    report = report if report is not None else WriteReport()
    pending: list[SourceDocument] = []
    pending_chunks = 0
    for item in documents:
        await asyncio.sleep(0)  # a point where Ctrl-C (cancellation) stops the run promptly
        if isinstance(item, LoadError):
            logger.warning("skipped %s", item)
            report.errors.append(item)
            continue
        pending.append(item)
        pending_chunks += max(1, len(item.sections))
        if pending_chunks >= batch_chunks:
            await _write_batch(pending, store, embeddings, archive, text_of, chunker, report)
            if on_batch:
                on_batch(len(pending))
            pending, pending_chunks = [], 0
    if pending:
        await _write_batch(pending, store, embeddings, archive, text_of, chunker, report)
        if on_batch:
            on_batch(len(pending))
    return report


async def _write_batch(
    docs: list[SourceDocument],
    store: Store,
    embeddings: Embeddings,
    archive: Archive,
    text_of: TextOf,
    chunker: Chunker,
    report: WriteReport,
) -> None:
    known = await stored_hashes(store, [d.doc_id for d in docs])
    todo: list[tuple[SourceDocument, list[Chunk]]] = []
    seen: set[str] = set()
    for doc in docs:
        if known.get(doc.doc_id) == doc.content_hash or doc.doc_id in seen:
            report.unchanged += 1
            continue
        seen.add(doc.doc_id)
        chunks = chunker(doc)
        if not chunks:
            report.errors.append(LoadError(doc.archive_name, "no text to index"))
            continue
        todo.append((doc, chunks))
    if not todo:
        return
    texts = [text_of(doc, c) for doc, chunks in todo for c in chunks]
    vectors = await asyncio.to_thread(embeddings.embed_documents, texts)
    offset = 0
    for doc, chunks in todo:
        doc_vectors = vectors[offset : offset + len(chunks)]
        offset += len(chunks)
        path = archive.put(doc.kind, doc.doc_id, doc.archive_name, doc.original)
        changed = doc.doc_id in known
        await _finished(_store_one(store, doc, chunks, doc_vectors, path, changed, report))


async def _store_one(
    store: Store,
    doc: SourceDocument,
    chunks: list[Chunk],
    vectors: list[list[float]],
    path: str,
    changed: bool,
    report: WriteReport,
) -> None:
    """Write one document in its transaction and count it."""
    await write_document(store, doc, chunks, vectors, path)
    if changed:
        report.updated += 1
    else:
        report.added += 1
    report.chunks_added += len(chunks)


async def _finished(write: Coroutine[Any, Any, None]) -> None:
    """Run one document's write to its end even when the run is cancelled (Ctrl-C) while it
    commits, so what the report counts is exactly what was stored; then stop."""
    task = asyncio.ensure_future(write)
    try:
        await asyncio.shield(task)
    except asyncio.CancelledError:
        await task  # milliseconds: the document's own transaction
        raise
