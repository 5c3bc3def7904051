"""Search cost against collection size: builds (or reuses) N-chunk collections and times them.

    python benchmarks/scale.py --chunks N [--json]          # one size, one JSON object
    python benchmarks/scale.py --table --sizes 10000,100000 # a markdown table and docs/scale.png

Collections ``scale_<N>`` live under ``$BOSUN_HOME`` (or ``DATABASE_URL``); how they are made
from the shared data, and the bulk path timed as ``ingest_chunks_per_s``, is in
benchmarks/scale_build.py. Queries are the probable-cause sentences of ``beir/ntsb_pc2narr`` dev
cut to 24 words (long) and to their first 6 words (short); their vectors are embedded once, so
every time here excludes the query embedding. Hybrid and the arms run through the product's
``tools.hybrid.retrieve`` with the store's BM25 mode (``BOSUN_BM25``, ``auto`` by default: the
compacted blocks from 20,000 chunks); ``bm25_exact_p50_ms`` is the reference BM25 that reads every
posting in SQL, ``bm25_blocks_p50_ms`` the block reader. Before anything is timed, ``--warm``
other questions fill the process's BM25 block cache (``BOSUN_BM25_CACHE_MB``) as a running
server's would be; ``bm25_blocks_uncached_p50_ms`` reads every block from the database (a cold
process), ``bm25_cache_hit_rate`` is the share of blocks the timed questions found cached.
``bm25_recall_at_100`` is the blocks top
100 against the exact one (1.0 unless they disagree), ``vector_recall_at_100`` HNSW against a
sequential scan. A collection whose segment does not match ``--bm25-block`` (or has none) is
compacted first, timed as ``bm25_compact_s``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
from langchain_core.embeddings import Embeddings
from psycopg import AsyncConnection, sql
from scale_build import ROOT, bulk_load, load_pool, pool_texts, synthesize, vessel_docs

from agent.evaluation.beir import load_queries
from agent.evaluation.metrics import percentile
from agent.settings import Settings
from agent.wiring import open_services
from archive.store.block_cache import BlockCache
from archive.store.candidates import bm25_search, dense_candidates
from archive.store.database import Store
from archive.store.lexical_blocks import BLOCK_SIZE, compact
from archive.store.search_filters import SearchFilters
from providers.embeddings import build_embeddings
from tools.hybrid import retrieve
from tools.retrieval_config import RetrievalConfig

DATA = ROOT.parent / "shared" / "data"
NONE = SearchFilters()


class CachedEmbeddings(Embeddings):
    """Query vectors looked up, so timings exclude the embedding."""

    def __init__(self, vectors: dict[str, list[float]]) -> None:
        self.vectors = vectors

    def embed_query(self, text: str) -> list[float]:
        return self.vectors[text]

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self.vectors[t] for t in texts]


def queries(count: int, skip: int = 0) -> tuple[list[str], list[str]]:
    """Long (24-word) and short (6-word) questions from pc2narr dev, after the first ``skip``."""
    texts = list(load_queries(DATA / "beir" / "ntsb_pc2narr", "dev").values())
    long = [" ".join(q.split()[:24]) for q in texts if len(q.split()) >= 24][skip : skip + count]
    return long, [" ".join(q.split()[:6]) for q in long]


async def warm(store: Store, count: int, skip: int) -> dict[str, Any]:
    """Fill the BM25 block cache as a running server's would be: ``count`` other questions
    (long and short), none of those measured."""
    long, short = queries(count, skip)
    for q in long + short:
        await bm25_search(store, q, NONE, limit=100)
    cache = store.block_cache
    cache.hits = cache.misses = 0
    return {"bm25_cache_mb": round(cache.bytes / 2**20, 1), "bm25_cache_warm_questions": count}


def query_vectors(home: Path, texts: list[str], model: Embeddings) -> dict[str, list[float]]:
    cache = home / "bench" / "scale_queries.json"
    known: dict[str, list[float]] = json.loads(cache.read_text()) if cache.is_file() else {}
    missing = [t for t in texts if t not in known]
    if missing:
        known.update(zip(missing, model.embed_documents(missing), strict=True))
        cache.parent.mkdir(parents=True, exist_ok=True)
        cache.write_text(json.dumps(known))
    return known


async def ensure(settings: Settings, store: Store, n: int, args: argparse.Namespace) -> dict:
    """Build the collection unless it holds ``n`` chunks; the build record either way."""
    async with store.pool.connection() as conn:
        cur = await conn.execute("SELECT count(*) AS n FROM chunks")
        have = (await cur.fetchone())["n"]
        cur = await conn.execute("SELECT value FROM meta WHERE key = 'scale_build'")
        row = await cur.fetchone()
    if have == n and row:
        return json.loads(row["value"])
    if have:
        raise SystemExit(f"collection {store.schema} holds {have} chunks, not {n}: drop it first")
    model = build_embeddings(settings.providers)
    vectors = load_pool(settings.home, args.pool, model.embed_documents)
    started = time.perf_counter()
    chunk_texts, chunk_vectors = synthesize(pool_texts(), vectors, n)
    bulk_vectors = None if args.bm25_only else chunk_vectors
    made = time.perf_counter() - started
    async with await AsyncConnection.connect(settings.database_uri(), autocommit=True) as conn:
        await conn.execute(sql.SQL("SET search_path TO {}, public").format(
            sql.Identifier(store.schema)))  # fmt: skip
        started = time.perf_counter()
        steps = await bulk_load(
            conn, chunk_texts, bulk_vectors, hnsw=(args.m, args.ef_construction)
        )
        seconds = time.perf_counter() - started
        record = {
            "steps_s": steps,
            "load_s": round(seconds, 1),
            "synthesize_s": round(made, 1),
            "ingest_chunks_per_s": round(n / seconds, 1),
            "hnsw": {"m": args.m, "ef_construction": args.ef_construction},
            "pool": args.pool,
        }
        await conn.execute(
            "INSERT INTO meta (key, value) VALUES ('scale_build', %s)", (json.dumps(record),)
        )
    return record


async def segment(store: Store, n: int, block_size: int) -> dict[str, float]:
    """Compact unless the segment holds the ``n`` chunks in blocks of ``block_size``."""
    async with store.pool.connection() as conn:
        cur = await conn.execute("SELECT chunks, block_size FROM bm25_segment")
        row = await cur.fetchone()
        if row is not None and (row["chunks"], row["block_size"]) == (n, block_size):
            return {}
        await conn.execute("SET work_mem = '256MB'")
        started = time.perf_counter()
        await compact(conn, block_size)
        return {"bm25_compact_s": round(time.perf_counter() - started, 1)}


async def timed(store: Store, emb: Embeddings, qs: list[str], options: RetrievalConfig) -> list:
    for q in qs[:3]:  # warm the pool's connections and caches
        await retrieve(store, emb, q, NONE, options)
    return [(await retrieve(store, emb, q, NONE, options)).timings_ms["retrieve"] for q in qs]


async def recall_bm25(store: Store, qs: list[str]) -> tuple[float, dict[str, list[float]]]:
    """Recall@100 of the blocks top 100 against the exact one; ms of each (top 100 ids only),
    and of the blocks read from the database alone (an empty cache: a cold process)."""
    recalls, mode, cache = [], store.bm25, store.block_cache
    ms: dict[str, list[float]] = {"exact": [], "blocks": [], "blocks_uncached": []}
    for q in qs:
        got = {}
        for name in ms:
            store.bm25 = "exact" if name == "exact" else "blocks"
            store.block_cache = BlockCache(0) if name == "blocks_uncached" else cache
            started = time.perf_counter()
            got[name] = {c for c, _ in await bm25_search(store, q, NONE, limit=100)}
            ms[name].append((time.perf_counter() - started) * 1000)
        exact = got["exact"]
        recalls.append(len(exact & got["blocks"]) / len(exact) if exact else 1.0)
    store.bm25, store.block_cache = mode, cache
    return float(np.mean(recalls)), ms


async def exact_nearest(store: Store, vector: list[float], limit: int, where: str = "TRUE") -> set:
    async with store.pool.connection() as conn, conn.transaction():
        await conn.execute("SET LOCAL enable_indexscan = off")
        cur = await conn.execute(
            f"SELECT chunk_id FROM chunks c WHERE {where}"  # noqa: S608 - fixed fragments
            " ORDER BY embedding <=> %s LIMIT %s",
            (np.asarray(vector, dtype=np.float32), limit),
        )
        return {r["chunk_id"] for r in await cur.fetchall()}


async def recall_vector(store: Store, emb: CachedEmbeddings, qs: list[str]) -> float:
    recalls = []
    for q in qs:
        got = await dense_candidates(store, q, emb.vectors[q], NONE, limit=100, floor=-1)
        exact = await exact_nearest(store, emb.vectors[q], 100)
        recalls.append(len(exact & {p["chunk_id"] for p in got}) / len(exact))
    return float(np.mean(recalls))


async def filtered(store: Store, emb: CachedEmbeddings, qs: list[str], n: int) -> dict:
    """A vessel filter (0.1 % of rows): rows returned for k = 10, recall, latency."""
    rows, recalls, ms = [], [], []
    for i, q in enumerate(qs):
        docs = vessel_docs(n, i % 1000)
        filters = SearchFilters(doc_ids=tuple(docs))
        started = time.perf_counter()
        got = await dense_candidates(store, q, emb.vectors[q], filters, limit=10, floor=-1)
        ms.append((time.perf_counter() - started) * 1000)
        exact = await exact_nearest(store, emb.vectors[q], 10, f"doc_id IN ({_quoted(docs)})")
        rows.append(len(got))
        recalls.append(len(exact & {p["chunk_id"] for p in got}) / max(1, len(exact)))
    return {
        "filtered_rows_min": min(rows),
        "filtered_recall_at_10": round(float(np.mean(recalls)), 4),
        "filtered_p50_ms": round(percentile(ms, 50), 2),
    }


async def filtered_hybrid(store: Store, emb: CachedEmbeddings, qs: list[str], n: int) -> dict:
    """Hybrid p50 for 24-word questions under filters matching 0.1 % (one vessel: both arms
    exact), 5 % (50 vessels: the BM25 arm from the widened block top k) and every chunk (kind)."""
    fifty = [d for v in range(50) for d in vessel_docs(n, v)]
    cases = {
        "vessel": lambda i: SearchFilters(doc_ids=tuple(vessel_docs(n, i % 1000))),
        "5pct": lambda i: SearchFilters(doc_ids=tuple(fifty)),
        "every": lambda i: SearchFilters(kinds=("scale",)),
    }
    out = {}
    for name, make in cases.items():
        ms = []
        for i, q in enumerate(qs):
            started = time.perf_counter()
            await retrieve(store, emb, q, make(i), RetrievalConfig())
            ms.append((time.perf_counter() - started) * 1000)
        out[f"filtered_{name}_hybrid_p50_ms"] = round(percentile(ms, 50), 2)
    return out


def _quoted(ids: list[str]) -> str:
    return ",".join(f"'{i}'" for i in ids if i.isalnum())


async def sizes(store: Store) -> dict[str, float]:
    mb = "pg_total_relation_size(%s::regclass) / 1048576.0"
    async with store.pool.connection() as conn:
        cur = await conn.execute(
            f"SELECT {mb} AS chunks, {mb} AS postings, {mb} AS terms,"
            " coalesce(pg_relation_size(to_regclass('chunks_embedding_hnsw')), 0) / 1048576.0"
            " AS hnsw, (pg_total_relation_size('bm25_blocks')"
            " + pg_total_relation_size('bm25_heads') + pg_total_relation_size('bm25_docnos'))"
            " / 1048576.0 AS blocks",
            ("chunks", "bm25_postings", "bm25_terms"),
        )
        row = await cur.fetchone()
    return {
        "size_total_mb": round(float(row["chunks"] + row["postings"] + row["terms"]), 1),
        "size_hnsw_mb": round(float(row["hnsw"]), 1),
        "size_bm25_mb": round(float(row["postings"] + row["terms"]), 1),
        "size_bm25_blocks_mb": round(float(row["blocks"]), 1),
    }


async def measure(settings: Settings, n: int, args: argparse.Namespace) -> dict[str, Any]:
    long, short = queries(args.queries)
    name = f"scale_{n}_bm25" if args.bm25_only else f"scale_{n}"
    async with open_services(settings, collection=name) as services:
        store = services.store
        build = await ensure(settings, store, n, args)
        if args.build_only:
            return {"chunks": n, "build": build}
        out: dict[str, Any] = {"chunks": n, "bm25_mode": store.bm25, "bm25_block": args.bm25_block}
        out.update(await segment(store, n, args.bm25_block))
        emb = CachedEmbeddings(query_vectors(settings.home, long + short, services.embeddings))
        out.update(await warm(store, args.warm, skip=args.queries))
        load = os.getloadavg()[0]
        arms = {"bm25": RetrievalConfig(dense=False)}
        if not args.bm25_only:
            arms["hybrid"] = RetrievalConfig()
            arms["vector"] = RetrievalConfig(lexical=False)
        for name, qs in (("", long), ("short_", short)):
            for arm, options in arms.items():
                ms = await timed(store, emb, qs, options)
                out[f"{name}{arm}_p50_ms"] = round(percentile(ms, 50), 2)
                out[f"{name}{arm}_p95_ms"] = round(percentile(ms, 95), 2)
        cache = store.block_cache
        out["bm25_cache_hit_rate"] = round(cache.hits / max(1, cache.hits + cache.misses), 3)
        recall, bm25_ms = await recall_bm25(store, long + short)
        out["bm25_recall_at_100"] = round(recall, 4)
        for mode, values in bm25_ms.items():
            out[f"bm25_{mode}_p50_ms"] = round(percentile(values[: len(long)], 50), 2)
            out[f"short_bm25_{mode}_p50_ms"] = round(percentile(values[len(long) :], 50), 2)
        if not args.bm25_only:
            out["vector_recall_at_100"] = round(await recall_vector(store, emb, long[:50]), 4)
            out.update(await filtered(store, emb, long[:50], n))
            out.update(await filtered_hybrid(store, emb, long[:20], n))
        out.update(await sizes(store))
        out["ingest_chunks_per_s"] = build["ingest_chunks_per_s"]
        out["build"] = build
        out["load_avg_1m"] = [round(load, 2), round(os.getloadavg()[0], 2)]
        return out


def table(results: list[dict[str, Any]]) -> str:
    keys = [
        "hybrid_p50_ms", "hybrid_p95_ms", "short_hybrid_p50_ms", "short_hybrid_p95_ms",
        "bm25_p50_ms", "bm25_p95_ms", "bm25_exact_p50_ms", "bm25_blocks_p50_ms",
        "bm25_blocks_uncached_p50_ms", "bm25_cache_hit_rate", "bm25_cache_mb",
        "short_bm25_p50_ms", "short_bm25_exact_p50_ms", "short_bm25_blocks_p50_ms",
        "vector_p50_ms", "bm25_recall_at_100", "vector_recall_at_100", "filtered_rows_min",
        "filtered_recall_at_10", "filtered_vessel_hybrid_p50_ms", "filtered_5pct_hybrid_p50_ms",
        "filtered_every_hybrid_p50_ms", "size_total_mb", "size_bm25_mb", "size_bm25_blocks_mb",
        "size_hnsw_mb", "ingest_chunks_per_s", "bm25_compact_s", "load_avg_1m",
    ]  # fmt: skip
    lines = ["| figure | " + " | ".join(f"{r['chunks']:,}" for r in results) + " |"]
    lines.append("|---|" + "---:|" * len(results))
    lines += [f"| {k} | " + " | ".join(str(r.get(k, "—")) for r in results) + " |" for k in keys]
    return "\n".join(lines)


def plot(results: list[dict[str, Any]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.5))
    for key, label in (
        ("hybrid_p50_ms", "hybrid p50 (24 words)"),
        ("hybrid_p95_ms", "hybrid p95 (24 words)"),
        ("bm25_blocks_p50_ms", "BM25 blocks p50 (24 words)"),
        ("bm25_exact_p50_ms", "BM25 exact p50 (24 words)"),
        ("vector_p50_ms", "HNSW p50"),
        ("short_hybrid_p50_ms", "hybrid p50 (6 words)"),
    ):
        points = [(r["chunks"], r[key]) for r in results if key in r]
        ax.plot(*zip(*points, strict=True), marker="o", label=label)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("chunks")
    ax.set_ylabel("ms per query (excluding the query embedding)")
    ax.set_title("Search cost against collection size (2 shared cores)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def _load(path: str) -> dict[str, Any]:
    return json.loads(Path(path).read_text())


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chunks", type=int, help="collection size")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--table", action="store_true", help="every --sizes, a table and a plot")
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--queries", type=int, default=100, help="questions per set")
    parser.add_argument("--pool", type=int, default=2000, help="passages embedded once (vectors)")
    parser.add_argument(
        "--warm", type=int, default=200, help="other questions run first (the BM25 block cache)"
    )
    parser.add_argument("--m", type=int, default=16, help="HNSW m of a new build")
    parser.add_argument("--ef-construction", type=int, default=64)
    parser.add_argument("--build-only", action="store_true", help="build, measure nothing")
    parser.add_argument(
        "--bm25-block", type=int, default=BLOCK_SIZE, help="postings per BM25 block (compaction)"
    )
    parser.add_argument(
        "--bm25-only", action="store_true", help="collection scale_<N>_bm25: no vectors, no HNSW"
    )
    parser.add_argument("--results", help="table and plot from saved --json outputs (a,b,...)")
    parser.add_argument("--plot", type=Path, default=ROOT / "docs" / "scale.png")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(message)s")
    logging.getLogger("httpx").setLevel(logging.WARNING)
    settings = Settings.from_env()
    if args.table or args.results:
        if args.results:
            results = [_load(f) for f in args.results.split(",")]
        else:
            results = [await measure(settings, int(n), args) for n in args.sizes.split(",")]
        print(table(results))
        (ROOT / "docs" / "scale.json").write_text(json.dumps(results, indent=1) + "\n")
        plot(results, args.plot)
        return 0
    if not args.chunks:
        parser.error("--chunks N or --table")
    result = await measure(settings, args.chunks, args)
    print(json.dumps(result) if args.json else table([result]))
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
