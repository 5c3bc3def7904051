"""`bosun ingest`: load, chunk, embed in batches, archive, store one document per transaction."""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections.abc import Callable, Iterable, Sized
from dataclasses import dataclass, field
from pathlib import Path

from langchain_core.embeddings import Embeddings

from archive.ingest.chunking import chunk_document
from archive.ingest.digests import build_thread_digests
from archive.ingest.discover import load_paths
from archive.ingest.enrich import enrich
from archive.ingest.model import Chunk, LoadError, SourceDocument
from archive.ingest.progress import count_sources, counted, stage_bar
from archive.ingest.topics import build_topics
from archive.ingest.vessel_tagging import tag_vessel_mentions
from archive.originals import Archive
from archive.store.database import Store
from archive.store.documents import stored_hashes, write_document

logger = logging.getLogger(__name__)

_PROSE_WORD = re.compile(r"\b[a-z]{2,}\b")
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_IDENTIFIER = re.compile(r"(?=.{8,})[A-Z]+\d+[A-Z]+\d+[A-Z0-9]*")  # ANC10CA015, ERA22LA175


@dataclass
class IngestReport:
    """What a run did; errors are per file and never stop the run."""

    added: int = 0
    updated: int = 0
    unchanged: int = 0
    chunks_added: int = 0
    vessel_tagged: int = 0  # documents linked to the vessels they mention
    digests: int = 0  # thread digests written or refreshed
    topics: int = 0  # new names in the topic ontology
    errors: list[LoadError] = field(default_factory=list)
    seconds: float = 0.0


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


async def ingest_documents(
    documents: Iterable[SourceDocument | LoadError],
    store: Store,
    embeddings: Embeddings,
    archive: Archive,
    *,
    batch_chunks: int = 64,
    progress: bool = True,
    prepare: Callable[[SourceDocument], SourceDocument] | None = None,
    stage: str = "ingest",
) -> IngestReport:
    """Store every new or changed document; unchanged ones are skipped by content hash."""
    report = IngestReport()
    started = time.perf_counter()
    total = len(documents) if isinstance(documents, Sized) else None
    bar = stage_bar(stage, total, unit="doc", enabled=progress)
    pending: list[SourceDocument] = []
    pending_chunks = 0
    for item in documents:
        if isinstance(item, LoadError):
            logger.warning("skipped %s", item)
            report.errors.append(item)
            continue
        pending.append(prepare(item) if prepare else item)
        pending_chunks += max(1, len(item.sections))
        if pending_chunks >= batch_chunks:
            await _flush(pending, store, embeddings, archive, report)
            bar.update(len(pending))
            pending, pending_chunks = [], 0
    if pending:
        await _flush(pending, store, embeddings, archive, report)
        bar.update(len(pending))
    bar.close()
    if report.added or report.updated:
        report.vessel_tagged = await tag_vessel_mentions(store)
    report.seconds = time.perf_counter() - started
    return report


async def ingest_paths(
    paths: Iterable[Path],
    store: Store,
    embeddings: Embeddings,
    archive: Archive,
    *,
    progress: bool = True,
) -> IngestReport:
    """Ingest files and folders (see :func:`archive.ingest.discover.load_paths`) with context
    summaries, (re)build the digests of new or changed multi-message email threads, then add
    the topics of every new chunk to the topic ontology."""
    started = time.perf_counter()
    paths = list(paths)
    total = count_sources(paths) if progress else None
    with stage_bar("parse + embed", total, unit="doc", enabled=progress) as bar:
        report = await ingest_documents(
            counted(load_paths(paths), bar),
            store,
            embeddings,
            archive,
            progress=False,
            prepare=enrich,
        )
    digests = await build_thread_digests(store)
    if digests:
        digested = await ingest_documents(
            digests, store, embeddings, archive, progress=progress, prepare=enrich, stage="digests"
        )
        report.digests = digested.added + digested.updated
        report.chunks_added += digested.chunks_added
        report.errors.extend(digested.errors)
    if report.chunks_added:
        with stage_bar("topics", report.chunks_added, unit="chunk", enabled=progress) as bar:
            report.topics = (await build_topics(store, embeddings, on_batch=bar.update)).new_topics
    report.seconds = time.perf_counter() - started
    return report


async def _flush(
    docs: list[SourceDocument],
    store: Store,
    embeddings: Embeddings,
    archive: Archive,
    report: IngestReport,
) -> None:
    known = await stored_hashes(store, [d.doc_id for d in docs])
    todo: list[tuple[SourceDocument, list[Chunk]]] = []
    seen: set[str] = set()
    for doc in docs:
        if known.get(doc.doc_id) == doc.content_hash or doc.doc_id in seen:
            report.unchanged += 1
            continue
        seen.add(doc.doc_id)
        chunks = chunk_document(doc)
        if not chunks:
            report.errors.append(LoadError(doc.archive_name, "no text to index"))
            continue
        todo.append((doc, chunks))
    if not todo:
        return
    texts = [embedding_text(doc, c) for doc, chunks in todo for c in chunks]
    vectors = await asyncio.to_thread(embeddings.embed_documents, texts)
    offset = 0
    for doc, chunks in todo:
        doc_vectors = vectors[offset : offset + len(chunks)]
        offset += len(chunks)
        path = archive.put(doc.kind, doc.doc_id, doc.archive_name, doc.original)
        await write_document(store, doc, chunks, doc_vectors, path)
        if doc.doc_id in known:
            report.updated += 1
        else:
            report.added += 1
        report.chunks_added += len(chunks)
