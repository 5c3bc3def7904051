"""Ingest throughput against the embedding model's own, in one run on the same texts.

For each worker count: the model alone embeds every passage the ingest will embed (no parsing,
no database; N processes of cores / N threads, as ``--workers N`` runs them), then `bosun
ingest` (the same code path: ingest_paths with a WorkerPool) fills a fresh collection from the
same file; the table gives chunks/s of both, their ratio, and each ingest stage's wall time.
Parsing, enrichment and chunking are also timed alone (one process).

    BOSUN_HOME=... nice -n 5 python benchmarks/ingest_throughput.py \\
        ../shared/data/ntsb/reports_2010_2016.jsonl --workers 1 2
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import time
from pathlib import Path

import psycopg

from agent.settings import Settings
from agent.wiring import open_services
from archive.ingest.chunking import chunk_document
from archive.ingest.discover import load_paths
from archive.ingest.enrich import enrich
from archive.ingest.model import SourceDocument
from archive.ingest.pipeline import ingest_paths
from archive.ingest.workers import Embedder, WorkerPool, in_process, threads_per_worker
from archive.ingest.writer import embedding_text
from providers.embeddings import embeddings_factory
from providers.minilm import MiniLMEmbeddings

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATA = ROOT.parent / "shared/data/ntsb/reports_2010_2016.jsonl"
BATCH = 64  # passages per embedding call, as the writer sends them


def passages(path: Path) -> tuple[list[str], float]:
    """The embedding texts of every chunk of ``path`` and the seconds parsing, enrichment and
    chunking took."""
    started = time.perf_counter()
    texts = []
    for item in load_paths([path]):
        if isinstance(item, SourceDocument):
            doc = enrich(item)
            texts.extend(embedding_text(doc, c) for c in chunk_document(doc))
    return texts, time.perf_counter() - started


async def model_seconds(embed: Embedder, texts: list[str], workers: int) -> float:
    """Seconds ``embed`` takes for ``texts`` in writer-sized batches, ``workers`` at a time
    (in one process a second batch would only queue)."""
    started = time.perf_counter()
    batches = [texts[i : i + BATCH] for i in range(0, len(texts), BATCH)]
    for start in range(0, len(batches), workers):
        await asyncio.gather(*map(embed, batches[start : start + workers]))
    return time.perf_counter() - started


def fresh_collection(settings: Settings, name: str) -> None:
    with psycopg.connect(settings.database_uri(), autocommit=True) as conn:
        conn.execute(f"DROP SCHEMA IF EXISTS {name} CASCADE")  # type: ignore[arg-type]


async def measure(
    path: Path, workers: int, texts: list[str], settings: Settings, sample_share: float
) -> dict:
    threads = threads_per_worker(workers)
    with contextlib.ExitStack() as stack:
        if workers == 1:
            embed: Embedder = in_process(MiniLMEmbeddings(threads=threads))
        else:
            pool = stack.enter_context(
                WorkerPool(embeddings_factory(settings.providers, threads=threads), workers)
            )
            await pool.warm_up()
            embed = pool
        await embed(["warm-up"])
        # The model alone on every k-th passage, half just before the ingest and half just
        # after it, so a machine whose load drifts weighs on both figures alike.
        sample = texts[:: max(1, round(1 / sample_share))]
        model_s = await model_seconds(embed, sample[: len(sample) // 2], workers)

        collection = f"bench_ingest_w{workers}"
        fresh_collection(settings, collection)
        async with open_services(settings, collection=collection) as svc:
            report = await ingest_paths(
                [path],
                svc.store,
                svc.embeddings,
                svc.archive,
                progress=False,
                embed=embed,
            )
        model_s += await model_seconds(embed, sample[len(sample) // 2 :], workers)
    model = len(sample) / model_s
    write_s = report.stage_seconds.get("parse_embed_write", report.seconds)
    return {
        "workers": workers,
        "threads_each": threads,
        "passages": len(texts),
        "model_sample": len(sample),
        "model_passages_s": round(model, 1),
        "chunks": report.chunks_added,
        "ingest_chunks_s": round(report.chunks_added / report.seconds, 1),
        "write_stage_chunks_s": round(report.chunks_added / write_s, 1),
        "ratio": round(report.chunks_added / report.seconds / model, 3),
        "stage_seconds": {k: round(v, 1) for k, v in report.stage_seconds.items()},
        "seconds": round(report.seconds, 1),
    }


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", type=Path, nargs="?", default=DEFAULT_DATA)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument(
        "--model-share",
        type=float,
        default=0.25,
        help="share of the passages the model embeds alone (every k-th passage; half just "
        "before the ingest, half just after)",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if not args.path.is_file():
        raise SystemExit(f"{args.path} not found (see ../shared/data/README.md)")
    settings = Settings.from_env()
    texts, parse_s = passages(args.path)
    print(
        f"{len(texts)} passages; parse + enrich + chunk alone: {parse_s:.1f} s "
        f"({len(texts) / parse_s:.0f} passages/s, one process)",
        flush=True,
    )
    rows = []
    for n in args.workers:
        rows.append(await measure(args.path, n, texts, settings, args.model_share))
        print(json.dumps(rows[-1]), flush=True)  # each run as it ends: a long run is readable
    if args.json:
        print(json.dumps({"parse_chunk_s": round(parse_s, 1), "runs": rows}, indent=2))
        return
    print()
    print(
        "| workers | threads each | model passages/s | ingest chunks/s (end to end) "
        "| ingest / model | parse+embed+write chunks/s | stages (s) |"
    )
    print("|---:|---:|---:|---:|---:|---:|---|")
    for r in rows:
        stages = ", ".join(f"{k} {v}" for k, v in r["stage_seconds"].items())
        print(
            f"| {r['workers']} | {r['threads_each']} | {r['model_passages_s']} "
            f"| {r['ingest_chunks_s']} | {r['ratio']:.0%} | {r['write_stage_chunks_s']} "
            f"| {stages} |"
        )


if __name__ == "__main__":
    asyncio.run(main())
