"""Run a BEIR split through retrieval: an isolated collection, metrics, latency, a run log.

Later layers (query expansion, topics, rerank) reuse :func:`evaluate` by passing their own
``search`` hook: any ``async (query) -> Retrieval``; the harness only needs ranked candidates
(each passage's ``source_id`` is the BEIR corpus id) and the per-stage ``timings_ms``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tqdm import tqdm

from agent.evaluation.beir import BeirDataset, load_dataset
from agent.evaluation.metrics import METRICS, aggregate_documents, percentile, score_query
from agent.settings import Settings
from agent.wiring import Services, open_services
from archive.ingest.chunking import chunk_document
from archive.ingest.model import Chunk, SourceDocument
from archive.ingest.pipeline import embedding_text
from archive.store.database import Store
from archive.store.documents import stored_hashes, write_document
from archive.store.schema import StoreError
from archive.store.search_filters import SearchFilters
from tools.hybrid import Retrieval, RetrievalOptions, retrieve

logger = logging.getLogger(__name__)

#: Chunks retrieved per query; documents are ranked by their best chunk among these.
EVAL_CHUNKS = 100
#: Chunk size of eval collections (see benchmarks/eval_fusion_sweep.py for the measurements).
DEFAULT_CHUNK_CHARS = 1000
DEFAULT_OVERLAP = 150

SearchHook = Callable[[str], Awaitable[Retrieval]]


@dataclass
class QueryOutcome:
    """What one query returned and how it scored."""

    query_id: str
    ranked: list[str]  # corpus ids, best first
    scores: dict[str, float]  # metric name -> value
    timings_ms: dict[str, float]  # stage -> milliseconds, plus "total"


@dataclass
class EvalResult:
    """Mean metrics over a split's queries and the latency of each retrieval stage."""

    dataset: str
    split: str
    metrics: dict[str, float]  # metric name -> mean over queries
    latency_ms: dict[str, dict[str, float]]  # stage -> {"p50": ms, "p95": ms}
    per_query: list[QueryOutcome] = field(default_factory=list)

    @property
    def queries(self) -> int:
        return len(self.per_query)

    def summary(self) -> dict[str, Any]:
        """The figures ``bosun eval --json`` prints."""
        return {
            **{name: round(value, 4) for name, value in self.metrics.items()},
            "queries": self.queries,
            "latency_ms": {
                stage: {p: round(v, 2) for p, v in values.items()}
                for stage, values in self.latency_ms.items()
            },
        }


@dataclass(frozen=True)
class IngestStats:
    """What preparing an eval collection did."""

    documents: int  # stored after the run
    added: int  # documents written this run (0 when the collection was complete)
    chunks: int  # chunks written this run
    seconds: float


