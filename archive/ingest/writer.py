"""The one embed-and-write path: every document that reaches the store goes through here (`bosun
ingest`, the evaluation collections, the benchmarks).

Every document first passes :func:`~archive.ingest.admit.admitted` (storable text, display
fields without bidi controls) and its passages :func:`~archive.ingest.admit.marked` (planted
instructions named). Documents are taken in batches of at most ``batch_chunks`` passages:
unchanged ones (same content hash) are skipped, the rest are chunked, embedded in one call per
batch (the next batches embed while one is written), their originals copied to the archive, and
each written in its own transaction, so a killed run resumes with no duplicates. A document
larger than a batch is written in slices, each committed as it is embedded; a rerun continues a
partly written one from the slices stored. A document the database refuses for what it holds is
one line in the report; the run goes on. Runs that share a collection claim each
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

import psycopg
import psycopg.errors
from langchain_core.embeddings import Embeddings

from archive.ingest.admit import admitted, marked, shown_beside
from archive.ingest.chunking import chunk_document
from archive.ingest.model import Chunk, LoadError, SourceDocument
from archive.ingest.workers import EMBED_SLICE, Embedder, in_process
from archive.originals import Originals
from archive.store.database import Store
from archive.store.documents import (
    PARTIAL,
    append_chunks,
    stored_chunk_ids,
    stored_hashes,
    write_document,
)
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
class _Part:
    """One document's chunks in one batch: all of them, or a slice of a large document."""

    doc: SourceDocument
    chunks: list[Chunk]
    first: bool  # the first slice this run writes (replaces the document, unless resumed)
    last: bool  # the slice that completes the document
    resumed: bool  # continues a partly written document an earlier run left
    changed: bool  # a stored, complete version existed (counted as updated)
    total: int  # the document's chunk count


@dataclass
class _Batch:
    """At most ``batch_chunks`` passages of documents claimed by this run, vectors on the way."""

    parts: list[_Part]
    texts: list[str]
    claimed: list[str] = field(default_factory=list)  # doc ids to release once written
    vectors: asyncio.Future[Sequence[Sequence[float]]] | None = None

    def start(self, embed: Embedder) -> None:
        """Read the parts for planted instructions and embed them, off the event loop (the
        detector costs a few milliseconds a passage: on a large file, minutes)."""
        if self.texts:
            self.vectors = asyncio.ensure_future(self._marked_then_embedded(embed))

    async def _marked_then_embedded(self, embed: Embedder) -> Sequence[Sequence[float]]:
        await self._mark()
        return await embed(self.texts)

    async def _mark(self) -> None:
        """Each part's passages read for planted instructions, a few per thread call (so a
        cancelled run waits for no more than that)."""
        for part in self.parts:
            doc, chunks = part.doc, part.chunks
            beside = await asyncio.to_thread(shown_beside, doc.title, doc.subject, doc.summary)
            part.chunks = []
            for i in range(0, len(chunks), EMBED_SLICE):
                piece = chunks[i : i + EMBED_SLICE]
                part.chunks += await asyncio.to_thread(marked, doc, piece, beside)


#: A document this long is chunked in a thread (a 30 MB text takes seconds to cut).
_LARGE_CHARS = 1_000_000

