"""`bosun ingest`: load, chunk, embed in batches, archive, store one document per transaction."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Iterable, Sized
from dataclasses import dataclass
from pathlib import Path

from langchain_core.embeddings import Embeddings

from archive.ingest.digests import build_thread_digests
from archive.ingest.discover import load_paths
from archive.ingest.enrich import enrich
from archive.ingest.model import LoadError, SourceDocument
from archive.ingest.progress import count_sources, counted, stage_bar
from archive.ingest.topics import build_topics
from archive.ingest.vessel_tagging import tag_vessel_mentions
from archive.ingest.writer import WriteReport, write_documents
from archive.originals import Archive
from archive.store.database import Store

logger = logging.getLogger(__name__)


@dataclass
class IngestReport(WriteReport):
    """What a run did; errors are per file and never stop the run."""

    vessel_tagged: int = 0  # documents linked to the vessels they mention
    digests: int = 0  # thread digests written or refreshed
    topics: int = 0  # new names in the topic ontology
    seconds: float = 0.0
    interrupted: bool = False  # stopped by Ctrl-C (cancelled) between documents


async def ingest_documents(
    documents: Iterable[SourceDocument | LoadError],
    store: Store,
    embeddings: Embeddings,
    archive: Archive,
    *,
    batch_chunks: int = 64,
    progress: bool = True,
    prepare: Callable[[SourceDocument], SourceDocument] | None = None,
    report: IngestReport | None = None,
    stage: str = "ingest",
) -> IngestReport:
    """Store every new or changed document; unchanged ones are skipped by content hash.

    Counts go to ``report`` (a new one by default) as documents are stored, so a caller that is
    cancelled part-way still knows what was stored. Vessel tagging then reads every document
    not yet read (also those a killed run left), not only this run's.
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
        )
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
    the topics of every chunk not yet read to the topic ontology.

    Every derived stage reads what is not yet done (marker tables), so a rerun after a kill at
    any point finishes it. Cancelled (Ctrl-C), it stops between documents and returns what was
    stored so far with ``interrupted`` set. ``progress``: a bar with total and ETA per stage.
    """
    started = time.perf_counter()
    report = IngestReport()
    try:
        await _ingest_all(list(paths), store, embeddings, archive, report, progress=progress)
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
    archive: Archive,
    report: IngestReport,
    *,
    progress: bool,
) -> None:
    total = count_sources(paths) if progress else None
    with stage_bar("parse + embed", total, unit="doc", enabled=progress) as bar:
        await ingest_documents(
            counted(load_paths(paths), bar),
            store,
            embeddings,
            archive,
            progress=False,
            prepare=enrich,
            report=report,
        )
    digests = await build_thread_digests(store)
    if digests:
        digested = await ingest_documents(
            digests,
            store,
            embeddings,
            archive,
            progress=progress,
            prepare=enrich,
            stage="digests",
        )
        report.digests = digested.added + digested.updated
        report.chunks_added += digested.chunks_added
        report.errors.extend(digested.errors)
    with stage_bar("topics", report.chunks_added or None, unit="chunk", enabled=progress) as bar:
        report.topics = (await build_topics(store, embeddings, on_batch=bar.update)).new_topics
