"""Ingest and query speed on the 6,140 NTSB reports, next to an in-memory rank_bm25 index.

    python benchmarks/retrieval_speed.py [--queries 300] [--reports PATH]

Ingests ``../shared/data/ntsb/reports_2010_2016.jsonl`` through the product pipeline into the
collection ``bench_ntsb`` (once; the ingest figures of that run are kept next to the run log and
reprinted later), then times BM25-only, vector-only and hybrid retrieval on the probable-cause
sentences of ``beir/ntsb_pc2narr`` (long queries, 20-40 terms) and on their first six words (short
queries). Retrieval time excludes the query embedding, which is reported on its own. The seed's
approach — ``rank_bm25.BM25Okapi`` built in memory over the same chunks — is timed alongside.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import re
import sys
import time
from pathlib import Path

import numpy as np
from rank_bm25 import BM25Okapi
from render import Table, emit

from agent.evaluation.beir import load_queries
from agent.evaluation.collections import document_count
from agent.evaluation.metrics import percentile
from agent.settings import Settings
from agent.wiring import open_services
from archive.ingest.loaders.ntsb import load_records
from archive.ingest.model import LoadError
from archive.ingest.pipeline import ingest_documents
from archive.store.search_filters import SearchFilters
from tools.hybrid import retrieve
from tools.retrieval_config import RetrievalConfig

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
COLLECTION = "bench_ntsb"
_TOKEN = re.compile(r"\w+")


def tokenize(text: str) -> list[str]:
    return _TOKEN.findall(text.lower())


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reports", type=Path, default=DATA / "ntsb" / "reports_2010_2016.jsonl")
    parser.add_argument("--queries", type=int, default=300, help="queries per set")
    parser.add_argument("--candidates", type=int, default=100)
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    if not args.reports.is_file():
        print(f"skipped: {args.reports} is absent", file=sys.stderr)
        return 0
    settings = Settings.from_env()
    long_queries = list(load_queries(DATA / "beir" / "ntsb_pc2narr", "dev").values())
    long_queries = long_queries[: args.queries]
    short_queries = [" ".join(q.split()[:6]) for q in long_queries]
    ingest_log = settings.home / "bench" / f"{COLLECTION}_ingest.json"
    reports = [d for d in load_records(args.reports) if not isinstance(d, LoadError)]

    async with open_services(settings, collection=COLLECTION) as services:
        if await document_count(services.store) < len(reports):
            print(f"ingesting {len(reports)} reports into {COLLECTION} ...", file=sys.stderr)
            report = await ingest_documents(
                reports,
                services.store,
                services.embeddings,
                services.archive,
                progress=sys.stderr.isatty(),
            )
            ingest_log.parent.mkdir(parents=True, exist_ok=True)
            ingest_log.write_text(
                json.dumps(
                    {
                        "documents": report.added + report.updated,
                        "chunks": report.chunks_added,
                        "seconds": report.seconds,
                    }
                )
            )
        async with services.store.pool.connection() as conn:
            cur = await conn.execute(
                "SELECT chunk_id, title, content FROM chunks ORDER BY chunk_id"
            )
            chunks = await cur.fetchall()

        timings: dict[str, dict[str, list[float]]] = {}
        modes = {
            "bm25": RetrievalConfig(dense=False, arm_rows=args.candidates),
            "vector": RetrievalConfig(lexical=False, arm_rows=args.candidates),
            "hybrid": RetrievalConfig(arm_rows=args.candidates),
        }
        for name, queries in (("long", long_queries), ("short", short_queries)):
            for mode, options in modes.items():
                for q in queries[:5]:  # warm caches and the connection pool
                    await retrieve(services.store, services.embeddings, q, SearchFilters(), options)
                key = f"{mode} / {name}"
                timings[key] = {"retrieve": [], "embed": [], "bm25": [], "vector": []}
                for q in queries:
                    got = await retrieve(
                        services.store, services.embeddings, q, SearchFilters(), options
                    )
                    for stage, ms in got.timings_ms.items():
                        timings[key].setdefault(stage, []).append(ms)

    started = time.perf_counter()
    tokenized = [tokenize(f"{c['title']}\n{c['content']}") for c in chunks]
    index = BM25Okapi(tokenized)
    build_s = time.perf_counter() - started
    seed: dict[str, list[float]] = {}
    for name, queries in (("long", long_queries), ("short", short_queries)):
        seed[name] = []
        for q in queries:
            start = time.perf_counter()
            scores = index.get_scores(tokenize(q))
            top = np.argpartition(-scores, args.candidates)[: args.candidates]
            top[np.argsort(-scores[top])]
            seed[name].append((time.perf_counter() - start) * 1000.0)

    def row(label: str, values: list[float]) -> list[object]:
        return [
            label,
            round(percentile(values, 50), 1),
            round(percentile(values, 95), 1),
            round(float(np.mean(values)), 1),
        ]

    rows = []
    for key, stages in timings.items():
        rows.append(row(f"{key} (excl. embed)", stages["retrieve"]))
        rows += [row(f"{key}: {s} arm", stages[s]) for s in ("bm25", "vector") if stages.get(s)]
        if stages.get("embed"):
            rows.append(row(f"{key}: query embedding", stages["embed"]))
    rows += [row(f"rank_bm25 in memory, {name} query", values) for name, values in seed.items()]
    notes: dict[str, object] = {
        "documents": len(reports),
        "chunks": len(chunks),
        "long_query_words": round(float(np.mean([len(tokenize(q)) for q in long_queries]))),
        "rank_bm25_build_s": round(build_s, 2),
    }
    if ingest_log.is_file():
        notes["ingest"] = json.loads(ingest_log.read_text())
    command = (
        f"python benchmarks/retrieval_speed.py --queries {args.queries} "
        f"--candidates {args.candidates} --json"
    )
    table = Table("latency", ["query latency", "p50 ms", "p95 ms", "mean ms"], rows)
    emit(command, [table], as_json=args.json, **notes)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