#: What storing one document can fail on because of what it holds (not because the database or
#: the disk is gone): the document is one line in the report and the run goes on.
_BAD_DOCUMENT = (psycopg.DataError, psycopg.errors.ProgramLimitExceeded, ValueError)


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
        self.failed: set[str] = set()  # doc ids whose write failed this run

    async def run(
        self,
        documents: Iterable[SourceDocument | LoadError],
        batch_chunks: int,
        depth: int,
        on_batch: Callable[[int], None] | None,
    ) -> list[SourceDocument]:
        """Write ``documents``; returns those held by another run (or twice in the input)."""
        deferred: list[SourceDocument] = []
        queue: deque[_Batch] = deque()  # embedding or embedded, written in this order
        backlog: deque[_Batch] = deque()  # further slices of large documents, not started
        groups = self._batches(documents, batch_chunks)
        reading, turn = True, False
        try:
            while reading or backlog:
                # A large document's slices take turns with the documents read after it, so
                # one file never holds the others back; at most two such files are read ahead.
                turn = not turn
                if reading and (not backlog or turn) and _large_documents(backlog) <= 1:
                    docs = next(groups, None)
                    if docs is None:
                        reading = False
                        continue
                    first, *rest = await self._prepare(docs, deferred, batch_chunks)
                    backlog.extend(rest)
                    if on_batch:
                        on_batch(len(docs))
                else:
                    first = backlog.popleft()
                first.start(self.embed)  # at most ``depth`` batches embed at once
                queue.append(first)
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
            pending.append(admitted(item))  # the one boundary every stored text passes
            pending_chunks += max(1, len(item.sections))
            if pending_chunks >= batch_chunks:
                yield pending
                pending, pending_chunks = [], 0
        if pending:
            yield pending

    async def _prepare(
        self, docs: list[SourceDocument], deferred: list[SourceDocument], batch_chunks: int
    ) -> list[_Batch]:
        """Claim, check and chunk ``docs``; their passages cut into batches of at most
        ``batch_chunks`` (a large document spans several, each committed on its own)."""
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
        batches = [_Batch([], [])]
        cut: list[tuple[SourceDocument, list[Chunk], list[Chunk], bool, bool]] = []
        for doc in (d for d in fresh if d.doc_id in held):
            stored = known.get(doc.doc_id)
            if stored == doc.content_hash:
                self.report.unchanged += 1
                continue
            chunks = (
                await asyncio.to_thread(self.chunker, doc)  # seconds: the loop stays responsive
                if sum(len(section.text) for section in doc.sections) > _LARGE_CHARS
                else self.chunker(doc)
            )
            if not chunks:
                self.report.errors.append(LoadError(_where(doc), "no text to index"))
                continue
            resumed = stored == PARTIAL + doc.content_hash
            todo = chunks
            if resumed:  # an earlier run stored some slices: the rest, not those again
                done = await stored_chunk_ids(self.store, doc.doc_id)
                todo = [c for c in chunks if c.chunk_id not in done]
                logger.info(
                    "%s: continuing, %d of %d passages stored", _where(doc), len(done), len(chunks)
                )
            changed = stored is not None and not resumed
            cut.append((doc, chunks, todo, resumed, changed))
        # Documents that fit a batch first, so a large one's slices never hold them back.
        cut.sort(key=lambda item: len(item[2]) > batch_chunks)
        for doc, chunks, todo, resumed, changed in cut:
            first = True
            while True:
                batch = batches[-1]
                room = batch_chunks - len(batch.texts)
                if room <= 0:
                    batches.append(batch := _Batch([], []))
                    room = batch_chunks
                piece, todo = todo[:room], todo[room:]
                part = _Part(doc, piece, first, not todo, resumed, changed, len(chunks))
                batch.parts.append(part)
                batch.texts.extend(self.text_of(doc, c) for c in piece)
                first = False
                if not todo:
                    batch.claimed.append(doc.doc_id)
                    break
        # Documents with nothing to write are let go with the first batch.
        placed = {doc_id for b in batches for doc_id in b.claimed}
        batches[0].claimed.extend(sorted(held - placed))
        return batches

    async def _write(self, batch: _Batch) -> None:
        assert self.claims is not None
        vectors = await batch.vectors if batch.vectors is not None else []
        offset = 0
        for part in batch.parts:
            part_vectors = vectors[offset : offset + len(part.chunks)]
            offset += len(part.chunks)
            if part.doc.doc_id in self.failed:
                continue
            try:
                await _finished(self._store(part, part_vectors))
            except _BAD_DOCUMENT as err:  # this document only: reported, the run goes on
                logger.warning("%s not stored: %s", _where(part.doc), err)
                self.failed.add(part.doc.doc_id)
                self.report.errors.append(
                    LoadError(_where(part.doc), f"not stored: {type(err).__name__}: {err}")
                )
        await self.claims.release(batch.claimed)
        self.in_flight -= set(batch.claimed)

    async def _store(self, part: _Part, vectors: Sequence[Sequence[float]]) -> None:
        """Write one part in its transaction and count it."""
        doc = part.doc
        if part.first and not part.resumed:
            path = await asyncio.to_thread(  # object storage is a network call
                self.archive.put, doc.kind, doc.doc_id, doc.archive_name, doc.original
            )
            await write_document(
                self.store,
                doc,
                part.chunks,
                vectors,
                path,
                complete=part.last,
                chunk_count=part.total,
            )
        else:
            await append_chunks(self.store, doc, part.chunks, vectors, last=part.last)
        self.report.chunks_added += len(part.chunks)
        if part.last:
            if part.changed:
                self.report.updated += 1
            else:
                self.report.added += 1


def _large_documents(backlog: deque[_Batch]) -> int:
    """How many documents have slices waiting in ``backlog``."""
    return len({part.doc.doc_id for batch in backlog for part in batch.parts})


def _where(doc: SourceDocument) -> str:
    """What the report names for ``doc``: the file it came from, else its archived name."""
    return doc.origin or doc.archive_name


async def _finished(write: Coroutine[Any, Any, None]) -> None:
    """Run one document's write to its end even when the run is cancelled (Ctrl-C) while it
    commits, so what the report counts is exactly what was stored; then stop."""
    task = asyncio.ensure_future(write)
    try:
        await asyncio.shield(task)
    except asyncio.CancelledError:
        await task  # milliseconds: the document's own transaction
        raise