# --- the collection -----------------------------------------------------------------------


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
    added = chunks_written = 0
    bar = tqdm(
        total=dataset.corpus_size,
        desc=f"ingest {dataset.name}",
        unit="doc",
        disable=not progress,
        file=sys.stderr,
        leave=False,
    )
    batch: list[tuple[SourceDocument, list[Chunk]]] = []
    batch_size = 0

    async def flush() -> None:
        nonlocal added, chunks_written, batch, batch_size
        known = await stored_hashes(services.store, [d.doc_id for d, _ in batch])
        todo = [(d, c) for d, c in batch if known.get(d.doc_id) != d.content_hash and c]
        texts = [embedding_text(d, chunk) for d, cs in todo for chunk in cs]
        vectors = (
            await asyncio.to_thread(services.embeddings.embed_documents, texts) if texts else []
        )
        offset = 0
        for doc, cs in todo:
            path = services.archive.put(doc.kind, doc.doc_id, doc.archive_name, doc.original)
            await write_document(store, doc, cs, vectors[offset : offset + len(cs)], path)
            offset += len(cs)
            added += 1
            chunks_written += len(cs)
        bar.update(len(batch))
        batch, batch_size = [], 0

    for doc in dataset.documents():
        chunks = chunk_document(doc, max_chars=chunk_chars, overlap=overlap)
        batch.append((doc, chunks))
        batch_size += len(chunks)
        if batch_size >= batch_chunks:
            await flush()
    if batch:
        await flush()
    bar.close()
    async with store.pool.connection() as conn:
        # Fresh statistics for the planner and a visibility map for index-only BM25 scans.
        await conn.execute("VACUUM (ANALYZE) chunks, bm25_postings, bm25_terms")
    return IngestStats(
        await document_count(store), added, chunks_written, time.perf_counter() - started
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


# --- running the queries ------------------------------------------------------------------


async def evaluate(
    services: Services,
    dataset: BeirDataset | Path,
    split: str | None = None,
    options: RetrievalOptions | None = None,
    limit: int | None = None,
    *,
    search: SearchHook | None = None,
    filters: SearchFilters | None = None,
) -> EvalResult:
    """Run every query of the split (the first ``limit`` ones) and score the document rankings.

    Without ``search`` each query goes through :func:`tools.hybrid.retrieve` with ``options``
    (``k`` is raised to :data:`EVAL_CHUNKS`). Chunks are turned into a document ranking by each
    document's best chunk score. Queries run one at a time so latencies are not contended.
    """
    if not isinstance(dataset, BeirDataset):
        dataset = load_dataset(Path(dataset), split)
    elif split is not None and split != dataset.split:
        raise ValueError(f"dataset is loaded for split {dataset.split!r}, not {split!r}")
    base = options or RetrievalOptions()
    options = replace(base, k=max(EVAL_CHUNKS, base.k))
    where = filters or SearchFilters()

    async def default_search(query: str) -> Retrieval:
        return await retrieve(services.store, services.embeddings, query, where, options)

    hook = search or default_search
    outcomes: list[QueryOutcome] = []
    for qid, text in list(dataset.queries.items())[:limit]:
        start = time.perf_counter()
        retrieval = await hook(text)
        timings = {**retrieval.timings_ms, "total": (time.perf_counter() - start) * 1000.0}
        ranked = aggregate_documents(
            [(c.passage.source_id, c.score) for c in retrieval.candidates]
        )[:EVAL_CHUNKS]
        outcomes.append(QueryOutcome(qid, ranked, score_query(ranked, dataset.qrels[qid]), timings))
    return summarize(dataset.name, dataset.split, outcomes)


def summarize(dataset: str, split: str, outcomes: list[QueryOutcome]) -> EvalResult:
    """Mean metrics and per-stage p50/p95 over ``outcomes``."""
    n = max(len(outcomes), 1)
    metrics = {name: sum(o.scores[name] for o in outcomes) / n for name in METRICS}
    stages: dict[str, list[float]] = {}
    for outcome in outcomes:
        for stage, ms in outcome.timings_ms.items():
            stages.setdefault(stage, []).append(ms)
    latency = {
        stage: {"p50": percentile(values, 50), "p95": percentile(values, 95)}
        for stage, values in stages.items()
    }
    return EvalResult(dataset, split, metrics, latency, outcomes)


# --- the run log --------------------------------------------------------------------------


def runs_file(settings: Settings, dataset: str) -> Path:
    """``<BOSUN_HOME>/eval/<dataset>/runs.jsonl``."""
    return settings.home / "eval" / dataset / "runs.jsonl"


def record_run(
    settings: Settings,
    result: EvalResult,
    switches: Mapping[str, Any],
    config: Mapping[str, Any] | None = None,
) -> Path:
    """Append one run (dataset, split, switches, metrics, latency, timestamp) to the run log.

    ``switches`` identify the run configuration (runs with equal switches replace each other in the
    chart); ``config`` holds anything else worth keeping (fusion parameters, chunk size).
    """
    path = runs_file(settings, result.dataset)
    path.parent.mkdir(parents=True, exist_ok=True)
    record = {
        "dataset": result.dataset,
        "split": result.split,
        "switches": dict(switches),
        "config": dict(config or {}),
        "metrics": {k: round(v, 6) for k, v in result.metrics.items()},
        "queries": result.queries,
        "latency_ms": result.summary()["latency_ms"],
        "timestamp": datetime.now(UTC).isoformat(timespec="seconds"),
    }
    with path.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(record, sort_keys=True) + "\n")
    return path


def read_runs(path: Path) -> list[dict[str, Any]]:
    """Every run of a run log, oldest first (unreadable lines are skipped)."""
    if not path.is_file():
        return []
    runs = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            runs.append(json.loads(line))
        except json.JSONDecodeError:
            logger.warning("skipped an unreadable line of %s", path)
    return runs
