"""The block reader's tuning constants, compared side by side in one process.

    python benchmarks/bm25_block_params.py scale_1000000 SHRINK_ROUND 8,16,32,1000 [--queries 80]

For each 24-word question of the scale benchmark (benchmarks/scale.py): one discarded run, then
one run per value of ``archive.store.block_topk.NAME``, the order rotated question by question,
so no value always runs first (the first run of a question pays for its cold lookups). The BM25
block cache is warmed by ``--warm`` other questions first. Prints p50 / p95 / mean per value.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import time

from scale import NONE, queries, warm

from agent.evaluation.metrics import percentile
from agent.settings import Settings
from agent.wiring import open_services
from archive.store import block_topk
from archive.store.candidates import bm25_search

NAMES = ("LOOKUPS", "POOL_MOST", "SHRINK_ROUND")


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("collection")
    parser.add_argument("name", choices=NAMES)
    parser.add_argument("values", help="comma-separated whole numbers")
    parser.add_argument("--queries", type=int, default=80)
    parser.add_argument("--warm", type=int, default=200)
    args = parser.parse_args()
    values = [int(v) for v in args.values.split(",")]
    long, _ = queries(args.queries)
    settings = Settings.from_env()
    async with open_services(settings, collection=args.collection) as services:
        store = services.store
        await warm(store, args.warm, skip=args.queries)
        ms: dict[int, list[float]] = {v: [] for v in values}
        for i, question in enumerate(long):
            await bm25_search(store, question, NONE, limit=100)
            for value in values[i % len(values) :] + values[: i % len(values)]:
                setattr(block_topk, args.name, value)
                started = time.perf_counter()
                await bm25_search(store, question, NONE, limit=100)
                ms[value].append((time.perf_counter() - started) * 1000)
    print(f"| {args.name} | p50 ms | p95 ms | mean ms |\n|---:|---:|---:|---:|")
    for value, times in ms.items():
        print(
            f"| {value} | {percentile(times, 50):.1f} | {percentile(times, 95):.1f}"
            f" | {sum(times) / len(times):.1f} |"
        )
    print(f"\n{len(long)} questions, load average {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
