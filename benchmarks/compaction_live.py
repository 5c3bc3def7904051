"""Searches while the BM25 segment is rebuilt: how long compaction takes and what it costs them.

    python benchmarks/compaction_live.py scale_1000000 [--block 1024]

Compacts the collection under ``$BOSUN_HOME`` on one connection while the block reader answers
the scale benchmark's 24-word questions (benchmarks/scale.py) in a loop on the store's pool;
prints the compaction's seconds and the questions' count, p50 and longest wait during it.
"""

from __future__ import annotations

import argparse
import asyncio
import time

from psycopg import AsyncConnection, sql
from render import Table, emit
from scale import NONE, queries

from agent.evaluation.metrics import percentile
from agent.settings import Settings
from agent.wiring import open_services
from archive.store.candidates import bm25_search
from archive.store.lexical_blocks import BLOCK_SIZE, compact


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("collection")
    parser.add_argument("--block", type=int, default=BLOCK_SIZE)
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    args = parser.parse_args()
    settings = Settings.from_env()
    long, _ = queries(200)
    async with open_services(settings, collection=args.collection) as services:
        store = services.store
        store.bm25 = "blocks"
        done = asyncio.Event()
        ms: list[float] = []

        async def rebuild() -> float:
            async with await AsyncConnection.connect(
                settings.database_uri(), autocommit=True
            ) as conn:
                await conn.execute(
                    sql.SQL("SET search_path TO {}, public").format(sql.Identifier(store.schema))
                )
                await conn.execute("SET work_mem = '256MB'")
                started = time.perf_counter()
                await compact(conn, args.block)
                seconds = time.perf_counter() - started
            done.set()
            return seconds

        async def ask() -> None:
            i = 0
            while not done.is_set():
                started = time.perf_counter()
                await bm25_search(store, long[i % len(long)], NONE, limit=100)
                ms.append((time.perf_counter() - started) * 1000)
                i += 1

        seconds, _ = await asyncio.gather(rebuild(), ask())
    columns = ["compaction s", "questions during it", "p50 ms", "longest ms"]
    row = [round(seconds, 1), len(ms), round(percentile(ms, 50), 1), round(max(ms), 1)]
    command = f"python benchmarks/compaction_live.py {args.collection} --block {args.block} --json"
    emit(command, [Table("compaction", columns, [row])], as_json=args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
