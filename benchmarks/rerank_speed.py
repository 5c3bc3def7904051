"""Reranker latency: 40 candidates per query, real NTSB narratives cut into 1,000-character chunks.

Prints a table of p50 / p95 milliseconds per rerank call:

- ``features + candidates`` — the offline default as the graph calls it (retrieval scores given);
- ``features, embeds docs`` — without candidates: the local MiniLM embeds the query and 40 chunks;
- ``features, cosines given`` — the features alone with precomputed cosines (no embedding).

Run with 2 threads to match a laptop: ``OMP_NUM_THREADS=2 python benchmarks/rerank_speed.py``.
Reads ``../shared/data/ntsb/reports_2010_2016.jsonl``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from render import Table, emit  # noqa: E402

from agent.settings import Settings  # noqa: E402
from providers.rerankers import rerank_text  # noqa: E402
from providers.rerankers.learned import FeatureReranker  # noqa: E402

REPORTS = ROOT.parent / "shared" / "data" / "ntsb" / "reports_2010_2016.jsonl"


def load(n_queries: int, k: int, seed: int) -> list[tuple[str, list[dict[str, Any]]]]:
    """Queries (probable causes) each with ``k`` chunk candidates drawn from other reports."""
    if not REPORTS.is_file():
        raise SystemExit(f"{REPORTS} is missing (the shared data folder is needed)")
    reports = [json.loads(line) for line in REPORTS.open() if line.strip()]
    rng = random.Random(seed)
    runs = []
    for _ in range(n_queries):
        query = rng.choice(reports)["probable_cause"] or "loss of engine power"
        candidates = []
        for report in rng.sample(reports, k):
            text = report["narrative"] or ""
            start = rng.randrange(max(len(text) - 1000, 1))
            title = f"{report['ntsb_no']} {report['event_date']} {report['city']}"
            candidates.append(
                {
                    "doc_id": report["ntsb_no"],
                    "source_id": report["ntsb_no"],
                    "title": title,
                    "subject": None,
                    "text": text[start : start + 1000],
                    "bm25": rng.uniform(0, 30),
                    "cosine": rng.uniform(0.1, 0.7),
                    "score": rng.random(),
                }
            )
        candidates.sort(key=lambda c: -c["score"])
        runs.append((query, candidates))
    return runs


def time_calls(fn, runs) -> tuple[list[float], list[float]]:  # type: ignore[no-untyped-def]
    """Wall-clock and CPU milliseconds per call (CPU time is what a busy machine cannot inflate)."""
    wall, cpu = [], []
    for query, candidates in runs:
        start, start_cpu = time.perf_counter(), time.process_time()
        fn(query, candidates)
        wall.append((time.perf_counter() - start) * 1000.0)
        cpu.append((time.process_time() - start_cpu) * 1000.0)
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--k", type=int, default=40)
    parser.add_argument(
        "--embed-queries",
        type=int,
        default=5,
        help="queries for the slow path that embeds every document",
    )
    parser.add_argument("--no-embeddings", action="store_true", help="skip the MiniLM row")
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    args = parser.parse_args()

    runs = load(args.queries, args.k, seed=7)
    reranker = FeatureReranker()
    rows: list[tuple[str, int, tuple[list[float], list[float]]]] = []

    def with_candidates(query: str, candidates: list[dict[str, Any]]) -> None:
        docs = [rerank_text(c) for c in candidates]
        asyncio.run(reranker.rerank(query, docs, candidates=candidates))  # type: ignore[arg-type]

    def cosines_given(query: str, candidates: list[dict[str, Any]]) -> None:
        docs = [rerank_text(c) for c in candidates]
        reranker.score(query, docs, cosines=[c["cosine"] for c in candidates])

    time_calls(with_candidates, runs[:5])  # warm caches
    rows.append(("features + candidates", args.k, time_calls(with_candidates, runs)))
    rows.append(("features, cosines given", args.k, time_calls(cosines_given, runs)))

    if not args.no_embeddings:
        try:
            from providers.embeddings import build_embeddings

            embedder = FeatureReranker(
                build_embeddings(Settings.from_env({"BOSUN_HOME": "/tmp"}).providers)
            )
        except Exception as err:  # the benchmark reports what it could not measure
            print(f"(local embeddings unavailable: {type(err).__name__}: {err})", file=sys.stderr)
        else:

            def embeds_docs(query: str, candidates: list[dict[str, Any]]) -> None:
                docs = [rerank_text(c) for c in candidates]
                asyncio.run(embedder.rerank(query, docs))

            time_calls(embeds_docs, runs[:1])
            rows.append(
                (
                    "features, embeds docs (MiniLM)",
                    args.k,
                    time_calls(embeds_docs, runs[: args.embed_queries]),
                )
            )

    table_rows = []
    for name, k, (wall, cpu) in rows:
        ordered = sorted(wall)
        p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
        table_rows.append(
            [
                name,
                k,
                len(wall),
                round(statistics.median(wall), 1),
                round(p95, 1),
                round(statistics.median(cpu), 1),
            ]
        )
    columns = ["reranker path", "candidates", "calls", "p50 ms", "p95 ms", "CPU ms p50"]
    flags = " --no-embeddings" if args.no_embeddings else ""
    command = (
        f"python benchmarks/rerank_speed.py --queries {args.queries} --k {args.k}{flags} --json"
    )
    emit(command, [Table("speed", columns, table_rows)], as_json=args.json)


if __name__ == "__main__":
    main()
