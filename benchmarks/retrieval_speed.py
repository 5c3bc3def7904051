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

from agent.evaluation.beir import load_queries
from agent.evaluation.harness import document_count
from agent.evaluation.metrics import percentile
from agent.ingest.model import LoadError
from agent.ingest.ntsb import load_records
from agent.ingest.pipeline import ingest_documents
from agent.services import Services, open_services
from agent.settings import Settings
from agent.store.filters import SearchFilters
from agent.store.lexical import bm25_search
from agent.store.passages import fetch_passages
from agent.store.vectors import vector_search
from tools.hybrid import RetrievalOptions, retrieve

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
COLLECTION = "bench_ntsb"
_TOKEN = re.compile(r"\w+")

# The SELECT of agent.store.passages.fetch_passages, to time it with binary transfer as well.
_PASSAGES = """SELECT c.chunk_id, c.doc_id, c.kind, c.source_id, c.title, c.content, c.section,
       c.page, c.date, c.sender, d.subject, c.thread_id, c.vessel_name, c.imo, c.report_no,
       d.archive_path, d.embedding_mode, d.summary, c.embedding
FROM chunks c JOIN documents d USING (doc_id) WHERE c.chunk_id = ANY(%s)"""


async def fetch_formats(services: Services, queries: list[str], candidates: int) -> dict:
    """Time fetching each query's hybrid candidate set (both arms' top rows) with its vectors:
    fetch_passages as it is (text transfer) and the same SELECT in binary transfer."""
    times: dict[str, list[float]] = {"text (fetch_passages)": [], "binary": [], "rows": []}
    for q in queries:
        vector = services.embeddings.embed_query(q)
        lexical = await bm25_search(services.store, q, SearchFilters(), limit=candidates)
        dense = await vector_search(services.store, vector, SearchFilters(), limit=candidates)
        ids = list({c for c, _ in lexical} | {c for c, _ in dense})
        start = time.perf_counter()
        await fetch_passages(services.store, ids)
        times["text (fetch_passages)"].append((time.perf_counter() - start) * 1000.0)
        async with services.store.pool.connection() as conn:
            start = time.perf_counter()
            async with conn.cursor(binary=True) as cur:
                await cur.execute(_PASSAGES, (ids,))
                await cur.fetchall()
            times["binary"].append((time.perf_counter() - start) * 1000.0)
        times["rows"].append(float(len(ids)))
    return times


def tokenize(text: str) -> list[str]:
    return _TOKEN.findall(text.lower())


def stats(values: list[float]) -> str:
    return f"{percentile(values, 50):>9.2f}{percentile(values, 95):>9.2f}{np.mean(values):>9.2f}"


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reports", type=Path, default=DATA / "ntsb" / "reports_2010_2016.jsonl")
    parser.add_argument("--queries", type=int, default=300, help="queries per set")
    parser.add_argument("--candidates", type=int, default=100)
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
                reports, services.store, services.embeddings, services.archive,
                progress=sys.stderr.isatty(),
            )  # fmt: skip
            ingest_log.parent.mkdir(parents=True, exist_ok=True)
            ingest_log.write_text(json.dumps({
                "documents": report.added + report.updated, "chunks": report.chunks_added,
                "seconds": report.seconds,
            }))  # fmt: skip
        async with services.store.pool.connection() as conn:
            cur = await conn.execute(
                "SELECT chunk_id, title, content FROM chunks ORDER BY chunk_id"
            )
            chunks = await cur.fetchall()

        timings: dict[str, dict[str, list[float]]] = {}
        modes = {
            "bm25": RetrievalOptions(dense=False, candidates=args.candidates),
            "vector": RetrievalOptions(lexical=False, candidates=args.candidates),
            "hybrid": RetrievalOptions(candidates=args.candidates),
        }
        for name, queries in (("long", long_queries), ("short", short_queries)):
            for mode, options in modes.items():
                for q in queries[:5]:  # warm caches and the connection pool
                    await retrieve(services.store, services.embeddings, q, SearchFilters(), options)
                key = f"{mode} / {name}"
                timings[key] = {"retrieve": [], "embed": [], "bm25": [], "vector": []}
                for q in queries:
                    got = await retrieve(services.store, services.embeddings, q, SearchFilters(),
                                         options)  # fmt: skip
                    for stage, ms in got.timings_ms.items():
                        timings[key].setdefault(stage, []).append(ms)
        fetch = await fetch_formats(services, long_queries[:100], args.candidates)

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

    terms_long = np.mean([len(tokenize(q)) for q in long_queries])
    print(f"NTSB reports: {len(reports)} documents, {len(chunks)} chunks in {COLLECTION}; "
          f"{len(long_queries)} long queries ({terms_long:.0f} words avg) and their "
          f"first 6 words; {args.candidates} candidates per arm\n")  # fmt: skip
    if ingest_log.is_file():
        log = json.loads(ingest_log.read_text())
        print("ingest (product pipeline: chunk, embed locally, store, BM25 postings by trigger)")
        print(f"  {log['documents']} documents, {log['chunks']} chunks in {log['seconds']:.0f} s:"
              f" {log['chunks'] / log['seconds']:.1f} chunks/s\n")  # fmt: skip
    print(f"{'query latency, ms':<28}{'p50':>9}{'p95':>9}{'mean':>9}")
    for key, stages in timings.items():
        print(f"{key + ' (excl. embed)':<28}{stats(stages['retrieve'])}")
        for stage in ("bm25", "vector"):
            if stages.get(stage):
                print(f"{'  ' + stage + ' arm':<28}{stats(stages[stage])}")
        if stages.get("embed"):
            print(f"{'  query embedding':<28}{stats(stages['embed'])}")
    rows = np.mean(fetch.pop("rows"))
    print(
        f"\nfetching the hybrid candidates with their vectors ({rows:.0f} rows avg, long queries)"
    )
    for name, values in fetch.items():
        print(f"{'  ' + name:<28}{stats(values)}")
    print(f"\nrank_bm25.BM25Okapi in memory over the same {len(chunks)} chunks"
          f" (lowercase \\w+ tokens)")  # fmt: skip
    print(f"  build {build_s:.2f} s")
    for name, values in seed.items():
        print(f"{'  query / ' + name:<28}{stats(values)}")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
