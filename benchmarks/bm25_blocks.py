"""The BM25 top 100 from the compacted blocks against the SQL statement, question by question.

    python benchmarks/bm25_blocks.py COLLECTION [--queries 40]

Runs ``bm25_search`` with ``BOSUN_BM25=exact`` (SQL, every posting) and ``blocks`` for the
scale benchmark's 24-word and 6-word questions (benchmarks/scale.py) on a compacted collection
under ``$BOSUN_HOME``; prints p50 of each, p95 of blocks, and how many rankings differ (ids in
order, scores within 1e-9).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time

from render import Table, emit
from scale import queries

from agent.evaluation.metrics import percentile
from agent.settings import Settings
from agent.wiring import open_services
from archive.store.candidates import bm25_search
from archive.store.search_filters import SearchFilters


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("collection")
    parser.add_argument("--queries", type=int, default=40, help="questions per set")
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    args = parser.parse_args()
    long, short = queries(args.queries)
    rows = []
    async with open_services(Settings.from_env(), collection=args.collection) as services:
        store = services.store
        for label, qs in (("24 words", long), ("6 words", short)):
            ms: dict[str, list[float]] = {"exact": [], "blocks": []}
            differ = 0
            for q in qs:
                got = {}
                for mode in ("exact", "blocks"):
                    store.bm25 = mode
                    started = time.perf_counter()
                    got[mode] = await bm25_search(store, q, SearchFilters(), limit=100)
                    ms[mode].append((time.perf_counter() - started) * 1000)
                exact, blocks = got["exact"], got["blocks"]
                same = [c for c, _ in exact] == [c for c, _ in blocks] and all(
                    abs(a[1] - b[1]) <= 1e-9 for a, b in zip(exact, blocks, strict=True)
                )
                differ += not same
            rows.append(
                [
                    f"{label} ({len(qs)})",
                    round(percentile(ms["exact"], 50), 1),
                    round(percentile(ms["blocks"], 50), 1),
                    round(percentile(ms["blocks"], 95), 1),
                    differ,
                ]
            )
    columns = [
        "questions",
        "exact p50 ms",
        "blocks p50 ms",
        "blocks p95 ms",
        "rankings that differ",
    ]
    command = f"python benchmarks/bm25_blocks.py {args.collection} --queries {args.queries} --json"
    emit(command, [Table("blocks", columns, rows)], as_json=args.json)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
