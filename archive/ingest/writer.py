"""The one embed-and-write path: every document that reaches the store goes through here (`bosun
ingest`, the evaluation collections, the benchmarks).

Documents are taken in batches of about ``batch_chunks`` passages: unchanged ones (same content
hash) are skipped, the rest are chunked, embedded in one call per batch (the next batches embed
while one is written), their originals copied to the archive, and each written in its own
transaction, so a killed run resumes with no duplicates. Runs that share a collection claim each
document before embedding it (:mod:`archive.store.locks`), so none is embedded twice.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections import deque
from collections.abc import Callable, Coroutine, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from langchain_core.embeddings import Embeddings

from archive.ingest.chunking import chunk_document
from archive.ingest.model import Chunk, LoadError, SourceDocument
from archive.ingest.workers import Embedder, in_process
from archive.originals import Originals
from archive.store.database import Store
from archive.store.documents import stored_hashes, write_document
from archive.store.locks import Claims, claims

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
    # noise to a sentence embedder (docs/retrieval.md, "Studies") and BM25 and
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
    archive: Originals,
    *,
    text_of: TextOf = embedding_text,
    chunker: Chunker = chunk_document,
    batch_chunks: int = 64,
    report: WriteReport | None = None,
    on_batch: Callable[[int], None] | None = None,
    embed: Embedder | None = None,
    depth: int | None = None,
) -> WriteReport:
    """Write every new or changed document of ``documents`` into ``report`` (a new one by
    default); ``on_batch`` is told how many documents each batch took (for progress bars).

    ``embed`` computes the vectors (default: ``embeddings`` in a thread of this process; a
    :class:`~archive.ingest.workers.WorkerPool` for N processes); up to ``depth`` batches
    (default: one per worker, plus one) are embedded while the oldest is written. Each
    document is claimed (an advisory lock) before it is checked and embedded: a document
    another run holds is left to it and, once that run let it go, checked again, so runs over
    overlapping inputs never embed or write one twice.
    """
    report = report if report is not None else WriteReport()
    depth = depth or getattr(embed, "workers", 1) + 1
    writer = _Writer(store, archive, embed or in_process(embeddings), text_of, chunker, report)
    async with claims(store) as held:
        writer.claims = held
        todo: Iterable[SourceDocument | LoadError] = documents
        while True:
            deferred = await writer.run(todo, batch_chunks, max(1, depth), on_batch)
            if not deferred:
                break
            logger.info("%d documents held by another run: waiting for it", len(deferred))
            await held.wait([d.doc_id for d in deferred])
            todo = deferred
    return report


@dataclass
class _Batch:
    """Documents claimed by this run, chunked, with their vectors on the way."""

    todo: list[tuple[SourceDocument, list[Chunk]]]
    known: dict[str, str]  # stored content hashes
    claimed: list[str]  # doc ids to release once written
    vectors: asyncio.Future[Sequence[Sequence[float]]] | None


class _Writer:
    """One run of :func:`write_documents`: batches in, documents written in input order."""

    def __init__(
        self,
        store: Store,
        archive: Originals,
        embed: Embedder,
        text_of: TextOf,
        chunker: Chunker,
        report: WriteReport,
    ) -> None:
        self.store, self.archive, self.embed = store, archive, embed
        self.text_of, self.chunker, self.report = text_of, chunker, report
        self.claims: Claims | None = None
        self.in_flight: set[str] = set()  # doc ids claimed and not yet written

    async def run(
        self,
        documents: Iterable[SourceDocument | LoadError],
        batch_chunks: int,
        depth: int,
        on_batch: Callable[[int], None] | None,
    ) -> list[SourceDocument]:
        """Write ``documents``; returns those held by another run (or twice in the input)."""
        deferred: list[SourceDocument] = []
        queue: deque[_Batch] = deque()
        try:
            for docs in self._batches(documents, batch_chunks):
                queue.append(await self._prepare(docs, deferred))
                if on_batch:
                    on_batch(len(docs))
                while len(queue) >= depth:
                    await self._write(queue.popleft())
            while queue:
                await self._write(queue.popleft())
        finally:
            for batch in queue:  # cancelled: vectors nobody will write
                if batch.vectors is not None:
                    batch.vectors.cancel()
        return deferred

    def _batches(
        self, documents: Iterable[SourceDocument | LoadError], batch_chunks: int
    ) -> Iterator[list[SourceDocument]]:
        pending: list[SourceDocument] = []
        pending_chunks = 0
        for item in documents:
            if isinstance(item, LoadError):
                logger.warning("skipped %s", item)
                self.report.errors.append(item)
                continue
            pending.append(item)
            pending_chunks += max(1, len(item.sections))
            if pending_chunks >= batch_chunks:
                yield pending
                pending, pending_chunks = [], 0
        if pending:
            yield pending

    async def _prepare(self, docs: list[SourceDocument], deferred: list[SourceDocument]) -> _Batch:
        await asyncio.sleep(0)  # a point where Ctrl-C (cancellation) stops the run promptly
        assert self.claims is not None
        fresh: list[SourceDocument] = []
        for doc in docs:  # the same document twice in one run: the second copy waits
            (deferred if doc.doc_id in self.in_flight else fresh).append(doc)
            self.in_flight.add(doc.doc_id)
        held = await self.claims.claim(sorted({d.doc_id for d in fresh}))
        deferred.extend(d for d in fresh if d.doc_id not in held)
        self.in_flight -= {d.doc_id for d in fresh if d.doc_id not in held}
        known = await stored_hashes(self.store, sorted(held))
        todo: list[tuple[SourceDocument, list[Chunk]]] = []
        for doc in (d for d in fresh if d.doc_id in held):
            if known.get(doc.doc_id) == doc.content_hash:
                self.report.unchanged += 1
                continue
            chunks = self.chunker(doc)
            if not chunks:
                self.report.errors.append(LoadError(doc.archive_name, "no text to index"))
                continue
            todo.append((doc, chunks))
        texts = [self.text_of(doc, c) for doc, chunks in todo for c in chunks]
        vectors = asyncio.ensure_future(self.embed(texts)) if texts else None
        return _Batch(todo, known, sorted(held), vectors)

    async def _write(self, batch: _Batch) -> None:
        assert self.claims is not None
        if batch.vectors is not None:
            vectors = await batch.vectors
            offset = 0
            for doc, chunks in batch.todo:
                doc_vectors = vectors[offset : offset + len(chunks)]
                offset += len(chunks)
                path = await asyncio.to_thread(  # object storage is a network call
                    self.archive.put, doc.kind, doc.doc_id, doc.archive_name, doc.original
                )
                changed = doc.doc_id in batch.known
                await _finished(
                    _store_one(self.store, doc, chunks, doc_vectors, path, changed, self.report)
                )
        await self.claims.release(batch.claimed)
        self.in_flight -= set(batch.claimed)


async def _store_one(
    store: Store,
    doc: SourceDocument,
    chunks: list[Chunk],
    vectors: Sequence[Sequence[float]],
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
