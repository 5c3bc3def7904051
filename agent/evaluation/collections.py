"""A BEIR corpus as its own collection, ingested once through the product's write path."""

from __future__ import annotations

import contextlib
import functools
import json
import logging
import re
import sys
import time
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tqdm import tqdm

from agent.evaluation.beir import BeirDataset
from agent.settings import Settings
from agent.wiring import Services, open_services
from archive.ingest.chunking import chunk_document
from archive.ingest.writer import write_documents
from archive.store.database import Store
from archive.store.embedder import FILE_KEY, RERANKER_TRAINING_KEY, TRAINING_KEY
from archive.store.schema import StoreError

logger = logging.getLogger(__name__)

#: Chunk size of eval collections (docs/retrieval.md, "Studies", for the measurements).
DEFAULT_CHUNK_CHARS = 1000
DEFAULT_OVERLAP = 150


@dataclass(frozen=True)
class IngestStats:
    """What preparing an eval collection did."""

    documents: int  # stored after the run
    added: int  # documents written this run (0 when the collection was complete)
    chunks: int  # chunks written this run
    seconds: float


def collection_name(dataset: str | Path, chunk_chars: int = DEFAULT_CHUNK_CHARS) -> str:
    """``eval_<folder>`` (``_c<chars>`` appended for a non-default chunk size)."""
    folder = Path(dataset).name if isinstance(dataset, Path) else dataset
    slug = re.sub(r"[^a-z0-9_]+", "_", folder.lower()).strip("_") or "dataset"
    suffix = "" if chunk_chars == DEFAULT_CHUNK_CHARS else f"_c{chunk_chars}"
    return f"eval_{slug}"[: 63 - len(suffix)] + suffix


async def _read_meta(store: Store) -> dict[str, str]:
    async with store.pool.connection() as conn:
        cur = await conn.execute("SELECT key, value FROM meta")
        return {row["key"]: row["value"] for row in await cur.fetchall()}


async def _write_meta(store: Store, values: Mapping[str, str]) -> None:
    async with store.pool.connection() as conn:
        for key, value in values.items():
            await conn.execute(
                "INSERT INTO meta (key, value) VALUES (%s, %s)"
                " ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
                (key, value),
            )


async def read_training(store: Store) -> dict[str, Any] | None:
    """What the collection's adapted embedder was trained on (`bosun adapt`), if it has one."""
    meta = await _read_meta(store)
    text = meta.get(TRAINING_KEY) if meta.get(FILE_KEY) else None
    return json.loads(text) if text else None


async def read_reranker_training(store: Store) -> dict[str, Any] | None:
    """What the reranker `bosun adapt` fitted for the collection was trained on, if any."""
    text = (await _read_meta(store)).get(RERANKER_TRAINING_KEY)
    return json.loads(text) if text else None


async def document_count(store: Store) -> int:
    async with store.pool.connection() as conn:
        cur = await conn.execute("SELECT count(*) AS n FROM documents")
        row = await cur.fetchone()
        return int(row["n"]) if row else 0


async def ensure_ingested(
    services: Services,
    dataset: BeirDataset,
    *,
    chunk_chars: int = DEFAULT_CHUNK_CHARS,
    overlap: int = DEFAULT_OVERLAP,
    batch_chunks: int = 64,
    progress: bool = False,
) -> IngestStats:
    """Ingest the corpus unless the collection already holds as many documents as it has.

    The chunk size is recorded in the collection's meta; reusing a collection with another chunk
    size is refused (use :func:`collection_name` with that size instead). An interrupted run
    resumes: documents already stored with the same content are skipped.
    """
    store = services.store
    meta = await _read_meta(store)
    recorded = meta.get("eval_chunk_chars")
    if recorded is not None and int(recorded) != chunk_chars:
        raise StoreError(
            f"collection {store.schema!r} was built with {recorded}-character chunks, "
            f"not {chunk_chars}"
        )
    stored = await document_count(store)
    if stored == dataset.corpus_size:
        return IngestStats(stored, 0, 0, 0.0)
    logger.info(
        "ingesting %s into %s: %d of %d documents stored",
        dataset.name,
        store.schema,
        stored,
        dataset.corpus_size,
    )
    await _write_meta(
        store,
        {
            "eval_dataset": dataset.name,
            "eval_chunk_chars": str(chunk_chars),
            "eval_overlap": str(overlap),
        },
    )
    started = time.perf_counter()
    bar = tqdm(
        total=dataset.corpus_size,
        desc=f"ingest {dataset.name}",
        unit="doc",
        disable=not progress,
        file=sys.stderr,
        leave=False,
    )
    written = await write_documents(
        dataset.documents(),
        store,
        services.embeddings,
        services.archive,
        chunker=functools.partial(chunk_document, max_chars=chunk_chars, overlap=overlap),
        batch_chunks=batch_chunks,
        on_batch=bar.update,
    )
    bar.close()
    async with store.pool.connection() as conn:
        # Fresh statistics for the planner and a visibility map for index-only BM25 scans.
        await conn.execute("VACUUM (ANALYZE) chunks, bm25_postings, bm25_terms")
    return IngestStats(
        await document_count(store),
        written.added + written.updated,
        written.chunks_added,
        time.perf_counter() - started,
    )


@contextlib.asynccontextmanager
async def open_eval_services(
    settings: Settings,
    dataset: BeirDataset,
    *,
    chunk_chars: int = DEFAULT_CHUNK_CHARS,
    progress: bool = False,
) -> AsyncIterator[Services]:
    """Services on the dataset's own collection, ingested and ready to query."""
    async with open_services(
        settings, collection=collection_name(dataset.name, chunk_chars)
    ) as services:
        await ensure_ingested(services, dataset, chunk_chars=chunk_chars, progress=progress)
        yield services
