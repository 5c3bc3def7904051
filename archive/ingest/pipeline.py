"""`bosun ingest`: load, chunk, embed in batches, archive, store one document per transaction."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Iterable, Sized
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from langchain_core.embeddings import Embeddings

from archive.ingest.digests import build_thread_digests, digests_done
from archive.ingest.discover import load_paths
from archive.ingest.enrich import enrich
from archive.ingest.instruction_scan import mark_unread
from archive.ingest.model import LoadError, SourceDocument
from archive.ingest.progress import count_sources, counted, stage_bar
from archive.ingest.topics import build_topics
from archive.ingest.vessel_tagging import tag_vessel_mentions
from archive.ingest.workers import Embedder, WorkerPool
from archive.ingest.writer import WriteReport, write_documents
from archive.originals import Originals
from archive.store.database import Store
from archive.store.lexical_blocks import compact_if_stale
from archive.store.locks import ingest_stage

logger = logging.getLogger(__name__)

T = TypeVar("T")


@dataclass
class IngestReport(WriteReport):
    """What a run did; errors are per file and never stop the run."""

    vessel_tagged: int = 0  # documents linked to the vessels they mention
    digests: int = 0  # thread digests written or refreshed
    topics: int = 0  # new names in the topic ontology
    seconds: float = 0.0
    interrupted: bool = False  # stopped by Ctrl-C (cancelled) between documents
    stage_seconds: dict[str, float] = field(default_factory=dict)  # wall time of each stage
    read: dict[str, int] = field(default_factory=dict)  # what the derived stages read


async def ingest_documents(
    documents: Iterable[SourceDocument | LoadError],
    store: Store,
    embeddings: Embeddings,
    archive: Originals,
    *,
    batch_chunks: int = 64,
    progress: bool = True,
    prepare: Callable[[SourceDocument], SourceDocument] | None = None,
    report: IngestReport | None = None,
    stage: str = "ingest",
    embed: Embedder | None = None,
    tag_vessels: bool = True,
) -> IngestReport:
    """Store every new or changed document; unchanged ones are skipped by content hash.

    Counts go to ``report`` (a new one by default) as documents are stored, so a caller that is
    cancelled part-way still knows what was stored. Vessel tagging then reads every document
    not yet read (also those a killed run left), not only this run's (unless ``tag_vessels`` is
    false: the caller tags later). ``embed``: see :func:`write_documents`.
    """
    report = report if report is not None else IngestReport()
    started = time.perf_counter()
    total = len(documents) if isinstance(documents, Sized) else None
    with stage_bar(stage, total, unit="doc", enabled=progress) as bar:
        prepared = (
            item if isinstance(item, LoadError) or prepare is None else prepare(item)
            for item in documents
        )
        await write_documents(
            prepared,
            store,
            embeddings,
            archive,
            batch_chunks=batch_chunks,
            report=report,
            on_batch=bar.update,
            embed=embed,
        )
    if tag_vessels:
        report.vessel_tagged = (await tag_vessel_mentions(store)).tagged
    report.seconds = time.perf_counter() - started
    return report


async def ingest_paths(
    paths: Iterable[Path],
    store: Store,
    embeddings: Embeddings,
    archive: Originals,
    *,
    progress: bool = True,
    embed: Embedder | None = None,
) -> IngestReport:
    """Ingest files and folders (see :func:`archive.ingest.discover.load_paths`) with context
    summaries, (re)build the digests of new or changed multi-message email threads, then add
    the topics of every chunk not yet read to the topic ontology.

    Every derived stage reads what is not yet done (marker tables), so a rerun after a kill at
    any point finishes it. Cancelled (Ctrl-C), it stops between documents and returns what was
    stored so far with ``interrupted`` set. ``progress``: a bar with total and ETA per stage.
    ``embed``: where vectors are computed (see :func:`write_documents`).

    Several runs may share the collection (processes or machines on one database): documents
    are claimed one run at a time, and the derived stages run under the collection's exclusive
    ingest lock once no run is writing documents (:mod:`archive.store.locks`).
    """
    started = time.perf_counter()
    report = IngestReport()
    try:
        await _ingest_all(
            list(paths), store, embeddings, archive, report, progress=progress, embed=embed
        )
    except asyncio.CancelledError:
        report.interrupted = True
        logger.warning(
            "ingest interrupted: %d new, %d changed stored", report.added, report.updated
        )
    report.seconds = time.perf_counter() - started
    return report


async def _ingest_all(
    paths: list[Path],
    store: Store,
    embeddings: Embeddings,
    archive: Originals,
    report: IngestReport,
    *,
    progress: bool,
    embed: Embedder | None,
) -> None:
    total = count_sources(paths) if progress else None
    # With worker processes, they parse and enrich files too; otherwise this process does.
    loaded, prepare = (
        (embed.load(paths, enrich), None)
        if isinstance(embed, WorkerPool)
        else (load_paths(paths), enrich)
    )
    async with ingest_stage(store, exclusive=False):
        with stage_bar("parse + embed", total, unit="doc", enabled=progress) as bar:
            await timed(
                report,
                "parse_embed_write",
                ingest_documents(
                    counted(loaded, bar),
                    store,
                    embeddings,
                    archive,
                    progress=False,
                    prepare=prepare,
                    report=report,
                    embed=embed,
                    tag_vessels=False,
                ),
            )
    async with ingest_stage(store, exclusive=True):
        await _derive(store, embeddings, archive, report, progress=progress, embed=embed)


async def refresh_derived(
    store: Store,
    embeddings: Embeddings,
    archive: Originals,
    *,
    progress: bool = False,
    embed: Embedder | None = None,
) -> IngestReport:
    """Bring the derived data up to date after documents were added or deleted outside
    :func:`ingest_paths` (``bosun delete``): vessel tags of unread documents, digests of the
    pending threads, topics of the pending chunks; nothing else is read."""
    report = IngestReport()
    started = time.perf_counter()
    async with ingest_stage(store, exclusive=True):
        await _derive(store, embeddings, archive, report, progress=progress, embed=embed)
    report.seconds = time.perf_counter() - started
    return report


async def _derive(
    store: Store,
    embeddings: Embeddings,
    archive: Originals,
    report: IngestReport,
    *,
    progress: bool,
    embed: Embedder | None,
) -> None:
    """Planted-instruction marks, vessel tags, thread digests and topics of what is not yet
    done, then the BM25 segment when enough changed since its compaction
    (:func:`compact_if_stale`), each stage timed."""
    report.read["instruction_chunks"] = await timed(report, "instructions", mark_unread(store))
    tagging = await timed(report, "vessel_tags", tag_vessel_mentions(store))
    report.vessel_tagged = tagging.tagged
    report.read["vessel_documents"] = tagging.read
    digests = await timed(report, "digests", build_thread_digests(store))
    if digests:
        digested = await timed(
            report,
            "digests",
            ingest_documents(
                digests,
                store,
                embeddings,
                archive,
                progress=progress,
                prepare=enrich,
                stage="digests",
                embed=embed,
            ),
        )
        await digests_done(store, digests)
        report.digests = digested.added + digested.updated
        report.chunks_added += digested.chunks_added
        report.errors.extend(digested.errors)
    with stage_bar("topics", report.chunks_added or None, unit="chunk", enabled=progress) as bar:
        stats = await timed(
            report, "topics", build_topics(store, embeddings, on_batch=bar.update, embed=embed)
        )
        report.topics = stats.new_topics
        report.read["topic_chunks"] = stats.chunks
    report.read["bm25_compacted"] = await timed(report, "bm25_compact", compact_if_stale(store))


async def timed(report: IngestReport, stage: str, work: Awaitable[T]) -> T:
    """Await ``work``, adding its wall time to ``report.stage_seconds[stage]``."""
    started = time.perf_counter()
    try:
        return await work
    finally:
        elapsed = time.perf_counter() - started
        report.stage_seconds[stage] = report.stage_seconds.get(stage, 0.0) + elapsed
